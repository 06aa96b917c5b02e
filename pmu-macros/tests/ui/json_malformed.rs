// malformed.json misses a comma after `"EventName": "CPU_CYCLES"` (line 4).
pmu_macros::event_set! {
    #[json = "tests/fixtures/malformed.json"]
    pub enum Events {}
}

fn main() {}
