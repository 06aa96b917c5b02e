//! The IRQ handler both images call from their vector table.
use core::sync::atomic::{AtomicU32, Ordering};

use crate::gic::{self, PMU_INTID, TIMER_INTID};
use crate::tick::TICK;
use crate::Platform;

/// PMU interrupts taken.
pub static PMU_IRQS: AtomicU32 = AtomicU32::new(0);
/// Virtual timer interrupts taken.
pub static TIMER_IRQS: AtomicU32 = AtomicU32::new(0);
/// The last INTID acknowledged.
pub static LAST_INTID: AtomicU32 = AtomicU32::new(1023);

/// Acknowledges the interrupt, hands a PMU overflow to the driver (with `pc`, where the program
/// was interrupted, for samples) and a timer tick to the test's tick hook, and ends the interrupt.
pub fn handle<P: Platform>(pc: usize) {
    let cpu = P::gicv3_cpu();
    let intid = gic::acknowledge(cpu);
    if intid >= 1020 {
        return;
    }
    LAST_INTID.store(intid, Ordering::SeqCst);
    if intid == PMU_INTID {
        PMU_IRQS.fetch_add(1, Ordering::SeqCst);
        if let Some(pmu) = P::pmu_cell().get() {
            pmu.on_overflow(pc, P::samples());
        }
    } else if intid == TIMER_INTID {
        TIMER_IRQS.fetch_add(1, Ordering::SeqCst);
        TICK.run();
    }
    gic::end(cpu, intid);
}
