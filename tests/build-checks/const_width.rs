// PMSELR.SEL is 5 bits: `Const::<32>` is one bit too wide.
use arm_pmuv3::{Layout, Pmselr};

fn main() {
    let _ = Pmselr::DEFAULT.with(Pmselr::SEL, armreg_rt::Const::<32>);
}
