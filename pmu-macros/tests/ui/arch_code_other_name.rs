// A common event's number under a misspelt name: the architecture's name is suggested.
pmu_macros::event_set! {
    pub enum Mine {
        INST_RETIERD = 0x08,
        L1D_CACHE_REFILL = 0x03,
    }
}

fn main() {}
