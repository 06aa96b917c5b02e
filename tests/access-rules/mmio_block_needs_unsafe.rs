// Building a block from an address is the one unsafe step.
use arm_pmuv3::mmio::PmuExt32;

fn main() {
    let _pmu = PmuExt32::new(0x1000_0000);
}
