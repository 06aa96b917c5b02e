//! Just enough of the GIC on QEMU `virt` to take the PMU interrupt (PPI 7 = INTID 23, level) and
//! the virtual timer's (PPI 11 = INTID 27, level): GICv2 (distributor and memory-mapped CPU
//! interface) or GICv3 (distributor, the first CPU's redistributor, and the system-register CPU
//! interface the platform provides).
use core::sync::atomic::{AtomicU8, Ordering};

/// The PMU overflow interrupt on QEMU `virt`.
pub const PMU_INTID: u32 = 23;
/// The EL1 virtual timer's interrupt on QEMU `virt`.
pub const TIMER_INTID: u32 = 27;
/// The interrupts `init` enables (all PPIs: one bit each in the first enable register).
const INTIDS: [u32; 2] = [PMU_INTID, TIMER_INTID];
const ENABLE_BITS: u32 = 1 << PMU_INTID | 1 << TIMER_INTID;

const GICD: usize = 0x0800_0000;
const GICC: usize = 0x0801_0000;
/// The first redistributor; its SGI/PPI frame follows at +64 KiB.
const GICR: usize = 0x080A_0000;
const GICR_SGI: usize = GICR + 0x1_0000;

/// A priority above the mask set below.
const PRIORITY: u8 = 0xA0;
const PRIORITY_MASK: u32 = 0xF0;

/// The GICv3 CPU interface: system registers, so the platform supplies it.
pub trait CpuInterfaceV3: Sync {
    /// Enables the system-register interface, sets the priority mask, enables group 1.
    fn enable(&self, priority_mask: u32);
    /// ICC_IAR1: acknowledges the highest-priority pending interrupt.
    fn acknowledge(&self) -> u32;
    /// ICC_EOIR1: ends it.
    fn end(&self, intid: u32);
}

fn write32(addr: usize, v: u32) {
    // SAFETY: a GIC register on QEMU `virt` (device memory, 4-byte aligned).
    unsafe { (addr as *mut u32).write_volatile(v) }
}

fn read32(addr: usize) -> u32 {
    // SAFETY: as in `write32`.
    unsafe { (addr as *const u32).read_volatile() }
}

fn write8(addr: usize, v: u8) {
    // SAFETY: GICD/GICR_IPRIORITYR are byte-accessible device registers.
    unsafe { (addr as *mut u8).write_volatile(v) }
}

/// Which GIC `init` set up (0: none), for the interrupt handler.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// Sets up GIC `version` (2 or 3) to deliver the PMU and virtual timer interrupts to this CPU as
/// IRQs.
pub fn init(version: u32, cpu: &dyn CpuInterfaceV3) {
    match version {
        2 => {
            write32(GICD, 0); // GICD_CTLR: off while configuring
            for intid in INTIDS {
                write8(GICD + 0x400 + intid as usize, PRIORITY); // GICD_IPRIORITYR
            }
            write32(GICD + 0x100, ENABLE_BITS); // GICD_ISENABLER0
            write32(GICD, 1); // GICD_CTLR.Enable
            write32(GICC + 0x004, PRIORITY_MASK); // GICC_PMR
            write32(GICC, 1); // GICC_CTLR.Enable
        }
        3 => {
            // GICD_CTLR: ARE (bit 4), EnableGrp1 (bit 1), EnableGrp0 (bit 0); wait for RWP.
            write32(GICD, 1 << 4 | 1 << 1 | 1);
            while read32(GICD) & (1 << 31) != 0 {}
            // GICR_WAKER: clear ProcessorSleep, wait until ChildrenAsleep clears.
            write32(GICR + 0x14, read32(GICR + 0x14) & !(1 << 1));
            while read32(GICR + 0x14) & (1 << 2) != 0 {}
            write32(GICR_SGI + 0x080, read32(GICR_SGI + 0x080) | ENABLE_BITS); // IGROUPR0: group 1
            for intid in INTIDS {
                write8(GICR_SGI + 0x400 + intid as usize, PRIORITY); // IPRIORITYR
            }
            write32(GICR_SGI + 0x100, ENABLE_BITS); // ISENABLER0
            cpu.enable(PRIORITY_MASK);
        }
        v => crate::report::fail(format_args!("no GIC version {v}")),
    }
    ACTIVE.store(version as u8, Ordering::SeqCst);
}

/// From EL3 on a GICv3 with two Security states (`secure=on`): sets GICD_CTLR.DS, so the GIC has
/// one Security state and the Non-secure EL1 that [`init`] runs at configures it as it does on a
/// machine without EL3 (otherwise every interrupt stays Secure Group 0, out of its reach).
pub fn disable_security() {
    write32(GICD, 1 << 6);
    while read32(GICD) & (1 << 31) != 0 {}
}

/// Acknowledges the pending interrupt: its INTID (1020-1023: none).
pub fn acknowledge(cpu: &dyn CpuInterfaceV3) -> u32 {
    match ACTIVE.load(Ordering::SeqCst) {
        2 => read32(GICC + 0x00C) & 0x3FF, // GICC_IAR
        3 => cpu.acknowledge() & 0xFF_FFFF,
        _ => 1023,
    }
}

/// Ends interrupt `intid`.
pub fn end(cpu: &dyn CpuInterfaceV3, intid: u32) {
    match ACTIVE.load(Ordering::SeqCst) {
        2 => write32(GICC + 0x010, intid), // GICC_EOIR
        3 => cpu.end(intid),
        _ => {}
    }
}
