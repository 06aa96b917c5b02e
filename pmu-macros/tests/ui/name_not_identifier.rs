pmu_macros::event_set! {
    pub enum Events {
        /// Level 1 data cache access
        "L1D-CACHE" = 0x04,
    }
}

fn main() {}
