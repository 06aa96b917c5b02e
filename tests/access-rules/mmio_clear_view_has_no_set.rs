// PMCNTENCLR only clears; setting goes through PMCNTENSET.
use arm_pmuv3::mmio::PmuExt32;
use arm_pmuv3::{Layout, PmCounterMask};

fn main() {
    let pmu = unsafe { PmuExt32::new(0x1000_0000) };
    pmu.pmcntenclr().set(PmCounterMask::DEFAULT.with(PmCounterMask::C, true));
}
