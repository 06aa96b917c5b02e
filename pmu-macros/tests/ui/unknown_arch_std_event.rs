// events.json refers to `L9D_CACHE_REFILL`, which the arch root's tables do not define.
pmu_macros::event_set! {
    #[json = "tests/fixtures/arm64/vendor/unknown-arch-std"]
    pub enum Events {}
}

fn main() {}
