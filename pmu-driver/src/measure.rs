//! Measuring a closure: cycles, instructions and chosen events over exactly its execution.
//!
//! Rather than reading every counter before and after (each read would land inside the window of
//! the counters read before it), [`Pmu::measure`] zeroes its counters while they are stopped,
//! starts them all with one PMCNTENSET write, runs the closure, stops them all with one
//! PMCNTENCLR write, and only then reads them. The window is the same for every counter and holds
//! nothing but the closure and the two writes.
//!
//! The two writes and the closure are a function of their own that is never inlined: inlined,
//! the compiler is free to schedule register moves for the code that follows (the argument set-up
//! of the reads) before the stop write, inside the window (three extra instructions on AArch32).
//! In a function of its own only the epilogue follows the stop write, and the accessors' memory
//! clobber keeps its loads behind it.
use core::fmt;

use arm_pmuv3::PmCounterMask;
use armreg_rt::{Layout, Value};

use crate::backend::Registers;
use crate::counter::{CounterKind, CYCLE_INDEX};
use crate::filter::Label;
use crate::{Error, Event, Filter, Pmu, Support};

/// The counters one measurement uses: the cycle counter, an INST_RETIRED counter and one counter
/// per extra event. Made by [`Pmu::measurer`]; it holds the counters until it is dropped.
#[must_use = "a measurer gives its counters back when dropped: keep it while you measure"]
pub struct Measurer<'p, R: Registers, const K: usize> {
    pmu: &'p Pmu<R>,
    instructions: u8,
    indices: [u8; K],
    events: [Event; K],
    support: [Support; K],
    mask: u32,
}

/// What [`Pmu::measure`] counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measurement<const K: usize> {
    /// Cycles (PMCCNTR).
    pub cycles: u64,
    /// Instructions architecturally executed (INST_RETIRED).
    pub instructions: u64,
    /// The extra events' counts, in the order given to [`Pmu::measurer`].
    pub events: [u64; K],
    /// The extra events themselves, with their names.
    pub counted: [Event; K],
    /// What PMCEID says of each extra event. [`Support::NotDescribed`]: the PMU cannot say
    /// whether it counts the event (an Armv7 PMU has no PMCEID; implementation-defined events
    /// have no PMCEID bit), so a zero may not be real.
    pub support: [Support; K],
}

impl<const K: usize> Measurement<K> {
    /// Whether the count of extra event `i` is a zero the PMU cannot vouch for: it may only mean
    /// that the PMU does not implement the event.
    pub fn unconfirmed_zero(&self, i: usize) -> bool {
        matches!(
            (self.events.get(i), self.support.get(i)),
            (Some(0), Some(Support::NotDescribed))
        )
    }
}

/// One line per count: `cycles`, `instructions`, then each event by name; a zero the PMU cannot
/// vouch for says so.
impl<const K: usize> fmt::Display for Measurement<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:>20}  cycles", self.cycles)?;
        write!(f, "{:>20}  instructions", self.instructions)?;
        for (i, (count, event)) in self.events.iter().zip(&self.counted).enumerate() {
            write!(f, "\n{count:>20}  {}", Label::new(*event, None))?;
            if self.unconfirmed_zero(i) {
                f.write_str(
                    "  (may not be real: the PMU has no PMCEID bit to say it counts this event)",
                )?;
            }
        }
        Ok(())
    }
}

impl<R: Registers> Pmu<R> {
    /// Allocates the counters for measurements of cycles, instructions and `events`, all counting
    /// where `filter` says: `[Event::L1D_CACHE_REFILL]`, or a core's typed events with their
    /// names, `[cortex_a53::Event::L1D_CACHE_REFILL.into()]`. Nothing stays allocated if one of
    /// them cannot be; the error names the event and the PMCEID bit that rules it out. The
    /// measurer gives the counters back when it is dropped.
    pub fn measurer<const K: usize>(
        &self,
        events: [Event; K],
        filter: Filter,
    ) -> Result<Measurer<'_, R, K>, Error> {
        let cycles = self.allocate_cycles(filter)?;
        let mut m = Measurer {
            pmu: self,
            instructions: 0,
            indices: [0; K],
            events,
            support: events.map(|e| {
                self.info()
                    .events
                    .map_or(Support::NotDescribed, |set| set.support(e))
            }),
            mask: cycles.mask(),
        };
        // From here on, dropping `m` on an error gives back what it holds.
        let instructions = self.allocate(Event::INST_RETIRED, filter)?;
        m.instructions = instructions.index;
        m.mask |= instructions.mask();
        for (slot, event) in m.indices.iter_mut().zip(events) {
            let c = self.allocate(event, filter)?;
            *slot = c.index;
            m.mask |= c.mask();
        }
        Ok(m)
    }

    /// Frees the measurer's counters, as dropping it does.
    pub fn release_measurer<const K: usize>(&self, m: Measurer<'_, R, K>) {
        drop(m);
    }

    /// Stops the counters in `mask`, disables their interrupts, clears their flags and frees them.
    pub(crate) fn release_mask(&self, mask: u32) {
        let bits = PmCounterMask::from_bits_retain(mask);
        self.regs.disable_counters(bits);
        self.regs.disable_interrupts(bits);
        self.regs.clear_overflow_flags(bits);
        self.release_bits(mask);
    }

    /// Runs `f` and counts what it does: [`Measurer::measure`].
    pub fn measure<T, const K: usize>(
        &self,
        m: &Measurer<'_, R, K>,
        f: impl FnOnce() -> T,
    ) -> (T, Measurement<K>) {
        m.measure(f)
    }
}

impl<R: Registers, const K: usize> Measurer<'_, R, K> {
    /// Runs `f` and counts what it does. The PMU must be started ([`Pmu::start`]).
    ///
    /// The counts include the PMCNTENCLR write that stops the counters: an empty closure measures
    /// one instruction on QEMU, as two hand-written reads around nothing do. Counts are exact
    /// across 32-bit overflows when the PMU interrupt calls [`Pmu::on_overflow`].
    pub fn measure<T>(&self, f: impl FnOnce() -> T) -> (T, Measurement<K>) {
        let pmu = self.pmu;
        let mask = PmCounterMask::from_bits_retain(self.mask);
        pmu.regs.disable_counters(mask);
        pmu.regs.clear_overflow_flags(mask);
        pmu.preset_slot(CounterKind::Cycles, CYCLE_INDEX, 0);
        pmu.preset_slot(CounterKind::Event, self.instructions, 0);
        for &index in &self.indices {
            pmu.preset_slot(CounterKind::Event, index, 0);
        }
        let out = window(&pmu.regs, mask, f);
        let measurement = Measurement {
            cycles: pmu.total(CounterKind::Cycles, CYCLE_INDEX),
            instructions: pmu.total(CounterKind::Event, self.instructions),
            events: self
                .indices
                .map(|index| pmu.total(CounterKind::Event, index)),
            counted: self.events,
            support: self.support,
        };
        (out, measurement)
    }

    /// The extra events, in the order given to [`Pmu::measurer`].
    pub fn events(&self) -> &[Event; K] {
        &self.events
    }
}

impl<R: Registers, const K: usize> Drop for Measurer<'_, R, K> {
    fn drop(&mut self) {
        self.pmu.release_mask(self.mask);
    }
}

impl<R: Registers, const K: usize> fmt::Debug for Measurer<'_, R, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Measurer")
            .field("events", &self.events)
            .field("mask", &format_args!("{:#010x}", self.mask))
            .finish()
    }
}

/// Starts the counters in `mask`, runs `f`, stops them.
#[inline(never)]
fn window<R: Registers, T>(regs: &R, mask: Value<PmCounterMask>, f: impl FnOnce() -> T) -> T {
    regs.enable_counters(mask);
    let out = f();
    regs.disable_counters(mask);
    out
}
