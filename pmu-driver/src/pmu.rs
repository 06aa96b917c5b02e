//! The driver: discovery, counter allocation, configuration and 64-bit totals.
use armreg_rt::{Layout, Value};
use core::sync::atomic::{AtomicU32, Ordering::SeqCst};

use arm_pmuv3::PmCounterMask;

use crate::backend::{Registers, UserAccess, UserAccessControl};
use crate::counter::{Counter, CounterKind, Slot, CYCLE_INDEX};
use crate::event::Support;
use crate::{word, Error, Event, EventSet, Filter, PmuVersion};

/// What [`Pmu::new`] found out about the PMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmuInfo {
    /// The architecture version.
    pub version: PmuVersion,
    /// The number of event counters this exception level sees.
    pub counters: u8,
    /// The common events the PMU counts, or `None` when it cannot say (an Armv7 PMU): then every
    /// event number is accepted.
    pub events: Option<EventSet>,
    /// The width of the cycle counter as the back end reaches it (the driver sets PMCR.LC to it).
    pub cycle_counter_bits: u32,
}

/// A PMU driven through the back end `R`.
///
/// Every method takes `&self` and keeps its state in atomics, so one `Pmu` can be shared by the
/// code that counts and the PMU interrupt handler that extends the counts
/// ([`on_overflow`](Self::on_overflow)). Configuration calls (allocate, preset, sample periods)
/// are meant for one context at a time.
pub struct Pmu<R: Registers> {
    pub(crate) regs: R,
    info: PmuInfo,
    /// Bit n: event counter n is allocated; bit 31: the cycle counter.
    in_use: AtomicU32,
    /// Bit k: counters k and k + 1 form a chained pair.
    chained: AtomicU32,
    /// Bit n: counter n reloads after each overflow and records a sample.
    pub(crate) sampling: AtomicU32,
    /// Incremented by the overflow handler, so that a reader can tell it ran in between.
    pub(crate) seq: AtomicU32,
    pub(crate) slots: [Slot; 32],
}

impl<R: Registers> Pmu<R> {
    /// Discovers the PMU (version, number of counters, supported events) and puts it in a known
    /// state: stopped (PMCR.E = 0), every counter reset, disabled and without overflow interrupt,
    /// overflow flags clear, PMCR.LC matching the back end's cycle-counter width.
    pub fn new(regs: R) -> Result<Self, Error> {
        let version = regs.version();
        if !version.is_architected() {
            return Err(Error::NoPmu);
        }
        let info = PmuInfo {
            version,
            counters: regs.counter_count().min(31),
            events: regs.common_events(),
            cycle_counter_bits: regs.cycle_counter_bits(),
        };
        let pmu = Self {
            regs,
            info,
            in_use: AtomicU32::new(0),
            chained: AtomicU32::new(0),
            sampling: AtomicU32::new(0),
            seq: AtomicU32::new(0),
            slots: [const { Slot::new() }; 32],
        };
        let all = pmu.implemented_mask();
        pmu.regs.disable_counters(all);
        pmu.regs.disable_interrupts(all);
        pmu.regs.set_control(
            pmu.regs
                .control()
                .with(arm_pmuv3::Pmcr::E, false)
                .with(arm_pmuv3::Pmcr::P, true)
                .with(arm_pmuv3::Pmcr::C, true)
                .with(arm_pmuv3::Pmcr::D, false)
                .with(arm_pmuv3::Pmcr::X, false)
                .with(arm_pmuv3::Pmcr::DP, false)
                .with(arm_pmuv3::Pmcr::LP, false)
                .with(arm_pmuv3::Pmcr::LC, info.cycle_counter_bits == 64),
        );
        pmu.regs.clear_overflow_flags(all);
        Ok(pmu)
    }

    /// The software state of counter `index` (31: the cycle counter). Indices come from
    /// allocated counters and are below 32; the mask makes that evident, so no bounds check (and
    /// no panic path) is generated.
    pub(crate) fn slot(&self, index: u8) -> &Slot {
        &self.slots[usize::from(index) % 32]
    }

    /// What discovery found.
    pub fn info(&self) -> PmuInfo {
        self.info
    }

    /// The back end.
    pub fn registers(&self) -> &R {
        &self.regs
    }

    /// Every counter this exception level sees, and the cycle counter.
    fn implemented_mask(&self) -> Value<PmCounterMask> {
        let events = (1u32 << self.info.counters) - 1;
        PmCounterMask::from_bits_retain(events | 1 << CYCLE_INDEX)
    }

    /// Whether the PMU counts `event`. Events PMCEID does not describe, and every event on a PMU
    /// that has no PMCEID, are accepted ([`Pmu::support`] tells them apart).
    pub fn check_event(&self, event: Event) -> Result<(), Error> {
        match self.info.events.map(|set| set.support(event)) {
            Some(Support::NotCounted) => Err(Error::UnsupportedEvent(event)),
            _ => Ok(()),
        }
    }

    /// What PMCEID says of `event`: [`Support::NotDescribed`] on a PMU without PMCEID (an Armv7
    /// PMU) and for implementation-defined events, whose counts the PMU cannot vouch for.
    pub fn support(&self, event: impl Into<Event>) -> Support {
        let event = event.into();
        self.info
            .events
            .map_or(Support::NotDescribed, |set| set.support(event))
    }

    /// Marks `bits` allocated if none of them is. A compare-exchange loop: `fetch_update` is
    /// deprecated on newer toolchains and its replacement is newer than the crate's MSRV.
    fn claim(&self, bits: u32) -> bool {
        let mut current = self.in_use.load(SeqCst);
        while current & bits == 0 {
            match self
                .in_use
                .compare_exchange_weak(current, current | bits, SeqCst, SeqCst)
            {
                Ok(_) => return true,
                Err(now) => current = now,
            }
        }
        false
    }

    fn unclaim(&self, bits: u32) {
        self.in_use.fetch_and(!bits, SeqCst);
    }

    /// Frees the counters in `bits` (already stopped, interrupts off, flags clear).
    pub(crate) fn release_bits(&self, bits: u32) {
        self.sampling.fetch_and(!bits, SeqCst);
        self.unclaim(bits);
    }

    /// Allocates the lowest free event counter to count `event` where `filter` says.
    /// The counter starts stopped, at zero, with its overflow interrupt enabled.
    pub fn allocate(&self, event: impl Into<Event>, filter: Filter) -> Result<Counter, Error> {
        let event = event.into();
        self.check_event(event)?;
        let index = (0..self.info.counters)
            .find(|&n| self.claim(1 << n))
            .ok_or(Error::NoFreeCounter)?;
        self.configure_event(index, event, filter)
    }

    /// Allocates event counter `index` to count `event` where `filter` says.
    pub fn allocate_at(
        &self,
        index: usize,
        event: impl Into<Event>,
        filter: Filter,
    ) -> Result<Counter, Error> {
        let event = event.into();
        let slot = match u8::try_from(index) {
            Ok(slot) if slot < self.info.counters => slot,
            _ => {
                return Err(Error::CounterOutOfRange {
                    index,
                    count: usize::from(self.info.counters),
                })
            }
        };
        self.check_event(event)?;
        if !self.claim(1 << slot) {
            return Err(Error::NoFreeCounter);
        }
        self.configure_event(slot, event, filter)
    }

    /// Programs a claimed counter; gives the claim back if the back end refuses the index.
    fn configure_event(&self, index: u8, event: Event, filter: Filter) -> Result<Counter, Error> {
        let counter = Counter {
            kind: CounterKind::Event,
            index,
        };
        if let Err(e) = self.program(&counter, event, filter) {
            self.unclaim(counter.mask());
            return Err(e);
        }
        self.regs
            .enable_interrupts(PmCounterMask::from_bits_retain(counter.mask()));
        Ok(counter)
    }

    /// Points an allocated event counter at `event` where `filter` says: stopped, at zero, its
    /// overflow flag clear (multiplexing moves counters from event to event with it).
    pub(crate) fn program(
        &self,
        counter: &Counter,
        event: Event,
        filter: Filter,
    ) -> Result<(), Error> {
        let n = usize::from(counter.index);
        let bit = PmCounterMask::from_bits_retain(counter.mask());
        self.regs.disable_counters(bit);
        self.regs
            .set_event_type(n, filter.event_type(event))
            .and_then(|()| self.regs.set_event_count(n, 0))
            .map_err(|e| Error::CounterOutOfRange {
                index: e.index,
                count: e.count,
            })?;
        self.regs.clear_overflow_flags(bit);
        self.slot(counter.index).reset(0, 0, 0);
        Ok(())
    }

    /// Allocates an even/odd pair of event counters chained into one 64-bit hardware counter: the
    /// even one counts `event`, the odd one the CHAIN event (its overflows). Needs a PMU that
    /// reports CHAIN in PMCEID0.
    pub fn allocate_chained(
        &self,
        event: impl Into<Event>,
        filter: Filter,
    ) -> Result<Counter, Error> {
        let event = event.into();
        if !self
            .info
            .events
            .is_some_and(|set| set.contains(Event::CHAIN))
        {
            return Err(Error::UnsupportedEvent(Event::CHAIN));
        }
        self.check_event(event)?;
        let low = (0..self.info.counters.saturating_sub(1))
            .step_by(2)
            .find(|&k| self.claim(0b11 << k))
            .ok_or(Error::NoFreeCounter)?;
        let counter = Counter {
            kind: CounterKind::Chained,
            index: low,
        };
        let (lo, hi) = (usize::from(low), usize::from(low) + 1);
        let pair = PmCounterMask::from_bits_retain(counter.mask());
        self.regs.disable_counters(pair);
        self.regs.disable_interrupts(pair);
        let programmed = self
            .regs
            .set_event_type(lo, filter.event_type(event))
            .and_then(|()| {
                self.regs
                    .set_event_type(hi, filter.event_type(Event::CHAIN))
            })
            .and_then(|()| self.regs.set_event_count(lo, 0))
            .and_then(|()| self.regs.set_event_count(hi, 0));
        if let Err(e) = programmed {
            self.unclaim(counter.mask());
            return Err(Error::CounterOutOfRange {
                index: e.index,
                count: e.count,
            });
        }
        self.regs.clear_overflow_flags(pair);
        self.slot(low).reset(0, 0, 0);
        self.chained.fetch_or(1 << low, SeqCst);
        // Only the high half's overflow (at 2^64) interrupts; the low half's feeds CHAIN.
        self.regs
            .enable_interrupts(PmCounterMask::from_bits_retain(counter.overflow_bit()));
        Ok(counter)
    }

    /// Allocates the cycle counter, counting where `filter` says.
    pub fn allocate_cycles(&self, filter: Filter) -> Result<Counter, Error> {
        if self.info.cycle_counter_bits == 0 {
            return Err(Error::NoCycleCounter);
        }
        let counter = Counter {
            kind: CounterKind::Cycles,
            index: CYCLE_INDEX,
        };
        if !self.claim(counter.mask()) {
            return Err(Error::NoFreeCounter);
        }
        let bit = PmCounterMask::from_bits_retain(counter.mask());
        self.regs.disable_counters(bit);
        self.regs.set_cycle_filter(filter.cycle_filter());
        self.regs.set_cycle_count(0);
        self.regs.clear_overflow_flags(bit);
        self.slot(CYCLE_INDEX).reset(0, 0, 0);
        self.regs.enable_interrupts(bit);
        Ok(counter)
    }

    /// Stops the counter, disables its interrupt and makes it free again.
    pub fn release(&self, counter: Counter) {
        let mask = PmCounterMask::from_bits_retain(counter.mask());
        self.regs.disable_counters(mask);
        self.regs.disable_interrupts(mask);
        self.regs.clear_overflow_flags(mask);
        self.sampling.fetch_and(!counter.mask(), SeqCst);
        if counter.kind == CounterKind::Chained {
            self.chained.fetch_and(!(1 << counter.index), SeqCst);
        }
        self.unclaim(counter.mask());
    }

    /// Starts the counter (it counts while the PMU is started too).
    pub fn enable(&self, counter: &Counter) {
        self.regs
            .enable_counters(PmCounterMask::from_bits_retain(counter.mask()));
    }

    /// Stops the counter.
    pub fn disable(&self, counter: &Counter) {
        self.regs
            .disable_counters(PmCounterMask::from_bits_retain(counter.mask()));
    }

    /// Starts the PMU: PMCR.E = 1. Enabled counters count from here.
    pub fn start(&self) {
        self.regs
            .set_control(self.regs.control().with(arm_pmuv3::Pmcr::E, true));
    }

    /// Stops the PMU: PMCR.E = 0 freezes every event counter and the cycle counter.
    pub fn stop(&self) {
        self.regs
            .set_control(self.regs.control().with(arm_pmuv3::Pmcr::E, false));
    }

    /// Whether the PMU is started (PMCR.E).
    pub fn is_started(&self) -> bool {
        self.regs.control().get(arm_pmuv3::Pmcr::E)
    }

    /// Increments a SW_INCR counter by one (PMSWINC). Has no effect on a counter counting another
    /// event, as the architecture says.
    pub fn software_increment(&self, counter: &Counter) -> Result<(), Error> {
        match counter.kind {
            CounterKind::Cycles => Err(Error::WrongCounterKind),
            CounterKind::Event | CounterKind::Chained => {
                self.regs
                    .software_increment(PmCounterMask::from_bits_retain(1 << counter.index));
                Ok(())
            }
        }
    }

    /// Writes a 32-bit counter: event counter `index`, or the cycle counter for index 31.
    pub(crate) fn write_narrow(&self, index: u8, value: u32) {
        if index == CYCLE_INDEX {
            self.regs.set_cycle_count(u64::from(value));
        } else {
            // `index` < 31 for every allocated counter, so the back end accepts it.
            let _ = self.regs.set_event_count(usize::from(index), value);
        }
    }

    /// Reads a 32-bit counter: event counter `index`, or the low half of the cycle counter.
    pub(crate) fn read_narrow(&self, index: u8) -> u32 {
        if index == CYCLE_INDEX {
            word::low(self.regs.cycle_count())
        } else {
            // As in `write_narrow`: the index is always in range here.
            self.regs.event_count(usize::from(index)).unwrap_or(0)
        }
    }

    /// Whether this counter is 64 bits wide in hardware (no software extension).
    pub(crate) fn is_wide(&self, kind: CounterKind) -> bool {
        match kind {
            CounterKind::Chained => true,
            CounterKind::Cycles => self.info.cycle_counter_bits == 64,
            CounterKind::Event => false,
        }
    }

    /// Sets the counter's 64-bit total to `value`: the hardware counter gets its low bits (all of
    /// them for a 64-bit counter), so a value just below a multiple of 2^32 makes the next events
    /// overflow it. A sampling counter instead restarts a full period. Call it with the counter
    /// stopped.
    pub fn preset(&self, counter: &Counter, value: u64) {
        let mask = PmCounterMask::from_bits_retain(counter.mask());
        self.regs.clear_overflow_flags(mask);
        self.preset_slot(counter.kind, counter.index, value);
    }

    pub(crate) fn preset_slot(&self, kind: CounterKind, index: u8, value: u64) {
        let n = usize::from(index);
        match kind {
            CounterKind::Chained => {
                let _ = self.regs.set_event_count(n, word::low(value));
                let _ = self.regs.set_event_count(n + 1, word::high(value));
                self.slot(index).reset(0, 0, 0);
            }
            CounterKind::Cycles if self.is_wide(kind) => {
                self.regs.set_cycle_count(value);
                self.slot(index).reset(0, 0, 0);
            }
            CounterKind::Cycles | CounterKind::Event => {
                let reload = self.slot(index).reload.load(SeqCst);
                let hw = if self.sampling.load(SeqCst) & (1 << index) != 0 {
                    reload
                } else {
                    word::low(value)
                };
                self.write_narrow(index, hw);
                self.slot(index).reset(value, hw, reload);
            }
        }
    }

    /// The counter's 64-bit total.
    ///
    /// For a 32-bit counter it is a consistent snapshot of the software state (overflows already
    /// handled), the hardware count and the overflow flag (an overflow not yet handled): it is
    /// retaken if the overflow handler ran or the flag changed while it was being read. The flag is
    /// read before and after the counter because the counter can wrap in between, and because
    /// QEMU only raises the flag when the counter is read.
    pub fn read(&self, counter: &Counter) -> u64 {
        self.total(counter.kind, counter.index)
    }

    pub(crate) fn total(&self, kind: CounterKind, index: u8) -> u64 {
        let n = usize::from(index);
        match kind {
            CounterKind::Chained => loop {
                let hi = self.regs.event_count(n + 1).unwrap_or(0);
                let lo = self.regs.event_count(n).unwrap_or(0);
                if self.regs.event_count(n + 1).unwrap_or(0) == hi {
                    let hw = u64::from(hi) << 32 | u64::from(lo);
                    return self.slot(index).base.load(SeqCst).wrapping_add(hw);
                }
            },
            CounterKind::Cycles if self.is_wide(kind) => self
                .slot(index)
                .base
                .load(SeqCst)
                .wrapping_add(self.regs.cycle_count()),
            CounterKind::Cycles | CounterKind::Event => {
                let bit = 1u32 << index;
                loop {
                    let seq = self.seq.load(SeqCst);
                    let before = self.regs.overflow_flags().bits() & bit != 0;
                    let hw = self.read_narrow(index);
                    let after = self.regs.overflow_flags().bits() & bit != 0;
                    let overflows = self.slot(index).overflows.load(SeqCst);
                    if before == after && self.seq.load(SeqCst) == seq {
                        return self.slot(index).total(hw, after, overflows);
                    }
                }
            }
        }
    }

    /// The cycle counter's 64-bit total: [`Pmu::read`] of it, with the 64-bit counter's one
    /// register read inlined (what a rotation reads twice).
    #[inline]
    pub(crate) fn cycle_total(&self) -> u64 {
        if self.info.cycle_counter_bits == 64 {
            self.slot(CYCLE_INDEX)
                .base
                .load(SeqCst)
                .wrapping_add(self.regs.cycle_count())
        } else {
            self.total(CounterKind::Cycles, CYCLE_INDEX)
        }
    }

    /// What 32-bit event counter `index` counted since it held `start`, and what it holds now;
    /// its count of overflows starts again from zero. The counter is stopped and has no reload
    /// (a multiplexing session's counter): the count is its overflows since (those the handler
    /// counted, and a pending one) and the hardware count. The snapshot is retaken if the
    /// overflow handler ran in the middle of it; a pending overflow it took into account is
    /// cleared before the count of overflows is, so that the handler cannot count it again.
    #[inline]
    pub(crate) fn take_stopped_count(&self, index: u8, start: u32) -> (u64, u32) {
        let overflows = &self.slot(index).overflows;
        let bit = 1u32 << (index % 32);
        loop {
            let before = overflows.load(SeqCst);
            let pending = self.regs.overflow_flags().bits() & bit != 0;
            // `index` < 31 for every allocated counter, so the back end accepts it.
            let hw = self.regs.event_count(usize::from(index)).unwrap_or(0);
            if overflows.load(SeqCst) != before {
                continue;
            }
            if pending {
                self.regs
                    .clear_overflow_flags(PmCounterMask::from_bits_retain(bit));
            }
            overflows.store(0, SeqCst);
            let wraps = u64::from(before) + u64::from(pending);
            let count = (wraps << 32 | u64::from(hw)).wrapping_sub(u64::from(start));
            return (count, hw);
        }
    }

    /// Gives EL0 the PMU access `access` (PMUSERENR).
    pub fn set_user_access(&self, access: UserAccess)
    where
        R: UserAccessControl,
    {
        self.regs.set_user_access(access)
    }

    /// The PMU access EL0 has (PMUSERENR).
    pub fn user_access(&self) -> UserAccess
    where
        R: UserAccessControl,
    {
        self.regs.user_access()
    }

    /// Whether counter `index` is the low half of a chained pair.
    pub(crate) fn is_chained_low(&self, index: u8) -> bool {
        index < CYCLE_INDEX && self.chained.load(SeqCst) & (1 << index) != 0
    }

    /// Whether counter `index` is the high half of a chained pair.
    pub(crate) fn is_chained_high(&self, index: u8) -> bool {
        index > 0 && self.is_chained_low(index - 1)
    }

    /// The allocated counters (bit 31: the cycle counter).
    pub(crate) fn allocated(&self) -> u32 {
        self.in_use.load(SeqCst)
    }
}
