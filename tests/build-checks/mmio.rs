// The external view's PMEVTYPER<n> has 31 registers: `at::<31>()` is past the end.
use arm_pmuv3::mmio::PmuExt32;

fn main() {
    let pmu = unsafe { PmuExt32::new(0x1000_0000) };
    let _ = pmu.pmevtyper().at::<31>().read();
}
