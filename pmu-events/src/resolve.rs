//! `ArchStdEvent` resolution, and importing a file or a whole core folder.
use crate::arch::{find_arch_root, ArchTable};
use crate::error::{Error, ErrorKind};
use crate::parse::{self, Entry, Event, EventFile, Reference};
use std::path::{Path, PathBuf};

impl EventFile {
    /// The file's events with every `ArchStdEvent` reference replaced by the architectural event,
    /// keys given beside the reference overriding the architectural ones (as jevents does).
    /// Metrics, and references to the architecture's standard metrics, are not events.
    pub fn resolve(self, table: &ArchTable) -> Result<Vec<Event>, Error> {
        let mut events = Vec::with_capacity(self.entries.len());
        for entry in self.entries {
            match entry {
                Entry::Event(event) => events.push(event),
                Entry::Reference(r) => events.extend(resolve_reference(r, table)?),
                Entry::Metric(_) => {}
            }
        }
        Ok(events)
    }
}

/// The event a reference names; `None` when it names a standard metric.
fn resolve_reference(r: Reference, table: &ArchTable) -> Result<Option<Event>, Error> {
    let Some(arch) = table.get(&r.name) else {
        if table.is_metric(&r.name) {
            return Ok(None);
        }
        return Err(Error::at(
            r.position,
            ErrorKind::UnknownArchStdEvent(r.name),
        ));
    };
    Ok(Some(Event {
        code: r.code.unwrap_or(arch.code),
        name: r.event_name.unwrap_or_else(|| arch.name.clone()),
        brief_description: r
            .brief_description
            .or_else(|| arch.brief_description.clone()),
        public_description: r
            .public_description
            .or_else(|| arch.public_description.clone()),
        arch_std_event: Some(arch.name.clone()),
        position: r.position,
    }))
}

/// The events of a file or a core folder, and every file that was read for them.
#[derive(Clone, Debug)]
pub struct Import {
    /// The events, files in name order and entries in file order.
    pub events: Vec<Event>,
    /// Every file read: the event files, then the architectural tables when references needed
    /// them (a build that depends on the events must be redone when any of these changes).
    pub files: Vec<PathBuf>,
    /// The PMU the file says its events are for (a file of Arm's PMU data says it; perf JSON
    /// does not).
    pub pmu: Option<crate::Pmu>,
}

/// Imports perf events from `path`: one JSON file, or a core folder (every `*.json` in it, in
/// file-name order, like jevents). `ArchStdEvent` references are resolved against the tables in
/// `arch_root`, or, when `None`, in the arch root found by [`find_arch_root`] from `path`; the
/// tables are only read when some entry is a reference.
/// A file of Arm's PMU data (ARM-software/data) is read as such: its events, the ones it leaves
/// unnamed named after their code (`EVENT_C0`), the ones without a code left out
/// ([`ArmPmuFile::events`](crate::ArmPmuFile::events)), and its PMU.
pub fn import(path: &Path, arch_root: Option<&Path>) -> Result<Import, Error> {
    if path.is_file() {
        let text = crate::read::read_text(path)?;
        if crate::is_arm_pmu_data(&text) {
            let data = crate::parse_arm_pmu_data(path, &text)?;
            return Ok(Import {
                events: data.events().0,
                files: vec![path.to_path_buf()],
                pmu: data.pmu(),
            });
        }
    }
    let files = if path.is_dir() {
        crate::json_files(path)?
    } else {
        vec![path.to_path_buf()]
    };
    let parsed = files
        .iter()
        .map(|f| parse::parse_file(f))
        .collect::<Result<Vec<_>, _>>()?;
    let table = match parsed
        .iter()
        .flat_map(|f| &f.entries)
        .find_map(as_reference)
    {
        None => ArchTable::default(),
        Some(first) => {
            let root = match arch_root {
                Some(root) => root.to_path_buf(),
                None => find_arch_root(path).ok_or_else(|| {
                    Error::at(
                        first.position.clone(),
                        ErrorKind::NoArchRoot {
                            name: first.name.clone(),
                            start: path.to_path_buf(),
                        },
                    )
                })?,
            };
            ArchTable::load(&root)?
        }
    };
    let mut events = Vec::new();
    for file in parsed {
        events.extend(file.resolve(&table)?);
    }
    let files = files
        .into_iter()
        .chain(table.files().iter().cloned())
        .collect();
    Ok(Import {
        events,
        files,
        pmu: None,
    })
}

fn as_reference(entry: &Entry) -> Option<&Reference> {
    match entry {
        Entry::Reference(r) => Some(r),
        Entry::Event(_) | Entry::Metric(_) => None,
    }
}

/// Reads a core folder: every `*.json` file in it, in file-name order, resolved against `table`.
pub fn read_core_dir(dir: &Path, table: &ArchTable) -> Result<Vec<Event>, Error> {
    let mut events = Vec::new();
    for file in crate::json_files(dir)? {
        events.extend(parse::parse_file(&file)?.resolve(table)?);
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;

    fn table() -> ArchTable {
        let mut t = ArchTable::default();
        t.add(
            parse_str(
                Path::new("arch.json"),
                r#"[{"EventCode": "0x08", "EventName": "INST_RETIRED",
                     "BriefDescription": "Instruction architecturally executed",
                     "PublicDescription": "Instruction architecturally executed (long)"}]"#,
            )
            .unwrap(),
        )
        .unwrap();
        t
    }

    #[test]
    fn references_take_the_architectural_event_and_local_overrides() {
        let file = parse_str(
            Path::new("core.json"),
            r#"[{"ArchStdEvent": "inst_retired"},
                {"ArchStdEvent": "INST_RETIRED", "EventName": "RETIRED", "BriefDescription": "Mine"}]"#,
        )
        .unwrap();
        let events = file.resolve(&table()).unwrap();
        assert_eq!(events[0].name, "INST_RETIRED");
        assert_eq!(events[0].code, 8);
        assert_eq!(events[0].arch_std_event.as_deref(), Some("INST_RETIRED"));
        assert_eq!(events[0].position.file, Path::new("core.json"));
        assert_eq!(events[1].name, "RETIRED");
        assert_eq!(events[1].brief_description.as_deref(), Some("Mine"));
        assert_eq!(
            events[1].public_description.as_deref(),
            Some("Instruction architecturally executed (long)")
        );
    }

    #[test]
    fn references_to_standard_metrics_are_no_events() {
        let mut t = table();
        t.add(
            parse_str(
                Path::new("sbsa.json"),
                r#"[{"MetricName": "backend_bound", "MetricExpr": "stall_slot_backend"}]"#,
            )
            .unwrap(),
        )
        .unwrap();
        let file = parse_str(
            Path::new("metrics.json"),
            r#"[{"ArchStdEvent": "backend_bound"}, {"ArchStdEvent": "inst_retired"}]"#,
        )
        .unwrap();
        let events = file.resolve(&t).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].name, "INST_RETIRED");
        // Only a name the architecture defines as a metric is one.
        let file = parse_str(
            Path::new("m.json"),
            r#"[{"ArchStdEvent": "frontend_bound"}]"#,
        )
        .unwrap();
        assert!(matches!(
            file.resolve(&t).unwrap_err().kind(),
            ErrorKind::UnknownArchStdEvent(_)
        ));
    }

    #[test]
    fn unknown_references_point_at_the_reference() {
        let file = parse_str(
            Path::new("core.json"),
            "[\n  {\"ArchStdEvent\": \"NO_SUCH_EVENT\"}\n]",
        )
        .unwrap();
        let err = file.resolve(&table()).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::UnknownArchStdEvent(n) if n == "NO_SUCH_EVENT"));
        assert_eq!(err.to_string().split(": ").next(), Some("core.json:2:20"));
    }
}
