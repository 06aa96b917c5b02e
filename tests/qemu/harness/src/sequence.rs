//! The differential check's register sequence: writes to the three set/clear pairs
//! (PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSSET/CLR) and PMCR, run on QEMU's PMU through the AArch64
//! system registers (the firmware's `pmu_sequence` test) and on the generated behavioural model of
//! the external view (`tests/tests/qemu/differential.rs`), which compares the state after each
//! step. Plain data, no dependencies: the host test includes this file with `#[path]`, so both
//! sides run the same steps.

/// The register a step writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    CntenSet,
    CntenClr,
    IntenSet,
    IntenClr,
    OvsSet,
    OvsClr,
    Pmcr,
}

/// The writes, in order. Each is followed by a report of the state (`STATE`); the state before
/// the first write is reported too, as step 0.
pub const STEPS: &[(Target, u32)] = &[
    (Target::CntenSet, 0x8000_0003),
    // A 0 through a set view changes nothing.
    (Target::CntenSet, 0),
    (Target::CntenClr, 0x0000_0001),
    // Every bit: those of counters at or above N are RAZ/WI.
    (Target::CntenSet, 0xFFFF_FFFF),
    (Target::CntenClr, 0x8000_0010),
    (Target::CntenClr, 0xFFFF_FFFF),
    (Target::IntenSet, 0x8000_0005),
    (Target::IntenClr, 0x8000_0000),
    (Target::IntenSet, 0xFFFF_FFFF),
    (Target::IntenClr, 0x7FFF_FFFE),
    (Target::OvsSet, 0x0000_0022),
    (Target::OvsClr, 0x0000_0002),
    (Target::OvsSet, 0xFFFF_FFFF),
    // The clear view of the interrupt enables leaves the flags alone.
    (Target::IntenClr, 0xFFFF_FFFF),
    (Target::OvsClr, 0x7FFF_FFFF),
    // PMCR: E, D, X, DP, LC written; then P and C (write-1 actions, read as 0) with E; then every
    // bit (the read-only and unimplemented ones ignore it); then 0.
    (Target::Pmcr, 0x0000_0079),
    (Target::Pmcr, 0x0000_0007),
    (Target::Pmcr, 0xFFFF_FFFF),
    (Target::Pmcr, 0x0000_0000),
    (Target::OvsClr, 0xFFFF_FFFF),
];

/// The state reported after each step (`<key>_<step>`): PMCNTENSET, PMINTENSET, PMOVSSET and
/// PMCR as read back.
pub const STATE: [&str; 4] = ["seq_cnten", "seq_inten", "seq_ovs", "seq_pmcr"];
