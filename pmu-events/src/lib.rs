//! Arm PMU event data, shared by the `pmu-macros` event declarations and the generator's
//! frontends (`armreg-codegen`) so that there is one reading of the data: Linux perf
//! `pmu-events` JSON, and Arm's machine-readable PMU data.
//!
//! - The event model: [`Event`] (code, name, brief and public description, where it came from).
//! - One file: [`parse_file`] / [`parse_str`] give an [`EventFile`] of [`Entry`]s; every error
//!   carries the file and a 1-based line:column ([`Error::position`]).
//! - `ArchStdEvent` references: [`ArchTable`] holds the architectural tables of an arch root
//!   (`common-and-microarch.json`, `recommended.json`), found like Linux's jevents does with
//!   [`find_arch_root`]; [`EventFile::resolve`] replaces the references.
//! - A whole core folder or file in one call: [`import`] (or [`read_core_dir`] with a table).
//! - `mapfile.csv`: [`parse_mapfile`], [`lookup_midr`].
//! - Arm's PMU data (ARM-software/data `pmu/<core>.json`): [`read_arm_pmu_data`] /
//!   [`parse_arm_pmu_data`] give an [`ArmPmuFile`] (the core's identity and its [`ArmEvent`]s);
//!   [`ArmPmuFile::events`] turns them into [`Event`]s, naming the ones the data leaves unnamed.
//! - PMCEID decoding and event-field widths: [`pmceid_bit`], [`Pmu`].
//! - The architecture's common events, number and mnemonic: [`COMMON_EVENTS`],
//!   [`common_event_name`], [`common_event_code`].
//! - Every file is read bounded: one over [`MAX_FILE_BYTES`] (32 MiB) is an error naming it.
//!
//! ```no_run
//! use std::path::Path;
//! let core = Path::new("linux/tools/perf/pmu-events/arch/arm64/arm/cortex-a53");
//! let import = pmu_events::import(core, None)?;
//! for event in &import.events {
//!     println!("0x{:04X} {} — {}", event.code, event.name, event.description());
//! }
//! # Ok::<(), pmu_events::Error>(())
//! ```
mod arch;
mod arm_data;
mod common;
mod error;
mod locate;
mod mapfile;
mod parse;
mod pmu;
mod read;
mod resolve;

pub use arch::{find_arch_root, ArchTable};
pub use arm_data::{
    generated_name, is_arm_cpus, is_arm_pmu_data, parse_arm_cpus, parse_arm_pmu_data,
    read_arm_cpus, read_arm_pmu_data, ArmCpu, ArmEvent, ArmPmuFile, Repair,
};
pub use common::{common_event_code, common_event_name, COMMON_EVENTS};
pub use error::{Error, ErrorKind, Position};
pub use mapfile::{lookup_midr, parse_mapfile, MapEntry};
pub use parse::{parse_file, parse_str, Entry, Event, EventFile, Reference};
pub use pmu::{pmceid_bit, Pmu};
pub use read::MAX_FILE_BYTES;
pub use resolve::{import, read_core_dir, Import};

use std::path::{Path, PathBuf};

/// Reads and parses a `mapfile.csv` (refused when larger than [`MAX_FILE_BYTES`]). See
/// [`parse_mapfile`].
pub fn read_mapfile(path: &Path) -> Result<Vec<MapEntry>, Error> {
    let text = read::read_text(path)?;
    parse_mapfile(path, &text)
}

/// The `*.json` files directly in `dir`, sorted by name so that every reader sees the same order.
fn json_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let io = |e| Error::in_file(dir, ErrorKind::Io(e));
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(Error::in_file(dir, ErrorKind::NoEventFiles));
    }
    files.sort();
    Ok(files)
}
