// In the external view PMCR.N is RAZ/WI: read N from PMCFGR instead.
use arm_pmuv3::{Layout, PmcrExt};

fn main() {
    let v = PmcrExt::DEFAULT;
    let _ = v.get(PmcrExt::N);
    let _ = v.with(PmcrExt::N, 6);
}
