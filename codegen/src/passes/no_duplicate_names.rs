//! No two elements of one namespace share a name. Vendor files repeat names; there the later ones
//! get a `_<k>` suffix (a warning), in strict mode it is an error.
use std::borrow::Cow;
use std::collections::BTreeSet;

use super::contract::Property;
use super::namespaces::{self, Namespace};
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::Device;
use crate::rules::NO_DUPLICATE_NAMES;

/// Amendments and derived layouts name blocks, registers and fields as written, so they are
/// folded before anything is renamed; and a derived layout's fields are skipped as copies of its
/// base's only once they are copies.
pub const ASSUMES: &[Property] = &[Property::AmendmentsFolded, Property::LayoutsDerived];
pub const ESTABLISHES: &[Property] = &[Property::NamesUnique];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for ns in namespaces::all(device) {
        let mut renames = Vec::new();
        let mut items = namespaces::names(device, ns);
        items.sort_by(|a, b| a.2.cmp(b.2));
        // Names as written are borrowed; only the new ones are made.
        let mut taken: BTreeSet<Cow<str>> = BTreeSet::new();
        for &(i, name, pos) in &items {
            if !taken.contains(name) {
                taken.insert(Cow::Borrowed(name));
                continue;
            }
            let first = items.iter().find(|(_, n, _)| *n == name).map(|x| x.2);
            let all: BTreeSet<&str> = items.iter().map(|x| x.1).collect();
            let new = namespaces::unique(name, |c| taken.contains(c) || all.contains(c));
            let mut d = defect(
                mode,
                NO_DUPLICATE_NAMES,
                pos,
                format!("{} `{name}` is defined twice", Namespace::kind(ns)),
                format!("renamed it `{new}`"),
            );
            if let Some(first) = first {
                d = d.with_note(first, "first defined here");
            }
            out.push(d);
            taken.insert(Cow::Owned(new.clone()));
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
