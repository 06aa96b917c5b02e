//! Events from both sources (written in the macro, imported from perf JSON) in one shape, with
//! where each came from so that every error can point at the right token.
use proc_macro2::Span;
use std::path::{Path, PathBuf};
use syn::Attribute;

/// Where the macro runs: paths in `json = "..."` are relative to the calling crate's manifest.
pub(crate) struct Context {
    pub(crate) manifest_dir: PathBuf,
}

impl Context {
    /// The context of the running macro expansion (`CARGO_MANIFEST_DIR` of the calling crate; the
    /// current directory when not built by Cargo).
    pub(crate) fn from_env() -> Self {
        Self {
            manifest_dir: std::env::var_os("CARGO_MANIFEST_DIR")
                .map(PathBuf::from)
                .unwrap_or_default(),
        }
    }

    /// A path as written in the macro, resolved against the manifest directory.
    pub(crate) fn resolve(&self, written: &str) -> PathBuf {
        self.manifest_dir.join(written)
    }

    /// A path for messages: relative to the manifest directory when under it, so that messages
    /// read like what the user wrote and do not depend on where the checkout is.
    pub(crate) fn display(&self, path: &Path) -> String {
        path.strip_prefix(&self.manifest_dir)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// A `pmu-events` error as `file[:line:column]: message`.
    pub(crate) fn render(&self, error: &pmu_events::Error) -> String {
        match error.position() {
            Some(p) => format!("{}: {}", self.position(p), error.message()),
            None => format!("{}: {}", self.display(error.file()), error.message()),
        }
    }

    /// A position as `file:line:column`.
    pub(crate) fn position(&self, p: &pmu_events::Position) -> String {
        format!("{}:{}:{}", self.display(&p.file), p.line, p.column)
    }
}

/// Where an event was declared.
#[derive(Clone)]
pub(crate) enum Origin {
    /// In the macro input: errors point at its name or code token.
    Written { name: Span, code: Span },
    /// In a perf JSON file: errors point at the `json = "..."` literal and name the place in the
    /// file (`at` is `file:line:column`).
    Json { literal: Span, at: String },
}

impl Origin {
    pub(crate) fn name_span(&self) -> Span {
        match self {
            Origin::Written { name, .. } => *name,
            Origin::Json { literal, .. } => *literal,
        }
    }

    pub(crate) fn code_span(&self) -> Span {
        match self {
            Origin::Written { code, .. } => *code,
            Origin::Json { literal, .. } => *literal,
        }
    }

    /// `file:line:column: ` before a message about a JSON event; nothing for a written one, whose
    /// span already shows where it is.
    pub(crate) fn prefix(&self) -> String {
        match self {
            Origin::Written { .. } => String::new(),
            Origin::Json { at, .. } => format!("{at}: "),
        }
    }

    /// ` (at file:line:column)` after the name of an earlier event that came from JSON.
    pub(crate) fn suffix(&self) -> String {
        match self {
            Origin::Written { .. } => String::new(),
            Origin::Json { at, .. } => format!(" (at {at})"),
        }
    }
}

/// How the variant is documented.
#[derive(Clone)]
pub(crate) enum Docs {
    /// The doc comments written on the event, kept as they are.
    Written(Vec<Attribute>),
    /// Built from perf's descriptions.
    Json {
        brief: Option<String>,
        public: Option<String>,
        arch_std_event: Option<String>,
    },
}

/// An event before the checks.
#[derive(Clone)]
pub(crate) struct Candidate {
    pub(crate) name: String,
    /// Wider than an event number, so that a code too wide for every PMU can still be reported
    /// with its value.
    pub(crate) code: u64,
    pub(crate) description: String,
    pub(crate) docs: Docs,
    pub(crate) origin: Origin,
}
