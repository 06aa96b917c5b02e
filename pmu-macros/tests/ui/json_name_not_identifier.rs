pmu_macros::event_set! {
    #[json = "tests/fixtures/bad-name.json"]
    pub enum Events {}
}

fn main() {}
