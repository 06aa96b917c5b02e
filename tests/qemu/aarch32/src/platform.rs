//! The AArch32 parts the shared tests need.
use core::arch::asm;

use arm_pmuv3::{Layout, Pmselr};
use pmu_driver::timer::Aarch32Timer;
use pmu_driver::{Aarch32, Pmu, SampleRing};
use qemu_harness::gic::CpuInterfaceV3;
use qemu_harness::{El0Outcome, El0Task, Once, Platform, SAMPLES};

/// This image.
pub struct A32;

static PMU: Once<Pmu<Aarch32>> = Once::new();
static RING: SampleRing<SAMPLES> = SampleRing::new();

/// The GICv3 CPU interface through its AArch32 CP15 registers.
struct IccCp15;

impl CpuInterfaceV3 for IccCp15 {
    fn enable(&self, priority_mask: u32) {
        // SAFETY: GICv3 CPU-interface registers at PL1: ICC_SRE (SRE, DFB, DIB), ICC_PMR,
        // ICC_IGRPEN1.
        unsafe {
            asm!(
                "mcr p15, 0, {sre}, c12, c12, 5",
                "isb",
                "mcr p15, 0, {pmr}, c4, c6, 0",
                "mcr p15, 0, {one}, c12, c12, 7",
                "isb",
                sre = in(reg) 0x7u32,
                pmr = in(reg) priority_mask,
                one = in(reg) 1u32,
                options(nostack),
            )
        };
    }
    fn acknowledge(&self) -> u32 {
        let v: u32;
        // SAFETY: ICC_IAR1 read: acknowledges the interrupt being handled.
        unsafe { asm!("mrc p15, 0, {}, c12, c12, 0", out(reg) v, options(nostack)) };
        v
    }
    fn end(&self, intid: u32) {
        // SAFETY: ICC_EOIR1 write: ends the interrupt acknowledged above.
        unsafe { asm!("mcr p15, 0, {}, c12, c12, 1", in(reg) intid, options(nostack)) };
    }
}

fn cpsr_mode() -> u32 {
    let cpsr: u32;
    // SAFETY: reading CPSR.
    unsafe { asm!("mrs {}, cpsr", out(reg) cpsr, options(nomem, nostack, preserves_flags)) };
    cpsr & 0x1F
}

/// The exception level of an AArch32 mode.
pub fn mode_el(mode: u32) -> u32 {
    match mode {
        0x10 => 0,
        0x1A => 2,
        0x16 => 3,
        _ => 1,
    }
}

impl Platform for A32 {
    type Regs = Aarch32;
    type Timer = Aarch32Timer;

    fn regs() -> Aarch32 {
        Aarch32::new()
    }
    fn timer_regs() -> Aarch32Timer {
        Aarch32Timer
    }
    fn pmu_cell() -> &'static Once<Pmu<Aarch32>> {
        &PMU
    }
    fn samples() -> &'static SampleRing<SAMPLES> {
        &RING
    }
    fn raw_pmcr() -> u64 {
        arm_pmuv3::aarch32::PMCR::read().bits().into()
    }
    #[inline(always)]
    fn spin<const K: u32>() {
        const { assert!(K > 0 && K < 65536) };
        // SAFETY: a register-only loop.
        unsafe {
            asm!(
                "movw {n}, #{k}",
                "2:",
                "subs {n}, {n}, #1",
                "bne 2b",
                n = out(reg) _,
                k = const K,
                options(nomem, nostack),
            )
        };
    }
    #[inline(always)]
    fn asm_two_reads<const K: u32>() -> u64 {
        // PMXEVCNTR with PMSELR = 0: one instruction per read on Armv7 and Armv8 alike.
        arm_pmuv3::aarch32::PMSELR::write(Pmselr::DEFAULT.with(Pmselr::SEL, arm_pmuv3::Const::<0>));
        let (a, b): (u32, u32);
        if K == 0 {
            // SAFETY: two reads of PMXEVCNTR at PL1.
            unsafe {
                asm!(
                    "mrc p15, 0, {a}, c9, c13, 2",
                    "mrc p15, 0, {b}, c9, c13, 2",
                    a = out(reg) a,
                    b = out(reg) b,
                    options(nomem, nostack, preserves_flags),
                )
            };
        } else {
            // SAFETY: as above, around the same loop as `spin`.
            unsafe {
                asm!(
                    "mrc p15, 0, {a}, c9, c13, 2",
                    "movw {n}, #{k}",
                    "2:",
                    "subs {n}, {n}, #1",
                    "bne 2b",
                    "mrc p15, 0, {b}, c9, c13, 2",
                    a = out(reg) a,
                    b = out(reg) b,
                    n = out(reg) _,
                    k = const K,
                    options(nomem, nostack),
                )
            };
        }
        b.wrapping_sub(a).into()
    }
    fn run_el0(task: El0Task) -> El0Outcome {
        crate::el0::run(task)
    }
    fn set_irqs(enabled: bool) {
        // SAFETY: masking or unmasking IRQs at PL1.
        unsafe {
            if enabled {
                asm!("cpsie i", options(nomem, nostack));
            } else {
                asm!("cpsid i", options(nomem, nostack));
            }
        }
    }
    fn gic_version() -> u32 {
        let pfr1: u32;
        // SAFETY: ID_PFR1 read.
        unsafe { asm!("mrc p15, 0, {}, c0, c1, 1", out(reg) pfr1, options(nomem, nostack)) };
        // ID_PFR1.GIC: the GICv3 system-register interface.
        if (pfr1 >> 28) & 0xF != 0 {
            3
        } else {
            2
        }
    }
    fn gicv3_cpu() -> &'static dyn CpuInterfaceV3 {
        &IccCp15
    }
    fn current_el() -> u32 {
        mode_el(cpsr_mode())
    }
    fn boot_el() -> u32 {
        mode_el(crate::boot::BOOT_MODE.load(core::sync::atomic::Ordering::SeqCst))
    }
}
