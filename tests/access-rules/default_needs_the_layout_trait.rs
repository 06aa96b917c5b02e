// `DEFAULT` is the `Layout` trait's: without the trait in scope, rustc names the import.
use arm_pmuv3::Pmcr;

fn main() {
    let _ = Pmcr::DEFAULT.with(Pmcr::E, true);
}
