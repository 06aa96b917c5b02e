//! Event numbers and the set of events a PMU reports it can count (PMCEID0-3).

/// A PMU event number, as written to `PMEVTYPER<n>`.evtCount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Event(u16);

impl Event {
    /// Counts each write of the counter's bit to PMSWINC.
    pub const SW_INCR: Self = Self(0x00);
    /// Level 1 instruction cache refill.
    pub const L1I_CACHE_REFILL: Self = Self(0x01);
    /// Level 1 data cache refill.
    pub const L1D_CACHE_REFILL: Self = Self(0x03);
    /// Level 1 data cache access.
    pub const L1D_CACHE: Self = Self(0x04);
    /// Instruction architecturally executed.
    pub const INST_RETIRED: Self = Self(0x08);
    /// Mispredicted or not predicted branch.
    pub const BR_MIS_PRED: Self = Self(0x10);
    /// Cycle.
    pub const CPU_CYCLES: Self = Self(0x11);
    /// Predictable branch speculatively executed.
    pub const BR_PRED: Self = Self(0x12);
    /// Bus access.
    pub const BUS_ACCESS: Self = Self(0x19);
    /// Bus cycle.
    pub const BUS_CYCLES: Self = Self(0x1D);
    /// Counts the overflows of the even counter below it: the high half of a chained pair.
    pub const CHAIN: Self = Self(0x1E);
    /// Cycles the front end could not issue.
    pub const STALL_FRONTEND: Self = Self(0x23);
    /// Cycles the back end could not accept.
    pub const STALL_BACKEND: Self = Self(0x24);

    /// The event with this number (architectural, common microarchitectural or
    /// implementation defined).
    pub const fn new(number: u16) -> Self {
        Self(number)
    }

    /// The event number.
    pub const fn number(self) -> u16 {
        self.0
    }
}

/// What PMCEID0-3 say about one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Its PMCEID bit is set.
    Counted,
    /// Its PMCEID bit is clear.
    NotCounted,
    /// No PMCEID bit describes it (implementation-defined event numbers).
    NotDescribed,
}

/// The common events a PMU counts: PMCEID0 (events 0x00-0x1F), PMCEID1 (0x20-0x3F), PMCEID2
/// (0x4000-0x401F) and PMCEID3 (0x4020-0x403F).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
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
        let (word, bit) = match event.0 {
            n @ 0x00..=0x3F => (n / 32, n % 32),
            n @ 0x4000..=0x403F => (2 + (n - 0x4000) / 32, n % 32),
            _ => return Support::NotDescribed,
        };
        if self.words[word as usize] & (1 << bit) != 0 {
            Support::Counted
        } else {
            Support::NotCounted
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
            .map(Event)
            .filter(move |e| self.contains(*e))
    }
}
