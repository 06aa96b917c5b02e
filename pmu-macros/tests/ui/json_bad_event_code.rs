pmu_macros::event_set! {
    #[json = "tests/fixtures/bad-event-code.json"]
    pub enum Events {}
}

fn main() {}
