//! Events as the driver takes them (a number with its name) and the set of events a PMU reports
//! it can count (PMCEID0-3).
use core::fmt;

use armreg_rt::events::PmuEvent;

/// A PMU event: the number written to `PMEVTYPER<n>`.evtCount, and its name where known.
///
/// Every compile-time checked set converts into it (`Event::from(cortex_a53::Event::L1D_CACHE_REFILL)`,
/// or pass the typed event wherever the driver takes `impl Into<Event>`), keeping its name; an
/// event made from a bare number ([`Event::new`]) is named from the architecture's common events
/// when it is one of them. Two events are equal when their numbers are: the name is a label.
#[derive(Clone, Copy)]
pub struct Event {
    code: u16,
    name: Option<&'static str>,
}

impl Event {
    /// Counts each write of the counter's bit to PMSWINC.
    pub const SW_INCR: Self = Self::named(0x00, "SW_INCR");
    /// Level 1 instruction cache refill.
    pub const L1I_CACHE_REFILL: Self = Self::named(0x01, "L1I_CACHE_REFILL");
    /// Level 1 data cache refill.
    pub const L1D_CACHE_REFILL: Self = Self::named(0x03, "L1D_CACHE_REFILL");
    /// Level 1 data cache access.
    pub const L1D_CACHE: Self = Self::named(0x04, "L1D_CACHE");
    /// Instruction architecturally executed.
    pub const INST_RETIRED: Self = Self::named(0x08, "INST_RETIRED");
    /// Mispredicted or not predicted branch.
    pub const BR_MIS_PRED: Self = Self::named(0x10, "BR_MIS_PRED");
    /// Cycle.
    pub const CPU_CYCLES: Self = Self::named(0x11, "CPU_CYCLES");
    /// Predictable branch speculatively executed.
    pub const BR_PRED: Self = Self::named(0x12, "BR_PRED");
    /// Data memory access.
    pub const MEM_ACCESS: Self = Self::named(0x13, "MEM_ACCESS");
    /// Bus access.
    pub const BUS_ACCESS: Self = Self::named(0x19, "BUS_ACCESS");
    /// Bus cycle.
    pub const BUS_CYCLES: Self = Self::named(0x1D, "BUS_CYCLES");
    /// Counts the overflows of the even counter below it: the high half of a chained pair.
    pub const CHAIN: Self = Self::named(0x1E, "CHAIN");
    /// Cycles the front end could not issue.
    pub const STALL_FRONTEND: Self = Self::named(0x23, "STALL_FRONTEND");
    /// Cycles the back end could not accept.
    pub const STALL_BACKEND: Self = Self::named(0x24, "STALL_BACKEND");

    /// The event with this number (architectural, common microarchitectural or implementation
    /// defined). Prefer a typed event of the core (`arm_pmu_events::cortex_a53::Event`), which
    /// the compiler checks and which keeps the name of an implementation-defined event.
    pub const fn new(number: u16) -> Self {
        Self {
            code: number,
            name: None,
        }
    }

    /// The event with this number, called `name`.
    pub const fn named(number: u16, name: &'static str) -> Self {
        Self {
            code: number,
            name: Some(name),
        }
    }

    /// The event number.
    pub const fn number(self) -> u16 {
        self.code
    }

    /// Its name: the one it was made with, or the architecture's for a common event.
    pub fn name(self) -> Option<&'static str> {
        self.name.or_else(|| {
            [arm_pmu_events::COMMON_ARMV8, arm_pmu_events::COMMON_ARMV7]
                .into_iter()
                .flatten()
                .find_map(|table| table.by_code(self.code))
                .map(|info| info.name)
        })
    }
}

impl<E: PmuEvent> From<E> for Event {
    fn from(event: E) -> Self {
        Self::named(event.code(), event.name())
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.code == other.code
    }
}

impl Eq for Event {}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.code.cmp(&other.code)
    }
}

impl core::hash::Hash for Event {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.code.hash(state);
    }
}

/// `L1D_CACHE_REFILL (0x0003)`, or `event 0x00C0` when no name is known.
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{name} (0x{:04X})", self.code),
            None => write!(f, "event 0x{:04X}", self.code),
        }
    }
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Event({self})")
    }
}

/// What PMCEID0-3 say about one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Its PMCEID bit is set.
    Counted,
    /// Its PMCEID bit is clear.
    NotCounted,
    /// No PMCEID bit describes it (implementation-defined event numbers), or the PMU has no
    /// PMCEID (an Armv7 PMU): whether it counts cannot be read from the PMU.
    NotDescribed,
}

/// The PMCEID register (0-3, AArch32 and external numbering; in AArch64 PMCEID2 and PMCEID3 are
/// the high halves of PMCEID0_EL0 and PMCEID1_EL0) and bit that advertise `event`, if any.
pub const fn pmceid_bit(event: Event) -> Option<(usize, u32)> {
    match event.code {
        n @ 0x00..=0x3F => Some(((n / 32) as usize, (n % 32) as u32)),
        n @ 0x4000..=0x403F => Some(((2 + (n - 0x4000) / 32) as usize, (n % 32) as u32)),
        _ => None,
    }
}

/// The common events a PMU counts: PMCEID0 (events 0x00-0x1F), PMCEID1 (0x20-0x3F), PMCEID2
/// (0x4000-0x401F) and PMCEID3 (0x4020-0x403F).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct EventSet {
    words: [u32; 4],
}

impl EventSet {
    /// The set described by PMCEID0..PMCEID3, in that order.
    pub const fn from_pmceid(words: [u32; 4]) -> Self {
        Self { words }
    }

    /// PMCEID0..PMCEID3.
    pub const fn pmceid(self) -> [u32; 4] {
        self.words
    }

    /// What the set says about `event`.
    pub const fn support(self, event: Event) -> Support {
        match pmceid_bit(event) {
            Some((word, bit)) if self.words[word % 4] & (1 << bit) != 0 => Support::Counted,
            Some(_) => Support::NotCounted,
            None => Support::NotDescribed,
        }
    }

    /// Whether the set's PMCEID bit for `event` is set.
    pub const fn contains(self, event: Event) -> bool {
        matches!(self.support(event), Support::Counted)
    }

    /// The events in the set, lowest number first.
    pub fn iter(self) -> impl Iterator<Item = Event> {
        (0u16..0x40)
            .chain(0x4000..0x4040)
            .map(Event::new)
            .filter(move |e| self.contains(*e))
    }
}

/// The PMCEID words in hexadecimal, as the Arm ARM writes them.
impl fmt::Debug for EventSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d] = self.words;
        write!(
            f,
            "EventSet {{ pmceid: [{a:#010x}, {b:#010x}, {c:#010x}, {d:#010x}] }}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    #[test]
    fn names_come_with_the_event() {
        assert_eq!(Event::new(0x03).name(), Some("L1D_CACHE_REFILL"));
        assert_eq!(Event::new(0x03), Event::L1D_CACHE_REFILL);
        assert_eq!(
            format!("{}", Event::L1D_CACHE_REFILL),
            "L1D_CACHE_REFILL (0x0003)"
        );
        assert_eq!(format!("{}", Event::new(0xC0)), "event 0x00C0");
        assert_eq!(
            format!("{}", Event::named(0xC0, "EVENT_C0")),
            "EVENT_C0 (0x00C0)"
        );
        assert_eq!(
            format!("{:?}", EventSet::from_pmceid([0x20101, 0, 0, 0])),
            "EventSet { pmceid: [0x00020101, 0x00000000, 0x00000000, 0x00000000] }"
        );
    }

    #[test]
    fn pmceid_bits() {
        assert_eq!(pmceid_bit(Event::new(0x23)), Some((1, 3)));
        assert_eq!(pmceid_bit(Event::new(0x4004)), Some((2, 4)));
        assert_eq!(pmceid_bit(Event::new(0x4024)), Some((3, 4)));
        assert_eq!(pmceid_bit(Event::new(0xC0)), None);
    }
}
