// A set of a core's events names one the core does not have: the compiler says so at the name,
// with the core's closest name.
pmu_macros::event_set! {
    #[core = cortex_a53]
    pub enum Mine {
        CPU_CYCLES,
        L1D_CACHE_REFIL,
    }
}

fn main() {}
