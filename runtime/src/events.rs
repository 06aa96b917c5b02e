//! PMU events and CPU cores as data, for decisions made at run time: which core this is, which
//! events it has, what an event is called. Generated event crates fill these tables; the
//! compile-time checked enums (`pmu_macros::event_set!`) sit beside them.
//!
//! Everything is `'static` data and plain loops: no allocation, no panic.

/// An event of a compile-time checked set (an enum `pmu_macros::event_set!` declares, such as
/// `arm_pmu_events::cortex_a53::Event`): its number and its name. A driver takes any such event
/// (`pmu_driver::Event` converts from every one), so a set's events keep their names wherever
/// they go.
pub trait PmuEvent: Copy {
    /// The number written to the event-type register.
    fn code(self) -> u16;
    /// The mnemonic (`INST_RETIRED`).
    fn name(self) -> &'static str;
}

/// Names longer than this are not compared by [`closest_name`].
const MAX_NAME: usize = 64;

/// Levenshtein distance between `a` and `b` (ASCII case ignored), or `None` when either is
/// longer than [`MAX_NAME`] bytes. One row of the table, in a fixed buffer: no allocation.
fn distance(a: &str, b: &str) -> Option<usize> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() > MAX_NAME || b.len() > MAX_NAME {
        return None;
    }
    let mut row = [0usize; MAX_NAME + 1];
    for (j, cell) in row.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for (i, &ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(!ca.eq_ignore_ascii_case(&cb));
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row.get(b.len()).copied()
}

/// "Did you mean ...?": the name of `names` closest to `name` (ASCII case ignored), if it is as
/// close as a typo is: at most a third of its length away, and 1 to 3 edits.
pub fn closest_name<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.len() / 3).clamp(1, 3);
    names
        .into_iter()
        .filter_map(|candidate| distance(name, candidate).map(|d| (d, candidate)))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, candidate)| candidate)
}

/// One event of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventInfo {
    /// The number written to the event-type register.
    pub code: u16,
    /// The mnemonic (`INST_RETIRED`).
    pub name: &'static str,
    /// What it counts.
    pub description: &'static str,
}

impl EventInfo {
    /// An event.
    pub const fn new(code: u16, name: &'static str, description: &'static str) -> Self {
        Self {
            code,
            name,
            description,
        }
    }
}

impl PmuEvent for EventInfo {
    fn code(self) -> u16 {
        self.code
    }
    fn name(self) -> &'static str {
        self.name
    }
}

impl PmuEvent for &EventInfo {
    fn code(self) -> u16 {
        self.code
    }
    fn name(self) -> &'static str {
        self.name
    }
}

/// The events of one core (or an architecture's common events), ordered by code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventTable {
    /// Whose events these are (`Cortex-A53`, `common Armv8`).
    pub name: &'static str,
    /// Width of the event numbers in bits (8 for Armv7 and ARM11, 10 for PMUv3, 16 for PMUv3p1).
    pub event_bits: u8,
    events: &'static [EventInfo],
}

impl EventTable {
    /// A table of `events`, which must be in ascending code order (the generator writes them so;
    /// [`EventTable::by_code`] relies on it).
    pub const fn new(name: &'static str, event_bits: u8, events: &'static [EventInfo]) -> Self {
        Self {
            name,
            event_bits,
            events,
        }
    }

    /// Every event, lowest code first.
    pub const fn events(&self) -> &'static [EventInfo] {
        self.events
    }

    /// How many events the table has.
    pub const fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether the table has no event.
    pub const fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The event numbered `code`.
    pub fn by_code(&self, code: u16) -> Option<&'static EventInfo> {
        self.events
            .binary_search_by_key(&code, |e| e.code)
            .ok()
            .and_then(|i| self.events.get(i))
    }

    /// The event called `name`, ASCII case ignored (as perf matches names).
    pub fn by_name(&self, name: &str) -> Option<&'static EventInfo> {
        self.events
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
    }
}

/// A CPU core, as MIDR identifies it, and what is known of its PMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreInfo {
    /// The product name (`Cortex-A53`).
    pub name: &'static str,
    /// MIDR.Implementer (0x41: Arm).
    pub implementer: u8,
    /// MIDR.PartNum.
    pub part_number: u16,
    /// The architecture (`armv8-a`).
    pub architecture: &'static str,
    /// The number of PMU event counters, where known.
    pub counters: Option<u8>,
    /// The core's events, when the crate that lists the core was built with them.
    pub events: Option<&'static EventTable>,
}

/// The core of `cores` with MIDR implementer `implementer` and part number `part_number`.
pub fn find_core(
    cores: &'static [CoreInfo],
    implementer: u8,
    part_number: u16,
) -> Option<&'static CoreInfo> {
    cores
        .iter()
        .find(|c| c.implementer == implementer && c.part_number == part_number)
}

#[cfg(test)]
mod tests {
    use super::*;

    static EVENTS: [EventInfo; 3] = [
        EventInfo::new(0x08, "INST_RETIRED", "Instruction architecturally executed"),
        EventInfo::new(0x11, "CPU_CYCLES", "Cycle"),
        EventInfo::new(0xC0, "EVENT_C0", "External memory request"),
    ];
    static TABLE: EventTable = EventTable::new("Demo", 10, &EVENTS);
    static CORES: [CoreInfo; 1] = [CoreInfo {
        name: "Demo",
        implementer: 0x41,
        part_number: 0xD03,
        architecture: "armv8-a",
        counters: Some(6),
        events: Some(&TABLE),
    }];

    #[test]
    fn closest_names() {
        let names = [
            "L1D_CACHE",
            "L1D_CACHE_REFILL",
            "INST_RETIRED",
            "CPU_CYCLES",
        ];
        assert_eq!(distance("kitten", "sitting"), Some(3));
        assert_eq!(distance("inst_retired", "INST_RETIRED"), Some(0));
        assert_eq!(
            closest_name("L1D_CACHE_REFIL", names),
            Some("L1D_CACHE_REFILL")
        );
        assert_eq!(closest_name("INST_RETIERD", names), Some("INST_RETIRED"));
        assert_eq!(closest_name("BR_MIS_PRED", names), None);
    }

    #[test]
    fn lookups() {
        assert_eq!(TABLE.by_code(0x11).map(|e| e.name), Some("CPU_CYCLES"));
        assert_eq!(TABLE.by_code(0x12), None);
        assert_eq!(TABLE.by_name("inst_retired").map(|e| e.code), Some(0x08));
        assert_eq!(TABLE.by_name("NOPE"), None);
        assert_eq!((TABLE.len(), TABLE.is_empty()), (3, false));
        let core = find_core(&CORES, 0x41, 0xD03).unwrap();
        assert_eq!(
            core.events.and_then(|t| t.by_code(0xC0)).map(|e| e.name),
            Some("EVENT_C0")
        );
        assert!(find_core(&CORES, 0x41, 0xD04).is_none());
    }
}
