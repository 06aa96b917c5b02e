#[pmu_macros::event_enum(pmu = pmuv3p1, jsn = "tests/fixtures/cycles.json")]
pub enum Events {
    /// Cycle
    CPU_CYCLES = 0x11,
}

fn main() {}
