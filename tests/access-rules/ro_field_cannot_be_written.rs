// PMCR.N is read-only in the system-register view: it has no write type.
use arm_pmuv3::{Layout, Pmcr};

fn main() {
    let v = Pmcr::DEFAULT;
    let _ = v.get(Pmcr::N);
    let _ = v.with(Pmcr::N, 6);
}
