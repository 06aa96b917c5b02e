//! The same ten system registers as `../ours`, through `aarch64-cpu` (tock-registers).
#![no_std]

use aarch64_cpu::registers::{
    Readable, Writeable, CCSIDR_EL1, CLIDR_EL1, CNTFRQ_EL0, CNTVCT_EL0, CNTV_CTL_EL0,
    ID_AA64MMFR0_EL1, ID_AA64PFR0_EL1, MIDR_EL1, MPIDR_EL1, TPIDR_EL1,
};

/// Reads nine registers, writes one: a fold of their bits, so nothing is optimised away.
pub fn probe() -> u64 {
    let mut acc = MIDR_EL1.get();
    acc ^= MPIDR_EL1.get();
    acc ^= CLIDR_EL1.get();
    acc ^= CCSIDR_EL1.get();
    acc ^= ID_AA64PFR0_EL1.get();
    acc ^= ID_AA64MMFR0_EL1.get();
    acc ^= CNTFRQ_EL0.get();
    acc ^= CNTVCT_EL0.get();
    acc ^= TPIDR_EL1.get();
    CNTV_CTL_EL0.write(CNTV_CTL_EL0::ENABLE::SET);
    acc
}
