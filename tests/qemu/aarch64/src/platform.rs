//! The AArch64 parts the shared tests need.
use core::arch::asm;

use pmu_driver::timer::Aarch64Timer;
use pmu_driver::{Aarch64, Pmu, SampleRing};
use qemu_harness::gic::CpuInterfaceV3;
use qemu_harness::{El0Outcome, El0Task, Once, Platform, SAMPLES};

/// This image.
pub struct A64;

static PMU: Once<Pmu<Aarch64>> = Once::new();
static RING: SampleRing<SAMPLES> = SampleRing::new();

/// The GICv3 CPU interface through its AArch64 system registers.
struct IccSysregs;

impl CpuInterfaceV3 for IccSysregs {
    fn enable(&self, priority_mask: u32) {
        // SAFETY: GICv3 CPU-interface registers at EL1: SRE on, priority mask, group 1 enabled.
        unsafe {
            asm!(
                "msr icc_sre_el1, {sre}",
                "isb",
                "msr icc_pmr_el1, {pmr}",
                "msr icc_igrpen1_el1, {one}",
                "isb",
                sre = in(reg) 0x7u64,
                pmr = in(reg) u64::from(priority_mask),
                one = in(reg) 1u64,
                options(nostack),
            )
        };
    }
    fn acknowledge(&self) -> u32 {
        let v: u64;
        // SAFETY: reading ICC_IAR1_EL1 acknowledges the interrupt being handled.
        unsafe { asm!("mrs {}, icc_iar1_el1", out(reg) v, options(nostack)) };
        v as u32
    }
    fn end(&self, intid: u32) {
        // SAFETY: ends the interrupt acknowledged above.
        unsafe { asm!("msr icc_eoir1_el1, {}", in(reg) u64::from(intid), options(nostack)) };
    }
}

impl Platform for A64 {
    type Regs = Aarch64;
    type Timer = Aarch64Timer;

    fn regs() -> Aarch64 {
        Aarch64
    }
    fn timer_regs() -> Aarch64Timer {
        Aarch64Timer
    }
    fn pmu_cell() -> &'static Once<Pmu<Aarch64>> {
        &PMU
    }
    fn samples() -> &'static SampleRing<SAMPLES> {
        &RING
    }
    fn raw_pmcr() -> u64 {
        arm_pmuv3::aarch64::PMCR_EL0::read().bits()
    }
    #[inline(always)]
    fn spin<const K: u32>() {
        const { assert!(K > 0 && K < 65536) };
        // SAFETY: a register-only loop.
        unsafe {
            asm!(
                "mov {n:w}, #{k}",
                "2:",
                "subs {n:w}, {n:w}, #1",
                "b.ne 2b",
                n = out(reg) _,
                k = const K,
                options(nomem, nostack),
            )
        };
    }
    #[inline(always)]
    fn asm_two_reads<const K: u32>() -> u64 {
        let (a, b): (u64, u64);
        if K == 0 {
            // SAFETY: two reads of PMEVCNTR0_EL0 at EL1.
            unsafe {
                asm!(
                    "mrs {a}, pmevcntr0_el0",
                    "mrs {b}, pmevcntr0_el0",
                    a = out(reg) a,
                    b = out(reg) b,
                    options(nomem, nostack, preserves_flags),
                )
            };
        } else {
            // SAFETY: as above, around the same loop as `spin`.
            unsafe {
                asm!(
                    "mrs {a}, pmevcntr0_el0",
                    "mov {n:w}, #{k}",
                    "2:",
                    "subs {n:w}, {n:w}, #1",
                    "b.ne 2b",
                    "mrs {b}, pmevcntr0_el0",
                    a = out(reg) a,
                    b = out(reg) b,
                    n = out(reg) _,
                    k = const K,
                    options(nomem, nostack),
                )
            };
        }
        b.wrapping_sub(a) & 0xFFFF_FFFF
    }
    fn run_el0(task: El0Task) -> El0Outcome {
        crate::el0::run(task)
    }
    fn set_irqs(enabled: bool) {
        // SAFETY: masking or unmasking IRQs at EL1.
        unsafe {
            if enabled {
                asm!("msr daifclr, #2", options(nomem, nostack));
            } else {
                asm!("msr daifset, #2", options(nomem, nostack));
            }
        }
    }
    fn gic_version() -> u32 {
        let pfr0: u64;
        // SAFETY: an ID register read.
        unsafe { asm!("mrs {}, id_aa64pfr0_el1", out(reg) pfr0, options(nomem, nostack)) };
        // ID_AA64PFR0_EL1.GIC: the system-register interface of GICv3 (QEMU reports it when
        // the machine has a GICv3; GICv2 code on a GICv3 takes a data abort).
        if (pfr0 >> 24) & 0xF != 0 {
            3
        } else {
            2
        }
    }
    fn gicv3_cpu() -> &'static dyn CpuInterfaceV3 {
        &IccSysregs
    }
    fn current_el() -> u32 {
        let el: u64;
        // SAFETY: reading CurrentEL.
        unsafe { asm!("mrs {}, CurrentEL", out(reg) el, options(nomem, nostack)) };
        (el >> 2) as u32
    }
    fn boot_el() -> u32 {
        crate::boot::BOOT_EL.load(core::sync::atomic::Ordering::SeqCst)
    }
}
