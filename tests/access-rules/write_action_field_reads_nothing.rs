// PMCR.P is a write-1 action that reads as 0: it has a setter but no getter.
use arm_pmuv3::Pmcr;

fn main() {
    let v = Pmcr::DEFAULT.with_p(true);
    let _ = v.p();
}
