//! One perf pmu-events JSON file: an array of event objects, some of them `ArchStdEvent` references.
use crate::error::{Error, ErrorKind, Position};
use crate::locate::{self, EntrySpans, LineIndex};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// A PMU event: its number and its names, as perf describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The event number written to `PMEVTYPER<n>.evtCount` (perf's `EventCode`).
    pub code: u16,
    /// perf's `EventName`, e.g. `INST_RETIRED`.
    pub name: String,
    /// perf's `BriefDescription`, a one-line summary.
    pub brief_description: Option<String>,
    /// perf's `PublicDescription`, the longer text.
    pub public_description: Option<String>,
    /// The architectural event this entry referred to, when it was an `ArchStdEvent` reference.
    pub arch_std_event: Option<String>,
    /// Where the event is defined: the `EventName` value, or for a reference the `ArchStdEvent`
    /// value in the referring file (the place a user would edit).
    pub position: Position,
}

impl Event {
    /// The longest description available: `PublicDescription`, else `BriefDescription`, else "".
    pub fn description(&self) -> &str {
        self.public_description
            .as_deref()
            .or(self.brief_description.as_deref())
            .unwrap_or("")
    }
}

/// An `ArchStdEvent` reference, with the keys the entry sets itself (they override the
/// architectural event's, as in Linux's jevents).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The architectural event's name (matched ASCII case-insensitively, as jevents does).
    pub name: String,
    /// The position of the `ArchStdEvent` value.
    pub position: Position,
    /// `EventCode` given beside the reference.
    pub code: Option<u16>,
    /// `EventName` given beside the reference.
    pub event_name: Option<String>,
    /// `BriefDescription` given beside the reference.
    pub brief_description: Option<String>,
    /// `PublicDescription` given beside the reference.
    pub public_description: Option<String>,
}

/// One entry of a file, before references are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A complete event.
    Event(Event),
    /// A reference to an architectural event, or to one of the architecture's standard metrics
    /// (Linux's arm64 `metrics.json` files name `sbsa.json`'s that way): resolution tells.
    Reference(Reference),
    /// A metric (`MetricName`), by name: not an event, but a name a reference may take.
    Metric(String),
}

/// A parsed file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventFile {
    /// The file's path, as given.
    pub path: PathBuf,
    /// Its entries in file order; a reference that overrides a metric's formula (`ArchStdEvent`
    /// with `MetricExpr`) is skipped.
    pub entries: Vec<Entry>,
}

impl EventFile {
    /// Whether any entry is an `ArchStdEvent` reference (then the file needs the arch tables).
    pub fn has_references(&self) -> bool {
        self.entries
            .iter()
            .any(|e| matches!(e, Entry::Reference(_)))
    }
}

/// Reads and parses one perf pmu-events JSON file (refused when larger than
/// [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES)). See [`parse_str`].
pub fn parse_file(path: &Path) -> Result<EventFile, Error> {
    let text = crate::read::read_text(path)?;
    parse_str(path, &text)
}

/// Parses the text of one perf pmu-events JSON file; `path` only names it in positions and errors.
///
/// The text must be an array of objects. Each object is an event (`EventCode` + `EventName`,
/// optional `BriefDescription`/`PublicDescription`), an `ArchStdEvent` reference (optionally with
/// any of those keys, which override), or a metric (`MetricName`, kept by name only). An
/// `ArchStdEvent` with a `MetricExpr` and no `EventName` or `EventCode` takes one of the
/// architecture's standard metrics with a formula of its own, and is skipped. So is an event of
/// another PMU than the core's (a `Unit`, such as `hisi_sccl,ddrc`, with its `ConfigCode`): these
/// are the CPU PMU's events, as in perf, where no `Unit` means the core. Other keys (
/// `ConfigCode`, ...) are ignored. Every error carries the file and the 1-based line:column of the
/// offending value (of the syntax error, for malformed JSON).
pub fn parse_str(path: &Path, text: &str) -> Result<EventFile, Error> {
    let index = LineIndex::new(path, text);
    let objects: Vec<Map<String, Value>> =
        serde_json::from_str(text).map_err(|e| json_error(&index, &e))?;
    let spans = locate::entries(text);
    let mut entries = Vec::with_capacity(objects.len());
    for (i, object) in objects.iter().enumerate() {
        let entry = EntryReader {
            index: &index,
            object,
            spans: spans.get(i),
        };
        if let Some(entry) = entry.read()? {
            entries.push(entry);
        }
    }
    Ok(EventFile {
        path: path.to_path_buf(),
        entries,
    })
}

/// A `serde_json` error, with its position moved from the message into [`Position`].
pub(crate) fn json_error(index: &LineIndex<'_>, e: &serde_json::Error) -> Error {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
    let offset = index.offset_of(e.line(), e.column());
    Error::at(index.position(offset, 0), ErrorKind::Json(message))
}

/// Reads the keys of one entry.
struct EntryReader<'a> {
    index: &'a LineIndex<'a>,
    object: &'a Map<String, Value>,
    spans: Option<&'a EntrySpans>,
}

impl EntryReader<'_> {
    fn read(&self) -> Result<Option<Entry>, Error> {
        if self.string("Unit")?.is_some() {
            return Ok(None);
        }
        let arch_std = self.string("ArchStdEvent")?;
        let name = self.string("EventName")?;
        let code = self.code()?;
        let brief_description = self.string("BriefDescription")?;
        let public_description = self.string("PublicDescription")?;
        if name.is_none() && code.is_none() {
            if let Some(metric) = self.string("MetricName")? {
                return Ok(Some(Entry::Metric(metric)));
            }
            if arch_std.is_some() && self.object.contains_key("MetricExpr") {
                return Ok(None);
            }
        }
        if let Some(reference) = arch_std {
            return Ok(Some(Entry::Reference(Reference {
                name: reference,
                position: self.value_position("ArchStdEvent"),
                code,
                event_name: name,
                brief_description,
                public_description,
            })));
        }
        let name = name.ok_or_else(|| self.missing("EventName"))?;
        let code = code.ok_or_else(|| self.missing("EventCode"))?;
        Ok(Some(Entry::Event(Event {
            code,
            name,
            brief_description,
            public_description,
            arch_std_event: None,
            position: self.value_position("EventName"),
        })))
    }

    /// A string value, if the key is present; any other JSON type is an error at the value.
    fn string(&self, key: &'static str) -> Result<Option<String>, Error> {
        match self.object.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(Error::at(
                self.value_position(key),
                ErrorKind::Json(format!(
                    "`{key}` must be a string, found {}",
                    json_type(other)
                )),
            )),
        }
    }

    /// `EventCode`, parsed as perf does (`0x` hexadecimal or decimal).
    fn code(&self) -> Result<Option<u16>, Error> {
        let Some(text) = self.string("EventCode")? else {
            return Ok(None);
        };
        let code = parse_code(&text).ok_or_else(|| {
            Error::at(
                self.value_position("EventCode"),
                ErrorKind::InvalidEventCode(text.clone()),
            )
        })?;
        u16::try_from(code).map(Some).map_err(|_| {
            Error::at(
                self.value_position("EventCode"),
                ErrorKind::EventCodeTooWide { value: text, code },
            )
        })
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

/// Parses an event number: `0x`/`0X` hexadecimal, or decimal, surrounding blanks allowed.
pub(crate) fn parse_code(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() => u64::from_str_radix(hex, 16).ok(),
        Some(_) => None,
        None if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok(),
        None => None,
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<EventFile, Error> {
        parse_str(Path::new("t.json"), text)
    }

    #[test]
    fn reads_events_references_and_metric_names_not_other_pmus() {
        let file = parse(
            r#"[
  {"EventCode": "0x11", "EventName": "CPU_CYCLES", "BriefDescription": "Cycle"},
  {"ArchStdEvent": "inst_retired", "PublicDescription": "Overridden"},
  {"MetricName": "ipc", "MetricExpr": "INST_RETIRED / CPU_CYCLES"},
  {"ArchStdEvent": "backend_bound", "MetricExpr": "(100 * (STALL_SLOT_BACKEND / CPU_CYCLES))"},
  {"ConfigCode": "0x00", "EventName": "flux_wr", "Unit": "hisi_sccl,ddrc"}
]"#,
        )
        .unwrap();
        assert_eq!(file.entries.len(), 3);
        assert_eq!(file.entries[2], Entry::Metric("ipc".into()));
        let Entry::Event(e) = &file.entries[0] else {
            panic!("expected an event")
        };
        assert_eq!(
            (e.code, e.name.as_str(), e.description()),
            (0x11, "CPU_CYCLES", "Cycle")
        );
        assert_eq!((e.position.line, e.position.column), (2, 38));
        let Entry::Reference(r) = &file.entries[1] else {
            panic!("expected a reference")
        };
        assert_eq!(r.name, "inst_retired");
        assert_eq!(r.public_description.as_deref(), Some("Overridden"));
        assert_eq!((r.position.line, r.position.column), (3, 20));
        assert!(file.has_references());
    }

    #[test]
    fn syntax_errors_carry_line_and_column_without_repeating_them() {
        let err = parse("[\n  {\"EventCode\": \"0x11\"\n   \"EventName\": \"X\"}\n]").unwrap_err();
        let p = err.position().unwrap();
        assert_eq!((p.line, p.column), (3, 4));
        assert_eq!(err.message(), "expected `,` or `}`");
        assert_eq!(err.to_string(), "t.json:3:4: expected `,` or `}`");
    }

    #[test]
    fn wrong_shapes_are_errors_not_panics() {
        for text in [
            "{}",
            "[1]",
            "[[\"0x11\"]]",
            "",
            "[{\"EventCode\": 17, \"EventName\": \"X\"}]",
        ] {
            assert!(parse(text).is_err(), "{text:?} should be rejected");
        }
    }

    #[test]
    fn bad_codes_point_at_the_value() {
        let err = parse("[{\"EventCode\": \"0xZZ\", \"EventName\": \"X\"}]").unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::InvalidEventCode(v) if v == "0xZZ"));
        assert_eq!(err.position().unwrap().column, 16);
        let err = parse("[{\"EventCode\": \"0x10000\", \"EventName\": \"X\"}]").unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::EventCodeTooWide { code: 0x10000, .. }
        ));
    }

    #[test]
    fn missing_keys_point_at_the_entry() {
        let err = parse("[\n {\"EventName\": \"X\"}]").unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::MissingKey("EventCode")));
        assert_eq!(err.position().unwrap().line, 2);
        let err = parse("[{\"EventCode\": \"1\"}]").unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::MissingKey("EventName")));
    }

    #[test]
    fn codes_parse_like_perf() {
        assert_eq!(parse_code("0x4000"), Some(0x4000));
        assert_eq!(parse_code("0XaB"), Some(0xAB));
        assert_eq!(parse_code("17"), Some(17));
        assert_eq!(parse_code(" 0x11 "), Some(0x11));
        for bad in ["", "0x", "x11", "-1", "1.0", "0x1g"] {
            assert_eq!(parse_code(bad), None, "{bad:?}");
        }
    }
}
