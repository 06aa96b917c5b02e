//! The differential check's sequence (`qemu_harness::sequence`) on QEMU's PMU, through the
//! generated AArch64 system-register accessors: after each write, the state of PMCNTENSET,
//! PMINTENSET, PMOVSSET and PMCR as read back.
use arm_pmuv3::aarch64::{
    PMCNTENCLR_EL0, PMCNTENSET_EL0, PMCR_EL0, PMINTENCLR_EL1, PMINTENSET_EL1, PMOVSCLR_EL0,
    PMOVSSET_EL0,
};
use arm_pmuv3::Layout;
use arm_pmuv3::{PmCounterMask, Pmcr};
use qemu_harness::report::value_n;
use qemu_harness::sequence::{Target, STATE, STEPS};

fn report(step: usize) {
    let state = [
        u64::from(PMCNTENSET_EL0::read().bits()),
        u64::from(PMINTENSET_EL1::read().bits()),
        u64::from(PMOVSSET_EL0::read().bits()),
        PMCR_EL0::read().bits(),
    ];
    for (key, v) in STATE.iter().zip(state) {
        value_n(key, step as u64, v);
    }
}

/// Runs the sequence, reporting the state before it and after each step.
pub fn run() {
    report(0);
    for (i, &(target, v)) in STEPS.iter().enumerate() {
        let mask = PmCounterMask::from_bits_retain(v);
        match target {
            Target::CntenSet => PMCNTENSET_EL0::set(mask),
            Target::CntenClr => PMCNTENCLR_EL0::clear(mask),
            Target::IntenSet => PMINTENSET_EL1::set(mask),
            Target::IntenClr => PMINTENCLR_EL1::clear(mask),
            Target::OvsSet => PMOVSSET_EL0::set(mask),
            Target::OvsClr => PMOVSCLR_EL0::clear(mask),
            Target::Pmcr => PMCR_EL0::write(Pmcr::from_bits_retain(u64::from(v))),
        }
        report(i + 1);
    }
}
