pmu_macros::event_set! {
    #[core = cortex_a35x]
    pub enum Mine {
        CPU_CYCLES,
    }
}

fn main() {}
