//! The manifest (`descriptions/manifest.toml`): which crates to generate from which descriptions.
use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::frontend::Format;
use crate::ir::Pos;
use crate::rules::{self, RuleSeverity, MANIFEST_SYNTAX};

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
    #[serde(default)]
    catalogue: bool,
    #[serde(default)]
    allow: Vec<Spanned<String>>,
    #[serde(default)]
    c_headers: bool,
    #[serde(default)]
    models: bool,
    #[serde(default)]
    patches: Vec<Spanned<String>>,
}

/// One crate to generate.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The crate's name and its directory under `generated/`.
    pub name: String,
    /// Description files, relative to the manifest's directory; a `*` in the file name matches
    /// any run of characters (`pmu/*.json`).
    pub inputs: Vec<String>,
    /// Where each input is named in the manifest.
    pub input_pos: Vec<Pos>,
    /// The inputs' format, when not detected from the file.
    pub format: Option<Format>,
    /// Turn this crate's warnings into errors.
    pub strict: bool,
    /// Other generated crates this one's code refers to (by crate name).
    pub depends: Vec<String>,
    /// The Rust path of the event-type value the crate's events convert into, in a crate of
    /// `depends` (`arm_pmuv3::Pmevtyper`).
    pub event_type: Option<String>,
    /// Each input is a set of events of its own, in a module behind a cargo feature named after
    /// the file, and the crate root lists the cores the inputs describe (Arm's PMU data).
    pub catalogue: bool,
    /// Rules whose warnings (defects repaired in vendor files) are known and accepted: they are
    /// counted, not shown.
    pub allow: Vec<String>,
    /// Write C headers of the registers (`include/`).
    pub c_headers: bool,
    /// Write behavioural models of the memory-mapped blocks (feature `model`).
    pub models: bool,
    /// Patch files (relative to the manifest's directory), applied in order to the merged
    /// inputs before the passes run. They are a key of their own, not inputs: a patch is no
    /// description and acts on all the inputs together, after they are merged.
    pub patches: Vec<String>,
}

/// Parses the manifest text; `file` is the name positions carry.
pub fn parse(file: &str, text: &str) -> Result<Manifest, Vec<Diagnostic>> {
    let lines = LineIndex::new(file, text);
    let raw: RawManifest = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        vec![Diagnostic::error(
            MANIFEST_SYNTAX,
            &lines.pos(span.start, span.end),
            e.message().trim().to_string(),
        )
        .suggesting_expected()]
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
                MANIFEST_SYNTAX,
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
                MANIFEST_SYNTAX,
                &pos,
                format!("crate name `{name}` must be lowercase letters, digits, `-` and `_`, starting with a letter"),
            ));
        } else if entries.iter().any(|x| &x.name == name) {
            errors.push(Diagnostic::error(
                MANIFEST_SYNTAX,
                &pos,
                format!("crate `{name}` is listed twice"),
            ));
        }
        for d in &e.depends {
            let known = entries.iter().any(|x| &x.name == d.get_ref());
            if !known {
                errors.push(Diagnostic::error(
                    MANIFEST_SYNTAX,
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
                MANIFEST_SYNTAX,
                &pos,
                format!("crate `{name}` lists no inputs"),
            ));
        }
        if e.catalogue {
            if let Some(first) = e.patches.first() {
                errors.push(Diagnostic::error(
                    MANIFEST_SYNTAX,
                    &lines.pos(first.span().start, first.span().end),
                    format!("crate `{name}` is a catalogue, whose inputs are each a device of their own: it takes no `patches`"),
                ));
            }
        }
        for allowed in &e.allow {
            if let Some(message) = unallowable(allowed.get_ref()) {
                errors.push(Diagnostic::error(
                    MANIFEST_SYNTAX,
                    &lines.pos(allowed.span().start, allowed.span().end),
                    format!("`allow`: {message}"),
                ));
            }
        }
        entries.push(Entry {
            name: name.clone(),
            inputs: e.inputs.iter().map(|i| i.get_ref().clone()).collect(),
            input_pos: e
                .inputs
                .iter()
                .map(|i| lines.pos(i.span().start, i.span().end))
                .collect(),
            catalogue: e.catalogue,
            allow: e.allow.iter().map(|a| a.get_ref().clone()).collect(),
            format: e.format,
            strict: e.strict,
            depends: e.depends.iter().map(|d| d.get_ref().clone()).collect(),
            event_type: e.event_type,
            c_headers: e.c_headers,
            models: e.models,
            patches: e.patches.iter().map(|p| p.get_ref().clone()).collect(),
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

/// Why `allow` cannot name `rule`: it is no rule of the registry (with the names it may have
/// meant), or one that is never a warning, so there is nothing to allow. The manifest's `allow`,
/// the command's `--allow` and the build script's `Build::allow` all check their rules here.
pub fn unallowable(rule: &str) -> Option<String> {
    match rules::find(rule) {
        Some(found) if found.severity == RuleSeverity::Error => Some(format!(
            "rule `{rule}` is always an error, never a warning to allow"
        )),
        Some(_) => None,
        None => {
            let close: Vec<String> = rules::similar(rule)
                .iter()
                .take(3)
                .map(|r| format!("`{r}`"))
                .collect();
            let hint = if close.is_empty() {
                " (`armreg-codegen explain` lists them)".to_string()
            } else {
                format!("; did you mean {}?", close.join(" or "))
            };
            Some(format!("no rule is named `{rule}`{hint}"))
        }
    }
}

/// The files `input` (relative to `dir`) names: itself, or where its file name has a `*`, every
/// file of its folder the pattern matches, in name order. A pattern matching nothing is an error.
pub fn expand_input(dir: &std::path::Path, input: &str) -> Result<Vec<String>, String> {
    let (folder, pattern) = match input.rsplit_once('/') {
        Some((folder, pattern)) => (folder, pattern),
        None => ("", input),
    };
    if !pattern.contains('*') {
        return Ok(vec![input.to_string()]);
    }
    if folder.contains('*') {
        return Err(format!("`{input}`: a `*` may stand only in the file name"));
    }
    let read = std::fs::read_dir(dir.join(folder))
        .map_err(|e| format!("`{input}`: cannot list {folder}: {e}"))?;
    let mut found: Vec<String> = read
        .flatten()
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|name| matches_pattern(pattern, name))
        .map(|name| {
            if folder.is_empty() {
                name
            } else {
                format!("{folder}/{name}")
            }
        })
        .collect();
    if found.is_empty() {
        return Err(format!("`{input}` matches no file"));
    }
    found.sort();
    Ok(found)
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters.
fn matches_pattern(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.len() >= part.len() && rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_file_names() {
        assert!(matches_pattern("*.json", "cortex-a53.json"));
        assert!(matches_pattern("cortex-*.json", "cortex-a53.json"));
        assert!(!matches_pattern("cortex-*.json", "neoverse-n1.json"));
        assert!(!matches_pattern("*.json", "x.toml"));
        assert!(matches_pattern("a*b*c", "aXbYc"));
        assert!(!matches_pattern("a*b*c", "aXcYb"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("pmu")).unwrap();
        for f in ["b.json", "a.json", "c.toml"] {
            std::fs::write(dir.path().join("pmu").join(f), "").unwrap();
        }
        assert_eq!(
            expand_input(dir.path(), "pmu/*.json").unwrap(),
            ["pmu/a.json", "pmu/b.json"]
        );
        assert!(expand_input(dir.path(), "pmu/*.svd")
            .unwrap_err()
            .contains("matches no file"));
        assert_eq!(expand_input(dir.path(), "x.toml").unwrap(), ["x.toml"]);
    }

    #[test]
    fn allow_names_rules_that_warn() {
        assert_eq!(unallowable("events_complete"), None);
        let error_rule = unallowable("toml_syntax").unwrap();
        assert!(error_rule.contains("always an error"), "{error_rule}");
        let typo = unallowable("events_compete").unwrap();
        assert!(typo.ends_with("did you mean `events_complete`?"), "{typo}");
        let unknown = unallowable("zzzz").unwrap();
        assert!(
            unknown.contains("`armreg-codegen explain` lists them"),
            "{unknown}"
        );
    }
}
