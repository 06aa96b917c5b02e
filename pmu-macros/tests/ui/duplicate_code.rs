pmu_macros::event_set! {
    pub enum Events {
        /// Instruction architecturally executed
        INST_RETIRED = 0x08,
        /// Cycle (a typo: 0x08 instead of 0x11)
        CPU_CYCLES = 0x08,
    }
}

fn main() {}
