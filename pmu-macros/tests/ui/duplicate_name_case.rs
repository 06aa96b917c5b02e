// perf and `FromStr` match names ignoring ASCII case, so these two would be ambiguous.
pmu_macros::event_set! {
    pub enum Events {
        /// Cycle
        CPU_CYCLES = 0x11,
        /// Cycle, spelled differently
        cpu_cycles = 0x12,
    }
}

fn main() {}
