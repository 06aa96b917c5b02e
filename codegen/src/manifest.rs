//! The manifest (`descriptions/manifest.toml`): which crates to generate from which descriptions.
use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::frontend::Format;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    /// The `repository` of every crate, where they are published from.
    repository: Option<Spanned<String>>,
    #[serde(rename = "crate", default)]
    crates: Vec<RawEntry>,
}

/// The manifest: the crates, and what they share.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The `repository` URL the crates' `Cargo.toml` names.
    pub repository: Option<String>,
    pub crates: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    name: Spanned<String>,
    inputs: Vec<Spanned<String>>,
    format: Option<Format>,
    #[serde(default)]
    strict: bool,
    #[serde(default)]
    depends: Vec<Spanned<String>>,
    event_type: Option<String>,
}

/// One crate to generate.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The crate's name and its directory under `generated/`.
    pub name: String,
    /// Description files, relative to the manifest's directory.
    pub inputs: Vec<String>,
    /// The inputs' format, when not detected from the file.
    pub format: Option<Format>,
    /// Turn this crate's warnings into errors.
    pub strict: bool,
    /// Other generated crates this one's code refers to (by crate name).
    pub depends: Vec<String>,
    /// The Rust path of the event-type value the crate's events convert into, in a crate of
    /// `depends` (`arm_pmuv3::Pmevtyper`).
    pub event_type: Option<String>,
}

/// Parses the manifest text; `file` is the name positions carry.
pub fn parse(file: &str, text: &str) -> Result<Manifest, Vec<Diagnostic>> {
    let lines = LineIndex::new(file, text);
    let raw: RawManifest = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        vec![Diagnostic::error(
            "manifest_syntax",
            &lines.pos(span.start, span.end),
            e.message().trim().to_string(),
        )]
    })?;
    let mut errors = Vec::new();
    if let Some(url) = &raw.repository {
        let valid = url.get_ref().starts_with("https://")
            && !url
                .get_ref()
                .chars()
                .any(|c| c.is_whitespace() || c.is_control());
        if !valid {
            errors.push(Diagnostic::error(
                "manifest_syntax",
                &lines.pos(url.span().start, url.span().end),
                format!("`repository` {:?} is not an https:// URL", url.get_ref()),
            ));
        }
    }
    let mut entries: Vec<Entry> = Vec::new();
    for e in raw.crates {
        let name = e.name.get_ref();
        let pos = lines.pos(e.name.span().start, e.name.span().end);
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
            && name.starts_with(|c: char| c.is_ascii_lowercase());
        if !valid {
            errors.push(Diagnostic::error(
                "manifest_syntax",
                &pos,
                format!("crate name `{name}` must be lowercase letters, digits, `-` and `_`, starting with a letter"),
            ));
        } else if entries.iter().any(|x| &x.name == name) {
            errors.push(Diagnostic::error(
                "manifest_syntax",
                &pos,
                format!("crate `{name}` is listed twice"),
            ));
        }
        for d in &e.depends {
            let known = entries.iter().any(|x| &x.name == d.get_ref());
            if !known {
                errors.push(Diagnostic::error(
                    "manifest_syntax",
                    &lines.pos(d.span().start, d.span().end),
                    format!(
                        "`depends`: no crate listed before this one is named `{}`",
                        d.get_ref()
                    ),
                ));
            }
        }
        if e.inputs.is_empty() {
            errors.push(Diagnostic::error(
                "manifest_syntax",
                &pos,
                format!("crate `{name}` lists no inputs"),
            ));
        }
        entries.push(Entry {
            name: name.clone(),
            inputs: e.inputs.iter().map(|i| i.get_ref().clone()).collect(),
            format: e.format,
            strict: e.strict,
            depends: e.depends.iter().map(|d| d.get_ref().clone()).collect(),
            event_type: e.event_type,
        });
    }
    if errors.is_empty() {
        Ok(Manifest {
            repository: raw.repository.map(Spanned::into_inner),
            crates: entries,
        })
    } else {
        Err(errors)
    }
}
