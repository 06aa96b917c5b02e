//! Every way a driver call can fail, as a value: the driver never panics.
use crate::event::pmceid_bit;
use crate::Event;

/// Why a driver call did not do what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The CPU reports no Arm-architected PMU (the ID register's PMU version field is 0 or 0xF).
    NoPmu,
    /// The PMU does not count this event: its bit in PMCEID0-3 is clear. (QEMU 7.2 counts only
    /// SW_INCR, INST_RETIRED and CPU_CYCLES, and says so there.)
    UnsupportedEvent(Event),
    /// A name looked up at run time names no event of the core's set (a typo, most likely).
    UnknownEventName {
        /// The name asked for.
        name: &'static str,
        /// The closest name of the set, if one is close.
        suggestion: Option<&'static str>,
    },
    /// Every counter the request needs is already allocated (a measurer, a session or a counter
    /// that was not released still holds it).
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
            Self::UnsupportedEvent(e) => match pmceid_bit(*e) {
                Some((register, bit)) => {
                    write!(f, "{e}: PMCEID{register} bit {bit} is clear on this PMU")
                }
                None => write!(f, "{e} is not counted by this PMU"),
            },
            Self::UnknownEventName { name, suggestion } => {
                write!(f, "unknown event name `{name}`")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean `{s}`?"),
                    None => Ok(()),
                }
            }
            Self::NoFreeCounter => f.write_str(
                "no free counter (is a measurer, session or counter still holding one?)",
            ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn errors_name_the_event_and_the_reason() {
        assert_eq!(
            Error::UnsupportedEvent(Event::L1D_CACHE_REFILL).to_string(),
            "L1D_CACHE_REFILL (0x0003): PMCEID0 bit 3 is clear on this PMU"
        );
        assert_eq!(
            Error::UnsupportedEvent(Event::new(0x24)).to_string(),
            "STALL_BACKEND (0x0024): PMCEID1 bit 4 is clear on this PMU"
        );
        assert_eq!(
            Error::UnknownEventName {
                name: "L1D_CACHE_REFIL",
                suggestion: Some("L1D_CACHE_REFILL")
            }
            .to_string(),
            "unknown event name `L1D_CACHE_REFIL`; did you mean `L1D_CACHE_REFILL`?"
        );
    }
}
