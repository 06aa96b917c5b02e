//! The generic timer: frequency and counter reads with the barriers they need, a clock in
//! nanoseconds, and the EL1 virtual timer as a periodic tick (what a multiplexing session can
//! rotate on, from its interrupt).
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

/// The EL1 virtual timer (`CNTV_CTL`, `CNTV_TVAL`): its interrupt is a PPI (11, INTID 27, on
/// most systems and on QEMU `virt`) the caller routes through its interrupt controller.
pub trait VirtualTimerRegisters {
    /// Sets the timer to fire `ticks` counter ticks from now (CNTV_TVAL), enabled, its interrupt
    /// unmasked (CNTV_CTL.ENABLE = 1, IMASK = 0). Writing CNTV_TVAL also ends the current
    /// interrupt: the condition is no longer met.
    fn arm_virtual_timer(&self, ticks: u32);
    /// Disables the timer (CNTV_CTL.ENABLE = 0): its interrupt is no longer asserted.
    fn disarm_virtual_timer(&self);
    /// CNTV_CTL.ISTATUS: the timer condition is met.
    fn virtual_timer_fired(&self) -> bool;
}

/// AArch64 `CNTFRQ_EL0`, `CNTVCT_EL0`, `CNTPCT_EL0`; `CNTV_CTL_EL0`, `CNTV_TVAL_EL0`.
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

impl VirtualTimerRegisters for Aarch64Timer {
    fn arm_virtual_timer(&self, ticks: u32) {
        use arm_generic_timer_regs::{aarch64, CntvCtl, CntvTval, Layout};
        aarch64::CNTV_TVAL_EL0::write(CntvTval::DEFAULT.with(CntvTval::TIMERVALUE, ticks));
        aarch64::CNTV_CTL_EL0::write(CntvCtl::DEFAULT.with(CntvCtl::ENABLE, true));
        // The timer's new state is in effect before the next instruction.
        isb();
    }
    fn disarm_virtual_timer(&self) {
        use arm_generic_timer_regs::{aarch64, CntvCtl, Layout};
        aarch64::CNTV_CTL_EL0::write(CntvCtl::DEFAULT);
        isb();
    }
    fn virtual_timer_fired(&self) -> bool {
        use arm_generic_timer_regs::{aarch64, CntvCtl};
        aarch64::CNTV_CTL_EL0::read().get(CntvCtl::ISTATUS)
    }
}

/// AArch32 `CNTFRQ` (`MRC`) and the 64-bit `MRRC` reads of `CNTVCT` and `CNTPCT`; `CNTV_CTL`,
/// `CNTV_TVAL`.
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

impl VirtualTimerRegisters for Aarch32Timer {
    fn arm_virtual_timer(&self, ticks: u32) {
        use arm_generic_timer_regs::{aarch32, CntvCtlA32, CntvTvalA32, Layout};
        aarch32::CNTV_TVAL::write(CntvTvalA32::DEFAULT.with(CntvTvalA32::TIMERVALUE, ticks));
        aarch32::CNTV_CTL::write(CntvCtlA32::DEFAULT.with(CntvCtlA32::ENABLE, true));
        isb();
    }
    fn disarm_virtual_timer(&self) {
        use arm_generic_timer_regs::{aarch32, CntvCtlA32, Layout};
        aarch32::CNTV_CTL::write(CntvCtlA32::DEFAULT);
        isb();
    }
    fn virtual_timer_fired(&self) -> bool {
        use arm_generic_timer_regs::{aarch32, CntvCtlA32};
        aarch32::CNTV_CTL::read().get(CntvCtlA32::ISTATUS)
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

/// The virtual timer as a periodic tick: [`start_tick`](Timer::start_tick) arms it, the
/// interrupt handler calls it again (which also clears the interrupt), and
/// [`stop_tick`](Timer::stop_tick) ends it. The period counts from each re-arm, so the time the
/// handler takes before re-arming adds to it.
impl<T: TimerRegisters + VirtualTimerRegisters> Timer<T> {
    /// Fires the virtual timer's interrupt `period` ticks from now; from the handler, clears the
    /// interrupt and arms the next one.
    pub fn start_tick(&self, period: u32) {
        self.regs.arm_virtual_timer(period);
    }

    /// Stops the tick; no interrupt is asserted afterwards.
    pub fn stop_tick(&self) {
        self.regs.disarm_virtual_timer();
    }

    /// Whether the tick is due (CNTV_CTL.ISTATUS): for a handler shared with other interrupts.
    pub fn tick_due(&self) -> bool {
        self.regs.virtual_timer_fired()
    }
}
