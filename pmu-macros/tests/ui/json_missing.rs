pmu_macros::event_set! {
    #[json = "tests/fixtures/no-such-core.json"]
    pub enum Events {}
}

fn main() {}
