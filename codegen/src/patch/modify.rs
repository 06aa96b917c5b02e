//! `[[modify]]`: sets attributes of every selected element (`set = { access = "rw", ... }`),
//! each an attribute of the level the selector names. Claims each attribute it sets of each
//! element.
use serde::Deserialize;
use toml::Spanned as S;

use super::attr::{set_on, Attr, Set};
use super::conflict::{Claim, What};
use super::elem::Elem;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, usage, width, Table};
use super::run::Run;
use super::select::{Level, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Device, Pos, ReadAction};
use crate::rules::PATCH_SYNTAX;

/// A number `set` may give: its value, what it is (for errors), its maximum, its attribute.
type Number<'a> = (&'a Option<S<i64>>, &'static str, u64, fn(u64) -> Attr);

pub const SPEC: Spec = Spec::new("modify", &["set"], check::<Raw>, read);

#[derive(Deserialize)]
struct Raw {
    set: Option<S<RawSet>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    doc: Option<S<String>>,
    source: Option<S<String>>,
    access: Option<S<String>>,
    state: Option<S<String>>,
    reset: Option<S<i64>>,
    reset_mask: Option<S<i64>>,
    bits: Option<S<String>>,
    offset: Option<S<i64>>,
    size: Option<S<i64>>,
    access_width: Option<S<i64>>,
    width: Option<S<i64>>,
    base: Option<S<i64>>,
    value: Option<S<i64>>,
    usage: Option<S<String>>,
    read_action: Option<S<String>>,
    index_names: Option<S<Vec<S<String>>>>,
    enum_name: Option<S<String>>,
}

/// The attributes to set.
#[derive(Debug)]
struct Modify {
    sets: Vec<Set>,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    let raw: Raw = read_raw(r, table)?;
    let Some(set) = &raw.set else {
        return refused(
            r,
            pos,
            "[[modify]] needs `set = { ... }`: the attributes to set",
        );
    };
    let level = select.level();
    let given = given(r, set.get_ref(), level);
    let mut ok = given.iter().all(|(attr, _)| attr.is_some());
    let sets: Vec<Set> = given
        .into_iter()
        .filter_map(|(attr, pos)| Some(Set { attr: attr?, pos }))
        .collect();
    for set in &sets {
        if !set.attr.levels().contains(&level) {
            let applies: Vec<&str> = set.attr.levels().iter().map(|l| l.as_str()).collect();
            r.errors.push(Diagnostic::error(
                PATCH_SYNTAX,
                &set.pos,
                format!(
                    "`{}` is no attribute of {} (the selector's deepest level); it is one of {}",
                    set.attr.key(),
                    level.as_str(),
                    applies.join(", ")
                ),
            ));
            ok = false;
        }
    }
    if sets.is_empty() && ok {
        r.error(set, "`set` names no attribute".into());
        ok = false;
    }
    ok.then(|| Box::new(Modify { sets }) as Box<dyn Operation>)
}

/// Every attribute `set` gives, read (`None` after an error at its value), with its position.
fn given(r: &mut Reader, s: &RawSet, level: Level) -> Vec<(Option<Attr>, Pos)> {
    let mut out: Vec<(Option<Attr>, Pos)> = Vec::new();
    for (v, attr) in [
        (&s.doc, Attr::Doc as fn(String) -> Attr),
        (&s.source, Attr::Source),
    ] {
        if let Some(v) = v {
            out.push((Some(attr(v.get_ref().clone())), r.pos(v)));
        }
    }
    if let Some(v) = &s.access {
        let attr = if matches!(level, Level::Register | Level::SysReg) {
            r.reg_access(Some(v), &s.state, v).map(Attr::RegAccess)
        } else {
            r.field_access(v).map(Attr::FieldAccess)
        };
        out.push((attr, r.pos(v)));
    } else if let Some(state) = &s.state {
        r.error(
            state,
            "`state` goes with `access = \"set\"` or `\"clear\"`".into(),
        );
        out.push((None, r.pos(state)));
    }
    let numbers: [Number; 2] = [
        (&s.reset, "`reset`", u64::MAX, Attr::Reset),
        (&s.reset_mask, "`reset_mask`", u64::MAX, Attr::ResetMask),
    ];
    numbered(r, &numbers, &mut out);
    if let Some(v) = &s.bits {
        let attr = r.bits(v, 64).map(|(m, l)| Attr::Bits(m, l));
        out.push((attr, r.pos(v)));
    }
    let numbers: [Number; 2] = [
        (&s.offset, "`offset`", u64::from(u32::MAX), Attr::Offset),
        (&s.size, "`size`", u64::from(u32::MAX) + 1, Attr::Size),
    ];
    numbered(r, &numbers, &mut out);
    for (v, key, attr) in [
        (
            &s.access_width,
            "access_width",
            Attr::AccessWidth as fn(u32) -> Attr,
        ),
        (&s.width, "width", Attr::Width),
    ] {
        if let Some(v) = v {
            out.push((width(r, v, key).map(attr), r.pos(v)));
        }
    }
    let numbers: [Number; 2] = [
        (&s.base, "`base`", u64::MAX, Attr::Base),
        (&s.value, "`value`", u64::MAX, Attr::Value),
    ];
    numbered(r, &numbers, &mut out);
    if let Some(v) = &s.usage {
        out.push((usage(r, v).map(Attr::Usage), r.pos(v)));
    }
    if let Some(v) = &s.read_action {
        out.push((read_action(r, v).map(Attr::ReadAction), r.pos(v)));
    }
    if let Some(v) = &s.index_names {
        out.push((index_names(r, v).map(Attr::IndexNames), r.pos(v)));
    }
    if let Some(v) = &s.enum_name {
        let attr = match crate::names::ident(v.get_ref(), crate::names::Case::Camel) {
            Ok(_) => Some(Attr::EnumName(v.get_ref().clone())),
            Err(why) => {
                r.error(v, format!("`enum_name` cannot name a type: {why}"));
                None
            }
        };
        out.push((attr, r.pos(v)));
    }
    out
}

/// The numbers given among `numbers` (value, what it is, its maximum, its attribute).
fn numbered(r: &mut Reader, numbers: &[Number], out: &mut Vec<(Option<Attr>, Pos)>) {
    for (v, what, max, attr) in numbers {
        if let Some(v) = v {
            out.push((r.unsigned(v, what, *max).map(attr), r.pos(v)));
        }
    }
}

fn read_action(r: &mut Reader, raw: &S<String>) -> Option<ReadAction> {
    match raw.get_ref().as_str() {
        "clear" => Some(ReadAction::Clear),
        "set" => Some(ReadAction::Set),
        "modify" => Some(ReadAction::Modify),
        "modify-external" => Some(ReadAction::ModifyExternal),
        other => {
            r.error(
                raw,
                format!(
                    "unknown read action `{other}`; expected clear, set, modify or modify-external"
                ),
            );
            None
        }
    }
}

/// An array's element names: identifiers (each becomes a constant), no two alike.
fn index_names(r: &mut Reader, raw: &S<Vec<S<String>>>) -> Option<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    for name in raw.get_ref() {
        let text = name.get_ref();
        let identifier = text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let problem = if !identifier {
            Some(format!("`{text}` is no name for an element: letters, digits and `_`, not starting with a digit"))
        } else if names.contains(text) {
            Some(format!("`{text}` names two elements"))
        } else {
            None
        };
        if let Some(message) = problem {
            r.error(name, message);
            return None;
        }
        names.push(text.clone());
    }
    if names.is_empty() {
        r.error(raw, "`index_names = []` names no element".into());
        return None;
    }
    Some(names)
}

impl Operation for Modify {
    fn claims(&self, _: &Device, _: &Op, sel: &Selected) -> Vec<Claim> {
        let mut out = Vec::new();
        for (elem, _) in &sel.targets {
            for set in &self.sets {
                out.push(Claim {
                    elem: *elem,
                    what: What::Set(set.attr.key(), set.attr.shown()),
                    pos: set.pos.clone(),
                });
            }
        }
        out
    }

    fn changes_layout(&self, target: Elem) -> bool {
        match target {
            Elem::Field(..) | Elem::Value(..) => true,
            Elem::Reg(_) => self.sets.iter().any(|s| s.attr.of_layout()),
            _ => false,
        }
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        for (elem, _) in &sel.targets {
            for set in &self.sets {
                let at = run.path(*elem);
                if let Some(old) = set_on(run, *elem, &at, set) {
                    let (key, new) = (set.attr.key(), set.attr.shown());
                    run.note(format!("{at}: {key} {old} → {new}"));
                }
            }
        }
    }
}
