// PMCNTENSET_EL0 is a write-1-to-set view: `set` a mask, never read-modify-write.
use arm_pmuv3::aarch64::PMCNTENSET_EL0;

fn main() {
    PMCNTENSET_EL0::modify(|v| v);
    PMCNTENSET_EL0::write(PMCNTENSET_EL0::read());
}
