// PMEVTYPER<n>_EL0 has 31 elements: `at::<31>()` is past the end, and does not compile.
use arm_pmuv3::aarch64::PMEVTYPER_EL0;

fn main() {
    let _ = PMEVTYPER_EL0.at::<31>().read();
}
