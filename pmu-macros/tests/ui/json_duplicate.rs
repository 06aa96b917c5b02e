// cycles.json defines CPU_CYCLES = 0x11 too.
pmu_macros::event_set! {
    #[json = "tests/fixtures/cycles.json"]
    pub enum Events {
        /// Cycle
        CPU_CYCLES = 0x11,
    }
}

fn main() {}
