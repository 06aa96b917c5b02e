//! Every name becomes a Rust identifier after sanitising (see `names`), and no two names of one
//! namespace become the same identifier. A collision in a vendor file is repaired by a `_<k>`
//! suffix (a warning); a name with characters no identifier can hold is an error in every mode.
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
        items.sort_by(|a, b| a.2.cmp(&b.2));
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut renames = Vec::new();
        for (k, (i, name, pos)) in items.iter().enumerate() {
            let id = match ident(name, case) {
                Ok(id) => id,
                Err(why) => {
                    out.push(Diagnostic::error(
                        NAMES_ARE_IDENTIFIERS,
                        pos,
                        format!("{} name is not an identifier: {why}", Namespace::kind(ns)),
                    ));
                    continue;
                }
            };
            let Some(&first) = seen.get(&id) else {
                seen.insert(id, k);
                continue;
            };
            let (_, first_name, first_pos) = &items[first];
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
            renames.push((*i, new));
        }
        if mode == Mode::Lenient {
            for (i, new) in renames {
                namespaces::rename(device, ns, i, new);
            }
        }
    }
    out
}
