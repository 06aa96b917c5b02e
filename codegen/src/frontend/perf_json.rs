//! The Linux perf pmu-events JSON frontend: one event file, or a core folder (every `*.json` in
//! it), with `ArchStdEvent` references resolved against the architectural tables found the way
//! Linux's jevents finds them. The parsing itself is the `pmu-events` crate's, shared with the
//! `pmu-macros` crate, so the generator and the macro read events the same way.
use std::path::Path;

use super::Parsed;
use crate::diagnostic::{Diagnostic, Sources};
use crate::ir::{Device, Event, EventPmu, Pos};
use crate::rules::{ARCH_STD_EVENTS_RESOLVE, INPUT_READABLE, PERF_JSON_SYNTAX};

/// Parses the events at `path` (a file or a core folder), shown as `file`. Every file read is
/// added to `sources`.
pub fn parse(file: &str, path: &Path, sources: &mut Sources) -> Parsed {
    let import = pmu_events::import(path, None)
        .map_err(|error| vec![diagnostic(file, path, &error, sources)])?;
    for read in &import.files {
        sources.note_read(read);
    }
    let mut events = Vec::new();
    for event in import.events {
        let shown = shown_path(file, path, &event.position.file);
        let pos = Pos {
            file: shown.clone(),
            line: event.position.line as u32,
            col: event.position.column as u32,
            span: (
                event.position.offset,
                event.position.offset + event.position.len,
            ),
        };
        if sources.get(&shown).is_none() {
            if let Ok(text) = super::read_input(&event.position.file) {
                sources.insert(&shown, text);
            }
        }
        let doc = Some(event.description().to_string()).filter(|d| !d.is_empty());
        events.push(Event {
            code: event.code,
            name: event.name,
            doc,
            source: Some(match &event.arch_std_event {
                Some(arch) => format!("Linux perf pmu-events (ArchStdEvent {arch})"),
                None => "Linux perf pmu-events".to_string(),
            }),
            pos,
        });
    }
    // Events past the 10 bits of PMUv3 need PMUv3p1's 16-bit event field.
    let pmu = if events.iter().any(|e| e.code > 0x3ff) {
        EventPmu::Pmuv3p1
    } else {
        EventPmu::Pmuv3
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "events".to_string());
    let mut device = Device {
        doc: Some(format!("PMU events from Linux perf pmu-events `{file}`")),
        source: Some("Linux tools/perf/pmu-events".to_string()),
        events,
        event_pmu: Some(pmu),
        ..Device::new(name, Pos::file_start(file))
    };
    device.canonicalize();
    Ok((device, Vec::new()))
}

/// The name a file read for `path` (shown as `file`) is shown by: relative to `file` as `path`
/// is, so messages name files the way the user named the input.
fn shown_path(file: &str, path: &Path, read: &Path) -> String {
    if read == path {
        return file.to_string();
    }
    let base = if path.is_dir() {
        path
    } else {
        path.parent().unwrap_or(Path::new(""))
    };
    let shown_base = if path.is_dir() {
        Path::new(file)
    } else {
        Path::new(file).parent().unwrap_or(Path::new(""))
    };
    match read.strip_prefix(base) {
        Ok(rest) => shown_base.join(rest).display().to_string(),
        Err(_) => read.display().to_string(),
    }
}

fn diagnostic(
    file: &str,
    path: &Path,
    error: &pmu_events::Error,
    sources: &mut Sources,
) -> Diagnostic {
    let shown = shown_path(file, path, error.file());
    let pos = match error.position() {
        Some(position) => Pos {
            file: shown.clone(),
            line: position.line as u32,
            col: position.column as u32,
            span: (position.offset, position.offset + position.len),
        },
        None => Pos {
            file: shown.clone(),
            line: 1,
            col: 1,
            span: (0, 0),
        },
    };
    // Bounded like every input: the error may be that the file is too large.
    if let Ok(text) = super::read_input(error.file()) {
        sources.insert(&shown, text);
    }
    let rule = match error.kind() {
        // A reference with no architectural tables to look it up in is as unresolved.
        pmu_events::ErrorKind::UnknownArchStdEvent(_)
        | pmu_events::ErrorKind::NoArchRoot { .. } => ARCH_STD_EVENTS_RESOLVE,
        pmu_events::ErrorKind::Io(_) => INPUT_READABLE,
        _ => PERF_JSON_SYNTAX,
    };
    Diagnostic::error(rule, &pos, error.message())
}
