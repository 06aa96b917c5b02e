// Two files of Arm's PMU data for different PMUs (pmuv2, pmuv3), and no `pmu = ...` to settle it.
pmu_macros::event_set! {
    #[json = "tests/fixtures/arm-v8-core.json"]
    #[json = "tests/fixtures/arm-v7-core.json"]
    pub enum Events {}
}

fn main() {}
