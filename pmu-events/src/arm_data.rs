//! Arm's machine-readable PMU data (ARM-software/data, `pmu/<core>.json` and
//! `pmu/common_armv<n>.json`): one object per file with the core's identity (`cpu`, `cpuid`,
//! `architecture`, `pmu_architecture`, `counters`) and its `events`, described by the schema
//! `schemas/pmu-schema.json` of that repository.
//!
//! The data has gaps a reader must handle: some implementation-defined events have a code and a
//! description but no `name`, and a few have no `code` at all. [`ArmPmuFile::events`] names the
//! first after their code (`EVENT_C0`) and leaves out the second, and reports each such repair,
//! so that a caller can warn at the entry's position.
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Position};
use crate::locate::{self, EntrySpans, LineIndex};
use crate::parse::Event;
use crate::Pmu;

/// One file of Arm's PMU data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmPmuFile {
    /// The file's path, as given.
    pub path: PathBuf,
    /// The core's name (`Cortex-A53`), or the common set's (`common ARMv8.0`).
    pub cpu: Option<String>,
    /// The MIDR implementer and part number, `0x41d03` for Arm's Cortex-A53 (absent in the
    /// common sets); `(implementer << 12) | part`.
    pub cpuid: Option<u32>,
    /// The architecture, `armv8-a`, `armv8.2-a`, `armv7-r`, ...
    pub architecture: String,
    /// The PMU architecture, `pmuv2` or `pmuv3` (absent for Armv6 cores).
    pub pmu_architecture: Option<String>,
    /// The number of event counters, where the data gives it.
    pub counters: Option<u8>,
    /// The titles of the documents the events come from (`Cortex-A53 TRM`).
    pub references: Vec<String>,
    /// The events in file order.
    pub events: Vec<ArmEvent>,
    /// Where `pmu_architecture` (or, without it, `architecture`) is.
    pub position: Position,
}

/// One event as Arm's data gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmEvent {
    /// The number written to the event-type register; `None` where the data gives none.
    pub code: Option<u16>,
    /// The mnemonic (`L1I_CACHE_REFILL`); `None` where the data gives none.
    pub name: Option<String>,
    /// The description.
    pub description: String,
    /// Whether the data marks the event architectural (independent of the microarchitecture).
    pub architectural: bool,
    /// Whether the data marks the event implementation-defined.
    pub impdef: bool,
    /// `INS`, `UEVT`, `CYCLE`, `EXC` or `ETM`.
    pub kind: Option<String>,
    /// The core component (`L1D`, `BPU`, ...).
    pub component: Option<String>,
    /// Where the entry is: its `name` value, else its `code` value, else the entry.
    pub position: Position,
}

/// What [`ArmPmuFile::events`] did to an entry the data leaves incomplete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The entry.
    pub position: Position,
    /// What was done, for a warning.
    pub message: String,
}

impl ArmPmuFile {
    /// MIDR's implementer code of the core, from `cpuid`.
    pub fn implementer(&self) -> Option<u8> {
        self.cpuid.and_then(|id| u8::try_from(id >> 12).ok())
    }

    /// MIDR's part number of the core, from `cpuid`.
    pub fn part_number(&self) -> Option<u16> {
        self.cpuid.and_then(|id| u16::try_from(id & 0xFFF).ok())
    }

    /// The PMU whose event field the codes are for. Armv6 (ARM11) cores, for which the data
    /// names no PMU architecture, have the ARM11 performance monitor (8-bit numbers); Armv7 cores
    /// PMUv2 (8-bit); Armv8.0 cores PMUv3 (10-bit); Armv8.1 and later PMUv3p1 (16-bit). A common
    /// set (no `cpuid`) lists the events of every version of its architecture, so it takes the
    /// widest field of its PMU architecture. `None` for a PMU architecture this crate does not
    /// know.
    pub fn pmu(&self) -> Option<Pmu> {
        let Some(pmu_architecture) = self.pmu_architecture.as_deref() else {
            return (self.architecture == "armv6").then_some(Pmu::Arm11);
        };
        match pmu_architecture {
            "pmuv2" => Some(Pmu::PmuV2),
            "pmuv3" if self.cpuid.is_none() => Some(Pmu::PmuV3p1),
            "pmuv3" => {
                // `armv8-a`, `armv8-r` and `armv8.0-a` are version 8.0; `armv8.2-a` and
                // `armv9-a` are later.
                let v8_0 = self
                    .architecture
                    .strip_prefix("armv8")
                    .is_some_and(|rest| rest.starts_with('-') || rest.starts_with(".0"));
                Some(if v8_0 { Pmu::PmuV3 } else { Pmu::PmuV3p1 })
            }
            _ => None,
        }
    }

    /// The events with a code, as [`Event`]s: an event without a name is named `EVENT_<code>`
    /// (`EVENT_C0`), and an event without a code is left out, each with a [`Repair`] saying so.
    pub fn events(&self) -> (Vec<Event>, Vec<Repair>) {
        let mut events = Vec::with_capacity(self.events.len());
        let mut repairs = Vec::new();
        for e in &self.events {
            let Some(code) = e.code else {
                repairs.push(Repair {
                    position: e.position.clone(),
                    message: format!(
                        "event {} has no `code`, so it cannot be counted; left out",
                        e.name
                            .as_deref()
                            .map_or_else(|| format!("{:?}", e.description), |n| format!("`{n}`"))
                    ),
                });
                continue;
            };
            let name = match &e.name {
                Some(n) => n.clone(),
                None => {
                    let name = generated_name(code);
                    repairs.push(Repair {
                        position: e.position.clone(),
                        message: format!("event 0x{code:X} has no `name`; named `{name}`"),
                    });
                    name
                }
            };
            events.push(Event {
                code,
                name,
                brief_description: Some(e.description.clone()).filter(|d| !d.is_empty()),
                public_description: None,
                arch_std_event: None,
                position: e.position.clone(),
            });
        }
        (events, repairs)
    }
}

/// The name given to an event the data does not name: `EVENT_` and its code in upper-case
/// hexadecimal, at least two digits.
pub fn generated_name(code: u16) -> String {
    format!("EVENT_{code:02X}")
}

/// Whether `text` looks like a file of Arm's PMU data: a JSON object whose `_type` is `Events`
/// (checked in the first 4 KiB, as format detection reads).
pub fn is_arm_pmu_data(text: &str) -> bool {
    type_is(text, "Events")
}

/// Reads and parses one file of Arm's PMU data (refused when larger than
/// [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES)). See [`parse_arm_pmu_data`].
pub fn read_arm_pmu_data(path: &Path) -> Result<ArmPmuFile, Error> {
    let text = crate::read::read_text(path)?;
    parse_arm_pmu_data(path, &text)
}

/// Parses the text of one file of Arm's PMU data; `path` only names it in positions and errors.
/// The shape is checked against the schema: `_type` is `Events`, `architecture` and `events`
/// are present, every key is one the schema defines and has the schema's type, names match
/// `[A-Z][A-Z_0-9]+`, codes fit 16 bits. Every error carries the 1-based line:column of the
/// offending value.
pub fn parse_arm_pmu_data(path: &Path, text: &str) -> Result<ArmPmuFile, Error> {
    let index = LineIndex::new(path, text);
    let root: Map<String, Value> =
        serde_json::from_str(text).map_err(|e| crate::parse::json_error(&index, &e))?;
    let (top, entries) = locate::member_entries(text, "events");
    let file = Reader {
        index: &index,
        object: &root,
        spans: Some(&top),
    };
    file.known_keys(TOP_KEYS)?;
    match file.string("_type")? {
        Some(t) if t == "Events" => {}
        Some(t) => {
            return Err(file.error(
                "_type",
                format!("`_type` is {t:?}: a PMU data file says \"Events\""),
            ))
        }
        None => return Err(file.missing("_type")),
    }
    let architecture = file
        .string("architecture")?
        .ok_or_else(|| file.missing("architecture"))?;
    if !architecture.starts_with("armv") {
        return Err(file.error(
            "architecture",
            format!("`architecture` {architecture:?} does not start with `armv`"),
        ));
    }
    let pmu_architecture = file.string("pmu_architecture")?;
    let cpuid = match file.string("cpuid")? {
        None => None,
        Some(text) => Some(parse_cpuid(&text).ok_or_else(|| {
            file.error(
                "cpuid",
                format!("`cpuid` {text:?} is not 5 or 6 hexadecimal digits after `0x`"),
            )
        })?),
    };
    let counters = match file.integer("counters")? {
        None => None,
        Some(n) => Some(u8::try_from(n).ok().filter(|n| *n <= 31).ok_or_else(|| {
            file.error(
                "counters",
                format!("`counters` {n} is not 0..=31 (the schema's range)"),
            )
        })?),
    };
    let references = match root.get("refs") {
        None => Vec::new(),
        Some(Value::Array(refs)) => refs
            .iter()
            .map(|r| r.get("ref").and_then(Value::as_str).map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| file.error("refs", "every `refs` entry needs a string `ref`".into()))?,
        Some(_) => return Err(file.error("refs", "`refs` must be an array".into())),
    };
    let events = match root.get("events") {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| read_event(&index, item, entries.get(i)))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(file.error("events", "`events` must be an array".into())),
        None => return Err(file.missing("events")),
    };
    let position = file.value_position(if pmu_architecture.is_some() {
        "pmu_architecture"
    } else {
        "architecture"
    });
    Ok(ArmPmuFile {
        path: path.to_path_buf(),
        cpu: file.string("cpu")?,
        cpuid,
        architecture,
        pmu_architecture,
        counters,
        references,
        events,
        position,
    })
}

/// One core of Arm's `cpus.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmCpu {
    /// The product name (`Cortex-A53`).
    pub name: String,
    /// MIDR's implementer code (0x41 for Arm).
    pub implementer: u8,
    /// MIDR's part number (0xD03 for the Cortex-A53).
    pub part_number: u16,
    /// The architecture (`armv8-a`).
    pub architecture: String,
    /// The number of event counters, where the file gives it.
    pub counters: Option<u8>,
    /// Where the entry's `name` is.
    pub position: Position,
}

/// Whether `text` looks like Arm's `cpus.json`: a JSON object whose `_type` is `CPUs` (in its
/// first 4 KiB).
pub fn is_arm_cpus(text: &str) -> bool {
    type_is(text, "CPUs")
}

/// Reads and parses Arm's `cpus.json` (see [`parse_arm_cpus`]).
pub fn read_arm_cpus(path: &Path) -> Result<Vec<ArmCpu>, Error> {
    let text = crate::read::read_text(path)?;
    parse_arm_cpus(path, &text)
}

/// Parses the text of Arm's `cpus.json` (ARM-software/data): `_type` is `CPUs`, and every entry
/// of `cpus` has the `implementer`, `name`, `arch` and `cpuid` its schema requires, with the
/// schema's types and no other key. The `cpuid`'s implementer must be the entry's.
pub fn parse_arm_cpus(path: &Path, text: &str) -> Result<Vec<ArmCpu>, Error> {
    let index = LineIndex::new(path, text);
    let root: Map<String, Value> =
        serde_json::from_str(text).map_err(|e| crate::parse::json_error(&index, &e))?;
    let (top, entries) = locate::member_entries(text, "cpus");
    let file = Reader {
        index: &index,
        object: &root,
        spans: Some(&top),
    };
    file.known_keys(&["_type", "timestamp", "cpus"])?;
    match file.string("_type")? {
        Some(t) if t == "CPUs" => {}
        Some(t) => {
            return Err(file.error(
                "_type",
                format!("`_type` is {t:?}: a CPU list says \"CPUs\""),
            ))
        }
        None => return Err(file.missing("_type")),
    }
    let Some(Value::Array(items)) = root.get("cpus") else {
        return Err(match root.get("cpus") {
            None => file.missing("cpus"),
            Some(_) => file.error("cpus", "`cpus` must be an array".into()),
        });
    };
    let mut cpus = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let spans = entries.get(i);
        let Value::Object(object) = item else {
            return Err(Error::at(
                locate::entry_position(&index, spans),
                ErrorKind::Json("every entry of `cpus` must be an object".into()),
            ));
        };
        let cpu = Reader {
            index: &index,
            object,
            spans,
        };
        cpu.known_keys(&["name", "implementer", "cpuid", "cpuids", "arch", "counters"])?;
        let name = cpu.string("name")?.ok_or_else(|| cpu.missing("name"))?;
        let architecture = cpu.string("arch")?.ok_or_else(|| cpu.missing("arch"))?;
        let implementer = cpu
            .integer("implementer")?
            .ok_or_else(|| cpu.missing("implementer"))?;
        let implementer = u8::try_from(implementer)
            .ok()
            .filter(|i| *i != 0)
            .ok_or_else(|| {
                cpu.error(
                    "implementer",
                    format!("`implementer` {implementer} is not 1..=255"),
                )
            })?;
        let text = cpu.string("cpuid")?.ok_or_else(|| cpu.missing("cpuid"))?;
        let id = parse_cpuid(&text).ok_or_else(|| {
            cpu.error(
                "cpuid",
                format!("`cpuid` {text:?} is not 5 or 6 hexadecimal digits after `0x`"),
            )
        })?;
        if id >> 12 != u32::from(implementer) {
            return Err(cpu.error(
                "cpuid",
                format!(
                    "`cpuid` {text:?} names implementer 0x{:X}, the entry's `implementer` is 0x{implementer:X}",
                    id >> 12
                ),
            ));
        }
        let counters = match cpu.integer("counters")? {
            None => None,
            Some(n) => Some(u8::try_from(n).ok().filter(|n| *n <= 31).ok_or_else(|| {
                cpu.error(
                    "counters",
                    format!("`counters` {n} is not 0..=31 (the schema's range)"),
                )
            })?),
        };
        cpus.push(ArmCpu {
            position: cpu.value_position("name"),
            name,
            implementer,
            part_number: u16::try_from(id & 0xFFF).unwrap_or(0),
            architecture,
            counters,
        });
    }
    Ok(cpus)
}

/// Whether the JSON object `text` starts with has `_type` = `expected` (in its first 4 KiB).
fn type_is(text: &str, expected: &str) -> bool {
    let head: String = text.chars().take(4096).collect();
    head.trim_start().starts_with('{')
        && head.split("\"_type\"").nth(1).is_some_and(|rest| {
            rest.trim_start()
                .trim_start_matches(':')
                .trim_start()
                .strip_prefix('"')
                .and_then(|r| r.strip_prefix(expected))
                .is_some_and(|r| r.starts_with('"'))
        })
}

/// The top-level keys the schema defines.
const TOP_KEYS: &[&str] = &[
    "_type",
    "timestamp",
    "refs",
    "implementer",
    "architecture",
    "pmu_architecture",
    "cpu",
    "cpuid",
    "cpuids",
    "counters",
    "events",
];

/// The keys of an event the schema defines.
const EVENT_KEYS: &[&str] = &[
    "refs",
    "code",
    "name",
    "trm_name",
    "description",
    "type",
    "subtype",
    "architectural",
    "for_driver",
    "component",
    "impdef",
    "recommended",
    "public",
    "revisionFrom",
    "maximum",
    "hdl_path",
    "spe_index",
    "event_bits",
    "event_lsb",
    "trace_lsb",
    "errevent_lsb",
];

fn read_event(
    index: &LineIndex<'_>,
    item: &Value,
    spans: Option<&EntrySpans>,
) -> Result<ArmEvent, Error> {
    let Value::Object(object) = item else {
        return Err(Error::at(
            locate::entry_position(index, spans),
            ErrorKind::Json("every entry of `events` must be an object".into()),
        ));
    };
    let event = Reader {
        index,
        object,
        spans,
    };
    event.known_keys(EVENT_KEYS)?;
    let description = event
        .string("description")?
        .ok_or_else(|| event.missing("description"))?;
    let name = event.string("name")?;
    if let Some(n) = &name {
        let valid = n.len() >= 2
            && n.starts_with(|c: char| c.is_ascii_uppercase())
            && n.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return Err(event.error(
                "name",
                format!("event name {n:?} does not match the schema's `[A-Z][A-Z_0-9]+`"),
            ));
        }
    }
    let code = match event.integer("code")? {
        None => None,
        Some(c) => Some(u16::try_from(c).map_err(|_| {
            Error::at(
                event.value_position("code"),
                ErrorKind::EventCodeTooWide {
                    value: c.to_string(),
                    code: c,
                },
            )
        })?),
    };
    let position = event.value_position(if name.is_some() {
        "name"
    } else if code.is_some() {
        "code"
    } else {
        "description"
    });
    Ok(ArmEvent {
        code,
        name,
        description,
        architectural: event.boolean("architectural")?.unwrap_or(false),
        impdef: event.boolean("impdef")?.unwrap_or(false),
        kind: event.string("type")?,
        component: event.string("component")?,
        position,
    })
}

/// `0x41d03` → 0x41D03.
fn parse_cpuid(text: &str) -> Option<u32> {
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    ((5..=6).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u32::from_str_radix(hex, 16).ok())
        .flatten()
}

/// Reads the typed members of one object, with positions.
struct Reader<'a> {
    index: &'a LineIndex<'a>,
    object: &'a Map<String, Value>,
    spans: Option<&'a EntrySpans>,
}

impl Reader<'_> {
    fn known_keys(&self, known: &[&str]) -> Result<(), Error> {
        match self.object.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(key) => {
                let (start, len) = self
                    .spans
                    .and_then(|s| s.values.iter().find(|(k, _, _)| k == key))
                    .map_or((0, 0), |&(_, start, len)| (start, len));
                Err(Error::at(
                    self.index.position(start, len),
                    ErrorKind::Json(format!(
                        "unknown key `{key}`: the PMU data schema defines {}",
                        known.join(", ")
                    )),
                ))
            }
        }
    }

    fn string(&self, key: &str) -> Result<Option<String>, Error> {
        match self.object.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(self.wrong_type(key, "a string", other)),
        }
    }

    fn integer(&self, key: &str) -> Result<Option<u64>, Error> {
        match self.object.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64()),
            Some(other) => Err(self.wrong_type(key, "a non-negative integer", other)),
        }
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, Error> {
        match self.object.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.wrong_type(key, "a boolean", other)),
        }
    }

    fn wrong_type(&self, key: &str, expected: &str, found: &Value) -> Error {
        let found = match found {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        };
        self.error(key, format!("`{key}` must be {expected}, found {found}"))
    }

    fn error(&self, key: &str, message: String) -> Error {
        Error::at(self.value_position(key), ErrorKind::Json(message))
    }

    fn missing(&self, key: &'static str) -> Error {
        Error::at(
            locate::entry_position(self.index, self.spans),
            ErrorKind::MissingKey(key),
        )
    }

    fn value_position(&self, key: &str) -> Position {
        locate::value_position(self.index, self.spans, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ArmPmuFile, Error> {
        parse_arm_pmu_data(Path::new("core.json"), text)
    }

    const CORE: &str = r#"{
    "_type": "Events",
    "cpuid": "0x41d03",
    "cpu": "Cortex-A53",
    "architecture": "armv8-a",
    "pmu_architecture": "pmuv3",
    "counters": 6,
    "refs": [{"ref": "Cortex-A53 TRM", "public": true}],
    "events": [
        {"code": 17, "name": "CPU_CYCLES", "architectural": true, "type": "CYCLE", "description": "Cycle"},
        {"code": 192, "impdef": true, "type": "UEVT", "description": "External memory request"},
        {"name": "NO_CODE", "description": "Not countable"}
    ]
}"#;

    #[test]
    fn reads_the_core_and_its_events() {
        let file = parse(CORE).unwrap();
        assert_eq!(file.cpu.as_deref(), Some("Cortex-A53"));
        assert_eq!(file.cpuid, Some(0x41D03));
        assert_eq!(file.counters, Some(6));
        assert_eq!(file.references, ["Cortex-A53 TRM"]);
        assert_eq!(file.pmu(), Some(Pmu::PmuV3));
        assert_eq!(file.events.len(), 3);
        assert!(file.events[0].architectural && !file.events[0].impdef);
        let p = &file.events[0].position;
        assert_eq!((p.line, p.column), (10, 30));
        let (events, repairs) = file.events();
        let names: Vec<(&str, u16)> = events.iter().map(|e| (e.name.as_str(), e.code)).collect();
        assert_eq!(names, [("CPU_CYCLES", 0x11), ("EVENT_C0", 0xC0)]);
        assert_eq!(events[1].description(), "External memory request");
        assert_eq!(repairs.len(), 2);
        assert_eq!(
            repairs[0].message,
            "event 0xC0 has no `name`; named `EVENT_C0`"
        );
        assert_eq!(
            (repairs[0].position.line, repairs[0].position.column),
            (11, 18)
        );
        assert!(repairs[1].message.contains("`NO_CODE` has no `code`"));
    }

    #[test]
    fn the_pmu_follows_the_architecture() {
        let with = |arch: &str, pmu: &str, cpuid: bool| {
            let id = if cpuid { r#""cpuid": "0x41d05","# } else { "" };
            parse(&format!(
                r#"{{"_type": "Events", {id} "architecture": "{arch}", "pmu_architecture": "{pmu}", "events": []}}"#
            ))
            .unwrap()
            .pmu()
        };
        assert_eq!(with("armv7-a", "pmuv2", true), Some(Pmu::PmuV2));
        assert_eq!(with("armv8-a", "pmuv3", true), Some(Pmu::PmuV3));
        assert_eq!(with("armv8-r", "pmuv3", true), Some(Pmu::PmuV3));
        assert_eq!(with("armv8.2-a", "pmuv3", true), Some(Pmu::PmuV3p1));
        assert_eq!(with("armv9.2-a", "pmuv3", true), Some(Pmu::PmuV3p1));
        // A common set spans every version of its architecture.
        assert_eq!(with("armv8-a", "pmuv3", false), Some(Pmu::PmuV3p1));
        assert_eq!(with("armv6", "pmuv1", true), None);
        let arm11 = parse(
            r#"{"_type": "Events", "cpuid": "0x41b36", "architecture": "armv6", "events": []}"#,
        );
        assert_eq!(arm11.unwrap().pmu(), Some(Pmu::Arm11));
    }

    #[test]
    fn schema_violations_point_at_the_value() {
        let cases = [
            (
                r#"{"_type": "CPUs", "architecture": "armv8-a", "events": []}"#,
                "`_type` is \"CPUs\"",
            ),
            (r#"{"_type": "Events", "events": []}"#, "no `architecture`"),
            (
                r#"{"_type": "Events", "architecture": "v8", "events": []}"#,
                "does not start with `armv`",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "cpuid": "41d03", "events": []}"#,
                "`cpuid`",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "counters": 40, "events": []}"#,
                "0..=31",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "events": [{"code": 1}]}"#,
                "no `description`",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "events": [{"code": "1", "description": ""}]}"#,
                "`code` must be a non-negative integer, found a string",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "events": [{"code": 70000, "description": ""}]}"#,
                "16 bits",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "events": [{"code": 1, "name": "lower", "description": ""}]}"#,
                "[A-Z][A-Z_0-9]+",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "events": [{"code": 1, "nmae": "X", "description": ""}]}"#,
                "unknown key `nmae`",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "events": [1]}"#,
                "must be an object",
            ),
            (
                r#"{"_type": "Events", "architecture": "armv8-a", "events": [}"#,
                "expected value",
            ),
            (r#"[]"#, "invalid type"),
        ];
        for (text, expected) in cases {
            let err = parse(text).unwrap_err();
            assert!(
                err.to_string().contains(expected),
                "{text}: {err} (expected {expected:?})"
            );
            assert!(err.position().is_some(), "{text}: {err} has no position");
        }
        let err = parse("{\"_type\": \"Events\",\n \"architecture\": \"armv8-a\",\n \"events\": [{\"code\": 1, \"bad\": 2, \"description\": \"\"}]}").unwrap_err();
        let p = err.position().unwrap();
        assert_eq!((p.line, p.column), (3, 32));
    }

    #[test]
    fn reads_the_cpu_list() {
        let text = r#"{"_type": "CPUs", "cpus": [
            {"implementer": 65, "name": "Cortex-A53", "arch": "armv8-a", "cpuid": "0x41d03"},
            {"implementer": 63, "name": "Rainier", "arch": "armv8.2-a", "cpuid": "0x3f412", "counters": 6}
        ]}"#;
        let cpus = parse_arm_cpus(Path::new("cpus.json"), text).unwrap();
        assert_eq!(cpus.len(), 2);
        assert_eq!(
            (
                cpus[0].name.as_str(),
                cpus[0].implementer,
                cpus[0].part_number
            ),
            ("Cortex-A53", 0x41, 0xD03)
        );
        assert_eq!(
            (cpus[1].implementer, cpus[1].part_number, cpus[1].counters),
            (0x3F, 0x412, Some(6))
        );
        assert_eq!((cpus[0].position.line, cpus[0].position.column), (2, 41));
        assert!(is_arm_cpus(text) && !is_arm_pmu_data(text));
        for (bad, expected) in [
            (
                r#"{"_type": "CPUs", "cpus": [{"implementer": 65, "name": "X", "arch": "armv8-a", "cpuid": "0x42d03"}]}"#,
                "names implementer 0x42",
            ),
            (
                r#"{"_type": "CPUs", "cpus": [{"implementer": 65, "name": "X", "arch": "armv8-a"}]}"#,
                "no `cpuid`",
            ),
            (
                r#"{"_type": "CPUs", "cpus": [{"implementer": 0, "name": "X", "arch": "a", "cpuid": "0x00d03"}]}"#,
                "not 1..=255",
            ),
            (
                r#"{"_type": "CPUs", "cpus": [{"implementer": 65, "name": "X", "arch": "a", "cpuid": "0x41d03", "core": 1}]}"#,
                "unknown key `core`",
            ),
            (r#"{"_type": "Events", "cpus": []}"#, "a CPU list says"),
        ] {
            let err = parse_arm_cpus(Path::new("cpus.json"), bad).unwrap_err();
            assert!(err.to_string().contains(expected), "{bad}: {err}");
        }
    }

    #[test]
    fn detection_reads_the_type() {
        assert!(is_arm_pmu_data(CORE));
        assert!(is_arm_pmu_data(r#"{"_type" : "Events"}"#));
        assert!(!is_arm_pmu_data(r#"{"_type": "CPUs"}"#));
        assert!(!is_arm_pmu_data(r#"[{"EventCode": "0x11"}]"#));
    }
}
