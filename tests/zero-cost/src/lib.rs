//! Zero-cost fixture: each case is a pair of `#[no_mangle]` functions, `gen_<case>` going through a
//! generated accessor and `ref_<case>` doing the same with a hand-written `asm!` (the operands and
//! `options(nostack, preserves_flags)` the generator uses) or a plain volatile access for MMIO.
//!
//! `tests/tests/zero_cost.rs` builds this crate in release mode for `aarch64-unknown-none` and
//! `armv7a-none-eabi`, disassembles it, and checks that every `gen_` body is exactly its `ref_` body.
//! Keep the case names in step with the lists in that test.
#![no_std]

// The runtime is the generated crates' only dependency; named here so the fixture builds against the
// same copy the tests use.
use armreg_rt as _;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// Cases for AArch64 (`MRS`/`MSR` system registers, MMIO through `PmuExt32`).
#[cfg(target_arch = "aarch64")]
pub mod a64 {
    use aarch64_sysregs::{sctlr, Sctlr};
    use arm_generic_timer_regs::aarch64::CNTVCT_EL0;
    use arm_pmuv3::aarch64::{PMCCNTR_EL0, PMCR_EL0, PMEVCNTR_EL0, PMEVTYPER_EL0};
    use arm_pmuv3::mmio::PmuExt32;
    use arm_pmuv3::{Layout, PmCounterMask, Pmcr, PmcrExt, Pmevtyper};
    use core::arch::asm;

    // 64-bit system-register read: PMCCNTR_EL0.

    #[no_mangle]
    pub extern "C" fn gen_pmccntr_read() -> u64 {
        PMCCNTR_EL0::read().bits()
    }

    #[no_mangle]
    pub extern "C" fn ref_pmccntr_read() -> u64 {
        let raw: u64;
        unsafe {
            asm!("mrs {}, S3_3_C9_C13_0", out(reg) raw, options(nostack, preserves_flags));
        }
        raw
    }

    // 64-bit system-register read from another generated crate: CNTVCT_EL0.

    #[no_mangle]
    pub extern "C" fn gen_cntvct_read() -> u64 {
        CNTVCT_EL0::read().bits()
    }

    #[no_mangle]
    pub extern "C" fn ref_cntvct_read() -> u64 {
        let raw: u64;
        unsafe {
            asm!("mrs {}, S3_3_C14_C0_2", out(reg) raw, options(nostack, preserves_flags));
        }
        raw
    }

    // Read-modify-write: set PMCR_EL0.E and PMCR_EL0.C.

    #[no_mangle]
    pub extern "C" fn gen_pmcr_modify() {
        PMCR_EL0::modify(|v| v.with(Pmcr::E, true).with(Pmcr::C, true));
    }

    // The hand-written read-modify-write that leaves the write-1 actions P (bit 1) and C (bit 2)
    // alone unless asked: clear them, then OR in E and C. The masking is that one AND.
    #[no_mangle]
    pub extern "C" fn ref_pmcr_modify() {
        let raw: u64;
        unsafe {
            asm!("mrs {}, S3_3_C9_C12_0", out(reg) raw, options(nostack, preserves_flags));
            asm!("msr S3_3_C9_C12_0, {}", in(reg) (raw & !0b110) | 0b101, options(nostack, preserves_flags));
        }
    }

    // PMCR_EL0::trigger(Pmcr::P): the event counters reset, nothing else acts (C written 0).

    #[no_mangle]
    pub extern "C" fn gen_pmcr_trigger() {
        PMCR_EL0::trigger(Pmcr::P);
    }

    #[no_mangle]
    pub extern "C" fn ref_pmcr_trigger() {
        let raw: u64;
        unsafe {
            asm!("mrs {}, S3_3_C9_C12_0", out(reg) raw, options(nostack, preserves_flags));
            asm!("msr S3_3_C9_C12_0, {}", in(reg) (raw & !0b110) | 0b010, options(nostack, preserves_flags));
        }
    }

    // Array element with a compile-time index: PMEVTYPER3_EL0 = x (a 32-bit value, zero-extended to
    // the 64-bit register like the accessor does).

    #[no_mangle]
    pub extern "C" fn gen_pmevtyper3_write(x: u32) {
        PMEVTYPER_EL0
            .at::<3>()
            .write(Pmevtyper::from_bits_retain(x));
    }

    #[no_mangle]
    pub extern "C" fn ref_pmevtyper3_write(x: u32) {
        unsafe {
            asm!("msr S3_3_C14_C12_3, {}", in(reg) u64::from(x), options(nostack, preserves_flags));
        }
    }

    // The last element, whose index carries into CRm: PMEVCNTR30_EL0 is S3_3_C14_C11_6.

    #[no_mangle]
    pub extern "C" fn gen_pmevcntr30_read() -> u64 {
        PMEVCNTR_EL0.at::<30>().read().bits()
    }

    #[no_mangle]
    pub extern "C" fn ref_pmevcntr30_read() -> u64 {
        let raw: u64;
        unsafe {
            asm!("mrs {}, S3_3_C14_C11_6", out(reg) raw, options(nostack, preserves_flags));
        }
        raw
    }

    // aarch64-sysregs: SCTLR_EL1 with M, C and I set (the MMU and caches on), one mrs, the
    // or, one msr.

    #[no_mangle]
    pub extern "C" fn gen_sctlr_el1_mmu_on() {
        aarch64_sysregs::aarch64::SCTLR_EL1::modify(|v| {
            v | Sctlr::M.to(sctlr::M::Enabled)
                | Sctlr::C.to(sctlr::C::Cacheable)
                | Sctlr::I.to(sctlr::I::Cacheable)
        });
    }

    #[no_mangle]
    pub extern "C" fn ref_sctlr_el1_mmu_on() {
        let raw: u64;
        unsafe {
            asm!("mrs {}, S3_0_C1_C0_0", out(reg) raw, options(nostack, preserves_flags));
            asm!("msr S3_0_C1_C0_0, {}", in(reg) raw | 0x1005, options(nostack, preserves_flags));
        }
    }

    // aarch64-sysregs: a GICv3 list register by index, ICH_LR13_EL2 = S3_4_C12_C13_5.

    #[no_mangle]
    pub extern "C" fn gen_ich_lr13_read() -> u64 {
        aarch64_sysregs::aarch64::ICH_LR_EL2
            .at::<13>()
            .read()
            .bits()
    }

    #[no_mangle]
    pub extern "C" fn ref_ich_lr13_read() -> u64 {
        let raw: u64;
        unsafe {
            asm!("mrs {}, S3_4_C12_C13_5", out(reg) raw, options(nostack, preserves_flags));
        }
        raw
    }

    // MMIO write-1-to-set view: PMCNTENSET at base + 0xC00.

    #[no_mangle]
    pub extern "C" fn gen_mmio_pmcntenset_set(base: usize, mask: u32) {
        let pmu = unsafe { PmuExt32::new(base) };
        pmu.pmcntenset().set(PmCounterMask::from_bits_retain(mask));
    }

    #[no_mangle]
    pub extern "C" fn ref_mmio_pmcntenset_set(base: usize, mask: u32) {
        unsafe { core::ptr::write_volatile((base + 0xC00) as *mut u32, mask) }
    }

    // MMIO array element with a compile-time index: PMEVTYPER3 at base + 0x400 + 3 * 4.

    #[no_mangle]
    pub extern "C" fn gen_mmio_pmevtyper3_write(base: usize, x: u32) {
        let pmu = unsafe { PmuExt32::new(base) };
        pmu.pmevtyper()
            .at::<3>()
            .write(Pmevtyper::from_bits_retain(x));
    }

    #[no_mangle]
    pub extern "C" fn ref_mmio_pmevtyper3_write(base: usize, x: u32) {
        unsafe { core::ptr::write_volatile((base + 0x400 + 12) as *mut u32, x) }
    }

    // MMIO read-modify-write of PMCR (base + 0xE04) with its write-1 actions P and C kept 0:
    // one load, the AND that masks them, the ORR, one store.

    #[no_mangle]
    pub extern "C" fn gen_mmio_pmcr_modify(base: usize) {
        let pmu = unsafe { PmuExt32::new(base) };
        pmu.pmcr().modify(|v| v.with(PmcrExt::E, true));
    }

    #[no_mangle]
    pub extern "C" fn ref_mmio_pmcr_modify(base: usize) {
        let at = (base + 0xE04) as *mut u32;
        unsafe { at.write_volatile((at.read_volatile() & !0b110) | 0b1) }
    }

    // The runtime's instruction helpers: one instruction each.

    #[no_mangle]
    pub extern "C" fn gen_isb_dsb_ish() {
        armreg_rt::asm::dsb(armreg_rt::asm::Ish);
        armreg_rt::asm::isb();
    }

    #[no_mangle]
    pub extern "C" fn ref_isb_dsb_ish() {
        unsafe {
            asm!("dsb ish", options(nostack, preserves_flags));
            asm!("isb", options(nostack, preserves_flags));
        }
    }

    #[no_mangle]
    pub extern "C" fn gen_eret() -> ! {
        unsafe { armreg_rt::asm::eret() }
    }

    #[no_mangle]
    pub extern "C" fn ref_eret() -> ! {
        unsafe { asm!("eret", options(noreturn)) }
    }
}

/// Cases for AArch32 (`MRC`/`MCR`, `MRRC` system registers, MMIO through `PmuExt32`).
#[cfg(target_arch = "arm")]
pub mod a32 {
    use arm_generic_timer_regs::aarch32::CNTVCT;
    use arm_pmuv3::aarch32::{PMCCNTR64, PMCR, PMEVCNTR, PMEVTYPER};
    use arm_pmuv3::mmio::PmuExt32;
    use arm_pmuv3::{Layout, PmCounterMask, PmcrA32, PmcrExt, Pmevtyper, PmevtyperA32};
    use core::arch::asm;

    // 64-bit MRRC read: PMCCNTR (p15, 0, c9).

    #[no_mangle]
    pub extern "C" fn gen_pmccntr64_read() -> u64 {
        PMCCNTR64::read().bits()
    }

    #[no_mangle]
    pub extern "C" fn ref_pmccntr64_read() -> u64 {
        let (lo, hi): (u32, u32);
        unsafe {
            asm!(
                "mrrc p15, 0, {}, {}, c9",
                out(reg) lo,
                out(reg) hi,
                options(nostack, preserves_flags)
            );
        }
        (u64::from(hi) << 32) | u64::from(lo)
    }

    // 64-bit MRRC read from another generated crate: CNTVCT (p15, 1, c14).

    #[no_mangle]
    pub extern "C" fn gen_cntvct_read() -> u64 {
        CNTVCT::read().bits()
    }

    #[no_mangle]
    pub extern "C" fn ref_cntvct_read() -> u64 {
        let (lo, hi): (u32, u32);
        unsafe {
            asm!(
                "mrrc p15, 1, {}, {}, c14",
                out(reg) lo,
                out(reg) hi,
                options(nostack, preserves_flags)
            );
        }
        (u64::from(hi) << 32) | u64::from(lo)
    }

    // Read-modify-write: set PMCR.E and PMCR.C (p15, 0, c9, c12, 0).

    #[no_mangle]
    pub extern "C" fn gen_pmcr_modify() {
        PMCR::modify(|v| v.with(PmcrA32::E, true).with(PmcrA32::C, true));
    }

    #[no_mangle]
    pub extern "C" fn ref_pmcr_modify() {
        let raw: u32;
        unsafe {
            asm!("mrc p15, 0, {}, c9, c12, 0", out(reg) raw, options(nostack, preserves_flags));
            asm!(
                "mcr p15, 0, {}, c9, c12, 0",
                in(reg) (raw & !0b110) | 0b101,
                options(nostack, preserves_flags)
            );
        }
    }

    // Array element with a compile-time index: PMEVTYPER3 (p15, 0, c14, c12, 3) = x.

    #[no_mangle]
    pub extern "C" fn gen_pmevtyper3_write(x: u32) {
        PMEVTYPER.at::<3>().write(PmevtyperA32::from_bits_retain(x));
    }

    #[no_mangle]
    pub extern "C" fn ref_pmevtyper3_write(x: u32) {
        unsafe {
            asm!("mcr p15, 0, {}, c14, c12, 3", in(reg) x, options(nostack, preserves_flags));
        }
    }

    // The last element, whose index carries into CRm: PMEVCNTR30 is p15, 0, c14, c11, 6.

    #[no_mangle]
    pub extern "C" fn gen_pmevcntr30_read() -> u32 {
        PMEVCNTR.at::<30>().read().bits()
    }

    #[no_mangle]
    pub extern "C" fn ref_pmevcntr30_read() -> u32 {
        let raw: u32;
        unsafe {
            asm!("mrc p15, 0, {}, c14, c11, 6", out(reg) raw, options(nostack, preserves_flags));
        }
        raw
    }

    // MMIO write-1-to-set view: PMCNTENSET at base + 0xC00.

    #[no_mangle]
    pub extern "C" fn gen_mmio_pmcntenset_set(base: usize, mask: u32) {
        let pmu = unsafe { PmuExt32::new(base) };
        pmu.pmcntenset().set(PmCounterMask::from_bits_retain(mask));
    }

    #[no_mangle]
    pub extern "C" fn ref_mmio_pmcntenset_set(base: usize, mask: u32) {
        unsafe { core::ptr::write_volatile((base + 0xC00) as *mut u32, mask) }
    }

    // MMIO array element with a compile-time index: PMEVTYPER3 at base + 0x400 + 3 * 4.

    #[no_mangle]
    pub extern "C" fn gen_mmio_pmevtyper3_write(base: usize, x: u32) {
        let pmu = unsafe { PmuExt32::new(base) };
        pmu.pmevtyper()
            .at::<3>()
            .write(Pmevtyper::from_bits_retain(x));
    }

    #[no_mangle]
    pub extern "C" fn ref_mmio_pmevtyper3_write(base: usize, x: u32) {
        unsafe { core::ptr::write_volatile((base + 0x400 + 12) as *mut u32, x) }
    }
    // PMCR at base + 0xE04, its write-1 actions kept 0: load, BIC, ORR, store.

    #[no_mangle]
    pub extern "C" fn gen_mmio_pmcr_modify(base: usize) {
        let pmu = unsafe { PmuExt32::new(base) };
        pmu.pmcr().modify(|v| v.with(PmcrExt::E, true));
    }

    #[no_mangle]
    pub extern "C" fn ref_mmio_pmcr_modify(base: usize) {
        let at = (base + 0xE04) as *mut u32;
        unsafe { at.write_volatile((at.read_volatile() & !0b110) | 0b1) }
    }

    // The runtime's barrier: one instruction.

    #[no_mangle]
    pub extern "C" fn gen_dsb_sy() {
        armreg_rt::asm::dsb(armreg_rt::asm::Sy);
    }

    #[no_mangle]
    pub extern "C" fn ref_dsb_sy() {
        unsafe { asm!("dsb sy", options(nostack, preserves_flags)) }
    }
}
