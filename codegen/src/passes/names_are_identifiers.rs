//! Every name becomes a Rust identifier after sanitising (see `names`), and no two names of one
//! namespace become the same identifier. A collision in a vendor file is repaired by a `_<k>`
//! suffix (a warning), and so is a name with characters no identifier can hold (`11_CLOCKS_/_10`
//! becomes `11_CLOCKS_10`); a name with no letter or digit at all is an error in every mode.
use std::borrow::Cow;
use std::collections::BTreeMap;

use super::contract::Property;
use super::namespaces::{self, Namespace};
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::Device;
use crate::names::ident;
use crate::rules::NAMES_ARE_IDENTIFIERS;

/// Renames, so it runs after what names elements as written (as `no_duplicate_names`); and it
/// leaves a name repeated exactly to that pass, so only distinct names may collide here.
pub const ASSUMES: &[Property] = &[
    Property::AmendmentsFolded,
    Property::LayoutsDerived,
    Property::NamesUnique,
];
pub const ESTABLISHES: &[Property] = &[Property::NamesAreIdentifiers];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for ns in namespaces::all(device) {
        let case = ns.case();
        let mut items = namespaces::names(device, ns);
        items.sort_by(|a, b| a.2.cmp(b.2));
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut renames = Vec::new();
        for (k, &(i, name, pos)) in items.iter().enumerate() {
            let (name, id) = match ident(name, case) {
                Ok(id) => (Cow::Borrowed(name), id),
                Err(why) => {
                    let kind = Namespace::kind(ns);
                    // Prose where a name should be (`11_CLOCKS_/_10_BITS`, `is_toggle.`):
                    // the characters no identifier holds become `_`.
                    let Some((new, id)) =
                        sanitized(name).and_then(|new| ident(&new, case).ok().map(|id| (new, id)))
                    else {
                        out.push(Diagnostic::error(
                            NAMES_ARE_IDENTIFIERS,
                            pos,
                            format!("{kind} name is not an identifier: {why}"),
                        ));
                        continue;
                    };
                    out.push(defect(
                        mode,
                        NAMES_ARE_IDENTIFIERS,
                        pos,
                        format!("{kind} name is not an identifier: {why}"),
                        format!("renamed it `{new}`"),
                    ));
                    renames.push((i, new.clone()));
                    (Cow::Owned(new), id)
                }
            };
            let name = name.as_ref();
            let Some(&first) = seen.get(&id) else {
                seen.insert(id, k);
                continue;
            };
            let (_, first_name, first_pos) = items[first];
            if first_name == name {
                // The same name twice is `no_duplicate_names`' to report.
                continue;
            }
            let new = namespaces::unique(name, |c| {
                ident(c, case).is_ok_and(|cid| seen.contains_key(&cid))
            });
            out.push(
                defect(
                    mode,
                    NAMES_ARE_IDENTIFIERS,
                    pos,
                    format!(
                        "{} `{name}` and `{first_name}` both become the identifier `{id}`",
                        Namespace::kind(ns)
                    ),
                    format!("renamed it `{new}`"),
                )
                .with_note(first_pos, "the other name"),
            );
            if let Ok(new_id) = ident(&new, case) {
                seen.insert(new_id, k);
            }
            // A name already repaired above is renamed once, to its final name.
            renames.retain(|(renamed, _)| *renamed != i);
            renames.push((i, new));
        }
        if mode == Mode::Lenient {
            for (i, new) in renames {
                namespaces::rename(device, ns, i, new);
            }
        }
    }
    out
}

/// `name` with every run of characters an identifier cannot hold made one `_` (the `<n>` of an
/// array kept), or `None` if no letter or digit is left.
fn sanitized(name: &str) -> Option<String> {
    let parts: Vec<String> = name
        .split("<n>")
        .map(|part| {
            let mut out = String::new();
            for c in part.chars() {
                let c = if c.is_ascii_alphanumeric() { c } else { '_' };
                if !(c == '_' && out.ends_with('_')) {
                    out.push(c);
                }
            }
            out
        })
        .collect();
    let joined = parts.join("<n>");
    let trimmed = joined.trim_matches('_').to_string();
    trimmed
        .chars()
        .any(|c| c.is_ascii_alphanumeric())
        .then_some(trimmed)
}
