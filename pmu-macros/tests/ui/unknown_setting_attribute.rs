// A misspelt setting is the macro's error, not an unknown attribute for rustc.
pmu_macros::event_set! {
    #[cores = cortex_a53]
    pub enum Mine {
        CPU_CYCLES,
    }
}

fn main() {}
