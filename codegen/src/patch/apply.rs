//! Applying one patch file to a device: select, check, then change.
//!
//! 1. Every operation's selector is resolved against the device as the file finds it. A level
//!    that matches nothing is an error at its key (`patch_selectors_match`).
//! 2. What each operation would do to each element it selected is listed, and the list is
//!    checked: two values for one attribute, a change to an element another operation deletes,
//!    two names for one element, one name for two, a register in two arrays or clusters
//!    (`patches_do_not_conflict`, naming both operations).
//! 3. The operations are applied in a fixed order: modify, rename, derive, merge_enums, copy,
//!    delete, add, array, cluster. Until the end elements are only appended or marked for removal, so what
//!    step 1 selected stays where it was.
//!
//! A register's fields live in its layout, which other registers may share: before a field of
//! it changes, a register whose layout is shared gets a copy of its own (`<BLOCK>_<REGISTER>`),
//! so the patch changes exactly the registers it selects. Layouts the patch leaves unused (the
//! other elements of a new array, deleted registers) are removed.
use std::collections::{BTreeMap, HashMap, HashSet};

use super::glob::{self, Glob};
use super::{
    read_action_str, reg_access_str, short, usage_str, Attr, Kind, Level, New, NewField,
    NewRegister, Op, PatchFile,
};
use crate::diagnostic::Diagnostic;
use crate::ir::{
    Block, BlockArray, BlockRegister, Cluster, Device, EnumValue, Field, Instance, Interrupt,
    Layout, NameRef, Pos,
};
use crate::rules::{PATCHES_DO_NOT_CONFLICT, PATCH_OPERATIONS_APPLY, PATCH_SELECTORS_MATCH};

/// A register: of a block (block, register) or a system register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Reg {
    Block(usize, usize),
    Sys(usize),
}

/// An element of the device, by its indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Elem {
    Device,
    Block(usize),
    Instance(usize),
    Reg(Reg),
    Field(Reg, usize),
    Value(Reg, usize, usize),
}

impl Elem {
    fn parent(self) -> Option<Elem> {
        match self {
            Elem::Device => None,
            Elem::Block(_) | Elem::Instance(_) | Elem::Reg(Reg::Sys(_)) => Some(Elem::Device),
            Elem::Reg(Reg::Block(b, _)) => Some(Elem::Block(b)),
            Elem::Field(r, _) => Some(Elem::Reg(r)),
            Elem::Value(r, f, _) => Some(Elem::Field(r, f)),
        }
    }

    /// The names its siblings of the same kind must not share: its parent and kind.
    fn namespace(self) -> (u8, Option<Elem>) {
        let kind = match self {
            Elem::Device => 0,
            Elem::Block(_) => 1,
            Elem::Instance(_) => 2,
            Elem::Reg(Reg::Sys(_)) => 3,
            Elem::Reg(Reg::Block(..)) => 4,
            Elem::Field(..) => 5,
            Elem::Value(..) => 6,
        };
        (kind, self.parent())
    }
}

/// What an operation does to one element, for the conflict check.
#[derive(Clone, Debug)]
enum What {
    Set(&'static str, String),
    Delete,
    Rename(String),
    /// Made part of an array or a cluster (which, said in words).
    Member(&'static str),
    Other,
}

struct Effect {
    elem: Elem,
    what: What,
    /// The operation, and the position to point at.
    op: usize,
    pos: Pos,
}

/// The device's layouts by name, kept up to date as layouts are added.
struct Layouts(HashMap<String, usize>);

impl Layouts {
    fn of(device: &Device) -> Layouts {
        let mut map = HashMap::new();
        for (i, l) in device.layouts.iter().enumerate() {
            map.entry(l.name.clone()).or_insert(i);
        }
        Layouts(map)
    }

    fn of_reg(&self, device: &Device, reg: Reg) -> Option<usize> {
        let name = match reg {
            Reg::Block(b, r) => &device.blocks[b].registers[r].layout.name,
            Reg::Sys(s) => &device.sysregs[s].layout.name,
        };
        self.0.get(name).copied()
    }

    fn push(&mut self, device: &mut Device, layout: Layout) -> usize {
        let i = device.layouts.len();
        self.0.insert(layout.name.clone(), i);
        device.layouts.push(layout);
        i
    }

    /// `wanted`, or `wanted_2`, `wanted_3` ... : the first name no layout has.
    fn free_name(&self, wanted: &str) -> String {
        if !self.0.contains_key(wanted) {
            return wanted.to_string();
        }
        (2..)
            .map(|k| format!("{wanted}_{k}"))
            .find(|n| !self.0.contains_key(n))
            .unwrap_or_default()
    }
}

/// The result of resolving one operation's selector.
struct Selected {
    targets: Vec<(Elem, Vec<String>)>,
}

/// Applies `file` to `device`. Returns the errors (nothing is applied when the selectors or the
/// checks fail) and, for `--explain-patches`, a line per change.
pub fn apply(device: &mut Device, file: &PatchFile) -> (Vec<Diagnostic>, Vec<String>) {
    let mut errors = Vec::new();
    let layouts = Layouts::of(device);
    let mut selected = Vec::new();
    for op in &file.ops {
        match select(device, &layouts, op) {
            Ok(s) => selected.push(s),
            Err(e) => {
                errors.push(e);
                selected.push(Selected {
                    targets: Vec::new(),
                });
            }
        }
    }
    if errors.is_empty() {
        errors.extend(references(device, file));
    }
    for (op, sel) in file.ops.iter().zip(&mut selected) {
        if let Err(e) = cluster_members(device, op, sel) {
            errors.push(e);
        }
    }
    if !errors.is_empty() {
        return (errors, Vec::new());
    }
    let effects = effects(device, &layouts, file, &selected);
    errors.extend(conflicts(device, &layouts, file, &effects));
    if !errors.is_empty() {
        return (errors, Vec::new());
    }
    let mut run = Run {
        device,
        layouts,
        log: Vec::new(),
        errors: Vec::new(),
        dead: HashSet::new(),
        used_before: HashSet::new(),
    };
    run.used_before = run.used_layouts();
    run.split(file, &selected);
    let order = [
        "modify",
        "rename",
        "derive",
        "merge_enums",
        "copy",
        "delete",
        "add",
        "array",
        "cluster",
        "field_array",
    ];
    for phase in order {
        if phase == "array" {
            // Arrays compare layouts: without the fields and values deleted.
            run.sweep_layouts();
        }
        for (op, sel) in file.ops.iter().zip(&selected) {
            if op.kind.as_str() == phase {
                run.op(op, sel);
            }
        }
    }
    if run.errors.is_empty() {
        run.sweep();
    }
    (run.errors, run.log)
}

/// Every element the selector names; an error at the first level that matches nothing.
fn select(device: &Device, layouts: &Layouts, op: &Op) -> Result<Selected, Diagnostic> {
    let s = &op.select;
    let none = |glob: &Glob, what: &str, within: String| {
        Diagnostic::error(
            PATCH_SELECTORS_MATCH,
            &glob.pos,
            format!("`{}` matches no {what}{within}", glob.text),
        )
    };
    let mut targets: Vec<(Elem, Vec<String>)> = Vec::new();
    match s.level() {
        Level::Device => {
            return Ok(Selected {
                targets: vec![(Elem::Device, Vec::new())],
            })
        }
        Level::Instance => {
            let g = s.instance.as_ref().expect("the level says so");
            for (i, inst) in device.instances.iter().enumerate() {
                if let Some(c) = g.captures(&inst.name) {
                    targets.push((Elem::Instance(i), c));
                }
            }
            if targets.is_empty() {
                return Err(none(g, "instance", String::new()));
            }
            return Ok(Selected { targets });
        }
        _ => {}
    }
    // Registers (or blocks), then fields, then values.
    let mut regs: Vec<(Reg, Vec<String>)> = Vec::new();
    if let Some(g) = &s.sysreg {
        for (i, r) in device.sysregs.iter().enumerate() {
            if let Some(c) = g.captures(&r.name) {
                regs.push((Reg::Sys(i), c));
            }
        }
        if regs.is_empty() {
            return Err(none(g, "system register", String::new()));
        }
    } else if let Some(g) = &s.block {
        let blocks: Vec<(usize, Vec<String>)> = device
            .blocks
            .iter()
            .enumerate()
            .filter_map(|(i, b)| g.captures(&b.name).map(|c| (i, c)))
            .collect();
        if blocks.is_empty() {
            return Err(none(g, "block", String::new()));
        }
        // A cluster level: the blocks the selected blocks' clusters place.
        let blocks = match &s.cluster {
            None => blocks,
            Some(cg) => {
                let placed: Vec<(usize, Vec<String>)> = blocks
                    .iter()
                    .flat_map(|(b, _)| &device.blocks[*b].clusters)
                    .filter_map(|cluster| {
                        let c = cg.captures(&cluster.name)?;
                        let nested = device
                            .blocks
                            .iter()
                            .position(|n| n.name == cluster.block.name)?;
                        Some((nested, c))
                    })
                    .collect();
                if placed.is_empty() {
                    return Err(none(cg, "cluster", of_blocks(device, &blocks)));
                }
                // Clusters expanded element by element place one block.
                let mut seen = std::collections::BTreeSet::new();
                placed
                    .into_iter()
                    .filter(|(b, _)| seen.insert(*b))
                    .collect()
            }
        };
        let Some(rg) = &s.register else {
            return Ok(Selected {
                targets: blocks
                    .into_iter()
                    .map(|(b, c)| (Elem::Block(b), c))
                    .collect(),
            });
        };
        for (b, _) in &blocks {
            for (r, reg) in device.blocks[*b].registers.iter().enumerate() {
                if let Some(c) = rg.captures(&reg.name) {
                    regs.push((Reg::Block(*b, r), c));
                }
            }
        }
        if regs.is_empty() {
            return Err(none(rg, "register", of_blocks(device, &blocks)));
        }
    }
    let Some(fg) = &s.field else {
        return Ok(Selected {
            targets: regs.into_iter().map(|(r, c)| (Elem::Reg(r), c)).collect(),
        });
    };
    let mut fields: Vec<(Reg, usize, Vec<String>)> = Vec::new();
    for (reg, _) in &regs {
        let Some(l) = layouts.of_reg(device, *reg) else {
            continue;
        };
        for (f, field) in device.layouts[l].fields.iter().enumerate() {
            if field.name.is_empty() {
                continue;
            }
            if let Some(c) = fg.captures(&field.name) {
                fields.push((*reg, f, c));
            }
        }
    }
    if fields.is_empty() {
        let names: Vec<String> = regs.iter().map(|(r, _)| reg_name(device, *r)).collect();
        return Err(none(fg, "field", of_names("register", &names)));
    }
    let Some(vg) = &s.value else {
        return Ok(Selected {
            targets: fields
                .into_iter()
                .map(|(r, f, c)| (Elem::Field(r, f), c))
                .collect(),
        });
    };
    for (reg, f, _) in &fields {
        let Some(l) = layouts.of_reg(device, *reg) else {
            continue;
        };
        for (v, value) in device.layouts[l].fields[*f].enums.iter().enumerate() {
            if let Some(c) = vg.captures(&value.name) {
                targets.push((Elem::Value(*reg, *f, v), c));
            }
        }
    }
    if targets.is_empty() {
        let names: Vec<String> = fields
            .iter()
            .map(|(r, f, _)| path(device, layouts, Elem::Field(*r, *f)))
            .collect();
        return Err(none(vg, "enumerated value", of_names("field", &names)));
    }
    Ok(Selected { targets })
}

fn of_blocks(device: &Device, blocks: &[(usize, Vec<String>)]) -> String {
    let names: Vec<String> = blocks
        .iter()
        .map(|(b, _)| device.blocks[*b].name.clone())
        .collect();
    of_names("block", &names)
}

/// ` of block PWM` / ` of the 3 blocks A, B, C` (the first few named).
fn of_names(what: &str, names: &[String]) -> String {
    match names {
        [one] => format!(" of {what} `{one}`"),
        _ => {
            let shown: Vec<String> = names.iter().take(4).map(|n| format!("`{n}`")).collect();
            let more = if names.len() > 4 { ", ..." } else { "" };
            format!(
                " of the {} {what}s selected ({}{more})",
                names.len(),
                shown.join(", ")
            )
        }
    }
}

/// Names an operation refers to besides its selector: `[[derive]]`'s `from`, a new instance's
/// block.
fn references(device: &Device, file: &PatchFile) -> Vec<Diagnostic> {
    let new_blocks: Vec<&str> = file
        .ops
        .iter()
        .filter_map(|op| match &op.kind {
            Kind::Add(New::Block(b)) => Some(b.name.as_str()),
            _ => None,
        })
        .collect();
    let known =
        |name: &str| device.blocks.iter().any(|b| b.name == name) || new_blocks.contains(&name);
    let mut out = Vec::new();
    for op in &file.ops {
        let (name, pos) = match &op.kind {
            Kind::Derive { from, from_pos } => (from, from_pos),
            Kind::Add(New::Instance(i)) => (&i.block, &i.block_pos),
            _ => continue,
        };
        if !known(name) {
            out.push(Diagnostic::error(
                PATCH_SELECTORS_MATCH,
                pos,
                format!("no block is named `{name}`"),
            ));
        }
    }
    out
}

fn reg_name(device: &Device, reg: Reg) -> String {
    match reg {
        Reg::Block(b, r) => format!(
            "{}.{}",
            device.blocks[b].name, device.blocks[b].registers[r].name
        ),
        Reg::Sys(s) => device.sysregs[s].name.clone(),
    }
}

/// The element's name.
fn name_of(device: &Device, layouts: &Layouts, e: Elem) -> String {
    match e {
        Elem::Device => device.name.clone(),
        Elem::Block(b) => device.blocks[b].name.clone(),
        Elem::Instance(i) => device.instances[i].name.clone(),
        Elem::Reg(Reg::Block(b, r)) => device.blocks[b].registers[r].name.clone(),
        Elem::Reg(Reg::Sys(s)) => device.sysregs[s].name.clone(),
        Elem::Field(r, f) => layouts
            .of_reg(device, r)
            .map(|l| device.layouts[l].fields[f].name.clone())
            .unwrap_or_default(),
        Elem::Value(r, f, v) => layouts
            .of_reg(device, r)
            .map(|l| device.layouts[l].fields[f].enums[v].name.clone())
            .unwrap_or_default(),
    }
}

/// `PWM.CH0_CSR.EN`, `instance UART1`, `the device`.
fn path(device: &Device, layouts: &Layouts, e: Elem) -> String {
    match e {
        Elem::Device => "the device".to_string(),
        Elem::Instance(i) => format!("instance {}", device.instances[i].name),
        Elem::Block(b) => device.blocks[b].name.clone(),
        Elem::Reg(r) => reg_name(device, r),
        Elem::Field(r, _) | Elem::Value(r, _, _) => {
            let parent = path(device, layouts, e.parent().unwrap_or(Elem::Reg(r)));
            format!("{parent}.{}", name_of(device, layouts, e))
        }
    }
}

/// The position of the element in its input.
fn pos_of(device: &Device, layouts: &Layouts, e: Elem) -> Pos {
    match e {
        Elem::Device => device.pos.clone(),
        Elem::Block(b) => device.blocks[b].pos.clone(),
        Elem::Instance(i) => device.instances[i].pos.clone(),
        Elem::Reg(Reg::Block(b, r)) => device.blocks[b].registers[r].pos.clone(),
        Elem::Reg(Reg::Sys(s)) => device.sysregs[s].pos.clone(),
        Elem::Field(r, f) => layouts
            .of_reg(device, r)
            .map(|l| device.layouts[l].fields[f].pos.clone())
            .unwrap_or_default(),
        Elem::Value(r, f, v) => layouts
            .of_reg(device, r)
            .map(|l| device.layouts[l].fields[f].enums[v].pos.clone())
            .unwrap_or_default(),
    }
}

fn effects(
    device: &Device,
    layouts: &Layouts,
    file: &PatchFile,
    selected: &[Selected],
) -> Vec<Effect> {
    let mut out = Vec::new();
    for (i, (op, sel)) in file.ops.iter().zip(selected).enumerate() {
        for (elem, captures) in &sel.targets {
            let mut push = |what: What, pos: &Pos| {
                out.push(Effect {
                    elem: *elem,
                    what,
                    op: i,
                    pos: pos.clone(),
                })
            };
            match &op.kind {
                Kind::Modify(sets) => {
                    for set in sets {
                        push(What::Set(set.attr.key(), set.attr.shown()), &set.pos);
                    }
                }
                Kind::Delete => push(What::Delete, &op.pos),
                Kind::Rename { to, to_pos } => {
                    let new = glob::expand(to, captures).unwrap_or_else(|_| to.clone());
                    push(What::Rename(new), to_pos);
                }
                Kind::Array { .. } => push(What::Member("array"), &op.pos),
                Kind::Cluster { .. } => push(What::Member("cluster"), &op.pos),
                Kind::FieldArray { .. } => push(What::Member("field array"), &op.pos),
                Kind::Add(_) | Kind::Copy { .. } | Kind::Derive { .. } | Kind::MergeEnums => {
                    push(What::Other, &op.pos)
                }
            }
        }
    }
    let _ = (device, layouts);
    out
}

/// One diagnostic per pair of operations that conflict, at the later one.
fn conflicts(
    device: &Device,
    layouts: &Layouts,
    file: &PatchFile,
    effects: &[Effect],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut reported: HashSet<(usize, usize)> = HashSet::new();
    let mut report = |a: &Effect, b: &Effect, message: String, note: String| {
        let (first, second) = if a.pos <= b.pos { (a, b) } else { (b, a) };
        if reported.insert((first.op.min(second.op), first.op.max(second.op))) {
            out.push(
                Diagnostic::error(PATCHES_DO_NOT_CONFLICT, &second.pos, message)
                    .with_note(&first.pos, note),
            );
        }
    };
    let by_elem: BTreeMap<Elem, Vec<&Effect>> = effects.iter().fold(BTreeMap::new(), |mut m, e| {
        m.entry(e.elem).or_default().push(e);
        m
    });
    // One element: two values of an attribute, two names, two arrays.
    for (elem, list) in &by_elem {
        let at = path(device, layouts, *elem);
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                if a.op == b.op {
                    continue;
                }
                match (&a.what, &b.what) {
                    (What::Set(ka, va), What::Set(kb, vb)) if ka == kb && va != vb => report(
                        a,
                        b,
                        format!(
                            "`{at}`: `{kb}` is set to {vb} here and to {va} by another operation"
                        ),
                        format!("`{ka}` set to {va} here"),
                    ),
                    (What::Rename(na), What::Rename(nb)) if na != nb => report(
                        a,
                        b,
                        format!("`{at}` is renamed `{nb}` here and `{na}` by another operation"),
                        format!("renamed `{na}` here"),
                    ),
                    (What::Member(ka), What::Member(kb)) => report(
                        a,
                        b,
                        if ka == kb {
                            format!("`{at}` is made part of two {kb}s")
                        } else {
                            format!("`{at}` is made part of {} and of {}", a_an(ka), a_an(kb))
                        },
                        "the other operation".to_string(),
                    ),
                    (What::Member(k), What::Rename(_)) | (What::Rename(_), What::Member(k)) => {
                        report(
                            a,
                            b,
                            format!(
                                "`{at}` is renamed and made part of {}, which names it",
                                a_an(k)
                            ),
                            "the other operation".to_string(),
                        )
                    }
                    _ => {}
                }
            }
        }
    }
    // Deleted elements: nothing else may act on them or inside them (each effect looks up its
    // element and the few above it, so this is linear in the effects).
    let deletes: HashMap<Elem, &Effect> = effects
        .iter()
        .filter(|e| matches!(e.what, What::Delete))
        .map(|e| (e.elem, e))
        .collect();
    for e in effects.iter().filter(|e| !matches!(e.what, What::Delete)) {
        let mut at = Some(e.elem);
        while let Some(x) = at {
            if let Some(d) = deletes.get(&x).filter(|d| d.op != e.op) {
                let shown = path(device, layouts, d.elem);
                let what = file.ops[e.op].kind.as_str();
                report(
                    d,
                    e,
                    format!(
                        "`{shown}` is deleted by one operation and changed ([[{what}]]) by another"
                    ),
                    "the other operation".to_string(),
                );
                break;
            }
            at = x.parent();
        }
    }
    // Names: after the patch, no two elements of one parent share a name because of it.
    let deleted: HashSet<Elem> = effects
        .iter()
        .filter(|e| matches!(e.what, What::Delete))
        .map(|e| e.elem)
        .collect();
    let renamed: HashMap<Elem, &Effect> = effects
        .iter()
        .filter(|e| matches!(e.what, What::Rename(_)))
        .map(|e| (e.elem, e))
        .collect();
    let mut taken: HashMap<((u8, Option<Elem>), String), &Effect> = HashMap::new();
    let mut collisions = Vec::new();
    for e in effects {
        let What::Rename(new) = &e.what else { continue };
        let key = (e.elem.namespace(), new.clone());
        if let Some(other) = taken.get(&key) {
            if other.elem != e.elem {
                report(
                    other,
                    e,
                    format!(
                        "`{}` and `{}` are both renamed `{new}`",
                        path(device, layouts, other.elem),
                        path(device, layouts, e.elem)
                    ),
                    format!("`{new}` given here"),
                );
            }
            continue;
        }
        taken.insert(key, e);
        // An element that keeps the name.
        let Some(parent) = e.elem.parent() else {
            continue;
        };
        for sibling in siblings(device, layouts, parent, e.elem) {
            if sibling != e.elem
                && !deleted.contains(&sibling)
                && !renamed.contains_key(&sibling)
                && name_of(device, layouts, sibling) == *new
            {
                let pos = pos_of(device, layouts, sibling);
                collisions.push(
                    Diagnostic::error(
                        PATCHES_DO_NOT_CONFLICT,
                        &e.pos,
                        format!(
                            "`{}` is renamed `{new}`, the name of another element it would sit beside",
                            path(device, layouts, e.elem)
                        ),
                    )
                    .with_note(&pos, format!("`{new}` is defined here")),
                );
                break;
            }
        }
    }
    out.extend(collisions);
    out
}

/// The elements of the same kind as `like` under `parent`.
fn siblings(device: &Device, layouts: &Layouts, parent: Elem, like: Elem) -> Vec<Elem> {
    match (parent, like) {
        (Elem::Device, Elem::Block(_)) => (0..device.blocks.len()).map(Elem::Block).collect(),
        (Elem::Device, Elem::Instance(_)) => {
            (0..device.instances.len()).map(Elem::Instance).collect()
        }
        (Elem::Device, Elem::Reg(Reg::Sys(_))) => (0..device.sysregs.len())
            .map(|s| Elem::Reg(Reg::Sys(s)))
            .collect(),
        (Elem::Block(b), _) => (0..device.blocks[b].registers.len())
            .map(|r| Elem::Reg(Reg::Block(b, r)))
            .collect(),
        (Elem::Reg(r), _) => layouts
            .of_reg(device, r)
            .map(|l| {
                (0..device.layouts[l].fields.len())
                    .map(|f| Elem::Field(r, f))
                    .collect()
            })
            .unwrap_or_default(),
        (Elem::Field(r, f), _) => layouts
            .of_reg(device, r)
            .map(|l| {
                (0..device.layouts[l].fields[f].enums.len())
                    .map(|v| Elem::Value(r, f, v))
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Where numbered elements (sorted by number) are not numbered 0, 1, 2, ...: the element at the
/// first break and why (a number missing, or one there twice).
fn numbering_gap<T: Copy>(members: &[(u32, T)]) -> Option<(T, String)> {
    let (k, &(n, at)) = members
        .iter()
        .enumerate()
        .find(|(k, (n, _))| *n as usize != *k)?;
    let why = if n as usize > k {
        format!("number {k} is missing")
    } else {
        format!("number {n} is there twice")
    };
    Some((at, why))
}

/// Why layout `b` is not `a` (its first difference), in words.
fn difference(a: &Layout, b: &Layout) -> String {
    if a.width != b.width {
        return format!("width {} where the first has {}", b.width, a.width);
    }
    if a.reset != b.reset || a.reset_mask != b.reset_mask {
        return format!(
            "reset {} where the first has {}",
            b.reset.map_or("none".into(), |r| format!("{r:#x}")),
            a.reset.map_or("none".into(), |r| format!("{r:#x}"))
        );
    }
    if a.fields.len() != b.fields.len() {
        return format!(
            "{} fields where the first has {}",
            b.fields.len(),
            a.fields.len()
        );
    }
    for (fa, fb) in a.fields.iter().zip(&b.fields) {
        if fa.name != fb.name {
            return format!("field `{}` where the first has `{}`", fb.name, fa.name);
        }
        let la = Layout {
            fields: vec![fa.clone()],
            ..a.clone()
        };
        let lb = Layout {
            fields: vec![fb.clone()],
            ..a.clone()
        };
        if la.structure_key() != lb.structure_key() {
            let what = if (fa.lsb, fa.width) != (fb.lsb, fb.width) {
                "bits"
            } else if fa.access != fb.access {
                "access"
            } else if fa.reset != fb.reset {
                "reset"
            } else if fa.enums.len() != fb.enums.len()
                || fa
                    .enums
                    .iter()
                    .zip(&fb.enums)
                    .any(|(x, y)| (&x.name, x.value, x.usage) != (&y.name, y.value, y.usage))
            {
                "enumerated values"
            } else {
                "read or write semantics"
            };
            return format!("field `{}` differs in its {what}", fb.name);
        }
    }
    "a different layout".to_string()
}

struct Run<'a> {
    device: &'a mut Device,
    layouts: Layouts,
    log: Vec<String>,
    errors: Vec<Diagnostic>,
    /// Elements to remove at the end (their indices stay valid until then).
    dead: HashSet<Elem>,
    /// The layouts registers used before the patch: those it leaves unused are removed.
    used_before: HashSet<String>,
}

impl Run<'_> {
    fn note(&mut self, op: &Op, what: String) {
        self.log
            .push(format!("{}: [[{}]] {what}", op.pos, op.kind.as_str()));
    }

    fn path(&self, e: Elem) -> String {
        path(self.device, &self.layouts, e)
    }

    fn used_layouts(&self) -> HashSet<String> {
        let mut used: HashSet<String> = self
            .device
            .blocks
            .iter()
            .flat_map(|b| &b.registers)
            .map(|r| r.layout.name.clone())
            .collect();
        used.extend(self.device.sysregs.iter().map(|s| s.layout.name.clone()));
        used
    }

    /// Gives each register a field-level operation (or a register-level change of its layout)
    /// selects a layout of its own, when it shares one.
    fn split(&mut self, file: &PatchFile, selected: &[Selected]) {
        let mut users: HashMap<String, usize> = HashMap::new();
        for name in self
            .device
            .blocks
            .iter()
            .flat_map(|b| &b.registers)
            .map(|r| &r.layout.name)
            .chain(self.device.sysregs.iter().map(|s| &s.layout.name))
        {
            *users.entry(name.clone()).or_default() += 1;
        }
        let mut regs: Vec<(Reg, usize)> = Vec::new();
        for (i, (op, sel)) in file.ops.iter().zip(selected).enumerate() {
            let layout_attr = match &op.kind {
                Kind::Modify(sets) => sets.iter().any(|s| {
                    matches!(s.attr, Attr::Reset(_) | Attr::ResetMask(_) | Attr::Width(_))
                }),
                Kind::Add(New::Field(_)) => true,
                // Merging makes value descriptions the same: a register sharing the layout
                // has the same values, so it takes the same words too.
                Kind::MergeEnums => continue,
                _ => false,
            };
            for (elem, _) in &sel.targets {
                match elem {
                    Elem::Field(r, _) | Elem::Value(r, _, _) => regs.push((*r, i)),
                    Elem::Reg(r) if layout_attr => regs.push((*r, i)),
                    _ => {}
                }
            }
        }
        regs.sort();
        regs.dedup_by_key(|(r, _)| *r);
        for (reg, op) in regs {
            let Some(l) = self.layouts.of_reg(self.device, reg) else {
                continue;
            };
            let old = self.device.layouts[l].name.clone();
            if users.get(&old).copied().unwrap_or(0) < 2 {
                continue;
            }
            *users.entry(old.clone()).or_default() -= 1;
            let wanted = match reg {
                Reg::Block(b, r) => format!(
                    "{}_{}",
                    self.device.blocks[b].name, self.device.blocks[b].registers[r].name
                ),
                Reg::Sys(s) => self.device.sysregs[s].name.clone(),
            };
            let name = self.layouts.free_name(&wanted);
            let copy = Layout {
                name: name.clone(),
                ..self.device.layouts[l].clone()
            };
            self.layouts.push(self.device, copy);
            match reg {
                Reg::Block(b, r) => self.device.blocks[b].registers[r].layout.name = name.clone(),
                Reg::Sys(s) => self.device.sysregs[s].layout.name = name.clone(),
            }
            let at = reg_name(self.device, reg);
            self.note(
                &file.ops[op],
                format!("{at}: layout `{old}` is shared, so {at} gets a copy of its own, `{name}`"),
            );
        }
    }

    fn layout_of(&self, reg: Reg) -> Option<usize> {
        self.layouts.of_reg(self.device, reg)
    }

    fn op(&mut self, op: &Op, sel: &Selected) {
        match &op.kind {
            Kind::Modify(sets) => {
                for (elem, _) in &sel.targets {
                    for set in sets {
                        self.modify(op, *elem, &set.attr);
                    }
                }
            }
            Kind::Rename { to, .. } => {
                for (elem, captures) in &sel.targets {
                    let new = glob::expand(to, captures).unwrap_or_else(|_| to.clone());
                    self.rename(op, *elem, new);
                }
            }
            Kind::Derive { from, from_pos } => {
                for (elem, _) in &sel.targets {
                    let Elem::Instance(i) = *elem else { continue };
                    let inst = &mut self.device.instances[i];
                    let old = std::mem::replace(
                        &mut inst.block,
                        NameRef {
                            name: from.clone(),
                            pos: from_pos.clone(),
                        },
                    );
                    let name = inst.name.clone();
                    self.note(op, format!("instance {name}: block {} → {from}", old.name));
                }
            }
            Kind::MergeEnums => self.merge_enums(op, sel),
            Kind::Add(new) => {
                for (elem, _) in &sel.targets {
                    self.add(op, *elem, new);
                }
            }
            Kind::Copy { to, base, .. } => {
                for (elem, _) in &sel.targets {
                    self.copy(op, *elem, to, *base);
                }
            }
            Kind::Array { name, layout } => self.array(op, sel, name, layout),
            Kind::FieldArray { name } => self.field_array(op, sel, name),
            Kind::Cluster {
                name, block_name, ..
            } => self.cluster(op, sel, name, block_name),
            Kind::Delete => {
                for (elem, _) in &sel.targets {
                    let at = self.path(*elem);
                    self.dead.insert(*elem);
                    if let Elem::Block(b) = *elem {
                        let block = self.device.blocks[b].name.clone();
                        for i in 0..self.device.instances.len() {
                            if self.device.instances[i].block.name == block {
                                self.dead.insert(Elem::Instance(i));
                                let inst = self.device.instances[i].name.clone();
                                self.note(
                                    op,
                                    format!("instance {inst} (of block {block}) deleted"),
                                );
                            }
                        }
                    }
                    self.note(op, format!("{at} deleted"));
                }
            }
        }
    }

    fn modify(&mut self, op: &Op, elem: Elem, attr: &Attr) {
        let at = self.path(elem);
        let old = match (elem, attr) {
            (Elem::Block(b), _) => {
                let block = &mut self.device.blocks[b];
                match attr {
                    Attr::Doc(v) => shown_doc(block.doc.replace(v.clone())),
                    Attr::Source(v) => shown_doc(block.source.replace(v.clone())),
                    Attr::Size(v) => format!("{:#x}", std::mem::replace(&mut block.size, *v)),
                    Attr::AccessWidth(v) => {
                        std::mem::replace(&mut block.access_width, *v).to_string()
                    }
                    _ => return,
                }
            }
            (Elem::Instance(i), _) => {
                let inst = &mut self.device.instances[i];
                match attr {
                    Attr::Doc(v) => shown_doc(inst.doc.replace(v.clone())),
                    Attr::Source(v) => shown_doc(inst.source.replace(v.clone())),
                    Attr::Base(v) => format!("{:#x}", std::mem::replace(&mut inst.base, *v)),
                    _ => return,
                }
            }
            (Elem::Reg(reg), Attr::Reset(_) | Attr::ResetMask(_) | Attr::Width(_)) => {
                let Some(l) = self.layout_of(reg) else { return };
                let layout = &mut self.device.layouts[l];
                match attr {
                    Attr::Reset(v) => layout
                        .reset
                        .replace(*v)
                        .map_or("none".into(), |r| format!("{r:#x}")),
                    Attr::Width(v) => std::mem::replace(&mut layout.width, *v).to_string(),
                    Attr::ResetMask(v) => {
                        // Bits outside the mask have no reset: nor have the fields in them.
                        let mut cleared = Vec::new();
                        for f in layout.fields.iter_mut() {
                            if f.mask() & !*v != 0 && f.reset.take().is_some() {
                                cleared.push(f.name.clone());
                            }
                        }
                        let old = layout
                            .reset_mask
                            .replace(*v)
                            .map_or("none".into(), |m| format!("{m:#x}"));
                        if !cleared.is_empty() {
                            let line = format!(
                                "{at}: fields outside the reset mask have no reset: {}",
                                cleared.join(", ")
                            );
                            self.note(op, line);
                        }
                        old
                    }
                    _ => return,
                }
            }
            (Elem::Reg(Reg::Block(b, r)), _) => {
                let reg = &mut self.device.blocks[b].registers[r];
                match attr {
                    Attr::Doc(v) => shown_doc(reg.doc.replace(v.clone())),
                    Attr::Source(v) => shown_doc(reg.source.replace(v.clone())),
                    Attr::RegAccess(v) => {
                        reg_access_str(&std::mem::replace(&mut reg.access, v.clone()))
                    }
                    Attr::Offset(v) => format!("{:#x}", std::mem::replace(&mut reg.offset, *v)),
                    Attr::ReadAction(v) => reg
                        .read_action
                        .replace(*v)
                        .map_or("none".into(), |a| read_action_str(a).into()),
                    _ => return,
                }
            }
            (Elem::Reg(Reg::Sys(s)), _) => {
                let reg = &mut self.device.sysregs[s];
                match attr {
                    Attr::Doc(v) => shown_doc(reg.doc.replace(v.clone())),
                    Attr::Source(v) => shown_doc(reg.source.replace(v.clone())),
                    Attr::RegAccess(v) => {
                        reg_access_str(&std::mem::replace(&mut reg.access, v.clone()))
                    }
                    _ => return,
                }
            }
            (Elem::Field(reg, f), _) => {
                let Some(l) = self.layout_of(reg) else { return };
                let field = &mut self.device.layouts[l].fields[f];
                match attr {
                    Attr::Doc(v) => shown_doc(field.doc.replace(v.clone())),
                    Attr::Source(v) => shown_doc(field.source.replace(v.clone())),
                    Attr::FieldAccess(v) => {
                        std::mem::replace(&mut field.access, *v).as_str().into()
                    }
                    Attr::Reset(v) => field
                        .reset
                        .replace(*v)
                        .map_or("none".into(), |r| format!("{r:#x}")),
                    Attr::Bits(msb, lsb) => {
                        let old = format!("{}:{}", field.msb(), field.lsb);
                        field.lsb = *lsb;
                        field.width = msb - lsb + 1;
                        old
                    }
                    Attr::ReadAction(v) => field
                        .read_action
                        .replace(*v)
                        .map_or("none".into(), |a| read_action_str(a).into()),
                    _ => return,
                }
            }
            (Elem::Value(reg, f, v), _) => {
                let Some(l) = self.layout_of(reg) else { return };
                let value = &mut self.device.layouts[l].fields[f].enums[v];
                match attr {
                    Attr::Doc(d) => shown_doc(value.doc.replace(d.clone())),
                    Attr::Source(d) => shown_doc(value.source.replace(d.clone())),
                    Attr::Value(x) => format!("{:#x}", std::mem::replace(&mut value.value, *x)),
                    Attr::Usage(u) => usage_str(std::mem::replace(&mut value.usage, *u)).into(),
                    _ => return,
                }
            }
            (Elem::Device, _) => return,
        };
        self.note(op, format!("{at}: {} {old} → {}", attr.key(), attr.shown()));
    }

    fn rename(&mut self, op: &Op, elem: Elem, new: String) {
        let at = self.path(elem);
        let device = &mut *self.device;
        let old = match elem {
            Elem::Block(b) => {
                let old = std::mem::replace(&mut device.blocks[b].name, new.clone());
                for inst in device.instances.iter_mut().filter(|i| i.block.name == old) {
                    inst.block.name = new.clone();
                }
                // A block a cluster places follows its new name too.
                for cluster in device
                    .blocks
                    .iter_mut()
                    .flat_map(|parent| &mut parent.clusters)
                    .filter(|c| c.block.name == old)
                {
                    cluster.block.name = new.clone();
                }
                old
            }
            Elem::Instance(i) => std::mem::replace(&mut device.instances[i].name, new.clone()),
            Elem::Reg(Reg::Block(b, r)) => {
                let block = &mut device.blocks[b];
                let old = std::mem::replace(&mut block.registers[r].name, new.clone());
                for other in &mut block.registers {
                    if let Some(alias) = other.alias_of.as_mut().filter(|a| a.name == old) {
                        alias.name = new.clone();
                    }
                }
                old
            }
            Elem::Reg(Reg::Sys(s)) => std::mem::replace(&mut device.sysregs[s].name, new.clone()),
            Elem::Field(reg, f) => {
                let Some(l) = self.layouts.of_reg(device, reg) else {
                    return;
                };
                std::mem::replace(&mut device.layouts[l].fields[f].name, new.clone())
            }
            Elem::Value(reg, f, v) => {
                let Some(l) = self.layouts.of_reg(device, reg) else {
                    return;
                };
                let field = &mut device.layouts[l].fields[f];
                if field.enum_default.as_deref() == Some(field.enums[v].name.as_str()) {
                    field.enum_default = Some(new.clone());
                }
                std::mem::replace(&mut field.enums[v].name, new.clone())
            }
            Elem::Device => return,
        };
        let _ = old;
        self.note(op, format!("{at} → {new}"));
    }

    fn merge_enums(&mut self, op: &Op, sel: &Selected) {
        // Fields with values, grouped by what the values are (not their prose).
        let mut groups: BTreeMap<String, Vec<(Reg, usize)>> = BTreeMap::new();
        let mut seen: HashSet<(usize, usize)> = HashSet::new();
        let mut order: Vec<String> = Vec::new();
        for (elem, _) in &sel.targets {
            let Elem::Field(reg, f) = *elem else { continue };
            let Some(l) = self.layout_of(reg) else {
                continue;
            };
            if !seen.insert((l, f)) {
                continue;
            }
            let field = &self.device.layouts[l].fields[f];
            if field.enums.is_empty() {
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
        let mut merged = 0;
        let mut same = 0;
        for key in order {
            let members = &groups[&key];
            if members.len() < 2 {
                continue;
            }
            merged += 1;
            let (first_reg, first_f) = members[0];
            let Some(fl) = self.layout_of(first_reg) else {
                continue;
            };
            let model: Vec<EnumValue> = self.device.layouts[fl].fields[first_f].enums.clone();
            let mut changed = 0;
            for &(reg, f) in &members[1..] {
                let Some(l) = self.layout_of(reg) else {
                    continue;
                };
                for value in &mut self.device.layouts[l].fields[f].enums {
                    if let Some(m) = model.iter().find(|m| {
                        (&m.name, m.value, m.usage) == (&value.name, value.value, value.usage)
                    }) {
                        if (&value.doc, &value.source) != (&m.doc, &m.source) {
                            changed += 1;
                        }
                        value.doc = m.doc.clone();
                        value.source = m.source.clone();
                    }
                }
            }
            if changed == 0 {
                same += 1;
                continue;
            }
            let names: Vec<&str> = model.iter().map(|m| m.name.as_str()).collect();
            let first = self.path(Elem::Field(first_reg, first_f));
            self.note(
                op,
                format!(
                    "{} fields share the values of {first} ({}): {changed} value description(s) made the same, so they are one type",
                    members.len(),
                    short(&names.join(", "))
                ),
            );
        }
        if same > 0 {
            self.note(
                op,
                format!("{same} set(s) of values were the same already, descriptions and all"),
            );
        }
        if merged == 0 {
            let g = op.select.field.as_ref().map_or(&op.pos, |g| &g.pos);
            self.errors.push(Diagnostic::error(
                PATCH_OPERATIONS_APPLY,
                g,
                format!(
                    "no two of the {} field(s) selected have the same enumerated values, so nothing merges",
                    sel.targets.len()
                ),
            ));
        }
    }

    fn add(&mut self, op: &Op, parent: Elem, new: &New) {
        if let Some(pos) = self.taken(parent, new) {
            let at = self.path(parent);
            self.errors.push(
                Diagnostic::error(
                    PATCHES_DO_NOT_CONFLICT,
                    &op.pos,
                    format!(
                        "{at} already has {} {} named `{}`",
                        if new.what().starts_with(['a', 'e', 'i']) {
                            "an"
                        } else {
                            "a"
                        },
                        new.what(),
                        new.name()
                    ),
                )
                .with_note(&pos, "defined here".to_string()),
            );
            return;
        }
        match (parent, new) {
            (Elem::Device, New::Block(b)) => {
                let mut registers = Vec::new();
                for r in &b.registers {
                    registers.push(self.new_register(&b.name, r));
                }
                self.device.blocks.push(Block {
                    name: b.name.clone(),
                    size: b.size,
                    access_width: b.access_width,
                    doc: b.doc.clone(),
                    source: None,
                    pos: b.pos.clone(),
                    registers,
                    clusters: Vec::new(),
                    lock: None,
                });
                self.note(
                    op,
                    format!("block {} added ({} registers)", b.name, b.registers.len()),
                );
                if let Some(base) = b.base {
                    self.device.instances.push(Instance {
                        name: b.name.clone(),
                        block: NameRef {
                            name: b.name.clone(),
                            pos: b.pos.clone(),
                        },
                        base,
                        alias_of: None,
                        interrupts: Vec::new(),
                        doc: b.doc.clone(),
                        source: None,
                        pos: b.pos.clone(),
                    });
                    self.note(op, format!("instance {} added at {base:#x}", b.name));
                }
            }
            (Elem::Device, New::Instance(i)) => {
                self.device.instances.push(Instance {
                    name: i.name.clone(),
                    block: NameRef {
                        name: i.block.clone(),
                        pos: i.block_pos.clone(),
                    },
                    base: i.base,
                    alias_of: None,
                    interrupts: Vec::new(),
                    doc: i.doc.clone(),
                    source: None,
                    pos: i.pos.clone(),
                });
                self.note(
                    op,
                    format!(
                        "instance {} of block {} added at {:#x}",
                        i.name, i.block, i.base
                    ),
                );
            }
            (Elem::Block(b), New::Register(r)) => {
                let block_name = self.device.blocks[b].name.clone();
                let reg = self.new_register(&block_name, r);
                self.device.blocks[b].registers.push(reg);
                self.note(
                    op,
                    format!("{block_name}.{} added at offset {:#x}", r.name, r.offset),
                );
            }
            (Elem::Reg(reg), New::Field(f)) => {
                let Some(l) = self.layout_of(reg) else { return };
                self.device.layouts[l].fields.push(field_of(f));
                let at = reg_name(self.device, reg);
                self.note(
                    op,
                    format!("{at}.{} added at bits {}:{}", f.name, f.msb, f.lsb),
                );
            }
            (Elem::Field(reg, f), New::Value(v)) => {
                let Some(l) = self.layout_of(reg) else { return };
                self.device.layouts[l].fields[f].enums.push(value_of(v));
                let at = self.path(parent);
                self.note(op, format!("{at}.{} = {:#x} added", v.name, v.value));
            }
            (Elem::Instance(i), New::Interrupt(irq)) => {
                self.device.instances[i].interrupts.push(Interrupt {
                    name: irq.name.clone(),
                    value: irq.value,
                    doc: irq.doc.clone(),
                    pos: irq.pos.clone(),
                });
                let inst = self.device.instances[i].name.clone();
                self.note(
                    op,
                    format!(
                        "instance {inst}: interrupt {} = {} added",
                        irq.name, irq.value
                    ),
                );
            }
            _ => {}
        }
    }

    /// Where an element of `parent` has the name `new` is to have (an element added earlier
    /// counts too).
    fn taken(&self, parent: Elem, new: &New) -> Option<Pos> {
        let name = new.name();
        let d = &*self.device;
        match (parent, new) {
            (Elem::Device, New::Block(_)) => d
                .blocks
                .iter()
                .find(|b| b.name == name)
                .map(|b| b.pos.clone()),
            (Elem::Device, New::Instance(_)) => d
                .instances
                .iter()
                .find(|i| i.name == name)
                .map(|i| i.pos.clone()),
            (Elem::Block(b), _) => d.blocks[b]
                .registers
                .iter()
                .enumerate()
                .find(|(i, r)| r.name == name && !self.dead.contains(&Elem::Reg(Reg::Block(b, *i))))
                .map(|(_, r)| r.pos.clone()),
            (Elem::Reg(r), _) => self.layout_of(r).and_then(|l| {
                d.layouts[l]
                    .fields
                    .iter()
                    .enumerate()
                    .find(|(i, f)| f.name == name && !self.dead.contains(&Elem::Field(r, *i)))
                    .map(|(_, f)| f.pos.clone())
            }),
            (Elem::Field(r, f), _) => self.layout_of(r).and_then(|l| {
                d.layouts[l].fields[f]
                    .enums
                    .iter()
                    .enumerate()
                    .find(|(i, v)| v.name == name && !self.dead.contains(&Elem::Value(r, f, *i)))
                    .map(|(_, v)| v.pos.clone())
            }),
            (Elem::Instance(i), _) => d.instances[i]
                .interrupts
                .iter()
                .find(|q| q.name == name)
                .map(|q| q.pos.clone()),
            _ => None,
        }
    }

    /// A new register of block `block`, with a layout of its own (`<BLOCK>_<REGISTER>`).
    fn new_register(&mut self, block: &str, r: &NewRegister) -> BlockRegister {
        let name = self
            .layouts
            .free_name(&format!("{block}_{}", r.name.replace("<n>", "")));
        let layout = Layout {
            name: name.clone(),
            width: r.width,
            doc: r.doc.clone(),
            source: None,
            reset: r.reset,
            reset_mask: None,
            pos: r.pos.clone(),
            fields: r.fields.iter().map(field_of).collect(),
            field_arrays: Vec::new(),
            derive: None,
        };
        self.layouts.push(self.device, layout);
        BlockRegister {
            name: r.name.clone(),
            layout: NameRef {
                name,
                pos: r.pos.clone(),
            },
            offset: r.offset,
            access: r.access.clone(),
            array: r.array.map(|(count, stride)| BlockArray { count, stride }),
            alias_of: None,
            read_action: None,
            protection: None,
            index_names: Vec::new(),
            doc: r.doc.clone(),
            source: None,
            pos: r.pos.clone(),
        }
    }

    fn copy(&mut self, op: &Op, elem: Elem, to: &str, base: Option<u64>) {
        match elem {
            // The blocks its clusters place are placed by one block each: a copy would place
            // them twice.
            Elem::Block(b) if !self.device.blocks[b].clusters.is_empty() => {
                self.errors.push(Diagnostic::error(
                    PATCH_OPERATIONS_APPLY,
                    &op.pos,
                    format!(
                        "block `{}` has clusters, and the blocks they place cannot be shared by a copy; copy the instance instead (another instance of the same block)",
                        self.device.blocks[b].name
                    ),
                ));
            }
            Elem::Block(b) => {
                let block = Block {
                    name: to.to_string(),
                    ..self.device.blocks[b].clone()
                };
                let from = self.device.blocks[b].name.clone();
                self.device.blocks.push(block);
                self.note(
                    op,
                    format!("block {from} copied as {to} (its registers share {from}'s layouts)"),
                );
                if let Some(base) = base {
                    let pos = self.device.blocks[b].pos.clone();
                    self.device.instances.push(Instance {
                        name: to.to_string(),
                        block: NameRef {
                            name: to.to_string(),
                            pos: pos.clone(),
                        },
                        base,
                        alias_of: None,
                        interrupts: Vec::new(),
                        doc: self.device.blocks[b].doc.clone(),
                        source: None,
                        pos,
                    });
                    self.note(
                        op,
                        format!("instance {to} of block {to} added at {base:#x}"),
                    );
                }
            }
            Elem::Instance(i) => {
                let from = &self.device.instances[i];
                let copy = Instance {
                    name: to.to_string(),
                    base: base.unwrap_or(from.base),
                    interrupts: Vec::new(),
                    alias_of: None,
                    ..from.clone()
                };
                let line = format!(
                    "instance {} copied as {to} at {:#x}: one block, {}, for both",
                    from.name, copy.base, from.block.name
                );
                self.device.instances.push(copy);
                self.note(op, line);
            }
            _ => {}
        }
    }

    /// Makes a field array of the numbered fields the selector's `<n>` matches, once per
    /// layout: the fields stay (C headers, diagrams and the site show them), and the Rust layout
    /// gives the array one constant.
    fn field_array(&mut self, op: &Op, sel: &Selected, name: &Option<(String, Pos)>) {
        let glob = op
            .select
            .field
            .as_ref()
            .expect("a field array selects fields");
        let mut by_layout: BTreeMap<usize, Vec<(u32, usize)>> = BTreeMap::new();
        for (elem, _) in &sel.targets {
            let Elem::Field(reg, f) = *elem else {
                continue;
            };
            let Some(l) = self.layouts.of_reg(self.device, reg) else {
                continue;
            };
            if let Some(n) = glob.index(&self.device.layouts[l].fields[f].name) {
                let members = by_layout.entry(l).or_default();
                if !members.contains(&(n, f)) {
                    members.push((n, f));
                }
            }
        }
        for (l, mut members) in by_layout {
            members.sort();
            let layout = &self.device.layouts[l];
            let fail = |message: String, at: Option<usize>| {
                let d = Diagnostic::error(PATCH_OPERATIONS_APPLY, &glob.pos, message);
                match at {
                    Some(f) => d.with_note(&layout.fields[f].pos, "this field".to_string()),
                    None => d,
                }
            };
            let problem = if members.len() < 2 {
                Some((
                    format!(
                        "matches one field of layout `{}`: an array needs two or more",
                        layout.name
                    ),
                    members.first().map(|m| m.1),
                ))
            } else if let Some((f, why)) = numbering_gap(&members) {
                Some((
                    format!(
                        "its fields in layout `{}` are not numbered from 0 without gaps: {why}",
                        layout.name
                    ),
                    Some(f),
                ))
            } else {
                None
            };
            if let Some((message, at)) = problem {
                self.errors
                    .push(fail(format!("`{}` {message}", glob.text), at));
                continue;
            }
            let fields: Vec<&Field> = members.iter().map(|&(_, f)| &layout.fields[f]).collect();
            let first = fields[0];
            let stride = fields[1].lsb.saturating_sub(first.lsb);
            let array_name = name
                .as_ref()
                .map_or_else(|| glob.text.clone(), |(text, _)| text.clone());
            let array = crate::ir::FieldArray {
                name: array_name.clone(),
                members: fields.iter().map(|f| f.name.clone()).collect(),
                stride,
                doc: first.doc.clone(),
                pos: glob.pos.clone(),
            };
            // One definition of a whole array, the one the `field_arrays_uniform` pass keeps.
            if let Some((at, why)) = layout.field_array_break(&array) {
                self.errors.push(fail(
                    format!(
                        "the fields `{}` matches in layout `{}` cannot be one field array ({stride} bits apart): {why}",
                        glob.text, layout.name
                    ),
                    at,
                ));
                continue;
            }
            let count = array.members.len();
            let layout_name = layout.name.clone();
            let layout = &mut self.device.layouts[l];
            layout.field_arrays.retain(|a| a.members != array.members);
            layout.field_arrays.push(array);
            self.note(
                op,
                format!(
                    "layout {layout_name}: fields {array_name} made one array of {count}, {stride} bit{} apart",
                    if stride == 1 { "" } else { "s" }
                ),
            );
        }
    }

    fn array(
        &mut self,
        op: &Op,
        sel: &Selected,
        name: &Option<(String, Pos)>,
        layout: &Option<(String, Pos)>,
    ) {
        let glob = op
            .select
            .register
            .as_ref()
            .expect("an array selects registers");
        let mut by_block: BTreeMap<usize, Vec<(u32, usize)>> = BTreeMap::new();
        for (elem, _) in &sel.targets {
            let Elem::Reg(Reg::Block(b, r)) = *elem else {
                continue;
            };
            let reg_name = &self.device.blocks[b].registers[r].name;
            if let Some(n) = glob.index(reg_name) {
                by_block.entry(b).or_default().push((n, r));
            }
        }
        for (b, mut members) in by_block {
            members.sort();
            let block = &self.device.blocks[b];
            let fail = |message: String, at: Option<usize>| {
                let d = Diagnostic::error(PATCH_OPERATIONS_APPLY, &glob.pos, message);
                match at {
                    Some(r) => d.with_note(&block.registers[r].pos, "this register".to_string()),
                    None => d,
                }
            };
            if members.len() < 2 {
                self.errors.push(fail(
                    format!(
                        "`{}` matches one register of block `{}`: an array needs two or more",
                        glob.text, block.name
                    ),
                    members.first().map(|m| m.1),
                ));
                continue;
            }
            // Numbered from 0, no gaps, no repeats.
            if let Some((r, why)) = numbering_gap(&members) {
                self.errors.push(fail(
                    format!(
                        "the registers `{}` matches in block `{}` are not numbered from 0 without gaps: {why}",
                        glob.text, block.name
                    ),
                    Some(r),
                ));
                continue;
            }
            let regs: Vec<&BlockRegister> =
                members.iter().map(|(_, r)| &block.registers[*r]).collect();
            let first = regs[0];
            let stride = regs[1].offset.wrapping_sub(first.offset);
            if regs[1].offset <= first.offset {
                self.errors.push(fail(
                    format!(
                        "{} is not above {} (offsets {:#x}, {:#x}): an array's elements rise",
                        regs[1].name, first.name, regs[1].offset, first.offset
                    ),
                    Some(members[1].1),
                ));
                continue;
            }
            if let Some(k) =
                (2..regs.len()).find(|&k| regs[k].offset != first.offset + stride * k as u64)
            {
                self.errors.push(fail(
                    format!(
                        "the registers are not evenly spaced: {} is at {:#x}, not {:#x} ({} at {:#x} and a stride of {stride:#x})",
                        regs[k].name,
                        regs[k].offset,
                        first.offset + stride * k as u64,
                        first.name,
                        first.offset
                    ),
                    Some(members[k].1),
                ));
                continue;
            }
            let first_layout = self.layouts.0.get(&first.layout.name).copied();
            let mut unlike = None;
            for (k, reg) in regs.iter().enumerate().skip(1) {
                let l = self.layouts.0.get(&reg.layout.name).copied();
                let same_layout = match (first_layout, l) {
                    (Some(a), Some(b)) => {
                        a == b
                            || self.device.layouts[a].structure_key()
                                == self.device.layouts[b].structure_key()
                    }
                    _ => first.layout.name == reg.layout.name,
                };
                if !same_layout {
                    let why = match (first_layout, l) {
                        (Some(a), Some(b)) => {
                            difference(&self.device.layouts[a], &self.device.layouts[b])
                        }
                        _ => "another layout".to_string(),
                    };
                    unlike = Some((
                        k,
                        format!("{} differs from {}: {why}", reg.name, first.name),
                    ));
                    break;
                }
                if (&reg.access, &reg.read_action, &reg.alias_of, &reg.array)
                    != (
                        &first.access,
                        &first.read_action,
                        &first.alias_of,
                        &first.array,
                    )
                {
                    unlike = Some((
                        k,
                        format!(
                            "{} differs from {} in its access, read action, alias or array",
                            reg.name, first.name
                        ),
                    ));
                    break;
                }
            }
            if let Some((k, why)) = unlike {
                self.errors.push(fail(
                    format!("the registers `{}` matches in block `{}` are not alike: {why}; make them alike first (a [[modify]], [[rename]] or [[delete]] of what differs)", glob.text, block.name),
                    Some(members[k].1),
                ));
                continue;
            }
            let array_name = name
                .as_ref()
                .map_or_else(|| glob.text.clone(), |(n, _)| n.clone());
            let count = members.len() as u32;
            let first_name = first.name.clone();
            let last_name = regs[regs.len() - 1].name.clone();
            let dropped: Vec<String> = regs[1..].iter().map(|r| r.layout.name.clone()).collect();
            let block_name = block.name.clone();
            // The layout: the first element's, renamed after the array where only it uses it.
            let old_layout = first.layout.name.clone();
            let wanted = match layout {
                Some((l, _)) => Some(l.clone()),
                None => old_layout
                    .contains(first_name.as_str())
                    .then(|| old_layout.replacen(&first_name, &array_name.replace("<n>", ""), 1)),
            };
            let users = self
                .device
                .blocks
                .iter()
                .flat_map(|b| &b.registers)
                .filter(|r| r.layout.name == old_layout)
                .count()
                + self
                    .device
                    .sysregs
                    .iter()
                    .filter(|s| s.layout.name == old_layout)
                    .count();
            let new_layout = match (wanted, first_layout) {
                (Some(w), Some(l))
                    if users == 1 && w != old_layout && !self.layouts.0.contains_key(&w) =>
                {
                    self.device.layouts[l].name = w.clone();
                    self.layouts.0.remove(&old_layout);
                    self.layouts.0.insert(w.clone(), l);
                    w
                }
                (Some(w), _) if layout.is_some() && w != old_layout => {
                    let (_, at) = layout.as_ref().expect("given");
                    self.errors.push(Diagnostic::error(
                        PATCH_OPERATIONS_APPLY,
                        at,
                        format!("the layout cannot be named `{w}`: a layout has that name, or `{old_layout}` is shared with other registers"),
                    ));
                    continue;
                }
                _ => old_layout.clone(),
            };
            let block = &mut self.device.blocks[b];
            let r0 = members[0].1;
            let reg = &mut block.registers[r0];
            reg.name = array_name.clone();
            reg.layout.name = new_layout.clone();
            reg.array = Some(BlockArray { count, stride });
            for &(_, r) in &members[1..] {
                self.dead.insert(Elem::Reg(Reg::Block(b, r)));
            }
            self.note(
                op,
                format!(
                    "{block_name}.{first_name}..{last_name} → {block_name}.{array_name}: count {count}, stride {stride:#x}, layout {new_layout} (layouts {} dropped)",
                    short(&dropped.join(", "))
                ),
            );
        }
    }

    /// Makes a cluster of each selected block's groups of registers (see `Kind::Cluster`).
    fn cluster(
        &mut self,
        op: &Op,
        sel: &Selected,
        name: &(String, Pos),
        block_name: &Option<(String, Pos)>,
    ) {
        let glob = op
            .select
            .register
            .as_ref()
            .expect("a cluster selects registers");
        let array = glob.has_index();
        // Block → group number → (member name, register index).
        let mut by_block: BTreeMap<usize, BTreeMap<u32, Vec<(String, usize)>>> = BTreeMap::new();
        for (elem, _) in &sel.targets {
            let Elem::Reg(Reg::Block(b, r)) = *elem else {
                continue;
            };
            if let Some((n, member)) = glob.member(&self.device.blocks[b].registers[r].name) {
                by_block
                    .entry(b)
                    .or_default()
                    .entry(n.unwrap_or(0))
                    .or_default()
                    .push((member, r));
            }
        }
        for (b, groups) in by_block {
            if let Err(e) = self.cluster_block(op, glob, array, b, groups, name, block_name) {
                self.errors.push(e);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn cluster_block(
        &mut self,
        op: &Op,
        glob: &Glob,
        array: bool,
        b: usize,
        groups: BTreeMap<u32, Vec<(String, usize)>>,
        (name, name_pos): &(String, Pos),
        block_name: &Option<(String, Pos)>,
    ) -> Result<(), Diagnostic> {
        let parent = &self.device.blocks[b];
        let fail = |message: String, at: Option<usize>| {
            let d = Diagnostic::error(PATCH_OPERATIONS_APPLY, &glob.pos, message);
            match at {
                Some(r) => d.with_note(&parent.registers[r].pos, "this register".to_string()),
                None => d,
            }
        };
        let reg = |r: usize| &parent.registers[r];
        let groups: Vec<(u32, Vec<(String, usize)>)> = groups
            .into_iter()
            .map(|(n, mut members)| {
                members.sort_by_key(|(m, r)| (reg(*r).offset, m.clone()));
                (n, members)
            })
            .collect();
        let first_reg = |k: usize| groups[k].1[0].1;
        // Numbered from 0 without gaps; two or more for an array.
        if let Some((k, (n, members))) = groups
            .iter()
            .enumerate()
            .find(|(k, (n, _))| *n as usize != *k)
        {
            return Err(fail(
                format!(
                    "the groups `{}` matches in block `{}` are not numbered from 0 without gaps: number {k} is missing (the next is {n})",
                    glob.text, parent.name
                ),
                Some(members[0].1),
            ));
        }
        if array && groups.len() < 2 {
            return Err(fail(
                format!(
                    "`{}` matches one group of block `{}`: a cluster array needs two or more (leave `<n>` out of both names for one cluster)",
                    glob.text, parent.name
                ),
                Some(first_reg(0)),
            ));
        }
        // Members: named, once each per group.
        for (_, members) in &groups {
            for (i, (m, r)) in members.iter().enumerate() {
                if m.is_empty() {
                    return Err(fail(
                        format!(
                            "`{}` leaves nothing of `{}` to name its member: put `*` where the member's name is (`CH<n>_*`)",
                            glob.text,
                            reg(*r).name
                        ),
                        Some(*r),
                    ));
                }
                if let Some((_, other)) = members[..i].iter().find(|(o, _)| o == m) {
                    return Err(fail(
                        format!(
                            "`{}` and `{}` are both member `{m}` of one group",
                            reg(*other).name,
                            reg(*r).name
                        ),
                        Some(*r),
                    ));
                }
            }
        }
        // Alike: the same members at the same places, with the same layouts and accesses.
        let model = &groups[0].1;
        let base = |k: usize| reg(first_reg(k)).offset;
        let base0 = base(0);
        for (k, (n, members)) in groups.iter().enumerate().skip(1) {
            let unlike = |why: String, r: usize| {
                fail(
                    format!(
                        "the groups `{}` matches in block `{}` are not alike: {why}; make them alike first (a [[modify]], [[rename]] or [[delete]] of what differs)",
                        glob.text, parent.name
                    ),
                    Some(r),
                )
            };
            for (m, r0) in model {
                let Some((_, r)) = members.iter().find(|(o, _)| o == m) else {
                    return Err(unlike(
                        format!(
                            "group {n} has no member `{m}` (group 0's is {})",
                            reg(*r0).name
                        ),
                        first_reg(k),
                    ));
                };
                let (a, x) = (reg(*r0), reg(*r));
                let (rel0, rel) = (a.offset - base0, x.offset - base(k));
                if rel0 != rel {
                    return Err(unlike(
                        format!(
                            "{} is at {rel:#x} in its group, {} at {rel0:#x} in group 0",
                            x.name, a.name
                        ),
                        *r,
                    ));
                }
                let la = self.layouts.0.get(&a.layout.name).copied();
                let lx = self.layouts.0.get(&x.layout.name).copied();
                let why = match (la, lx) {
                    (Some(p), Some(q))
                        if p != q
                            && self.device.layouts[p].structure_key()
                                != self.device.layouts[q].structure_key() =>
                    {
                        Some(difference(&self.device.layouts[p], &self.device.layouts[q]))
                    }
                    (Some(_), Some(_)) => None,
                    _ if a.layout.name != x.layout.name => Some("another layout".to_string()),
                    _ => None,
                };
                if let Some(why) = why {
                    return Err(unlike(
                        format!("{} differs from {}: {why}", x.name, a.name),
                        *r,
                    ));
                }
                let alias = |g: &[(String, usize)], reg: &BlockRegister| {
                    reg.alias_of.as_ref().map(|t| {
                        g.iter()
                            .find(|(_, o)| parent.registers[*o].name == t.name)
                            .map_or_else(|| "(not a member)".to_string(), |(m, _)| m.clone())
                    })
                };
                if (&a.access, &a.read_action, &a.array, alias(model, a))
                    != (&x.access, &x.read_action, &x.array, alias(members, x))
                {
                    return Err(unlike(
                        format!(
                            "{} differs from {} in its access, read action, array or alias",
                            x.name, a.name
                        ),
                        *r,
                    ));
                }
            }
            if let Some((m, r)) = members
                .iter()
                .find(|(m, _)| !model.iter().any(|(o, _)| o == m))
            {
                return Err(unlike(
                    format!(
                        "{} is member `{m}`, which group 0 does not have",
                        reg(*r).name
                    ),
                    *r,
                ));
            }
        }
        // An alias leads to a member.
        for (m, r) in model {
            if let Some(t) = &reg(*r).alias_of {
                if !model.iter().any(|(_, o)| reg(*o).name == t.name) {
                    return Err(fail(
                        format!(
                            "{} (member `{m}`) is an alias of {}, which is not in the cluster: take both or neither",
                            reg(*r).name,
                            t.name
                        ),
                        Some(*r),
                    ));
                }
            }
        }
        // Evenly spaced, each group within one stride, nothing else in between.
        let width = |r: usize| {
            let x = reg(r);
            let bytes = self
                .device
                .layout(&x.layout.name)
                .map_or(0, |l| u64::from(l.width / 8));
            let extent = x
                .array
                .map_or(0, |a| a.stride * u64::from(a.count.saturating_sub(1)));
            x.offset - base0 + extent + bytes
        };
        let size = model.iter().map(|(_, r)| width(*r)).max().unwrap_or(0);
        let stride = if array {
            base(1).wrapping_sub(base0)
        } else {
            0
        };
        if array {
            if base(1) <= base0 {
                return Err(fail(
                    format!(
                        "group 1 ({} at {:#x}) is not above group 0 ({} at {base0:#x}): a cluster array's elements rise",
                        reg(first_reg(1)).name,
                        base(1),
                        reg(first_reg(0)).name
                    ),
                    Some(first_reg(1)),
                ));
            }
            if let Some(k) = (2..groups.len()).find(|&k| base(k) != base0 + stride * k as u64) {
                return Err(fail(
                    format!(
                        "the groups are not evenly spaced: group {k} starts at {:#x} ({}), not {:#x} (group 0 at {base0:#x} and a stride of {stride:#x})",
                        base(k),
                        reg(first_reg(k)).name,
                        base0 + stride * k as u64
                    ),
                    Some(first_reg(k)),
                ));
            }
            if size > stride {
                return Err(fail(
                    format!(
                        "a group spans {size:#x} bytes ({}..), more than the stride of {stride:#x}: the elements would overlap",
                        reg(first_reg(0)).name
                    ),
                    Some(model.iter().map(|(_, r)| *r).max_by_key(|r| width(*r)).unwrap_or(first_reg(0))),
                ));
            }
        }
        let count = groups.len() as u32;
        let taken: HashSet<usize> = groups
            .iter()
            .flat_map(|(_, g)| g.iter().map(|(_, r)| *r))
            .collect();
        let end = base0 + stride * u64::from(count.saturating_sub(1)) + size;
        if let Some((r, other)) = parent.registers.iter().enumerate().find(|(r, o)| {
            !taken.contains(r)
                && !self.dead.contains(&Elem::Reg(Reg::Block(b, *r)))
                && o.offset >= base0
                && o.offset < end
                && (!array || (o.offset - base0) % stride < size)
        }) {
            return Err(fail(
                format!(
                    "{} (offset {:#x}) lies inside the cluster's span but is not one of its members: take it (`members`, or a wider `register`) or move it first",
                    other.name, other.offset
                ),
                Some(r),
            ));
        }
        // Names: the cluster's in its parent, the new block's in the device.
        let plain = name.replace("<n>", "");
        let taken_by = parent
            .registers
            .iter()
            .enumerate()
            .find(|(r, x)| {
                x.name == *name
                    && !taken.contains(r)
                    && !self.dead.contains(&Elem::Reg(Reg::Block(b, *r)))
            })
            .map(|(_, x)| x.pos.clone())
            .or_else(|| {
                parent
                    .clusters
                    .iter()
                    .find(|c| c.name == *name)
                    .map(|c| c.pos.clone())
            });
        if let Some(pos) = taken_by {
            return Err(Diagnostic::error(
                PATCHES_DO_NOT_CONFLICT,
                name_pos,
                format!(
                    "block `{}` already has a register or cluster named `{name}`",
                    parent.name
                ),
            )
            .with_note(&pos, "defined here".to_string()));
        }
        let (new_block, new_pos) = match block_name {
            Some((n, at)) => (n.clone(), at.clone()),
            None => (format!("{}_{plain}", parent.name), name_pos.clone()),
        };
        if let Some(other) = self.device.blocks.iter().find(|x| x.name == new_block) {
            return Err(Diagnostic::error(
                PATCHES_DO_NOT_CONFLICT,
                &new_pos,
                format!(
                    "the cluster's block would be `{new_block}`, the name of a block there is{}",
                    if block_name.is_some() {
                        ""
                    } else {
                        "; name it with `block_name`"
                    }
                ),
            )
            .with_note(&other.pos, "defined here".to_string()));
        }
        // The new block: group 0's registers, named after their members, at offsets from the
        // group's start; each layout renamed after the member where only it uses the layout.
        let parent_name = parent.name.clone();
        let access_width = parent.access_width;
        let first_name = reg(first_reg(0)).name.clone();
        let last_name = reg(first_reg(groups.len() - 1)).name.clone();
        let model: Vec<(String, usize)> = model.clone();
        let mut registers = Vec::new();
        let mut renamed = 0;
        for (m, r) in &model {
            let mut x = self.device.blocks[b].registers[*r].clone();
            let old_layout = x.layout.name.clone();
            let wanted = old_layout.replacen(&x.name, &format!("{plain}_{m}"), 1);
            let users = self
                .device
                .blocks
                .iter()
                .flat_map(|y| &y.registers)
                .filter(|y| y.layout.name == old_layout)
                .count()
                + self
                    .device
                    .sysregs
                    .iter()
                    .filter(|y| y.layout.name == old_layout)
                    .count();
            if let Some(l) = self.layouts.0.get(&old_layout).copied() {
                if users == 1 && wanted != old_layout && !self.layouts.0.contains_key(&wanted) {
                    self.device.layouts[l].name = wanted.clone();
                    self.layouts.0.remove(&old_layout);
                    self.layouts.0.insert(wanted.clone(), l);
                    x.layout.name = wanted;
                    renamed += 1;
                }
            }
            if let Some(t) = x.alias_of.as_mut() {
                if let Some((tm, _)) = model
                    .iter()
                    .find(|(_, o)| self.device.blocks[b].registers[*o].name == t.name)
                {
                    t.name = tm.clone();
                }
            }
            x.offset -= base0;
            x.name = m.clone();
            registers.push(x);
        }
        for r in &taken {
            self.dead.insert(Elem::Reg(Reg::Block(b, *r)));
        }
        let doc = if array {
            format!(
                "{parent_name}'s registers `{}`, one group of them per element",
                glob.text
            )
        } else {
            format!("{parent_name}'s registers `{}`", glob.text)
        };
        self.device.blocks[b].clusters.push(Cluster {
            name: name.clone(),
            block: NameRef {
                name: new_block.clone(),
                pos: new_pos.clone(),
            },
            offset: base0,
            array: array.then_some(BlockArray { count, stride }),
            index_names: Vec::new(),
            alias_of: None,
            doc: Some(doc.clone()),
            pos: name_pos.clone(),
        });
        let members: Vec<&str> = registers.iter().map(|x| x.name.as_str()).collect();
        let line = format!(
            "{parent_name}: {} of `{}` → cluster {parent_name}.{name} of block {new_block} ({} members: {}){}, offset {base0:#x}, {size:#x} bytes; {} registers removed, {renamed} layouts renamed after their members",
            if count == 1 {
                "the group".to_string()
            } else {
                format!("{count} groups ({first_name} .. {last_name})")
            },
            glob.text,
            members.len(),
            short(&members.join(", ")),
            if array { format!(", count {count}, stride {stride:#x}") } else { String::new() },
            taken.len(),
        );
        self.device.blocks.push(Block {
            name: new_block,
            size,
            access_width,
            doc: Some(doc),
            source: None,
            pos: new_pos,
            registers,
            clusters: Vec::new(),
            lock: None,
        });
        self.note(op, line);
        Ok(())
    }

    /// Removes the fields and values deleted: what selects them has been applied, and no later
    /// operation selects inside a layout.
    fn sweep_layouts(&mut self) {
        let mut dead_values: HashSet<(usize, usize, usize)> = HashSet::new();
        let mut dead_fields: HashSet<(usize, usize)> = HashSet::new();
        for e in &self.dead {
            match *e {
                Elem::Value(r, f, v) => {
                    if let Some(l) = self.layout_of(r) {
                        dead_values.insert((l, f, v));
                    }
                }
                Elem::Field(r, f) => {
                    if let Some(l) = self.layout_of(r) {
                        dead_fields.insert((l, f));
                    }
                }
                _ => {}
            }
        }
        self.dead
            .retain(|e| !matches!(e, Elem::Value(..) | Elem::Field(..)));
        for (l, layout) in self.device.layouts.iter_mut().enumerate() {
            for (f, field) in layout.fields.iter_mut().enumerate() {
                let mut v = 0;
                field.enums.retain(|_| {
                    v += 1;
                    !dead_values.contains(&(l, f, v - 1))
                });
            }
            let mut f = 0;
            layout.fields.retain(|_| {
                f += 1;
                !dead_fields.contains(&(l, f - 1))
            });
        }
    }

    /// Removes what was deleted or folded into arrays, and the layouts the patch left unused;
    /// puts the device back into its canonical order.
    fn sweep(&mut self) {
        let dead = std::mem::take(&mut self.dead);
        for (b, block) in self.device.blocks.iter_mut().enumerate() {
            let mut r = 0;
            block.registers.retain(|_| {
                r += 1;
                !dead.contains(&Elem::Reg(Reg::Block(b, r - 1)))
            });
        }
        // A deleted block takes the blocks its clusters place with it, at any depth.
        let mut gone: Vec<String> = (0..self.device.blocks.len())
            .filter(|&b| dead.contains(&Elem::Block(b)))
            .map(|b| self.device.blocks[b].name.clone())
            .collect();
        let mut at = 0;
        while at < gone.len() {
            let placed: Vec<String> = self
                .device
                .blocks
                .iter()
                .filter(|b| b.name == gone[at])
                .flat_map(|b| b.clusters.iter().map(|c| c.block.name.clone()))
                .filter(|name| !gone.contains(name))
                .collect();
            gone.extend(placed);
            at += 1;
        }
        self.device.blocks.retain(|b| !gone.contains(&b.name));
        let mut i = 0;
        self.device.instances.retain(|_| {
            i += 1;
            !dead.contains(&Elem::Instance(i - 1))
        });
        let mut i = 0;
        self.device.sysregs.retain(|_| {
            i += 1;
            !dead.contains(&Elem::Reg(Reg::Sys(i - 1)))
        });
        // Blocks a [[derive]] left without an instance, and layouts the patch left unused.
        let used = self.used_layouts();
        let before = self.device.layouts.len();
        let used_before = &self.used_before;
        self.device
            .layouts
            .retain(|l| used.contains(&l.name) || !used_before.contains(&l.name));
        let removed = before - self.device.layouts.len();
        if removed > 0 {
            self.log.push(format!(
                "{removed} layout(s) no register uses any more removed"
            ));
        }
        self.device.canonicalize();
    }
}

/// `an array`, `a cluster`.
fn a_an(word: &str) -> String {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {word}")
    } else {
        format!("a {word}")
    }
}

/// A `[[cluster]]`'s `members`: keeps the registers whose member name one of them matches; each
/// must match one (`patch_selectors_match`).
fn cluster_members(device: &Device, op: &Op, sel: &mut Selected) -> Result<(), Diagnostic> {
    let Kind::Cluster { members, .. } = &op.kind else {
        return Ok(());
    };
    let Some(glob) = &op.select.register else {
        return Ok(());
    };
    if members.is_empty() {
        return Ok(());
    }
    let member = |e: &Elem| match *e {
        Elem::Reg(Reg::Block(b, r)) => glob
            .member(&device.blocks[b].registers[r].name)
            .map(|(_, m)| m),
        _ => None,
    };
    for m in members {
        if !sel
            .targets
            .iter()
            .any(|(e, _)| member(e).is_some_and(|name| m.is_match(&name)))
        {
            let found: Vec<String> = sel.targets.iter().filter_map(|(e, _)| member(e)).collect();
            let mut found: Vec<String> = found
                .into_iter()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            found.truncate(6);
            return Err(Diagnostic::error(
                PATCH_SELECTORS_MATCH,
                &m.pos,
                format!(
                    "`{}` matches no member of the groups `{}` selects (members: {}{})",
                    m.text,
                    glob.text,
                    found.join(", "),
                    if found.len() == 6 { ", ..." } else { "" }
                ),
            ));
        }
    }
    sel.targets
        .retain(|(e, _)| member(e).is_some_and(|name| members.iter().any(|m| m.is_match(&name))));
    Ok(())
}

fn shown_doc(old: Option<String>) -> String {
    old.map_or("none".into(), |d| format!("{:?}", short(&d)))
}

fn field_of(f: &NewField) -> Field {
    Field {
        name: f.name.clone(),
        lsb: f.lsb,
        width: f.msb - f.lsb + 1,
        access: f.access,
        reset: f.reset,
        doc: f.doc.clone(),
        source: None,
        pos: f.pos.clone(),
        enums: f.values.iter().map(value_of).collect(),
        enum_default: None,
        read_action: None,
        write_constraint: None,
    }
}

fn value_of(v: &super::NewValue) -> EnumValue {
    EnumValue {
        name: v.name.clone(),
        value: v.value,
        mask: None,
        usage: v.usage,
        doc: v.doc.clone(),
        source: None,
        pos: v.pos.clone(),
    }
}
