//! The AArch64 parts the shared tests need.
use core::arch::asm;

use aarch64_sysregs::aarch64::{
    CurrentEL, ICC_EOIR1_EL1, ICC_IAR1_EL1, ICC_IGRPEN1_EL1, ICC_PMR_EL1, ICC_SRE_EL1,
    ID_AA64PFR0_EL1,
};
use aarch64_sysregs::id_aa64pfr0::Gic;
use aarch64_sysregs::{
    Currentel, IccEoir, IccIar, IccIgrpen, IccPmr, IccSre, IdAa64pfr0, Layout, UInt,
};

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
        // The system-register interface on (with IRQ and FIQ bypass disabled), then the priority
        // mask and group 1.
        ICC_SRE_EL1::write(
            IccSre::DEFAULT
                .with(IccSre::SRE, true)
                .with(IccSre::DFB, true)
                .with(IccSre::DIB, true),
        );
        qemu_harness::isb();
        ICC_PMR_EL1::write(IccPmr::DEFAULT.with(IccPmr::PRIORITY, priority_mask as u8));
        ICC_IGRPEN1_EL1::write(IccIgrpen::DEFAULT.with(IccIgrpen::ENABLE, true));
        qemu_harness::isb();
    }
    fn acknowledge(&self) -> u32 {
        ICC_IAR1_EL1::read().get(IccIar::INTID)
    }
    fn end(&self, intid: u32) {
        // An INTID read from ICC_IAR1_EL1 is 24 bits.
        ICC_EOIR1_EL1::write(IccEoir::DEFAULT.with(IccEoir::INTID, UInt::truncating(intid)));
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
        // ID_AA64PFR0_EL1.GIC: the system-register interface of GICv3 (QEMU reports it when
        // the machine has a GICv3; GICv2 code on a GICv3 takes a data abort).
        if ID_AA64PFR0_EL1::read().get(IdAa64pfr0::GIC) != Ok(Gic::Ni) {
            3
        } else {
            2
        }
    }
    fn gicv3_cpu() -> &'static dyn CpuInterfaceV3 {
        &IccSysregs
    }
    fn current_el() -> u32 {
        CurrentEL::read().get(Currentel::EL).bits().into()
    }
    fn boot_el() -> u32 {
        crate::boot::BOOT_EL.load(core::sync::atomic::Ordering::SeqCst)
    }
}
