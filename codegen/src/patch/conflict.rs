//! Conflicts between the operations of one file (`patches_do_not_conflict`), found before any
//! applies, over what each operation claims of the elements it selected, whatever the
//! operations are:
//!
//! - a claim of one slot of an element (an attribute, the element's name) excludes any other
//!   claim of the slot that does not agree with it: two values for one attribute, two names;
//! - a removed element excludes every other claim on it or on anything inside it;
//! - no two elements of one parent end with one name because of the file, and no element is
//!   renamed to the name of one that keeps it.
use std::collections::{BTreeMap, HashMap, HashSet};

use super::elem::{name_of, path, pos_of, siblings, Elem, Layouts};
use super::select::Selected;
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Pos};
use crate::rules::PATCHES_DO_NOT_CONFLICT;

/// What an operation claims of one element.
#[derive(Clone, Debug)]
pub enum What {
    /// Sets attribute `key` to a value (as the explanation shows it).
    Set(&'static str, String),
    /// Gives it a new name.
    Rename(String),
    /// Makes it part of an array or a cluster (which, in words), which names it.
    Member(&'static str),
    /// Removes it, and everything in it.
    Delete,
    /// Changes it otherwise (adds to it, copies it, ...): only its removal contradicts that.
    Change,
}

/// The part of an element a claim takes: claims of one slot must agree.
#[derive(PartialEq, Eq)]
enum Slot {
    Attr(&'static str),
    Name,
}

impl What {
    fn slot(&self) -> Option<Slot> {
        match self {
            What::Set(key, _) => Some(Slot::Attr(key)),
            What::Rename(_) | What::Member(_) => Some(Slot::Name),
            What::Delete | What::Change => None,
        }
    }

    /// Whether two claims of one slot say the same (a member is named by its array: never).
    fn agrees(&self, other: &What) -> bool {
        match (self, other) {
            (What::Set(_, a), What::Set(_, b)) | (What::Rename(a), What::Rename(b)) => a == b,
            _ => false,
        }
    }
}

/// One claim of an operation, at the position of what in the operation makes it.
#[derive(Clone, Debug)]
pub struct Claim {
    pub elem: Elem,
    pub what: What,
    pub pos: Pos,
}

/// The same claim of every element `sel` selected, at `pos`.
pub fn on_each(sel: &Selected, what: &What, pos: &Pos) -> Vec<Claim> {
    sel.targets
        .iter()
        .map(|(elem, _)| Claim {
            elem: *elem,
            what: what.clone(),
            pos: pos.clone(),
        })
        .collect()
}

/// A claim with the operation making it: its index in the file and its kind.
pub struct Effect {
    pub claim: Claim,
    pub op: usize,
    pub kind: &'static str,
}

/// One diagnostic per pair of operations that conflict, at the later one.
pub fn conflicts(device: &Device, layouts: &Layouts, effects: &[Effect]) -> Vec<Diagnostic> {
    let mut report = Report::default();
    one_slot(device, layouts, effects, &mut report);
    removed(device, layouts, effects, &mut report);
    let collisions = names(device, layouts, effects, &mut report);
    let mut out = report.out;
    out.extend(collisions);
    out
}

/// The diagnostics so far, one per pair of operations.
#[derive(Default)]
struct Report {
    out: Vec<Diagnostic>,
    reported: HashSet<(usize, usize)>,
}

impl Report {
    fn pair(&mut self, a: &Effect, b: &Effect, message: String, note: String) {
        let (first, second) = if a.claim.pos <= b.claim.pos {
            (a, b)
        } else {
            (b, a)
        };
        if self
            .reported
            .insert((first.op.min(second.op), first.op.max(second.op)))
        {
            self.out.push(
                Diagnostic::error(PATCHES_DO_NOT_CONFLICT, &second.claim.pos, message)
                    .with_note(&first.claim.pos, note),
            );
        }
    }
}

/// Two claims of one slot of one element that do not agree.
fn one_slot(device: &Device, layouts: &Layouts, effects: &[Effect], report: &mut Report) {
    let by_elem: BTreeMap<Elem, Vec<&Effect>> = effects.iter().fold(BTreeMap::new(), |mut m, e| {
        m.entry(e.claim.elem).or_default().push(e);
        m
    });
    for (elem, list) in &by_elem {
        let at = path(device, layouts, *elem);
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                let (x, y) = (&a.claim.what, &b.claim.what);
                if a.op == b.op || x.slot().is_none() || x.slot() != y.slot() || x.agrees(y) {
                    continue;
                }
                if let Some((message, note)) = clash(&at, x, y) {
                    report.pair(a, b, message, note);
                }
            }
        }
    }
}

/// The message and the note (at the other claim) for two claims of one slot of `at` that do not
/// agree.
fn clash(at: &str, a: &What, b: &What) -> Option<(String, String)> {
    let said = match (a, b) {
        (What::Set(ka, va), What::Set(kb, vb)) => (
            format!("`{at}`: `{kb}` is set to {vb} here and to {va} by another operation"),
            format!("`{ka}` set to {va} here"),
        ),
        (What::Rename(na), What::Rename(nb)) => (
            format!("`{at}` is renamed `{nb}` here and `{na}` by another operation"),
            format!("renamed `{na}` here"),
        ),
        (What::Member(ka), What::Member(kb)) if ka == kb => (
            format!("`{at}` is made part of two {kb}s"),
            "the other operation".to_string(),
        ),
        (What::Member(ka), What::Member(kb)) => (
            format!("`{at}` is made part of {} and of {}", a_an(ka), a_an(kb)),
            "the other operation".to_string(),
        ),
        (What::Member(k), _) | (_, What::Member(k)) => (
            format!(
                "`{at}` is renamed and made part of {}, which names it",
                a_an(k)
            ),
            "the other operation".to_string(),
        ),
        _ => return None,
    };
    Some(said)
}

/// Removed elements: nothing else may act on them or inside them (each claim looks up its
/// element and the few above it, so this is linear in the claims).
fn removed(device: &Device, layouts: &Layouts, effects: &[Effect], report: &mut Report) {
    let deletes: HashMap<Elem, &Effect> = effects
        .iter()
        .filter(|e| matches!(e.claim.what, What::Delete))
        .map(|e| (e.claim.elem, e))
        .collect();
    for e in effects
        .iter()
        .filter(|e| !matches!(e.claim.what, What::Delete))
    {
        let mut at = Some(e.claim.elem);
        while let Some(x) = at {
            if let Some(d) = deletes.get(&x).filter(|d| d.op != e.op) {
                let shown = path(device, layouts, d.claim.elem);
                report.pair(
                    d,
                    e,
                    format!(
                        "`{shown}` is deleted by one operation and changed ([[{}]]) by another",
                        e.kind
                    ),
                    "the other operation".to_string(),
                );
                break;
            }
            at = x.parent();
        }
    }
}

/// Names: after the file, no two elements of one parent share a name because of it. Two
/// elements renamed to one name are a pair of operations (reported); an element renamed to the
/// name of one that keeps it is returned, to follow the others.
fn names(
    device: &Device,
    layouts: &Layouts,
    effects: &[Effect],
    report: &mut Report,
) -> Vec<Diagnostic> {
    let of = |what: fn(&What) -> bool| -> HashMap<Elem, &Effect> {
        effects
            .iter()
            .filter(|e| what(&e.claim.what))
            .map(|e| (e.claim.elem, e))
            .collect()
    };
    let deleted = of(|w| matches!(w, What::Delete));
    let renamed = of(|w| matches!(w, What::Rename(_)));
    let mut taken: HashMap<((u8, Option<Elem>), String), &Effect> = HashMap::new();
    let mut collisions = Vec::new();
    for e in effects {
        let What::Rename(new) = &e.claim.what else {
            continue;
        };
        let elem = e.claim.elem;
        let key = (elem.namespace(), new.clone());
        if let Some(other) = taken.get(&key) {
            if other.claim.elem != elem {
                let (a, b) = (
                    path(device, layouts, other.claim.elem),
                    path(device, layouts, elem),
                );
                report.pair(
                    other,
                    e,
                    format!("`{a}` and `{b}` are both renamed `{new}`"),
                    format!("`{new}` given here"),
                );
            }
            continue;
        }
        taken.insert(key, e);
        let Some(parent) = elem.parent() else {
            continue;
        };
        let kept = siblings(device, layouts, parent, elem)
            .into_iter()
            .find(|s| {
                *s != elem
                    && !deleted.contains_key(s)
                    && !renamed.contains_key(s)
                    && name_of(device, layouts, *s) == *new
            });
        if let Some(sibling) = kept {
            let pos = pos_of(device, layouts, sibling);
            collisions.push(
                Diagnostic::error(
                    PATCHES_DO_NOT_CONFLICT,
                    &e.claim.pos,
                    format!(
                        "`{}` is renamed `{new}`, the name of another element it would sit beside",
                        path(device, layouts, elem)
                    ),
                )
                .with_note(&pos, format!("`{new}` is defined here")),
            );
        }
    }
    collisions
}

/// `an array`, `a cluster`.
pub fn a_an(word: &str) -> String {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {word}")
    } else {
        format!("a {word}")
    }
}
