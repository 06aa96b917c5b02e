// A common event's name with another event's number: the architecture's number is given.
pmu_macros::event_set! {
    pub enum Mine {
        INST_RETIRED = 0x08,
        L1D_CACHE_REFILL = 0x04,
    }
}

fn main() {}
