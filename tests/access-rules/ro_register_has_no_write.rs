// PMCEID0_EL0 is read-only: there is no `write`.
use arm_pmuv3::aarch64::PMCEID0_EL0;

fn main() {
    PMCEID0_EL0::write(PMCEID0_EL0::read());
}
