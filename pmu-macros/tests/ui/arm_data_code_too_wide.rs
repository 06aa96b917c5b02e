// arm-v7-core.json is Arm PMU data for an Armv7 core (pmuv2: 8-bit event numbers) with an event
// numbered 0x100.
pmu_macros::event_set! {
    #[json = "tests/fixtures/arm-v7-core.json"]
    pub enum Events {}
}

fn main() {}
