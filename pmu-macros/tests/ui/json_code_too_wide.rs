// wide-code.json holds CNT_CYCLES (0x4004), which needs PMUv3p1.
pmu_macros::event_set! {
    #[json = "tests/fixtures/wide-code.json"]
    pub enum Events {}
}

fn main() {}
