//! The architectural tables (`common-and-microarch.json`, `recommended.json`) that `ArchStdEvent`
//! references resolve against, and how to find them.
use crate::error::{Error, ErrorKind};
use crate::parse::{self, Entry, Event};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// Finds the arch root above `start` (a core folder such as `arch/arm64/arm/cortex-a53`, or a file
/// in one): the first folder, `start` included, that holds `mapfile.csv` or whose parent is named
/// `arch`. Linux's jevents takes the architectural tables from that folder (`arch/arm64/`).
///
/// The walk is lexical, so relative paths stay relative in messages; a `..` component is resolved
/// against the file system before walking past it.
pub fn find_arch_root(start: &Path) -> Option<PathBuf> {
    let mut dir = if start.is_file() {
        start.parent()?.to_path_buf()
    } else {
        start.to_path_buf()
    };
    if dir.as_os_str().is_empty() {
        dir = PathBuf::from(".");
    }
    loop {
        if is_arch_root(&dir) {
            return Some(dir);
        }
        match dir.components().next_back() {
            Some(Component::Normal(_)) if dir.components().count() > 1 => {
                dir.pop();
            }
            // The parent of `..`, `.` or a lone relative name is not lexical: continue from the
            // canonical path (absolute, no `..`), which is checked again and then walked up.
            Some(Component::Normal(_) | Component::ParentDir | Component::CurDir) => {
                dir = dir.canonicalize().ok()?;
            }
            _ => return None,
        }
    }
}

fn is_arch_root(dir: &Path) -> bool {
    if dir.join("mapfile.csv").is_file() {
        return true;
    }
    let parent_is_arch = |d: &Path| d.parent().and_then(Path::file_name) == Some("arch".as_ref());
    match dir.components().next_back() {
        Some(Component::Normal(_)) => parent_is_arch(dir) && dir.is_dir(),
        _ => false,
    }
}

/// The architectural events of one arch root, by name (ASCII case-insensitive, as jevents), and
/// the names of its standard metrics (arm64's `sbsa.json`), which references may name too.
#[derive(Clone, Debug, Default)]
pub struct ArchTable {
    events: BTreeMap<String, Event>,
    metrics: BTreeSet<String>,
    files: Vec<PathBuf>,
}

impl ArchTable {
    /// Loads every `*.json` file directly in `arch_root`, in file-name order (jevents reads all of
    /// them; for arm64 they are `common-and-microarch.json`, `recommended.json` and the metrics
    /// of `sbsa.json`).
    pub fn load(arch_root: &Path) -> Result<Self, Error> {
        Self::from_files(&crate::json_files(arch_root)?)
    }

    /// Builds the table from the given files, in order. A name defined twice is an error.
    pub fn from_files(files: &[PathBuf]) -> Result<Self, Error> {
        let mut table = Self::default();
        for path in files {
            table.add(parse::parse_file(path)?)?;
            table.files.push(path.clone());
        }
        Ok(table)
    }

    /// Adds the events of one parsed file (for callers that hold the text, not a path).
    pub fn add(&mut self, file: parse::EventFile) -> Result<(), Error> {
        for entry in file.entries {
            let event = match entry {
                Entry::Event(event) => event,
                Entry::Metric(name) => {
                    self.metrics.insert(name.to_ascii_lowercase());
                    continue;
                }
                Entry::Reference(r) => {
                    return Err(Error::at(
                        r.position,
                        ErrorKind::ReferenceInArchTable(r.name),
                    ))
                }
            };
            let key = event.name.to_ascii_lowercase();
            if let Some(first) = self.events.get(&key) {
                return Err(Error::at(
                    event.position.clone(),
                    ErrorKind::DuplicateArchStdEvent {
                        name: event.name,
                        first: first.position.clone(),
                    },
                ));
            }
            self.events.insert(key, event);
        }
        Ok(())
    }

    /// The architectural event called `name` (ASCII case-insensitive).
    pub fn get(&self, name: &str) -> Option<&Event> {
        self.events.get(&name.to_ascii_lowercase())
    }

    /// Whether `name` is one of the standard metrics (ASCII case-insensitive).
    pub fn is_metric(&self, name: &str) -> bool {
        self.metrics.contains(&name.to_ascii_lowercase())
    }

    /// Number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The files the table was loaded from (for rebuild tracking).
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;

    #[test]
    fn duplicate_and_nested_references_are_errors() {
        let mut table = ArchTable::default();
        let file = |text: &str| parse_str(Path::new("a.json"), text).unwrap();
        table
            .add(file(
                r#"[{"EventCode": "0x11", "EventName": "CPU_CYCLES"}]"#,
            ))
            .unwrap();
        assert_eq!(table.get("cpu_cycles").unwrap().code, 0x11);
        let err = table
            .add(file(
                r#"[{"EventCode": "0x12", "EventName": "cpu_cycles"}]"#,
            ))
            .unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::DuplicateArchStdEvent { .. }
        ));
        let err = table.add(file(r#"[{"ArchStdEvent": "X"}]"#)).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::ReferenceInArchTable(_)));
    }

    #[test]
    fn no_arch_root_above_a_plain_folder() {
        let dir = std::env::temp_dir().join(format!("pmu-events-noroot-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        // A temp folder has no mapfile.csv and no `arch` parent anywhere above it.
        assert_eq!(find_arch_root(&dir.join("a/b")), None);
        std::fs::write(dir.join("a/mapfile.csv"), "").unwrap();
        assert_eq!(find_arch_root(&dir.join("a/b")), Some(dir.join("a")));
        let dotted = find_arch_root(&dir.join("a/b/../b")).unwrap();
        assert_eq!(
            dotted.canonicalize().unwrap(),
            dir.join("a").canonicalize().unwrap()
        );
        std::fs::remove_file(dir.join("a/mapfile.csv")).unwrap();
        std::fs::create_dir_all(dir.join("arch/arm64/arm/core")).unwrap();
        let found = find_arch_root(&dir.join("arch/arm64/arm/core/../core")).unwrap();
        assert_eq!(
            found.canonicalize().unwrap(),
            dir.join("arch/arm64").canonicalize().unwrap()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
