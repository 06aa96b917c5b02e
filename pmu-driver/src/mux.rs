//! "perf stat" for bare metal: any number of events counted on the PMU's few counters by
//! time-division multiplexing, with the cycle counter fixed.
//!
//! A [`Session`] takes the event counters the PMU has free and the cycle counter. Each
//! [`rotate`](Session::rotate) (from a timer interrupt, or called where the code under test
//! allows) ends the current group of events and starts the next, round-robin. Per event it keeps
//! what perf keeps: the count while it was on a counter, the time the session was enabled, and
//! the time the event was running. Time is the fixed cycle counter's. The estimate of an event
//! that was not counted the whole time is `count × enabled / running`; one counted the whole time
//! (there were enough counters) is exact. An event the PMU does not count (PMCEID says so) is
//! never scheduled, and reports no number; nor does one that was never on a counter, or one that
//! counted nothing while PMCEID cannot say whether the PMU counts it at all (an Armv7 PMU, an
//! implementation-defined event). Each event may have a filter of its own (perf's `:u`, `:k`).
//!
//! "perf stat" of a function on whatever Arm core runs it: eight events on its four to six
//! counters, found by name among the core's own events ([`crate::cpu`]), rotated between pieces
//! of the work:
//!
//! ```no_run
//! use core::fmt::Write;
//! use pmu_driver::mux::Session;
//! use pmu_driver::{cpu, Aarch64, Filter, Pmu};
//!
//! fn profile(work: impl Fn(u32), out: &mut impl Write) -> Result<(), pmu_driver::Error> {
//!     let pmu = Pmu::new(Aarch64)?;
//!     let core = cpu::detect(&Aarch64, pmu.info()); // MIDR: which core, and its events
//!     let mut events = [
//!         "INST_RETIRED", "CPU_CYCLES", "L1D_CACHE", "L1D_CACHE_REFILL",
//!         "BR_PRED", "BR_MIS_PRED", "MEM_ACCESS", "BUS_ACCESS",
//!     ]
//!     .map(|name| core.events.tracked(name)); // a name the core lacks fails Session::new
//!     let mut session = Session::new(&pmu, &mut events, Filter::EL0_EL1)?;
//!     session.start();
//!     for i in 0..100 {
//!         work(i);
//!         session.rotate(); // or from a timer interrupt
//!     }
//!     session.stop();
//!     let _ = writeln!(out, "{} ({:?})", session.report(), core.name());
//!     Ok(())
//! }
//! ```
//!
//! On a timer interrupt: the handler owns the session while the tick runs and calls `rotate`,
//! then re-arms the tick ([`Timer::start_tick`](crate::timer::Timer::start_tick) on the EL1
//! virtual timer); the work, which must not touch the session meanwhile, increments SW_INCR
//! through [`Session::increments`], which holds no session state. The QEMU tests do exactly that
//! (`tests/qemu/harness`, test `mux_timer`).
//!
//! Typed events go in directly, with their names: `track([cortex_a53::Event::CPU_CYCLES, ...])`
//! gives the array a session takes. An event counted where its own filter says rather than the
//! session's is reported with perf's suffix for where it counted (`INST_RETIRED:u`, `:k`, `:h`).
//!
//! Rotation moves the window of events on by one, so it touches one counter whatever the number
//! of events: 166 instructions on QEMU 7.2's AArch64 models and 298 on AArch32 (PMSELR for each
//! counter access), for 8, 10 or 16 events on 6 counters (`tests/qemu/harness`, test
//! `rotate_cost`; the crate's README has the figures from before, when every rotation
//! reprogrammed every counter: about 2,000 instructions). They run with every event counter stopped, and their time is left out of
//! every event's enabled time, so an estimate extrapolates only over the time the session was
//! counting; the fixed cycle counter counts them.
//!
//! A session holds its counters until it is dropped (or [`finish`](Session::finish)ed).
//!
//! Everything is in the caller's storage (`&mut [Tracked]`): no allocation, no panic.
use core::fmt;

use arm_pmuv3::{PmCounterMask, Pmevtyper};
use armreg_rt::{Layout, Value};

use crate::backend::Registers;
use crate::counter::Counter;
use crate::filter::Label;
use crate::{Error, Event, Filter, Pmu, Support};

/// One event of a session, and what the session learnt of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tracked {
    /// The event (with its name).
    pub event: Event,
    /// Where it counts, when not where the session's filter says (perf's `:u`, `:k`).
    pub filter: Option<Filter>,
    /// The name was looked up and names no event of the core: [`Session::new`] refuses it.
    unknown: Option<(&'static str, Option<&'static str>)>,
    /// The event-type register value, worked out once when the session is made.
    evtyper: Value<Pmevtyper>,
    support: Support,
    /// The filter differs from the session's: the report says where it counted.
    own_filter: bool,
    count: u64,
    running: u64,
    /// On a counter now, since the session's counting time was `on_since`.
    on_counter: bool,
    on_since: u64,
}

impl Tracked {
    /// `event`: a typed event of a core (`arm_pmu_events::cortex_a53::Event::L1D_CACHE`), an
    /// [`Event`], or a row of an event table. It is reported under its name.
    pub fn new(event: impl Into<Event>) -> Self {
        Self {
            event: event.into(),
            filter: None,
            unknown: None,
            evtyper: Pmevtyper::DEFAULT,
            support: Support::NotDescribed,
            own_filter: false,
            count: 0,
            running: 0,
            on_counter: false,
            on_since: 0,
        }
    }

    /// A name that names no event of the core (see [`crate::cpu::Events::tracked`]), with the
    /// closest name the core has: [`Session::new`] fails with [`Error::UnknownEventName`].
    pub fn unknown(name: &'static str, suggestion: Option<&'static str>) -> Self {
        let mut t = Self::new(Event::new(0));
        t.unknown = Some((name, suggestion));
        t
    }

    /// The same event counted where `filter` says rather than where the session's filter says.
    #[must_use]
    pub const fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Whether the session schedules it: every event PMCEID does not rule out.
    fn scheduled(&self) -> bool {
        self.support != Support::NotCounted
    }

    /// The event of a table row (`arm_pmu_events` or [`crate::cpu::Events`]).
    pub fn from_info(info: &arm_pmu_events::EventInfo) -> Self {
        Self::new(info)
    }

    /// What the session found, the session having counted for `enabled` cycles (every event it
    /// schedules is part of it the whole time).
    fn reading(&self, enabled: u64) -> Reading {
        let enabled = if self.scheduled() { enabled } else { 0 };
        let running = if self.on_counter {
            self.running
                .wrapping_add(enabled.saturating_sub(self.on_since))
        } else {
            self.running
        };
        let this = Self { running, ..*self };
        this.counted(enabled)
    }

    fn counted(&self, enabled: u64) -> Reading {
        let counted = if self.support == Support::NotCounted {
            Counted::NotSupported
        } else if self.running == 0 {
            Counted::NotCounted
        } else if self.count == 0 && self.support == Support::NotDescribed {
            Counted::NoneSeen
        } else if self.running >= enabled {
            Counted::Exact(self.count)
        } else {
            // count × enabled / running, rounded to the nearest, in 128 bits: no overflow for
            // any u64 operands.
            let running = u128::from(self.running);
            let scaled = (u128::from(self.count) * u128::from(enabled) + running / 2) / running;
            Counted::Scaled {
                count: self.count,
                estimate: u64::try_from(scaled).unwrap_or(u64::MAX),
            }
        };
        Reading {
            event: self.event,
            filter: self.filter.filter(|_| self.own_filter),
            counted,
            enabled,
            running: self.running,
        }
    }
}

/// The events of `events` (typed events of a core, [`Event`]s, table rows), ready for a session:
/// `Session::new(&pmu, &mut track([Event::CPU_CYCLES, Event::INST_RETIRED]), filter)`.
pub fn track<E: Into<Event>, const N: usize>(events: [E; N]) -> [Tracked; N] {
    events.map(Tracked::new)
}

/// What a session reports for one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The event, with its name.
    pub event: Event,
    /// Where it counted, when that is not where the session's filter says.
    pub filter: Option<Filter>,
    /// How it was counted.
    pub counted: Counted,
    /// Cycles the session was counting while this event was part of it.
    pub enabled: u64,
    /// Cycles this event was on a counter.
    pub running: u64,
}

impl Reading {
    /// The share of the time the event was counted, in tenths of a percent (0..=1000).
    pub fn permille(&self) -> u64 {
        match self.enabled {
            0 => 0,
            enabled => {
                let p = u128::from(self.running.min(enabled)) * 1000 / u128::from(enabled);
                u64::try_from(p).unwrap_or(1000)
            }
        }
    }

    /// The event's name with perf's suffix for where it counted (`INST_RETIRED:u`), as the
    /// report shows it.
    pub fn label(&self) -> Label {
        Label::new(self.event, self.filter)
    }
}

/// How an event was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// On a counter the whole time: the count is exact.
    Exact(u64),
    /// On a counter part of the time: `count` while counted, `estimate = count × enabled / running`.
    Scaled { count: u64, estimate: u64 },
    /// Never on a counter (the session ended before its turn).
    NotCounted,
    /// The PMU does not count it (its PMCEID bit is clear): it was never scheduled.
    NotSupported,
    /// It was on a counter and nothing was counted, and PMCEID does not say whether the PMU
    /// counts it (an Armv7 PMU without PMCEID, an implementation-defined event): a zero that may
    /// mean "not implemented" is not reported as a count.
    NoneSeen,
}

/// No event assigned to a held counter.
const IDLE: usize = usize::MAX;

/// One event counter a session holds: which, what it counts now, and its value when it started.
#[derive(Clone, Copy)]
struct Held {
    index: u8,
    /// The `events` index it counts, or [`IDLE`].
    event: usize,
    /// Its hardware value when it started counting its event: counters are not zeroed, the
    /// count is the difference.
    start: u32,
}

/// A multiplexing session over `events` on `pmu`. It holds the PMU's free event counters and its
/// cycle counter until it is dropped.
///
/// Scheduling is perf's: the events the PMU counts, in order, are a ring; as many consecutive
/// ones as there are counters count at a time, and each rotation moves the window on by one:
/// the event that has been on a counter longest gives its counter to the next one. A rotation
/// so touches one counter, whatever the number of events and counters.
#[must_use = "a session gives its counters back when dropped: keep it while it counts"]
pub struct Session<'p, 'e, R: Registers> {
    pmu: &'p Pmu<R>,
    events: &'e mut [Tracked],
    /// The event counters the session holds, lowest first (`held` of them).
    counters: [Held; 31],
    held: usize,
    /// Their PMCNTENSET bits.
    held_mask: u32,
    /// The held counters that count an event now (PMCNTENSET bits): starting and stopping the
    /// group is one register write each.
    group: Value<PmCounterMask>,
    /// The next event to put on a counter, round-robin.
    next: usize,
    /// The counter the next rotation moves on (the one whose event has counted longest).
    oldest: usize,
    /// How many events the session schedules (PMCEID does not rule them out).
    schedulable: usize,
    cycles: Counter,
    /// Cycle count when the group last started counting.
    started_at: u64,
    /// Cycles the session counted, rotations left out: its clock, by which each event's time on
    /// a counter is kept (every event it schedules is part of it all that time).
    enabled: u64,
    counting: bool,
    /// More events to schedule than counters: `rotate` moves the window on.
    rotating: bool,
    rotations: u64,
}

impl<'p, 'e, R: Registers> Session<'p, 'e, R> {
    /// A session counting `events` where `filter` says, on every event counter `pmu` has free and
    /// the cycle counter. Events PMCEID says the PMU does not count are kept out (they report
    /// [`Counted::NotSupported`]). Fails with [`Error::UnknownEventName`] for a name the core
    /// does not have, and when the cycle counter or every event counter is taken.
    pub fn new(pmu: &'p Pmu<R>, events: &'e mut [Tracked], filter: Filter) -> Result<Self, Error> {
        if let Some((name, suggestion)) = events.iter().find_map(|e| e.unknown) {
            return Err(Error::UnknownEventName { name, suggestion });
        }
        let cycles = pmu.allocate_cycles(filter)?;
        let idle = Held {
            index: 0,
            event: IDLE,
            start: 0,
        };
        let mut counters = [idle; 31];
        let mut held = 0;
        let mut held_mask = 0;
        for index in 0..usize::from(pmu.info().counters) {
            if let Ok(c) = pmu.allocate_at(index, Event::SW_INCR, filter) {
                if let Some(slot) = counters.get_mut(held) {
                    slot.index = c.index();
                    held_mask |= c.mask();
                    held += 1;
                }
            }
        }
        if held == 0 {
            pmu.release(cycles);
            return Err(Error::NoFreeCounter);
        }
        let mut schedulable = 0;
        for e in events.iter_mut() {
            let own = e.filter.unwrap_or(filter);
            *e = Tracked {
                evtyper: own.event_type(e.event),
                own_filter: own != filter,
                support: pmu
                    .info()
                    .events
                    .map_or(Support::NotDescribed, |set| set.support(e.event)),
                ..Tracked::new(e.event)
            }
            .with_filter(own);
            schedulable += usize::from(e.scheduled());
        }
        Ok(Self {
            pmu,
            events,
            counters,
            held,
            held_mask,
            group: PmCounterMask::from_bits_retain(0),
            next: 0,
            oldest: 0,
            schedulable,
            cycles,
            started_at: 0,
            enabled: 0,
            counting: false,
            rotating: false,
            rotations: 0,
        })
    }

    /// How many event counters the session rotates the events through.
    pub fn counters(&self) -> usize {
        self.held
    }

    /// How many times the session rotated.
    pub fn rotations(&self) -> u64 {
        self.rotations
    }

    /// The cycles counted since [`start`](Self::start) by the fixed cycle counter (exact).
    pub fn cycles(&self) -> u64 {
        self.pmu.read(&self.cycles)
    }

    /// The next event to put on a counter, round-robin over those PMCEID does not rule out.
    fn next_event(&mut self) -> Option<usize> {
        let len = self.events.len();
        for _ in 0..len {
            let i = self.next;
            self.next = if i + 1 >= len { 0 } else { i + 1 };
            if self.events.get(i).is_some_and(Tracked::scheduled) {
                return Some(i);
            }
        }
        None
    }

    /// Puts the next event on held counter `k` (stopped, its overflows taken), counting from
    /// `start`; updates the group.
    fn assign(&mut self, k: usize, start: u32) {
        let Some(i) = self.next_event() else { return };
        let (Some(h), Some(e)) = (self.counters.get_mut(k), self.events.get_mut(i)) else {
            return;
        };
        let bit = 1u32 << (h.index % 32);
        h.start = start;
        let programmed = self
            .pmu
            .registers()
            .set_event_type(usize::from(h.index), e.evtyper);
        if programmed.is_ok() {
            h.event = i;
            e.on_counter = true;
            e.on_since = self.enabled;
            self.group = PmCounterMask::from_bits_retain(self.group.bits() | bit);
        } else {
            h.event = IDLE;
            self.group = PmCounterMask::from_bits_retain(self.group.bits() & !bit);
        }
    }

    /// Takes held counter `k`'s event off it (the counter is stopped): its count and its time
    /// on the counter are added up. The counter's value now.
    fn retire(&mut self, k: usize) -> u32 {
        let Some(&h) = self.counters.get(k) else {
            return 0;
        };
        let (count, now) = self.pmu.take_stopped_count(h.index, h.start);
        if let Some(e) = self.events.get_mut(h.event) {
            // u64 counts and cycles do not wrap in any real session.
            e.count = e.count.wrapping_add(count);
            e.running = e
                .running
                .wrapping_add(self.enabled.saturating_sub(e.on_since));
            e.on_counter = false;
        }
        now
    }

    /// Stops the group and moves the session's clock on by the time it counted.
    fn pause(&mut self) {
        self.pmu.registers().disable_counters(self.group);
        let span = self.pmu.cycle_total().saturating_sub(self.started_at);
        self.enabled = self.enabled.wrapping_add(span);
    }

    /// Starts the group again, the session's clock from here.
    fn resume(&mut self) {
        self.started_at = self.pmu.cycle_total();
        self.pmu.registers().enable_counters(self.group);
    }

    /// Starts counting: the cycle counter and the first events, one per counter, and the PMU
    /// (PMCR.E).
    pub fn start(&mut self) {
        if self.counting {
            return;
        }
        self.rotating = self.schedulable > self.held;
        self.group = PmCounterMask::from_bits_retain(0);
        self.oldest = 0;
        for k in 0..self.held.min(self.schedulable) {
            let start = self
                .counters
                .get(k)
                .map_or(0, |h| self.pmu.take_stopped_count(h.index, 0).1);
            self.assign(k, start);
        }
        self.pmu.enable(&self.cycles);
        self.pmu.start();
        self.counting = true;
        self.resume();
    }

    /// Moves the window of events on by one: the event that has been on a counter longest gives
    /// its counter to the next event. Call it from a timer interrupt, or between pieces of the
    /// work. With no more supported events than counters, nothing moves and every count stays
    /// exact. The counters are stopped while it runs, and its time is left out of the session's.
    pub fn rotate(&mut self) {
        if !(self.counting && self.rotating) {
            return;
        }
        self.pause();
        let k = self.oldest;
        self.oldest = if k + 1 >= self.held { 0 } else { k + 1 };
        let now = self.retire(k);
        self.assign(k, now);
        self.rotations = self.rotations.wrapping_add(1);
        self.resume();
    }

    /// Increments every held counter that counts SW_INCR now (a PMSWINC write).
    pub fn software_increment(&self) {
        self.pmu.registers().software_increment(self.group);
    }

    /// Software increments for code that does not hold the session: the work, while a timer
    /// interrupt handler owns the session and rotates it.
    pub fn increments(&self) -> Increments<'p, R> {
        Increments {
            pmu: self.pmu,
            mask: PmCounterMask::from_bits_retain(self.held_mask),
        }
    }

    /// Stops counting (the last group's counts and times are added up). The readings stay.
    pub fn stop(&mut self) {
        if self.counting {
            self.pause();
            for k in 0..self.held {
                self.retire(k);
                if let Some(h) = self.counters.get_mut(k) {
                    h.event = IDLE;
                }
            }
            self.group = PmCounterMask::from_bits_retain(0);
            self.pmu.disable(&self.cycles);
            self.counting = false;
        }
    }

    /// What the session found, event by event.
    pub fn readings(&self) -> impl Iterator<Item = Reading> + '_ {
        self.events.iter().map(|e| e.reading(self.enabled))
    }

    /// The session's results as a table (`Display`), as perf stat prints them.
    pub fn report(&self) -> Report<'_> {
        Report {
            events: self.events,
            enabled: self.enabled,
            cycles: self.cycles(),
            counters: self.held,
            rotations: self.rotations,
        }
    }

    /// Stops and gives the counters back to the PMU (as dropping the session does).
    pub fn finish(self) {}
}

impl<R: Registers> Drop for Session<'_, '_, R> {
    fn drop(&mut self) {
        self.stop();
        self.pmu.release_mask(self.held_mask);
        self.pmu.release_mask(self.cycles.mask());
    }
}

/// [`Session::software_increment`] without the session: one PMSWINC write to every event counter
/// the session holds, which only the counters that count SW_INCR at that moment count. It reads
/// and changes no session state, so it may run while an interrupt handler rotates the session.
pub struct Increments<'p, R: Registers> {
    pmu: &'p Pmu<R>,
    mask: Value<PmCounterMask>,
}

impl<R: Registers> Clone for Increments<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Registers> Copy for Increments<'_, R> {}

impl<R: Registers> Increments<'_, R> {
    /// Increments the session's counters that count SW_INCR now.
    pub fn increment(&self) {
        self.pmu.registers().software_increment(self.mask);
    }
}

/// A session's results as a table.
pub struct Report<'a> {
    events: &'a [Tracked],
    enabled: u64,
    cycles: u64,
    counters: usize,
    rotations: u64,
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:>20}  {:<24} how it was counted", "count", "event")?;
        writeln!(
            f,
            "{:>20}  {:<24} exact (the cycle counter, fixed)",
            self.cycles, "cycles"
        )?;
        for e in self.events {
            let r = e.reading(self.enabled);
            let label = r.label();
            match r.counted {
                Counted::Exact(n) => writeln!(f, "{n:>20}  {label:<24} exact (100.0%)")?,
                Counted::Scaled { estimate, .. } => {
                    let p = r.permille();
                    writeln!(
                        f,
                        "{estimate:>20}  {label:<24} scaled ({}.{}% counted)",
                        p / 10,
                        p % 10
                    )?;
                }
                Counted::NotCounted => {
                    writeln!(f, "{:>20}  {label:<24} (0.0% counted)", "<not counted>")?
                }
                Counted::NotSupported => {
                    let why = crate::event::pmceid_bit(r.event);
                    let (register, bit) = why.unwrap_or((0, 0));
                    writeln!(
                        f,
                        "{:>20}  {label:<24} (not counted by this PMU: PMCEID{register} bit {bit} is clear)",
                        "<not supported>"
                    )?
                }
                Counted::NoneSeen => {
                    let p = r.permille();
                    writeln!(
                        f,
                        "{:>20}  {label:<24} ({}.{}% counted; no PMCEID bit says the PMU counts it)",
                        "<none seen>",
                        p / 10,
                        p % 10
                    )?;
                }
            }
        }
        write!(
            f,
            "{} events on {} counters, {} rotations",
            self.events.len(),
            self.counters,
            self.rotations
        )
    }
}
