//! The PMU architecture version, decoded from ID_AA64DFR0_EL1.PMUVer or ID_DFR0.PerfMon.

/// Which version of the Performance Monitors architecture the CPU implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PmuVersion {
    /// No PMU.
    NotImplemented,
    /// PMUv1 (Armv7, AArch32 only).
    V1,
    /// PMUv2 (Armv7, AArch32 only): no PMCEID in QEMU, event counters through PMSELR.
    V2,
    /// PMUv3 (Armv8.0).
    V3,
    /// FEAT_PMUv3p1: 16-bit event numbers, PMCEID2/3.
    V3p1,
    /// FEAT_PMUv3p4.
    V3p4,
    /// FEAT_PMUv3p5: 64-bit event counters (PMCR.LP).
    V3p5,
    /// FEAT_PMUv3p7.
    V3p7,
    /// FEAT_PMUv3p8.
    V3p8,
    /// FEAT_PMUv3p9.
    V3p9,
    /// An implementation-defined, non-architected PMU (field value 0xF).
    ImplementationDefined,
    /// A field value this driver does not know; treated as at least the newest known version.
    Unknown(u8),
}

/// As the Arm ARM names it: `PMUv3`, `PMUv3p5`.
impl core::fmt::Display for PmuVersion {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NotImplemented => f.write_str("no PMU"),
            Self::V1 => f.write_str("PMUv1"),
            Self::V2 => f.write_str("PMUv2"),
            Self::V3 => f.write_str("PMUv3"),
            Self::V3p1 => f.write_str("PMUv3p1"),
            Self::V3p4 => f.write_str("PMUv3p4"),
            Self::V3p5 => f.write_str("PMUv3p5"),
            Self::V3p7 => f.write_str("PMUv3p7"),
            Self::V3p8 => f.write_str("PMUv3p8"),
            Self::V3p9 => f.write_str("PMUv3p9"),
            Self::ImplementationDefined => f.write_str("an implementation-defined PMU"),
            Self::Unknown(n) => write!(f, "PMU version field {n:#x}"),
        }
    }
}

impl PmuVersion {
    /// Decodes ID_AA64DFR0_EL1.PMUVer (bits \[11:8\]).
    pub const fn from_aa64dfr0(id_aa64dfr0: u64) -> Self {
        // The mask leaves four bits, so the field fits a `u8`.
        let field = ((id_aa64dfr0 >> 8) & 0xF) as u8;
        match field {
            0 => Self::NotImplemented,
            1 => Self::V3,
            4 => Self::V3p1,
            5 => Self::V3p4,
            6 => Self::V3p5,
            7 => Self::V3p7,
            8 => Self::V3p8,
            9 => Self::V3p9,
            0xF => Self::ImplementationDefined,
            n => Self::Unknown(n),
        }
    }

    /// Decodes ID_DFR0.PerfMon (bits \[27:24\]).
    pub const fn from_dfr0(id_dfr0: u32) -> Self {
        // The mask leaves four bits, so the field fits a `u8`.
        let field = ((id_dfr0 >> 24) & 0xF) as u8;
        match field {
            0 => Self::NotImplemented,
            1 => Self::V1,
            2 => Self::V2,
            3 => Self::V3,
            4 => Self::V3p1,
            5 => Self::V3p4,
            6 => Self::V3p5,
            7 => Self::V3p7,
            8 => Self::V3p8,
            9 => Self::V3p9,
            0xF => Self::ImplementationDefined,
            n => Self::Unknown(n),
        }
    }

    /// Position in the order of versions; `None` for "no architected PMU".
    const fn rank(self) -> Option<u8> {
        Some(match self {
            Self::NotImplemented | Self::ImplementationDefined => return None,
            Self::V1 => 1,
            Self::V2 => 2,
            Self::V3 => 3,
            Self::V3p1 => 4,
            Self::V3p4 => 5,
            Self::V3p5 => 6,
            Self::V3p7 => 7,
            Self::V3p8 => 8,
            Self::V3p9 => 9,
            Self::Unknown(_) => u8::MAX,
        })
    }

    /// Whether this is an Arm-architected PMU the driver can use.
    pub const fn is_architected(self) -> bool {
        self.rank().is_some()
    }

    /// Whether this version includes everything `other` has.
    pub const fn at_least(self, other: Self) -> bool {
        match (self.rank(), other.rank()) {
            (Some(a), Some(b)) => a >= b,
            _ => false,
        }
    }
}
