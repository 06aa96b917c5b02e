//! Frontends: each turns one input format into the IR, and nothing else.
pub mod native;

use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Pos};

/// The input formats the toolchain reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The native TOML description format (`descriptions/FORMAT.md`).
    Native,
}

impl Format {
    /// Whether the format is ours, so every defect is an error: warnings and repairs are for
    /// vendor files.
    pub fn always_strict(self) -> bool {
        matches!(self, Format::Native)
    }

    /// Detects the format of `path` from its name and content.
    pub fn detect(path: &Path, _text: &str) -> Option<Format> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => Some(Format::Native),
            _ => None,
        }
    }
}

/// Parses `text` (the content of `file`) in `format`.
pub fn parse(format: Format, file: &str, text: &str) -> Result<Device, Vec<Diagnostic>> {
    match format {
        Format::Native => native::parse(file, text),
    }
}

/// The diagnostic for an input whose format cannot be told.
pub fn unknown_format(file: &str) -> Diagnostic {
    let pos = Pos {
        file: file.to_string(),
        line: 1,
        col: 1,
        span: (0, 0),
    };
    Diagnostic::error(
        "input_format",
        &pos,
        "cannot tell the input format from the file name; name it with --format",
    )
}
