pmu_macros::event_set! {
    pub enum Events {
        /// Cycle
        CPU_CYCLES = 0x11,
        /// Instruction architecturally executed (a copy-paste slip)
        CPU_CYCLES = 0x08,
    }
}

fn main() {}
