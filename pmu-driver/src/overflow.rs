//! Overflow handling: extending 32-bit counters to 64 bits and sampling.
use armreg_rt::{Layout, Value};
use core::sync::atomic::Ordering::SeqCst;

use arm_pmuv3::PmCounterMask;

use crate::backend::Registers;
use crate::counter::{Counter, CounterKind, CYCLE_INDEX};
use crate::{Error, Pmu, Sample, SampleRing};

impl<R: Registers> Pmu<R> {
    /// The PMU overflow interrupt handler's work (INTID 23 on QEMU `virt`): for each allocated
    /// counter whose overflow flag is set it clears the flag (PMOVSCLR) and counts the overflow
    /// into the counter's 64-bit total; a sampling counter is also reloaded and a [`Sample`] with
    /// `pc` (where the program was interrupted) is pushed to `samples`. Returns the flags it handled.
    ///
    /// Call it from the PMU interrupt handler only (or with that interrupt masked): it is the one
    /// writer of the overflow counts.
    pub fn on_overflow<const CAP: usize>(
        &self,
        pc: usize,
        samples: &SampleRing<CAP>,
    ) -> Value<PmCounterMask> {
        let flags = self.regs.overflow_flags().bits() & self.allocated();
        if flags == 0 {
            return PmCounterMask::from_bits_retain(0);
        }
        // Tells a reader interrupted half-way through a snapshot to take it again.
        self.seq.fetch_add(1, SeqCst);
        self.regs
            .clear_overflow_flags(PmCounterMask::from_bits_retain(flags));
        let sampling = self.sampling.load(SeqCst);
        for index in (0..32u8).filter(|i| flags & (1 << i) != 0) {
            // 64-bit counters need no extension (the low half of a chained pair overflows into
            // CHAIN; the high half and a 64-bit cycle counter wrap at 2^64).
            if self.is_chained_low(index)
                || self.is_chained_high(index)
                || (index == CYCLE_INDEX && self.is_wide(CounterKind::Cycles))
            {
                continue;
            }
            let slot = &self.slot(index);
            let overflows = slot.overflows.fetch_add(1, SeqCst).wrapping_add(1);
            if sampling & (1 << index) != 0 {
                // Restart the period, keeping the events counted since the wrap.
                let reload = slot.reload.load(SeqCst);
                let since_wrap = self.read_narrow(index);
                self.write_narrow(index, reload.wrapping_add(since_wrap));
                samples.push(Sample {
                    counter: index,
                    pc,
                    total: slot.total(reload.wrapping_add(since_wrap), false, overflows),
                });
            }
        }
        PmCounterMask::from_bits_retain(flags)
    }

    /// Makes a 32-bit counter overflow every `period` events: the handler reloads it and records a
    /// sample at each overflow. Its total stays a count of every event, except those between the
    /// handler's read and its reload (a few instructions, when the counter counts at the handler's
    /// exception level). Call it with the counter stopped.
    pub fn set_sample_period(&self, counter: &Counter, period: u32) -> Result<(), Error> {
        if period == 0 {
            return Err(Error::ZeroPeriod);
        }
        if self.is_wide(counter.kind) {
            return Err(Error::WrongCounterKind);
        }
        let total = self.read(counter);
        let reload = 0u32.wrapping_sub(period);
        self.regs
            .clear_overflow_flags(PmCounterMask::from_bits_retain(counter.mask()));
        self.write_narrow(counter.index, reload);
        self.slot(counter.index).reset(total, reload, reload);
        self.sampling.fetch_or(counter.mask(), SeqCst);
        Ok(())
    }

    /// Stops sampling: the counter overflows every 2^32 events again. Call it with the counter
    /// stopped.
    pub fn clear_sample_period(&self, counter: &Counter) {
        let total = self.read(counter);
        self.sampling.fetch_and(!counter.mask(), SeqCst);
        self.regs
            .clear_overflow_flags(PmCounterMask::from_bits_retain(counter.mask()));
        self.slot(counter.index).reload.store(0, SeqCst);
        self.preset_slot(counter.kind, counter.index, total);
    }
}
