//! The attributes a `[[modify]]` sets: what each is called, how the explanation shows it, the
//! levels it belongs to, and setting it on an element.
use super::elem::{Elem, Reg};
use super::run::{shown_doc, Run};
use super::select::Level;
use crate::diagnostic::Diagnostic;
use crate::ir::{EnumUsage, FieldAccess, IndexName, Pos, ReadAction, RegAccess};
use crate::rules::PATCH_OPERATIONS_APPLY;

/// One attribute a `[[modify]]` sets, with where the file sets it.
#[derive(Clone, Debug)]
pub struct Set {
    pub attr: Attr,
    pub pos: Pos,
}

/// An attribute value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attr {
    Doc(String),
    Source(String),
    FieldAccess(FieldAccess),
    RegAccess(RegAccess),
    Reset(u64),
    /// The bits of a register's reset that are defined.
    ResetMask(u64),
    /// (msb, lsb)
    Bits(u32, u32),
    Offset(u64),
    Size(u64),
    AccessWidth(u32),
    Width(u32),
    Base(u64),
    Value(u64),
    Usage(EnumUsage),
    ReadAction(ReadAction),
    /// The names of an array's elements, element 0's first.
    IndexNames(Vec<String>),
    /// The name of the type of a field's values.
    EnumName(String),
}

impl Attr {
    /// The key the file spells it with (and conflicts are found by).
    pub fn key(&self) -> &'static str {
        match self {
            Attr::Doc(_) => "doc",
            Attr::Source(_) => "source",
            Attr::FieldAccess(_) | Attr::RegAccess(_) => "access",
            Attr::Reset(_) => "reset",
            Attr::ResetMask(_) => "reset_mask",
            Attr::Bits(..) => "bits",
            Attr::Offset(_) => "offset",
            Attr::Size(_) => "size",
            Attr::AccessWidth(_) => "access_width",
            Attr::Width(_) => "width",
            Attr::Base(_) => "base",
            Attr::Value(_) => "value",
            Attr::Usage(_) => "usage",
            Attr::ReadAction(_) => "read_action",
            Attr::IndexNames(_) => "index_names",
            Attr::EnumName(_) => "enum_name",
        }
    }

    /// The value as `--explain-patches` shows it.
    pub fn shown(&self) -> String {
        match self {
            Attr::Doc(s) | Attr::Source(s) => shown_doc(Some(s.clone())),
            Attr::FieldAccess(a) => a.as_str().to_string(),
            Attr::RegAccess(a) => reg_access_str(a),
            Attr::Reset(v)
            | Attr::ResetMask(v)
            | Attr::Offset(v)
            | Attr::Size(v)
            | Attr::Base(v)
            | Attr::Value(v) => format!("{v:#x}"),
            Attr::Bits(msb, lsb) => format!("{msb}:{lsb}"),
            Attr::AccessWidth(w) | Attr::Width(w) => w.to_string(),
            Attr::Usage(u) => usage_str(*u).to_string(),
            Attr::ReadAction(a) => read_action_str(*a).to_string(),
            Attr::IndexNames(names) => names.join(", "),
            Attr::EnumName(name) => name.clone(),
        }
    }

    /// The levels the attribute applies to.
    pub fn levels(&self) -> &'static [Level] {
        use Level::*;
        match self {
            Attr::Doc(_) => &[Block, Cluster, Instance, Register, SysReg, Field, Value],
            Attr::Source(_) => &[Block, Instance, Register, SysReg, Field, Value],
            Attr::FieldAccess(_) => &[Field],
            Attr::RegAccess(_) => &[Register, SysReg],
            Attr::Reset(_) => &[Register, SysReg, Field],
            Attr::ResetMask(_) => &[Register, SysReg],
            Attr::Bits(..) => &[Field],
            Attr::Offset(_) => &[Register],
            Attr::Size(_) | Attr::AccessWidth(_) => &[Block],
            Attr::Width(_) => &[Register, SysReg],
            Attr::Base(_) => &[Instance],
            Attr::Value(_) | Attr::Usage(_) => &[Value],
            Attr::ReadAction(_) => &[Register, Field],
            Attr::IndexNames(_) => &[Register, Cluster],
            Attr::EnumName(_) => &[Field],
        }
    }

    /// Whether it is an attribute of a register's layout, not of the register.
    pub fn of_layout(&self) -> bool {
        matches!(self, Attr::Reset(_) | Attr::ResetMask(_) | Attr::Width(_))
    }
}

/// Sets `set`'s attribute of `elem` (`at`, as messages name it): the old value as shown, or
/// `None` (the attribute is not the element's, or an error was reported).
pub fn set_on(run: &mut Run, elem: Elem, at: &str, set: &Set) -> Option<String> {
    match elem {
        Elem::Reg(reg) if set.attr.of_layout() => set_layout(run, reg, at, &set.attr),
        _ => set_attr(run, elem, set),
    }
}

/// Sets a register's layout attribute; the old value as shown.
fn set_layout(run: &mut Run, reg: Reg, at: &str, attr: &Attr) -> Option<String> {
    let l = run.layout_of(reg)?;
    let layout = &mut run.device.layouts[l];
    match attr {
        Attr::Reset(v) => Some(shown_number(layout.reset.replace(*v))),
        Attr::Width(v) => Some(std::mem::replace(&mut layout.width, *v).to_string()),
        Attr::ResetMask(v) => {
            // Bits outside the mask have no reset: nor have the fields in them.
            let mut cleared = Vec::new();
            for f in layout.fields.iter_mut() {
                if f.mask() & !*v != 0 && f.reset.take().is_some() {
                    cleared.push(f.name.clone());
                }
            }
            let old = shown_number(layout.reset_mask.replace(*v));
            if !cleared.is_empty() {
                run.note(format!(
                    "{at}: fields outside the reset mask have no reset: {}",
                    cleared.join(", ")
                ));
            }
            Some(old)
        }
        _ => None,
    }
}

/// Sets an attribute of an element other than a register's layout; the old value as shown, or
/// `None` (the attribute is not the element's, or an error was reported).
fn set_attr(run: &mut Run, elem: Elem, set: &Set) -> Option<String> {
    if let Attr::IndexNames(names) = &set.attr {
        return name_elements(run, elem, names, &set.pos);
    }
    let d = &mut *run.device;
    let attr = &set.attr;
    match elem {
        Elem::Block(b) => {
            let block = &mut d.blocks[b];
            match attr {
                Attr::Size(v) => Some(format!("{:#x}", std::mem::replace(&mut block.size, *v))),
                Attr::AccessWidth(v) => {
                    Some(std::mem::replace(&mut block.access_width, *v).to_string())
                }
                _ => set_text(attr, &mut block.doc, &mut block.source),
            }
        }
        Elem::Instance(i) => {
            let inst = &mut d.instances[i];
            match attr {
                Attr::Base(v) => Some(format!("{:#x}", std::mem::replace(&mut inst.base, *v))),
                _ => set_text(attr, &mut inst.doc, &mut inst.source),
            }
        }
        Elem::Reg(Reg::Block(b, r)) => set_register(run, b, r, set),
        Elem::Reg(Reg::Sys(s)) => {
            let reg = &mut d.sysregs[s];
            match attr {
                Attr::RegAccess(v) => Some(reg_access_str(&std::mem::replace(
                    &mut reg.access,
                    v.clone(),
                ))),
                _ => set_text(attr, &mut reg.doc, &mut reg.source),
            }
        }
        Elem::Cluster(b, c) => match attr {
            Attr::Doc(v) => Some(shown_doc(d.blocks[b].clusters[c].doc.replace(v.clone()))),
            _ => None,
        },
        Elem::Field(..) | Elem::Value(..) => set_in_layout(run, elem, attr),
        Elem::Device => None,
    }
}

fn set_register(run: &mut Run, b: usize, r: usize, set: &Set) -> Option<String> {
    let reg = &mut run.device.blocks[b].registers[r];
    match &set.attr {
        Attr::RegAccess(v) => Some(reg_access_str(&std::mem::replace(
            &mut reg.access,
            v.clone(),
        ))),
        Attr::Offset(v) => Some(format!("{:#x}", std::mem::replace(&mut reg.offset, *v))),
        Attr::ReadAction(v) => Some(
            reg.read_action
                .replace(*v)
                .map_or("none".into(), |a| read_action_str(a).into()),
        ),
        attr => set_text(attr, &mut reg.doc, &mut reg.source),
    }
}

/// Names the elements of the array `elem` (a register or a cluster); the old names as shown.
fn name_elements(run: &mut Run, elem: Elem, names: &[String], pos: &Pos) -> Option<String> {
    let at = run.path(elem);
    let d = &mut *run.device;
    let (array, slot) = match elem {
        Elem::Reg(Reg::Block(b, r)) => {
            let reg = &mut d.blocks[b].registers[r];
            (reg.array, &mut reg.index_names)
        }
        Elem::Cluster(b, c) => {
            let cluster = &mut d.blocks[b].clusters[c];
            (cluster.array, &mut cluster.index_names)
        }
        _ => return None,
    };
    let problem = match array {
        None => Some(format!("`{at}` is no array: it has no elements to name")),
        Some(a) if a.count as usize != names.len() => Some(format!(
            "`{at}` has {} elements and `index_names` names {}: give one name per element, element 0's first",
            a.count,
            names.len()
        )),
        Some(_) => None,
    };
    if let Some(message) = problem {
        run.errors
            .push(Diagnostic::error(PATCH_OPERATIONS_APPLY, pos, message));
        return None;
    }
    let named = names.iter().zip(0..).map(|(name, index)| IndexName {
        name: name.clone(),
        index,
        doc: None,
    });
    Some(shown_names(std::mem::replace(slot, named.collect())))
}

fn shown_names(old: Vec<IndexName>) -> String {
    if old.is_empty() {
        return "none".into();
    }
    let names: Vec<&str> = old.iter().map(|n| n.name.as_str()).collect();
    names.join(", ")
}

/// Sets an attribute of a field or an enumerated value (in its register's layout).
fn set_in_layout(run: &mut Run, elem: Elem, attr: &Attr) -> Option<String> {
    let (Elem::Field(reg, f) | Elem::Value(reg, f, _)) = elem else {
        return None;
    };
    let l = run.layout_of(reg)?;
    let field = &mut run.device.layouts[l].fields[f];
    if let Elem::Value(_, _, v) = elem {
        let value = &mut field.enums[v];
        return match attr {
            Attr::Value(x) => Some(format!("{:#x}", std::mem::replace(&mut value.value, *x))),
            Attr::Usage(u) => Some(usage_str(std::mem::replace(&mut value.usage, *u)).into()),
            _ => set_text(attr, &mut value.doc, &mut value.source),
        };
    }
    match attr {
        Attr::FieldAccess(v) => Some(std::mem::replace(&mut field.access, *v).as_str().into()),
        Attr::Reset(v) => Some(shown_number(field.reset.replace(*v))),
        Attr::Bits(msb, lsb) => {
            let old = format!("{}:{}", field.msb(), field.lsb);
            field.lsb = *lsb;
            field.width = msb - lsb + 1;
            Some(old)
        }
        Attr::ReadAction(v) => Some(
            field
                .read_action
                .replace(*v)
                .map_or("none".into(), |a| read_action_str(a).into()),
        ),
        Attr::EnumName(v) => Some(field.enum_name.replace(v.clone()).unwrap_or("none".into())),
        _ => set_text(attr, &mut field.doc, &mut field.source),
    }
}

/// Sets a description or a source when `attr` is one; the old one as shown.
fn set_text(attr: &Attr, doc: &mut Option<String>, source: &mut Option<String>) -> Option<String> {
    match attr {
        Attr::Doc(v) => Some(shown_doc(doc.replace(v.clone()))),
        Attr::Source(v) => Some(shown_doc(source.replace(v.clone()))),
        _ => None,
    }
}

fn shown_number(old: Option<u64>) -> String {
    old.map_or("none".into(), |r| format!("{r:#x}"))
}

fn reg_access_str(a: &RegAccess) -> String {
    match a {
        RegAccess::Rw => "rw".into(),
        RegAccess::Ro => "ro".into(),
        RegAccess::Wo => "wo".into(),
        RegAccess::Set { state } => format!("set (state {state})"),
        RegAccess::Clear { state } => format!("clear (state {state})"),
    }
}

fn usage_str(u: EnumUsage) -> &'static str {
    match u {
        EnumUsage::ReadWrite => "read-write",
        EnumUsage::Read => "read",
        EnumUsage::Write => "write",
    }
}

fn read_action_str(a: ReadAction) -> &'static str {
    match a {
        ReadAction::Clear => "clear",
        ReadAction::Set => "set",
        ReadAction::Modify => "modify",
        ReadAction::ModifyExternal => "modify-external",
    }
}
