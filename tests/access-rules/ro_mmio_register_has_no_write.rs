// PMCFGR is read-only in the memory-mapped view.
use arm_pmuv3::mmio::PmuExt32;

fn main() {
    let pmu = unsafe { PmuExt32::new(0x1000_0000) };
    let cfg = pmu.pmcfgr().read();
    pmu.pmcfgr().write(cfg);
}
