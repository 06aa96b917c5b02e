//! A firmware's use of ten system registers through `aarch64-sysregs`: the build the benchmark
//! times (codegen/benches/sysregs.sh), beside the same ten through `aarch64-cpu`.
#![no_std]

use aarch64_sysregs::aarch64::{
    CCSIDR_EL1, CLIDR_EL1, CNTFRQ_EL0, CNTVCT_EL0, CNTV_CTL_EL0, ID_AA64MMFR0_EL1,
    ID_AA64PFR0_EL1, MIDR_EL1, MPIDR_EL1, TPIDR_EL1,
};
use aarch64_sysregs::{CntvCtl, Layout};

/// Reads nine registers, writes one: a fold of their bits, so nothing is optimised away.
pub fn probe() -> u64 {
    let mut acc = u64::from(MIDR_EL1::read().bits());
    acc ^= MPIDR_EL1::read().bits();
    acc ^= CLIDR_EL1::read().bits();
    acc ^= CCSIDR_EL1::read().bits();
    acc ^= ID_AA64PFR0_EL1::read().bits();
    acc ^= ID_AA64MMFR0_EL1::read().bits();
    acc ^= CNTFRQ_EL0::read().bits();
    acc ^= CNTVCT_EL0::read().bits();
    acc ^= TPIDR_EL1::read().bits();
    CNTV_CTL_EL0::write(CntvCtl::DEFAULT.with(CntvCtl::ENABLE, true));
    acc
}
