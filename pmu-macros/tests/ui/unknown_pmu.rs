pmu_macros::event_set! {
    #[pmu = pmuv4]
    pub enum Events {
        /// Cycle
        CPU_CYCLES = 0x11,
    }
}

fn main() {}
