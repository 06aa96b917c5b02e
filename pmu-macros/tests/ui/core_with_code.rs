pmu_macros::event_set! {
    #[core = cortex_a53]
    pub enum Mine {
        CPU_CYCLES,
        L1D_CACHE_REFILL = 0x03,
    }
}

fn main() {}
