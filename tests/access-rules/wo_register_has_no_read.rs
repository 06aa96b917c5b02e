// PMSWINC_EL0 is write-only: there is no `read`.
use arm_pmuv3::aarch64::PMSWINC_EL0;

fn main() {
    let _ = PMSWINC_EL0::read();
}
