//! `[[add]]`: adds one element to every selected parent: exactly one of `new_block`,
//! `new_instance` (both to the device), `new_register` (to a block), `new_field` (to a register),
//! `new_value` (to a field), `new_interrupt` (to an instance), written as in a native
//! description. Its name must be free in the parent. Claims a change of each parent; a new
//! block is one other operations may name, and a new instance names its block.
use serde::Deserialize;
use toml::Spanned as S;

use super::conflict::{a_an, on_each, Claim, What};
use super::elem::Elem;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, usage, width, Table};
use super::run::{instance, Run};
use super::select::{Level, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{
    Block, BlockArray, BlockRegister, Device, EnumUsage, EnumValue, Field, FieldAccess, Instance,
    Interrupt, Layout, NameRef, Pos, RegAccess,
};
use crate::rules::PATCHES_DO_NOT_CONFLICT;

pub const SPEC: Spec = Spec::new(
    "add",
    &[
        "new_block",
        "new_instance",
        "new_register",
        "new_field",
        "new_value",
        "new_interrupt",
    ],
    check::<Raw>,
    read,
);

#[derive(Deserialize)]
struct Raw {
    new_block: Option<S<RawNewBlock>>,
    new_instance: Option<S<RawNewInstance>>,
    new_register: Option<S<RawNewRegister>>,
    new_field: Option<S<RawNewField>>,
    new_value: Option<S<RawNewValue>>,
    new_interrupt: Option<S<RawNewInterrupt>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewBlock {
    name: S<String>,
    size: S<i64>,
    access_width: Option<S<i64>>,
    doc: Option<String>,
    base: Option<S<i64>>,
    #[serde(default)]
    registers: Vec<S<RawNewRegister>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewInstance {
    name: S<String>,
    block: S<String>,
    base: S<i64>,
    doc: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewRegister {
    name: S<String>,
    offset: S<i64>,
    width: Option<S<i64>>,
    access: Option<S<String>>,
    state: Option<S<String>>,
    doc: Option<String>,
    reset: Option<S<i64>>,
    count: Option<S<i64>>,
    stride: Option<S<i64>>,
    #[serde(default)]
    fields: Vec<S<RawNewField>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewField {
    name: S<String>,
    bits: S<String>,
    access: Option<S<String>>,
    doc: Option<String>,
    reset: Option<S<i64>>,
    #[serde(default, rename = "enum")]
    values: Vec<S<RawNewValue>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewValue {
    name: S<String>,
    value: S<i64>,
    usage: Option<S<String>>,
    doc: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewInterrupt {
    name: S<String>,
    value: S<i64>,
    doc: Option<String>,
}

/// The new element.
#[derive(Debug)]
enum New {
    Block(NewBlock),
    Instance(Instance),
    Register(NewRegister),
    Field(Field),
    Value(EnumValue),
    Interrupt(Interrupt),
}

#[derive(Debug)]
struct NewBlock {
    block: Block,
    /// Where to place an instance of the same name, if anywhere.
    base: Option<u64>,
    registers: Vec<NewRegister>,
}

/// A new register; its layout is named when it is added (`<BLOCK>_<REGISTER>`).
#[derive(Debug)]
struct NewRegister {
    register: BlockRegister,
    width: u32,
    reset: Option<u64>,
    fields: Vec<Field>,
}

impl New {
    fn name(&self) -> &str {
        match self {
            New::Block(b) => &b.block.name,
            New::Instance(i) => &i.name,
            New::Register(r) => &r.register.name,
            New::Field(f) => &f.name,
            New::Value(v) => &v.name,
            New::Interrupt(i) => &i.name,
        }
    }

    fn what(&self) -> &'static str {
        match self {
            New::Block(_) => "block",
            New::Instance(_) => "instance",
            New::Register(_) => "register",
            New::Field(_) => "field",
            New::Value(_) => "enumerated value",
            New::Interrupt(_) => "interrupt",
        }
    }

    /// The level of the parent it is added to.
    fn parent(&self) -> &'static [Level] {
        match self {
            New::Block(_) | New::Instance(_) => &[Level::Device],
            New::Register(_) => &[Level::Block],
            New::Field(_) => &[Level::Register, Level::SysReg],
            New::Value(_) => &[Level::Field],
            New::Interrupt(_) => &[Level::Instance],
        }
    }
}

#[derive(Debug)]
struct Add {
    new: New,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    let raw: Raw = read_raw(r, table)?;
    let given = [
        raw.new_block.is_some(),
        raw.new_instance.is_some(),
        raw.new_register.is_some(),
        raw.new_field.is_some(),
        raw.new_value.is_some(),
        raw.new_interrupt.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        return refused(r, pos, "[[add]] adds one element: exactly one of `new_block`, `new_instance`, `new_register`, `new_field`, `new_value`, `new_interrupt`");
    }
    let new = new_element(r, &raw)?;
    let level = select.level();
    if !new.parent().contains(&level) {
        let parents: Vec<&str> = new.parent().iter().map(|l| l.as_str()).collect();
        return refused(
            r,
            pos,
            format!(
                "a new {} is added to {}, but the selector names {}",
                new.what(),
                parents.join(" or "),
                level.as_str()
            ),
        );
    }
    Some(Box::new(Add { new }))
}

fn new_element(r: &mut Reader, raw: &Raw) -> Option<New> {
    Some(if let Some(b) = &raw.new_block {
        New::Block(new_block(r, b)?)
    } else if let Some(i) = &raw.new_instance {
        let raw = i.get_ref();
        let (pos, block_pos) = (r.pos(&raw.name), r.pos(&raw.block));
        let base = r.unsigned(&raw.base, "`base`", u64::MAX)?;
        let mut new = instance(
            raw.name.get_ref(),
            raw.block.get_ref(),
            base,
            raw.doc.clone(),
            &pos,
        );
        new.block.pos = block_pos;
        New::Instance(new)
    } else if let Some(reg) = &raw.new_register {
        New::Register(new_register(r, reg)?)
    } else if let Some(f) = &raw.new_field {
        New::Field(new_field(r, f)?)
    } else if let Some(v) = &raw.new_value {
        New::Value(new_value(r, v)?)
    } else {
        let raw = raw.new_interrupt.as_ref()?.get_ref();
        New::Interrupt(Interrupt {
            name: raw.name.get_ref().clone(),
            value: r.unsigned(&raw.value, "an interrupt number", u64::from(u32::MAX))? as u32,
            doc: raw.doc.clone(),
            pos: r.pos(&raw.name),
        })
    })
}

fn new_block(r: &mut Reader, raw: &S<RawNewBlock>) -> Option<NewBlock> {
    let b = raw.get_ref();
    let mut registers = Vec::new();
    for reg in &b.registers {
        registers.push(new_register(r, reg)?);
    }
    let block = Block {
        name: b.name.get_ref().clone(),
        size: r.unsigned(&b.size, "a block's size", u64::from(u32::MAX) + 1)?,
        access_width: match &b.access_width {
            Some(w) => width(r, w, "access_width")?,
            None => 32,
        },
        doc: b.doc.clone(),
        source: None,
        pos: r.pos(&b.name),
        registers: Vec::new(),
        clusters: Vec::new(),
        lock: None,
    };
    let base = match &b.base {
        Some(base) => Some(r.unsigned(base, "`base`", u64::MAX)?),
        None => None,
    };
    Some(NewBlock {
        block,
        base,
        registers,
    })
}

fn new_register(r: &mut Reader, raw: &S<RawNewRegister>) -> Option<NewRegister> {
    let x = raw.get_ref();
    let access = match &x.access {
        Some(a) => r.reg_access(Some(a), &x.state, a)?,
        None => RegAccess::Rw,
    };
    let array = match (&x.count, &x.stride) {
        (Some(c), Some(s)) => Some(BlockArray {
            count: r.unsigned(c, "count", u64::from(u32::MAX))? as u32,
            stride: r.unsigned(s, "stride", u64::from(u32::MAX))?,
        }),
        (None, None) => None,
        (Some(c), None) => {
            r.error(c, "an array needs `stride` too".into());
            return None;
        }
        (None, Some(s)) => {
            r.error(s, "`stride` needs `count`".into());
            return None;
        }
    };
    let mut fields = Vec::new();
    for f in &x.fields {
        fields.push(new_field(r, f)?);
    }
    let pos = r.pos(&x.name);
    let register = BlockRegister {
        name: x.name.get_ref().clone(),
        layout: NameRef {
            name: String::new(),
            pos: pos.clone(),
        },
        offset: r.unsigned(&x.offset, "offset", u64::from(u32::MAX))?,
        access,
        array,
        alias_of: None,
        read_action: None,
        protection: None,
        index_names: Vec::new(),
        doc: x.doc.clone(),
        source: None,
        pos,
    };
    Some(NewRegister {
        register,
        width: match &x.width {
            Some(w) => width(r, w, "width")?,
            None => 32,
        },
        reset: match &x.reset {
            Some(v) => Some(r.unsigned(v, "`reset`", u64::MAX)?),
            None => None,
        },
        fields,
    })
}

fn new_field(r: &mut Reader, raw: &S<RawNewField>) -> Option<Field> {
    let f = raw.get_ref();
    let (msb, lsb) = r.bits(&f.bits, 64)?;
    let mut enums = Vec::new();
    for v in &f.values {
        enums.push(new_value(r, v)?);
    }
    Some(Field {
        name: f.name.get_ref().clone(),
        lsb,
        width: msb - lsb + 1,
        access: match &f.access {
            Some(a) => r.field_access(a)?,
            None => FieldAccess::Rw,
        },
        reset: match &f.reset {
            Some(v) => Some(r.unsigned(v, "`reset`", u64::MAX)?),
            None => None,
        },
        doc: f.doc.clone(),
        source: None,
        pos: r.pos(&f.name),
        enums,
        enum_default: None,
        enum_name: None,
        read_action: None,
        write_constraint: None,
        condition: None,
    })
}

fn new_value(r: &mut Reader, raw: &S<RawNewValue>) -> Option<EnumValue> {
    let v = raw.get_ref();
    Some(EnumValue {
        name: v.name.get_ref().clone(),
        value: r.unsigned(&v.value, "`value`", u64::MAX)?,
        mask: None,
        usage: match &v.usage {
            Some(u) => usage(r, u)?,
            None => EnumUsage::ReadWrite,
        },
        doc: v.doc.clone(),
        source: None,
        pos: r.pos(&v.name),
    })
}

impl Operation for Add {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Change, &op.pos)
    }

    fn changes_layout(&self, target: Elem) -> bool {
        match target {
            Elem::Field(..) | Elem::Value(..) => true,
            Elem::Reg(_) => matches!(self.new, New::Field(_)),
            _ => false,
        }
    }

    fn adds_block(&self) -> Option<&str> {
        match &self.new {
            New::Block(b) => Some(&b.block.name),
            _ => None,
        }
    }

    fn names_block(&self) -> Option<(&str, &Pos)> {
        match &self.new {
            New::Instance(i) => Some((&i.block.name, &i.block.pos)),
            _ => None,
        }
    }

    fn apply(&self, run: &mut Run, op: &Op, sel: &Selected) {
        for (parent, _) in &sel.targets {
            if let Some(pos) = taken(run, *parent, &self.new) {
                let at = run.path(*parent);
                run.errors.push(
                    Diagnostic::error(
                        PATCHES_DO_NOT_CONFLICT,
                        &op.pos,
                        format!(
                            "{at} already has {} named `{}`",
                            a_an(self.new.what()),
                            self.new.name()
                        ),
                    )
                    .with_note(&pos, "defined here".to_string()),
                );
                continue;
            }
            add(run, *parent, &self.new);
        }
    }
}

/// Adds `new` to `parent`.
fn add(run: &mut Run, parent: Elem, new: &New) {
    match (parent, new) {
        (Elem::Device, New::Block(b)) => add_block(run, b),
        (Elem::Device, New::Instance(i)) => {
            run.device.instances.push(i.clone());
            run.note(format!(
                "instance {} of block {} added at {:#x}",
                i.name, i.block.name, i.base
            ));
        }
        (Elem::Block(b), New::Register(r)) => {
            let block_name = run.device.blocks[b].name.clone();
            let reg = register(run, &block_name, r);
            run.device.blocks[b].registers.push(reg);
            let (name, offset) = (&r.register.name, r.register.offset);
            run.note(format!("{block_name}.{name} added at offset {offset:#x}"));
        }
        (Elem::Reg(reg), New::Field(f)) => {
            let Some(l) = run.layout_of(reg) else { return };
            run.device.layouts[l].fields.push(f.clone());
            let at = run.path(parent);
            run.note(format!(
                "{at}.{} added at bits {}:{}",
                f.name,
                f.msb(),
                f.lsb
            ));
        }
        (Elem::Field(reg, f), New::Value(v)) => {
            let Some(l) = run.layout_of(reg) else { return };
            run.device.layouts[l].fields[f].enums.push(v.clone());
            let at = run.path(parent);
            run.note(format!("{at}.{} = {:#x} added", v.name, v.value));
        }
        (Elem::Instance(i), New::Interrupt(irq)) => {
            run.device.instances[i].interrupts.push(irq.clone());
            let inst = run.device.instances[i].name.clone();
            run.note(format!(
                "instance {inst}: interrupt {} = {} added",
                irq.name, irq.value
            ));
        }
        _ => {}
    }
}

fn add_block(run: &mut Run, b: &NewBlock) {
    let name = b.block.name.clone();
    let registers = b
        .registers
        .iter()
        .map(|r| register(run, &name, r))
        .collect();
    run.device.blocks.push(Block {
        registers,
        ..b.block.clone()
    });
    let count = b.registers.len();
    run.note(format!("block {name} added ({count} registers)"));
    if let Some(base) = b.base {
        let new = instance(&name, &name, base, b.block.doc.clone(), &b.block.pos);
        run.device.instances.push(new);
        run.note(format!("instance {name} added at {base:#x}"));
    }
}

/// Where an element of `parent` has the name `new` is to have (an element added earlier
/// counts too).
fn taken(run: &Run, parent: Elem, new: &New) -> Option<Pos> {
    let name = new.name();
    let d = &*run.device;
    let live = |e: Elem| !run.dead.contains(&e);
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
            .find(|(i, r)| r.name == name && live(Elem::Reg(super::elem::Reg::Block(b, *i))))
            .map(|(_, r)| r.pos.clone()),
        (Elem::Reg(r), _) => run.layout_of(r).and_then(|l| {
            d.layouts[l]
                .fields
                .iter()
                .enumerate()
                .find(|(i, f)| f.name == name && live(Elem::Field(r, *i)))
                .map(|(_, f)| f.pos.clone())
        }),
        (Elem::Field(r, f), _) => run.layout_of(r).and_then(|l| {
            d.layouts[l].fields[f]
                .enums
                .iter()
                .enumerate()
                .find(|(i, v)| v.name == name && live(Elem::Value(r, f, *i)))
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
fn register(run: &mut Run, block: &str, r: &NewRegister) -> BlockRegister {
    let name = run
        .layouts
        .free_name(&format!("{block}_{}", r.register.name.replace("<n>", "")));
    let layout = Layout {
        name: name.clone(),
        width: r.width,
        doc: r.register.doc.clone(),
        source: None,
        reset: r.reset,
        reset_mask: None,
        pos: r.register.pos.clone(),
        fields: r.fields.clone(),
        field_arrays: Vec::new(),
        derive: None,
    };
    run.layouts.push(run.device, layout);
    let mut register = r.register.clone();
    register.layout.name = name;
    register
}
