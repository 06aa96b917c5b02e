// Without `pmu = ...` the set is for PMUv3: a 10-bit event field.
pmu_macros::event_set! {
    pub enum Events {
        /// Cycle
        CPU_CYCLES = 0x11,
        /// Constant frequency cycles
        CNT_CYCLES = 0x4004,
    }
}

fn main() {}
