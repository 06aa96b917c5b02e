pmu_macros::event_set! {
    #[pmu = pmuv3p1]
    pub enum Events {
        /// Constant frequency cycles
        CNT_CYCLES = 0x4004,
        /// One digit too many
        TOO_WIDE = 0x40040,
    }
}

fn main() {}
