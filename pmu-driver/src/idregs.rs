//! The two ID registers that give the PMU version, through their generated accessors: one
//! `mrs`/`mrc` on the target that has it, the `armreg_rt::host` hook everywhere else.
use arm_pmuv3::{aarch32, aarch64};
use armreg_rt::SysRegPath;

/// ID_AA64DFR0_EL1, `S3_0_C0_C5_0`.
pub const ID_AA64DFR0_EL1: SysRegPath = aarch64::ID_AA64DFR0_EL1::PATH;

/// ID_DFR0, `p15, 0, c0, c1, 2`.
pub const ID_DFR0: SysRegPath = aarch32::ID_DFR0::PATH;

/// Reads ID_AA64DFR0_EL1.
#[inline(always)]
pub fn id_aa64dfr0_el1() -> u64 {
    aarch64::ID_AA64DFR0_EL1::read().bits()
}

/// Reads ID_DFR0.
#[inline(always)]
pub fn id_dfr0() -> u32 {
    aarch32::ID_DFR0::read().bits()
}
