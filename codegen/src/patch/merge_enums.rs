//! `[[merge_enums]]`: among the selected fields, those with the same values (names, numbers,
//! usage, width) get the same descriptions of them, the first field's in device order, so the
//! backends make one type of them. With `name`, that type has the name (`Outover`, not the first
//! field's `Oeover`); the selection must then hold one set of values. Claims a change of each
//! field; changes no layout's structure, so a shared layout is not copied first.
use std::collections::{BTreeMap, HashSet};

use super::conflict::{on_each, Claim, What};
use super::elem::{Elem, Reg};
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, Table};
use super::run::{short, Run};
use super::select::{Level, Selected, Selector};
use serde::Deserialize;
use toml::Spanned as S;

use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Device, EnumValue, Pos};
use crate::rules::PATCH_OPERATIONS_APPLY;

pub const SPEC: Spec = Spec::new("merge_enums", &["name"], check::<Raw>, read);

#[derive(Deserialize)]
struct Raw {
    name: Option<S<String>>,
}

#[derive(Debug)]
struct MergeEnums {
    /// The type's name, and where it is given.
    name: Option<(String, Pos)>,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    if select.level() != Level::Field {
        return refused(r, pos, "[[merge_enums]] selects fields: `block`, `register` and `field` (or `sysreg` and `field`), globs allowed");
    }
    let raw: Raw = read_raw(r, table)?;
    let name = match raw.name {
        Some(n) => match crate::names::ident(n.get_ref(), crate::names::Case::Camel) {
            Err(why) => {
                r.error(&n, format!("`name` cannot name a type: {why}"));
                return None;
            }
            Ok(_) => Some((n.get_ref().clone(), r.pos(&n))),
        },
        None => None,
    };
    Some(Box::new(MergeEnums { name }))
}

impl Operation for MergeEnums {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Change, &op.pos)
    }

    /// Merging makes value descriptions the same: a register sharing the layout has the same
    /// values, so it takes the same words too.
    fn changes_layout(&self, _: Elem) -> bool {
        false
    }

    fn apply(&self, run: &mut Run, op: &Op, sel: &Selected) {
        let groups = groups(run, sel);
        if let Some((name, at)) = &self.name {
            if groups.len() > 1 {
                run.errors.push(Diagnostic::error(
                    PATCH_OPERATIONS_APPLY,
                    at,
                    format!(
                        "`name` names one type, but the selection holds {} different sets of values: select the fields of one",
                        groups.len()
                    ),
                ));
                return;
            }
            for &(reg, f) in groups.iter().flatten() {
                if let Some(l) = run.layout_of(reg) {
                    run.device.layouts[l].fields[f].enum_name = Some(name.clone());
                }
            }
        }
        let mut merged = 0;
        let mut same = 0;
        for members in groups.iter().filter(|m| m.len() >= 2) {
            merged += 1;
            match merge(run, members) {
                Some(changed) if changed > 0 => {
                    let (first_reg, first_f) = members[0];
                    let first = run.path(Elem::Field(first_reg, first_f));
                    let names = value_names(run, first_reg, first_f);
                    run.note(format!(
                        "{} fields share the values of {first} ({}): {changed} value description(s) made the same, so they are one type",
                        members.len(),
                        short(&names)
                    ));
                }
                Some(_) => same += 1,
                None => {}
            }
        }
        if same > 0 {
            run.note(format!(
                "{same} set(s) of values were the same already, descriptions and all"
            ));
        }
        if merged == 0 {
            let g = op.select.field.as_ref().map_or(&op.pos, |g| &g.pos);
            run.errors.push(Diagnostic::error(
                PATCH_OPERATIONS_APPLY,
                g,
                format!(
                    "no two of the {} field(s) selected have the same enumerated values, so nothing merges",
                    sel.targets.len()
                ),
            ));
        }
    }
}

/// The selected fields with values, grouped by what the values are (not their prose), each
/// layout's field once, the groups in the order of their first field.
fn groups(run: &Run, sel: &Selected) -> Vec<Vec<(Reg, usize)>> {
    let mut groups: BTreeMap<String, Vec<(Reg, usize)>> = BTreeMap::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut order: Vec<String> = Vec::new();
    for (elem, _) in &sel.targets {
        let Elem::Field(reg, f) = *elem else { continue };
        let Some(l) = run.layout_of(reg) else {
            continue;
        };
        let field = &run.device.layouts[l].fields[f];
        if !seen.insert((l, f)) || field.enums.is_empty() {
            continue;
        }
        let mut values: Vec<_> = field
            .enums
            .iter()
            .map(|e| (e.name.clone(), e.value, e.usage))
            .collect();
        values.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        let key = format!("{:?}", (field.width, values, &field.enum_default));
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        groups.entry(key).or_default().push((reg, f));
    }
    order
        .into_iter()
        .filter_map(|key| groups.remove(&key))
        .collect()
}

/// Gives every field of `members` the first one's descriptions of its values; how many
/// descriptions changed (`None` when the first field's layout is gone).
fn merge(run: &mut Run, members: &[(Reg, usize)]) -> Option<usize> {
    let (first_reg, first_f) = members[0];
    let fl = run.layout_of(first_reg)?;
    let model: Vec<EnumValue> = run.device.layouts[fl].fields[first_f].enums.clone();
    let mut changed = 0;
    for &(reg, f) in &members[1..] {
        let Some(l) = run.layout_of(reg) else {
            continue;
        };
        for value in &mut run.device.layouts[l].fields[f].enums {
            let same = |m: &&EnumValue| {
                (&m.name, m.value, m.usage) == (&value.name, value.value, value.usage)
            };
            if let Some(m) = model.iter().find(same) {
                if (&value.doc, &value.source) != (&m.doc, &m.source) {
                    changed += 1;
                }
                value.doc = m.doc.clone();
                value.source = m.source.clone();
            }
        }
    }
    Some(changed)
}

/// The names of field `f`'s values (of register `reg`'s layout), joined.
fn value_names(run: &Run, reg: Reg, f: usize) -> String {
    let Some(l) = run.layout_of(reg) else {
        return String::new();
    };
    let names: Vec<&str> = run.device.layouts[l].fields[f]
        .enums
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    names.join(", ")
}
