// PMCR's external view has no reset value in its description: there is nothing for
// `write_from_reset` to start from, so the method does not exist; `write` takes a whole value.
use arm_pmuv3::mmio::PmuExt32;

fn main() {
    let pmu = unsafe { PmuExt32::new(0x1000_0000) };
    pmu.pmcr().write_from_reset(|v| v);
}
