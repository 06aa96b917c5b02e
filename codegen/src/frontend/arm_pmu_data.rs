//! The frontend for Arm's machine-readable PMU data (ARM-software/data): `pmu/<core>.json`, one
//! core's events (and the core), or an architecture's common ones; and `cpus.json`, the list of
//! cores. The reading itself is the `pmu-events`
//! crate's, shared with `pmu-macros`, so that the generator and the macro read the data the same
//! way. Events the data leaves without a name are named after their code and events without a
//! code are left out, each with a warning at the entry.
use std::path::Path;

use super::Parsed;
use crate::diagnostic::Diagnostic;
use crate::ir::{Core, Device, Event, EventPmu, Pos};
use crate::rules::{ARM_PMU_DATA_SYNTAX, EVENTS_COMPLETE, INPUT_READABLE};

/// The licence of Arm's PMU data (its repository's `LICENSE`).
const LICENSE: &str = "Apache-2.0";

/// Parses `text`, the content of the file at `path`, shown as `file`.
pub fn parse(file: &str, path: &Path, text: &str) -> Parsed {
    let data = pmu_events::parse_arm_pmu_data(path, text).map_err(|error| {
        let pos = error
            .position()
            .map_or_else(|| Pos::file_start(file), |at| position(file, at));
        let rule = match error.kind() {
            pmu_events::ErrorKind::Io(_) => INPUT_READABLE,
            _ => ARM_PMU_DATA_SYNTAX,
        };
        vec![Diagnostic::error(rule, &pos, error.message()).suggesting_expected()]
    })?;
    let Some(pmu) = data.pmu() else {
        return Err(vec![Diagnostic::error(
            ARM_PMU_DATA_SYNTAX,
            &position(file, &data.position),
            format!(
                "no PMU architecture this generator knows (`pmu_architecture` {:?}, `architecture` {:?}): the width of the event numbers is unknown",
                data.pmu_architecture.as_deref().unwrap_or("absent"),
                data.architecture
            ),
        )]);
    };
    let (events, repairs) = data.events();
    let warnings = repairs
        .iter()
        .map(|repair| {
            Diagnostic::warning(
                EVENTS_COMPLETE,
                &position(file, &repair.position),
                &repair.message,
            )
        })
        .collect();
    let file_name = path
        .file_name()
        .map_or_else(|| file.to_string(), |n| n.to_string_lossy().into_owned());
    let cited = if data.references.is_empty() {
        String::new()
    } else {
        format!(" (from: {})", data.references.join("; "))
    };
    let source = format!("Arm PMU data, ARM-software/data `pmu/{file_name}`{cited}");
    let events = events
        .into_iter()
        .map(|event| Event {
            code: event.code,
            doc: Some(event.description().to_string()).filter(|d| !d.is_empty()),
            // The crate's source names the file; each event repeating it would only lengthen
            // its description.
            source: None,
            pos: position(file, &event.position),
            name: event.name,
        })
        .collect();
    let name = path.file_stem().map_or_else(
        || "events".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let mut device = Device {
        doc: Some(describe(&data, &file_name)),
        source: Some(source),
        license: Some(LICENSE.to_string()),
        notice: Some(notice()),
        events,
        event_pmu: Some(EventPmu::from(pmu)),
        cores: core(&data, file).into_iter().collect(),
        ..Device::new(name, Pos::file_start(file))
    };
    device.canonicalize();
    Ok((device, warnings))
}

/// The core a per-core file describes (a common set describes none).
fn core(data: &pmu_events::ArmPmuFile, file: &str) -> Option<Core> {
    Some(Core {
        name: data.cpu.clone()?,
        implementer: data.implementer()?,
        part_number: data.part_number()?,
        architecture: data.architecture.clone(),
        counters: data.counters,
        pos: position(file, &data.position),
    })
}

/// The crate's one-line description and what the data says of the core.
fn describe(data: &pmu_events::ArmPmuFile, file_name: &str) -> String {
    let cpu = data.cpu.as_deref().unwrap_or(file_name);
    let mut doc = match data.cpuid {
        Some(_) => format!("PMU events of the {cpu}, from Arm's PMU data"),
        // `cpu` is `common ARMv8.0` there.
        None => format!("The {cpu} PMU events, from Arm's PMU data"),
    };
    let mut facts = vec![format!("architecture {}", data.architecture)];
    if let Some(midr) = data.cpuid {
        facts.push(format!(
            "MIDR implementer 0x{:02X}, part number 0x{:03X}",
            midr >> 12,
            midr & 0xFFF
        ));
    }
    if let Some(counters) = data.counters {
        facts.push(format!("{counters} event counters"));
    }
    doc.push_str(&format!("\n\n{}.", capitalise(&facts.join("; "))));
    doc
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// The attribution Apache-2.0 §4 asks a derived work to carry (the same for every file, so the
/// notices of a crate made from several files are one).
fn notice() -> String {
    "This crate is generated from files of Arm's machine-readable PMU data\n\
     (ARM-software/data, https://github.com/ARM-software/data).\n\
     Copyright (C) ARM Ltd. 2016. Licensed under the Apache License, Version 2.0\n\
     (LICENSE-APACHE). The generator turned the files' events and cores into Rust source: the\n\
     names, codes and descriptions are Arm's; names the data does not give are made from the\n\
     event's code (EVENT_C0)."
        .to_string()
}

fn position(file: &str, at: &pmu_events::Position) -> Pos {
    Pos {
        file: file.to_string(),
        line: u32::try_from(at.line).unwrap_or(u32::MAX),
        col: u32::try_from(at.column).unwrap_or(u32::MAX),
        span: (at.offset, at.offset + at.len),
    }
}

/// Parses Arm's `cpus.json` at `path` (text `text`, shown as `file`): a device with the cores it
/// lists and nothing else.
pub fn parse_cpus(file: &str, path: &Path, text: &str) -> Parsed {
    let cpus = pmu_events::parse_arm_cpus(path, text).map_err(|error| {
        let pos = error
            .position()
            .map_or_else(|| Pos::file_start(file), |at| position(file, at));
        vec![Diagnostic::error(
            ARM_PMU_DATA_SYNTAX,
            &pos,
            error.message(),
        )]
    })?;
    let name = path
        .file_stem()
        .map_or_else(|| "cpus".to_string(), |s| s.to_string_lossy().into_owned());
    let mut device = Device {
        doc: Some("The CPU cores of Arm's data, by MIDR implementer and part number".to_string()),
        source: Some("Arm PMU data, ARM-software/data `cpus.json`".to_string()),
        license: Some(LICENSE.to_string()),
        notice: Some(notice()),
        cores: cpus
            .into_iter()
            .map(|c| Core {
                name: c.name,
                implementer: c.implementer,
                part_number: c.part_number,
                architecture: c.architecture,
                counters: c.counters,
                pos: position(file, &c.position),
            })
            .collect(),
        ..Device::new(name, Pos::file_start(file))
    };
    device.canonicalize();
    Ok((device, Vec::new()))
}
