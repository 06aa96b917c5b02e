#[pmu_macros::event_enum(pmu = pmuv3p1)]
pub enum Events {
    /// Instruction architecturally executed
    INST_RETIRED = 0x08,
    /// Cycle
    CPU_CYCLES = 0x08,
}

fn main() {}
