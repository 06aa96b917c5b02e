// Seven events for six counters.
pmu_macros::event_set! {
    #[counters = 6]
    pub enum Mine {
        SW_INCR = 0x00,
        L1I_CACHE_REFILL = 0x01,
        L1D_CACHE_REFILL = 0x03,
        L1D_CACHE = 0x04,
        INST_RETIRED = 0x08,
        BR_MIS_PRED = 0x10,
        CPU_CYCLES = 0x11,
    }
}

pmu_macros::event_set! {
    #[core = cortex_a53]
    #[counters = 2]
    pub enum Three {
        CPU_CYCLES,
        INST_RETIRED,
        L1D_CACHE_REFILL,
    }
}

fn main() {}
