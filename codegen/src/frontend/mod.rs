//! Frontends: each turns one input format into the IR, and nothing else.
pub mod aarchmrs;
pub mod arm_pmu_data;
pub mod linux_sysreg;
pub mod native;
pub mod perf_json;
pub mod spanned;
pub mod svd;
pub mod ti_xml;

use std::path::Path;

use crate::diagnostic::{Diagnostic, Sources};
use crate::ir::{Device, Pos};
use crate::rules::INPUT_FORMAT;

/// The input formats the toolchain reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The native TOML description format (`descriptions/FORMAT.md`).
    Native,
    /// CMSIS-SVD.
    Svd,
    /// TI Code Composer Studio register XML ("targetdb"): a device file or a module file.
    TiXml,
    /// Linux `arch/arm64/tools/sysreg`.
    LinuxSysreg,
    /// Linux perf pmu-events JSON (a file or a core folder).
    PerfJson,
    /// Arm's machine-readable PMU data (ARM-software/data `pmu/<core>.json`).
    ArmPmuData,
    /// Arm's list of cores (ARM-software/data `cpus.json`).
    ArmCpus,
    /// Arm's machine-readable architecture specification (AARCHMRS): the release's tarball, or
    /// its `Registers.json`.
    Aarchmrs,
}

impl Format {
    /// Whether the format is ours, so every defect is an error: warnings and repairs are for
    /// vendor files.
    pub fn always_strict(self) -> bool {
        matches!(self, Format::Native)
    }

    /// Detects the format of `path` from its content (and, for TOML, its name).
    pub fn detect(path: &Path, text: &str) -> Option<Format> {
        let head: String = text
            .trim_start_matches('\u{feff}')
            .chars()
            .take(4096)
            .collect();
        let trimmed = head.trim_start();
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svd"))
        {
            return Some(Format::Svd);
        }
        if trimmed.starts_with('<') {
            // XML: the root element tells SVD (`<device ...schemaVersion`) from TI targetdb.
            let lower = head.to_ascii_lowercase();
            return if lower.contains("<peripherals")
                || lower.contains("schemaversion")
                || lower.contains("cmsis-svd")
            {
                Some(Format::Svd)
            } else if lower.contains("<module")
                || lower.contains("<instance")
                || lower.contains("<register")
            {
                Some(Format::TiXml)
            } else {
                Some(Format::Svd)
            };
        }
        if aarchmrs::is_release(path) || aarchmrs::is_registers_json(&head) {
            return Some(Format::Aarchmrs);
        }
        if pmu_events::is_arm_pmu_data(trimmed) {
            return Some(Format::ArmPmuData);
        }
        if pmu_events::is_arm_cpus(trimmed) {
            return Some(Format::ArmCpus);
        }
        let json = trimmed.starts_with('[') || trimmed.starts_with('{');
        let perf = path.extension().is_some_and(|e| e == "json")
            || trimmed.contains("\"EventCode\"")
            || trimmed.contains("\"ArchStdEvent\"");
        if json && perf {
            return Some(Format::PerfJson);
        }
        if path.extension().is_some_and(|e| e == "toml") {
            return Some(Format::Native);
        }
        if path.is_dir() {
            return Some(Format::PerfJson);
        }
        let sysreg = head.lines().map(str::trim).any(|l| {
            l.starts_with("Sysreg\t") || l.starts_with("Sysreg ") || l.starts_with("SysregFields")
        });
        if sysreg {
            return Some(Format::LinuxSysreg);
        }
        None
    }
}

/// The largest description file the toolchain reads (the largest real SVD file in the corpus is
/// about 4 MiB): a larger one is refused before it is read, so no input can exhaust memory.
pub const MAX_INPUT_BYTES: u64 = 32 * 1024 * 1024;

/// Reads a description file, refusing one larger than [`MAX_INPUT_BYTES`] (checked while reading,
/// so a growing file or a device such as `/dev/zero` is refused too).
pub fn read_input(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    // `take` hides the file's size from `read_to_end`, which would then grow the buffer from
    // nothing, copying it a dozen times for a 2 MB file: size it from the metadata.
    let hint = file
        .metadata()
        .map_or(0, |m| m.len().min(MAX_INPUT_BYTES + 1));
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0).saturating_add(1));
    file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!(
            "the file is larger than the limit of {} MiB",
            MAX_INPUT_BYTES / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// What a frontend gives: the device and any warnings (defects it repaired), or the errors.
pub type Parsed = Result<(Device, Vec<Diagnostic>), Vec<Diagnostic>>;

/// Parses `text`, the content of the file at `path` shown as `file`, in `format`. A frontend that
/// reads further files (a TI device file's modules) adds their texts to `sources`.
pub fn parse(format: Format, file: &str, path: &Path, text: &str, sources: &mut Sources) -> Parsed {
    match format {
        Format::Native => native::parse(file, text).map(|device| (device, Vec::new())),
        Format::Svd => {
            let (parsed, lines) = svd::parse_with_lines(file, text);
            sources.keep_line_starts(file, lines);
            parsed
        }
        Format::TiXml => ti_xml::parse(file, path, text, sources),
        Format::LinuxSysreg => linux_sysreg::parse(file, text),
        Format::PerfJson => perf_json::parse(file, path, sources),
        Format::ArmPmuData => arm_pmu_data::parse(file, path, text),
        Format::ArmCpus => arm_pmu_data::parse_cpus(file, path, text),
        Format::Aarchmrs => aarchmrs::parse(file, path, text, sources),
    }
}

/// The diagnostic for an input whose format cannot be told.
pub fn unknown_format(file: &str) -> Diagnostic {
    let pos = Pos::file_start(file);
    Diagnostic::error(
        INPUT_FORMAT,
        &pos,
        "cannot tell the input format from the file's content; name it with --format",
    )
}
