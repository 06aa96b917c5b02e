//! A native description laid over Arm's data (AARCHMRS): the data gives every register, its
//! encoding and its fields; the native files add what the data lacks (documentation, names of
//! values, sources, views). This pass checks that the two agree — encoding, register access,
//! width, every native field's bits against the data's fields, RES1 bits — and merges them.
//!
//! A disagreement is an error naming both places, unless the description lists it among its
//! reviewed `[[difference]]`s with a reason; a listed difference that no longer occurs is an
//! error too, so the list cannot go stale. Registers the native files do not describe keep the
//! data's layout, with every field Arm gives; a register they describe gets the data's fields
//! the description lacks, where its layout is its own.
mod compare;
mod merge;

pub use compare::Kind;

use crate::diagnostic::Diagnostic;
use crate::ir::{Device, KnownDifference, Pos, SysReg};
use crate::rules::OVERLAY_AGREES;

/// What the overlay found, for the crate's report and the closing figures.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Native registers compared with the data.
    pub compared: usize,
    /// Differences found, by kind, whether listed or not.
    pub differences: Vec<(String, usize)>,
    /// Fields of the data that native layouts lacked, added to them.
    pub fields_added: usize,
    /// Fields of the data that native layouts lack and that were not added (the layout is
    /// shared by several registers).
    pub fields_lacking: usize,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let found: usize = self.differences.iter().map(|(_, n)| n).sum();
        let kinds: Vec<String> = self
            .differences
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        write!(
            f,
            "laid over Arm's data: {} native registers compared, {found} differences ({}), {} fields of Arm's data added to native layouts, {} not added (their layouts are shared)",
            self.compared,
            if kinds.is_empty() { "none".to_string() } else { kinds.join(", ") },
            self.fields_added,
            self.fields_lacking
        )
    }
}

/// One difference found: where it is in the description and in the data.
pub struct Found {
    pub register: String,
    pub kind: Kind,
    pub field: Option<String>,
    pub text: String,
    pub ours: Pos,
    pub theirs: Option<Pos>,
}

/// Lays `overlay` over `data` and returns the merged device, the diagnostics, and the summary.
pub fn run(data: Device, mut overlay: Device) -> (Device, Vec<Diagnostic>, Summary) {
    // A derived layout is compared (and completed) with the fields it derives.
    let mut diagnostics = super::derived_layouts_resolve::run(&mut overlay);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return (overlay, diagnostics, Summary::default());
    }
    let known = overlay.differences.clone();
    let (merged, found, summary) = merge::merge(data, overlay);
    diagnostics.extend(check_listed(&found, &known));
    (merged, diagnostics, summary)
}

/// Every difference found must be listed; every listed one must be found.
fn check_listed(found: &[Found], known: &[KnownDifference]) -> Vec<Diagnostic> {
    let mut used = vec![false; known.len()];
    let mut out = Vec::new();
    for f in found {
        let listed = known.iter().position(|k| {
            k.register == f.register
                && k.kind == f.kind.as_str()
                && (k.field.is_none() || k.field == f.field)
        });
        match listed {
            Some(i) => used[i] = true,
            None => {
                let field = f
                    .field
                    .as_ref()
                    .map(|x| format!(", field = \"{x}\""))
                    .unwrap_or_default();
                let mut d = Diagnostic::error(
                    OVERLAY_AGREES,
                    &f.ours,
                    format!("{}: {}", f.register, f.text),
                )
                .with_help(format!(
                    "fix the description, or list it with its reason: [[difference]] register = \"{}\", kind = \"{}\"{field}, reason = \"...\"",
                    f.register,
                    f.kind.as_str()
                ));
                if let Some(theirs) = &f.theirs {
                    d = d.with_note(theirs, "Arm's data says otherwise here");
                }
                out.push(d);
            }
        }
    }
    for (k, used) in known.iter().zip(used) {
        if !used {
            let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
            let why = if kinds.contains(&k.kind.as_str()) {
                "no such difference is found any more: remove the entry".to_string()
            } else {
                format!(
                    "`{}` is not a kind of difference (one of: {})",
                    k.kind,
                    kinds.join(", ")
                )
            };
            out.push(Diagnostic::error(
                OVERLAY_AGREES,
                &k.pos,
                format!("listed difference of {} ({}): {why}", k.register, k.kind),
            ));
        }
    }
    out
}

/// The registers of a device that are not views, by name in capitals (Arm's data writes
/// `APIAKeyHi_EL1` where the Arm ARM's text and the native files write `APIAKEYHI_EL1`).
fn by_name(sysregs: &[SysReg]) -> std::collections::HashMap<String, usize> {
    sysregs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.view.is_none())
        .map(|(i, r)| (r.name.to_ascii_uppercase(), i))
        .collect()
}
