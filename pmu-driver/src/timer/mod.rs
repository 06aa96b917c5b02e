//! The generic timer: frequency and counter reads with the barriers they need, and a clock in
//! nanoseconds.
use crate::barrier::isb;
use crate::Error;

mod convert;
pub use convert::TickConverter;

/// How the generic timer's registers are reached.
pub trait TimerRegisters {
    /// CNTFRQ: the counter frequency in Hz.
    fn frequency(&self) -> u32;
    /// CNTVCT, ordered after every earlier instruction and before every later one.
    fn virtual_count(&self) -> u64;
    /// CNTPCT, ordered likewise.
    fn physical_count(&self) -> u64;
}

/// AArch64 `CNTFRQ_EL0`, `CNTVCT_EL0`, `CNTPCT_EL0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aarch64Timer;

impl TimerRegisters for Aarch64Timer {
    fn frequency(&self) -> u32 {
        arm_generic_timer_regs::aarch64::CNTFRQ_EL0::read()
            .get(arm_generic_timer_regs::Cntfrq::CLOCKFREQ)
    }
    #[inline(always)]
    fn virtual_count(&self) -> u64 {
        // The counter may be read out of order with the surrounding instructions: the first ISB
        // keeps it from being read early, the second keeps later instructions from starting first.
        isb();
        let v = arm_generic_timer_regs::aarch64::CNTVCT_EL0::read()
            .get(arm_generic_timer_regs::Cntvct::VIRTUALCOUNT);
        isb();
        v
    }
    #[inline(always)]
    fn physical_count(&self) -> u64 {
        isb();
        let v = arm_generic_timer_regs::aarch64::CNTPCT_EL0::read()
            .get(arm_generic_timer_regs::Cntpct::PHYSICALCOUNT);
        isb();
        v
    }
}

/// AArch32 `CNTFRQ` (`MRC`) and the 64-bit `MRRC` reads of `CNTVCT` and `CNTPCT`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aarch32Timer;

impl TimerRegisters for Aarch32Timer {
    fn frequency(&self) -> u32 {
        arm_generic_timer_regs::aarch32::CNTFRQ::read()
            .get(arm_generic_timer_regs::CntfrqA32::CLOCKFREQ)
    }
    #[inline(always)]
    fn virtual_count(&self) -> u64 {
        isb();
        let v = arm_generic_timer_regs::aarch32::CNTVCT::read()
            .get(arm_generic_timer_regs::Cntvct::VIRTUALCOUNT);
        isb();
        v
    }
    #[inline(always)]
    fn physical_count(&self) -> u64 {
        isb();
        let v = arm_generic_timer_regs::aarch32::CNTPCT::read()
            .get(arm_generic_timer_regs::Cntpct::PHYSICALCOUNT);
        isb();
        v
    }
}

/// The generic timer as a clock.
#[derive(Clone, Copy, Debug)]
pub struct Timer<T> {
    regs: T,
    converter: TickConverter,
}

impl<T: TimerRegisters> Timer<T> {
    /// Reads CNTFRQ once and prepares the tick conversion (the only division).
    pub fn new(regs: T) -> Result<Self, Error> {
        let converter = TickConverter::new(regs.frequency())?;
        Ok(Self { regs, converter })
    }

    /// The counter frequency in Hz, as read by [`new`](Self::new).
    pub fn frequency(&self) -> u32 {
        self.converter.frequency()
    }

    /// The virtual count (CNTVCT).
    #[inline(always)]
    pub fn ticks(&self) -> u64 {
        self.regs.virtual_count()
    }

    /// The physical count (CNTPCT).
    #[inline(always)]
    pub fn physical_ticks(&self) -> u64 {
        self.regs.physical_count()
    }

    /// The virtual count in nanoseconds (see [`TickConverter::to_ns`] for the error bound).
    pub fn now_ns(&self) -> u128 {
        self.converter.to_ns(self.ticks())
    }

    /// The tick conversion.
    pub fn converter(&self) -> &TickConverter {
        &self.converter
    }
}
