// PMCR.P is a write-1 action that reads as 0: it can be written but not read.
use arm_pmuv3::{Layout, Pmcr};

fn main() {
    let v = Pmcr::DEFAULT.with(Pmcr::P, true);
    let _ = v.get(Pmcr::P);
}
