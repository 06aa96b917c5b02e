//! The two ID registers that give the PMU version.
//!
//! The generated crates do not describe ID_AA64DFR0_EL1 or ID_DFR0 yet, so these are the only
//! hand-written system-register reads in the driver. They behave like generated accessors: one
//! `mrs`/`mrc` on the target that has it, the `armreg_rt::host` hook everywhere else.
use armreg_rt::SysRegPath;

/// ID_AA64DFR0_EL1, `S3_0_C0_C5_0`.
pub const ID_AA64DFR0_EL1: SysRegPath = SysRegPath::A64 {
    op0: 3,
    op1: 0,
    crn: 0,
    crm: 5,
    op2: 0,
};

/// ID_DFR0, `p15, 0, c0, c1, 2`.
pub const ID_DFR0: SysRegPath = SysRegPath::A32 {
    coproc: 15,
    opc1: 0,
    crn: 0,
    crm: 1,
    opc2: 2,
};

/// Reads ID_AA64DFR0_EL1.
#[inline(always)]
pub fn id_aa64dfr0_el1() -> u64 {
    #[cfg(target_arch = "aarch64")]
    {
        let raw: u64;
        // SAFETY: reading an ID register has no side effects; it is readable at EL1 and above.
        unsafe {
            core::arch::asm!("mrs {}, S3_0_C0_C5_0", out(reg) raw, options(nomem, nostack, preserves_flags))
        };
        raw
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        armreg_rt::host::read(ID_AA64DFR0_EL1)
    }
}

/// Reads ID_DFR0.
#[inline(always)]
pub fn id_dfr0() -> u32 {
    #[cfg(target_arch = "arm")]
    {
        let raw: u32;
        // SAFETY: reading an ID register has no side effects; it is readable at PL1 and above.
        unsafe {
            core::arch::asm!("mrc p15, 0, {}, c0, c1, 2", out(reg) raw, options(nomem, nostack, preserves_flags))
        };
        raw
    }
    #[cfg(not(target_arch = "arm"))]
    {
        armreg_rt::host::read(ID_DFR0) as u32
    }
}
