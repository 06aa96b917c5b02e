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
use arm_pmuv3::PmCounterMask;
use armreg_rt::{Layout, Value};

use crate::backend::Registers;
use crate::counter::{CounterKind, CYCLE_INDEX};
use crate::{Error, Event, Filter, Pmu};

/// The counters one measurement uses: the cycle counter, an INST_RETIRED counter and one counter
/// per extra event. Made by [`Pmu::measurer`].
#[derive(Debug, PartialEq, Eq)]
pub struct Measurer<const K: usize> {
    instructions: u8,
    events: [u8; K],
    mask: u32,
}

/// What [`Pmu::measure`] counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measurement<const K: usize> {
    /// Cycles (PMCCNTR).
    pub cycles: u64,
    /// Instructions architecturally executed (INST_RETIRED).
    pub instructions: u64,
    /// The extra events, in the order given to [`Pmu::measurer`].
    pub events: [u64; K],
}

impl<R: Registers> Pmu<R> {
    /// Allocates the counters for measurements of cycles, instructions and `events`, all counting
    /// where `filter` says. Nothing stays allocated if one of them cannot be.
    pub fn measurer<const K: usize>(
        &self,
        events: [Event; K],
        filter: Filter,
    ) -> Result<Measurer<K>, Error> {
        let cycles = self.allocate_cycles(filter)?;
        let instructions = match self.allocate(Event::INST_RETIRED, filter) {
            Ok(c) => c,
            Err(e) => {
                self.release(cycles);
                return Err(e);
            }
        };
        let mut m = Measurer {
            instructions: instructions.index,
            events: [0; K],
            mask: cycles.mask() | instructions.mask(),
        };
        for (slot, event) in m.events.iter_mut().zip(events) {
            match self.allocate(event, filter) {
                Ok(c) => {
                    *slot = c.index;
                    m.mask |= c.mask();
                }
                Err(e) => {
                    self.release_measurer(m);
                    return Err(e);
                }
            }
        }
        Ok(m)
    }

    /// Frees the measurer's counters.
    pub fn release_measurer<const K: usize>(&self, m: Measurer<K>) {
        let mask = PmCounterMask::from_bits_retain(m.mask);
        self.regs.disable_counters(mask);
        self.regs.disable_interrupts(mask);
        self.regs.clear_overflow_flags(mask);
        self.release_bits(m.mask);
    }

    /// Runs `f` and counts what it does. The PMU must be started ([`Pmu::start`]).
    ///
    /// The counts include the PMCNTENCLR write that stops the counters: an empty closure measures
    /// one instruction on QEMU, as two hand-written reads around nothing do. Counts are exact
    /// across 32-bit overflows when the PMU interrupt calls [`Pmu::on_overflow`].
    pub fn measure<T, const K: usize>(
        &self,
        m: &Measurer<K>,
        f: impl FnOnce() -> T,
    ) -> (T, Measurement<K>) {
        let mask = PmCounterMask::from_bits_retain(m.mask);
        self.regs.disable_counters(mask);
        self.regs.clear_overflow_flags(mask);
        self.preset_slot(CounterKind::Cycles, CYCLE_INDEX, 0);
        self.preset_slot(CounterKind::Event, m.instructions, 0);
        for &index in &m.events {
            self.preset_slot(CounterKind::Event, index, 0);
        }
        let out = window(&self.regs, mask, f);
        let measurement = Measurement {
            cycles: self.total(CounterKind::Cycles, CYCLE_INDEX),
            instructions: self.total(CounterKind::Event, m.instructions),
            events: m.events.map(|index| self.total(CounterKind::Event, index)),
        };
        (out, measurement)
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
