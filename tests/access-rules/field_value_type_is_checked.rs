// A 1-bit field takes a bool, not an integer.
use arm_pmuv3::{Layout, Pmcr};

fn main() {
    let _ = Pmcr::DEFAULT.with(Pmcr::E, 1);
}
