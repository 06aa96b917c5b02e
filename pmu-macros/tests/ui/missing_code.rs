pmu_macros::event_set! {
    pub enum Mine {
        CPU_CYCLES,
    }
}

fn main() {}
