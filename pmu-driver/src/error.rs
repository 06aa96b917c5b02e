//! Every way a driver call can fail, as a value: the driver never panics.
use crate::Event;

/// Why a driver call did not do what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The CPU reports no Arm-architected PMU (the ID register's PMU version field is 0 or 0xF).
    NoPmu,
    /// The PMU does not count this event: its bit in PMCEID0-3 is clear.
    UnsupportedEvent(Event),
    /// Every counter the request needs is already allocated.
    NoFreeCounter,
    /// A counter index at or above the number of counters this exception level sees (PMCR.N, which
    /// MDCR_EL2.HPMN lowers at EL1 and EL0; PMCFGR.N in the external view).
    CounterOutOfRange {
        /// The index asked for.
        index: usize,
        /// The number of event counters.
        count: usize,
    },
    /// The operation does not apply to this kind of counter (a software increment of the cycle
    /// counter, a sample period on a 64-bit counter).
    WrongCounterKind,
    /// A sample period of zero events.
    ZeroPeriod,
    /// A timer frequency of zero (CNTFRQ was never programmed).
    ZeroFrequency,
    /// The PMU has no cycle counter (a memory-mapped cluster PMU that describes none).
    NoCycleCounter,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NoPmu => f.write_str("no Arm-architected PMU"),
            Self::UnsupportedEvent(e) => write!(f, "event {:#x} is not supported", e.number()),
            Self::NoFreeCounter => f.write_str("no free counter"),
            Self::CounterOutOfRange { index, count } => {
                write!(f, "counter {index} out of range (0..{count})")
            }
            Self::WrongCounterKind => f.write_str("operation does not apply to this counter"),
            Self::ZeroPeriod => f.write_str("sample period of zero"),
            Self::ZeroFrequency => f.write_str("timer frequency of zero"),
            Self::NoCycleCounter => f.write_str("no cycle counter"),
        }
    }
}
