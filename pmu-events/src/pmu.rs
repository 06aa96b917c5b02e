//! Which PMU an event set is for: the width of its event field and what its PMCEID registers say.

/// The bit of PMCEID0–3 (AArch32 and external numbering) that advertises a common event:
/// `(register, bit)` with PMCEID0 = events 0x0000–0x001F, PMCEID1 = 0x0020–0x003F,
/// PMCEID2 = 0x4000–0x401F, PMCEID3 = 0x4020–0x403F. `None` for every other event: PMCEID says
/// nothing about implementation-defined events or the other architected ranges, so their support
/// cannot be read from it. (In AArch64, PMCEID0_EL0\[63:32\] is PMCEID2 and PMCEID1_EL0\[63:32\]
/// is PMCEID3.)
pub const fn pmceid_bit(code: u16) -> Option<(usize, u32)> {
    match code {
        0x0000..=0x003F => Some(((code >> 5) as usize, (code & 0x1F) as u32)),
        0x4000..=0x403F => Some((2 + ((code - 0x4000) >> 5) as usize, (code & 0x1F) as u32)),
        _ => None,
    }
}

/// A PMU kind: the event-field width and the PMCEID registers differ between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pmu {
    /// The ARM11 performance monitor (Armv6, before the architected PMU): 8-bit event numbers
    /// of its own, and no PMCEID registers.
    Arm11,
    /// The Armv7 PMU (PMUv2): `PMXEVTYPER.evtCount` is bits \[7:0\]; PMCEID0/1 advertise the
    /// common events 0x00–0x3F.
    PmuV2,
    /// Armv8.0 PMUv3: `PMEVTYPER<n>.evtCount` is bits \[9:0\]; bits \[15:10\] are RES0.
    PmuV3,
    /// PMUv3p1 and later: `PMEVTYPER<n>.evtCount` is bits \[15:0\].
    PmuV3p1,
    /// The DynamIQ Shared Unit cluster PMU. Linux writes its whole 32-bit `CLUSTERPMXEVTYPER`
    /// (format `config:0-31`), but event numbers are modelled as 16 bits here, as in the core PMU;
    /// CLUSTERPMCEID0/1 advertise the common events 0x00–0x3F.
    Dsu,
}

impl Pmu {
    /// Every kind, for listing the accepted names.
    pub const ALL: [Pmu; 5] = [Pmu::Arm11, Pmu::PmuV2, Pmu::PmuV3, Pmu::PmuV3p1, Pmu::Dsu];

    /// The name used to select it (e.g. in the `pmu = ...` argument of `pmu-macros`).
    pub const fn keyword(self) -> &'static str {
        match self {
            Pmu::Arm11 => "arm11",
            Pmu::PmuV2 => "pmuv2",
            Pmu::PmuV3 => "pmuv3",
            Pmu::PmuV3p1 => "pmuv3p1",
            Pmu::Dsu => "dsu",
        }
    }

    /// The kind a keyword names.
    pub fn from_keyword(keyword: &str) -> Option<Pmu> {
        Self::ALL.into_iter().find(|p| p.keyword() == keyword)
    }

    /// Whether `code` is in the range the architecture leaves to each implementation, where a
    /// core may give an event of its own a number the common events use elsewhere, or reuse a
    /// common mnemonic (the Cortex-A55's STALL_FRONTEND_TLB is 0x00E2, the architecture's
    /// 0x815C): 0x40–0xFF on an Armv7 PMU, 0xC0–0xFF on PMUv3; every number of the ARM11 and
    /// DSU PMUs, which number their events their own way.
    pub const fn is_implementation_defined(self, code: u16) -> bool {
        match self {
            Pmu::PmuV2 => matches!(code, 0x0040..=0x00FF),
            Pmu::PmuV3 | Pmu::PmuV3p1 => matches!(code, 0x00C0..=0x00FF),
            Pmu::Arm11 | Pmu::Dsu => true,
        }
    }

    /// Width in bits of the event number field.
    pub const fn event_bits(self) -> u32 {
        match self {
            Pmu::Arm11 | Pmu::PmuV2 => 8,
            Pmu::PmuV3 => 10,
            Pmu::PmuV3p1 | Pmu::Dsu => 16,
        }
    }

    /// The event field, for messages.
    pub const fn event_field(self) -> &'static str {
        match self {
            Pmu::Arm11 => {
                "ARM11 event field (8-bit event numbers of the ARM11 performance monitor)"
            }
            Pmu::PmuV2 => "Armv7 PMUv2 event field PMXEVTYPER.evtCount[7:0]",
            Pmu::PmuV3 => {
                "PMUv3 event field PMEVTYPER<n>.evtCount[9:0] (bits [15:10] need PMUv3p1)"
            }
            Pmu::PmuV3p1 => "PMUv3p1 event field PMEVTYPER<n>.evtCount[15:0]",
            Pmu::Dsu => {
                "16-bit DSU event number (CLUSTERPMXEVTYPER, event numbers modelled as 16 bits)"
            }
        }
    }

    /// Whether `code` fits the event field.
    pub const fn fits(self, code: u64) -> bool {
        code >> self.event_bits() == 0
    }

    /// How many 32-bit PMCEID registers advertise common events (PMCEID0–3; PMCEID0–1 of an
    /// Armv7 PMU; CLUSTERPMCEID0–1; none on ARM11).
    pub const fn pmceid_registers(self) -> usize {
        match self {
            Pmu::PmuV3 | Pmu::PmuV3p1 => 4,
            Pmu::PmuV2 | Pmu::Dsu => 2,
            Pmu::Arm11 => 0,
        }
    }

    /// The PMCEID bit that advertises `code` on this PMU, see [`pmceid_bit`]; for an Armv7 PMU
    /// and the DSU only 0x00–0x3F (PMCEID0/1, CLUSTERPMCEID0/1).
    pub const fn pmceid_bit(self, code: u16) -> Option<(usize, u32)> {
        match (self, pmceid_bit(code)) {
            (Pmu::Arm11, _) => None,
            (Pmu::PmuV2 | Pmu::Dsu, Some((register, _))) if register >= 2 => None,
            (_, bit) => bit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmceid_ranges() {
        assert_eq!(pmceid_bit(0x00), Some((0, 0)));
        assert_eq!(pmceid_bit(0x1F), Some((0, 31)));
        assert_eq!(pmceid_bit(0x20), Some((1, 0)));
        assert_eq!(pmceid_bit(0x3F), Some((1, 31)));
        assert_eq!(pmceid_bit(0x40), None);
        assert_eq!(pmceid_bit(0x3FFF), None);
        assert_eq!(pmceid_bit(0x4000), Some((2, 0)));
        assert_eq!(pmceid_bit(0x401F), Some((2, 31)));
        assert_eq!(pmceid_bit(0x4020), Some((3, 0)));
        assert_eq!(pmceid_bit(0x403F), Some((3, 31)));
        assert_eq!(pmceid_bit(0x4040), None);
        assert_eq!(pmceid_bit(0xC0), None);
        assert_eq!(Pmu::Dsu.pmceid_bit(0x4000), None);
        assert_eq!(Pmu::Dsu.pmceid_bit(0x2A), Some((1, 10)));
        assert_eq!(Pmu::Arm11.pmceid_bit(0x00), None);
    }

    #[test]
    fn qemu_pmceid0_from_facts() {
        // QEMU 7.2 with icount reports PMCEID0 = 0x20101 (as measured by tests/tests/qemu.rs):
        // SW_INCR (0x00), INST_RETIRED (0x08) and CPU_CYCLES (0x11); not L1D_CACHE (0x04).
        let pmceid = [0x20101u32, 0, 0, 0];
        let supported = |code| pmceid_bit(code).map(|(r, b)| pmceid[r] >> b & 1 == 1);
        assert_eq!(supported(0x00), Some(true));
        assert_eq!(supported(0x08), Some(true));
        assert_eq!(supported(0x11), Some(true));
        assert_eq!(supported(0x04), Some(false));
        assert_eq!(supported(0xC0), None);
    }

    #[test]
    fn event_field_widths() {
        assert!(Pmu::PmuV2.fits(0xFF) && !Pmu::PmuV2.fits(0x100));
        assert!(Pmu::PmuV3.fits(0x3FF) && !Pmu::PmuV3.fits(0x400));
        assert!(Pmu::PmuV3p1.fits(0xFFFF) && !Pmu::PmuV3p1.fits(0x1_0000));
        assert!(Pmu::Dsu.fits(0xFFFF) && !Pmu::Dsu.fits(0x1_0000));
        assert_eq!(Pmu::from_keyword("pmuv3p1"), Some(Pmu::PmuV3p1));
        assert_eq!(Pmu::from_keyword("v3"), None);
    }
}
