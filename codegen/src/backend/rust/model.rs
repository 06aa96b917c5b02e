//! Behavioural models of memory-mapped blocks (the generated crate's `model` feature).
//!
//! For each block: its access rules as a table (`armreg_rt::model::BlockSpec`: per register its
//! offset, width, reset, whole-register access and one bit mask per kind of field access; the
//! shared states; the lock), and a `<Block>Model` type whose `block()` is the generated block on
//! the model. The rules are applied by one engine in the runtime, written and tested once; what a
//! crate adds is data read from the IR, so the model cannot drift from the description.
use super::code::{hex, name, string, Code};
use super::doc;
use super::naming::const_prefix;
use crate::backend::reset;
use crate::ir::{
    bit_range_mask, Block, BlockRegister, Device, FieldAccess, Layout, ReadAction, RegAccess,
};
use crate::names::Case;

/// The model of one block, as the items of its file.
pub fn model_items(device: &Device, block: &Block) -> String {
    // The model holds the registers of the blocks the block's clusters place too, at their
    // offsets from its base: the bus sees one map.
    let flat;
    let block = if block.clusters.is_empty() {
        block
    } else {
        let index = device.blocks.iter().position(|b| b.name == block.name);
        flat = Block {
            registers: index.map_or_else(Vec::new, |b| {
                device.flat_registers(b, crate::ir::FLAT_LIMIT)
            }),
            clusters: Vec::new(),
            ..block.clone()
        };
        &flat
    };
    let mut c = Code::with_capacity(block.registers.len() * 1000 + 2000);
    block_model(&mut c, device, block);
    c.finish()
}

/// What each bit of a register does, as the runtime's `Bits` holds it.
#[derive(Default)]
struct Masks {
    readable: u64,
    write: u64,
    once: u64,
    w1s: u64,
    w1c: u64,
    w1t: u64,
    w0s: u64,
    w0c: u64,
    w0t: u64,
    wset: u64,
    wclr: u64,
    action: u64,
    res1: u64,
    read_clear: u64,
    read_set: u64,
}

impl Masks {
    /// The masks of `layout` reached through `reg`. A layout without fields is one plain value;
    /// in a layout with fields, bits no field covers are reserved and do nothing.
    fn of(layout: &Layout, reg: &BlockRegister) -> Masks {
        let full = bit_range_mask(0, layout.width);
        let mut m = Masks::default();
        if layout.fields.is_empty() {
            m.readable = full;
            m.write = full;
        }
        for f in &layout.fields {
            let bits = f.mask() & full;
            let (readable, kind): (bool, Option<&mut u64>) = match f.access {
                FieldAccess::Rw => (true, Some(&mut m.write)),
                FieldAccess::Ro => (true, None),
                FieldAccess::Wo => (false, Some(&mut m.write)),
                FieldAccess::W1s => (true, Some(&mut m.w1s)),
                FieldAccess::W1c => (true, Some(&mut m.w1c)),
                FieldAccess::W1t => (true, Some(&mut m.w1t)),
                FieldAccess::W0s => (true, Some(&mut m.w0s)),
                FieldAccess::W0c => (true, Some(&mut m.w0c)),
                FieldAccess::W0t => (true, Some(&mut m.w0t)),
                FieldAccess::WSet => (true, Some(&mut m.wset)),
                FieldAccess::WClr => (true, Some(&mut m.wclr)),
                FieldAccess::RwOnce => (true, Some(&mut m.once)),
                FieldAccess::WoOnce => (false, Some(&mut m.once)),
                FieldAccess::W1Action => (false, Some(&mut m.action)),
                FieldAccess::Res1 => (false, Some(&mut m.res1)),
                FieldAccess::RazWi | FieldAccess::Res0 => (false, None),
            };
            if let Some(mask) = kind {
                *mask |= bits;
            }
            if readable {
                m.readable |= bits;
            }
            match f.read_action {
                Some(ReadAction::Clear) => m.read_clear |= bits,
                Some(ReadAction::Set) => m.read_set |= bits,
                // Effects outside the field's own bits are the hooks' to add.
                Some(ReadAction::Modify | ReadAction::ModifyExternal) | None => {}
            }
        }
        match reg.read_action {
            Some(ReadAction::Clear) => m.read_clear |= m.readable,
            Some(ReadAction::Set) => m.read_set |= m.readable,
            _ => {}
        }
        m
    }

    /// The `bits:` field of a `RegSpec`, at the current indentation.
    fn write(&self, c: &mut Code) {
        let fields = [
            ("readable", self.readable),
            ("write", self.write),
            ("once", self.once),
            ("w1s", self.w1s),
            ("w1c", self.w1c),
            ("w1t", self.w1t),
            ("w0s", self.w0s),
            ("w0c", self.w0c),
            ("w0t", self.w0t),
            ("wset", self.wset),
            ("wclr", self.wclr),
            ("action", self.action),
            ("res1", self.res1),
            ("read_clear", self.read_clear),
            ("read_set", self.read_set),
        ];
        if fields.iter().all(|(_, v)| *v == 0) {
            c.line("bits: armreg_rt::model::Bits::NONE,");
            return;
        }
        c.open("bits: armreg_rt::model::Bits");
        for (name, v) in fields.iter().filter(|(_, v)| *v != 0) {
            c.fmt(format_args!("{name}: {},", hex(*v)));
        }
        c.line("..armreg_rt::model::Bits::NONE");
        c.close(",");
    }
}

/// The registers a model holds: aliases reach the register they alias, so they are left out.
fn modelled<'d>(device: &'d Device, block: &'d Block) -> Vec<(&'d BlockRegister, &'d Layout)> {
    block
        .registers
        .iter()
        .filter(|r| r.alias_of.is_none())
        .filter_map(|r| device.layout(&r.layout.name).map(|l| (r, l)))
        .collect()
}

fn block_model(c: &mut Code, device: &Device, block: &Block) {
    let block_ty = name(&block.name, Case::Camel);
    let model_ty = format!("{block_ty}Model");
    let spec = format!("{}_SPEC", const_prefix(&block.name));
    let registers = modelled(device, block);
    let mut states: Vec<&str> = registers
        .iter()
        .filter_map(|(r, _)| match &r.access {
            RegAccess::Set { state } | RegAccess::Clear { state } => Some(state.as_str()),
            _ => None,
        })
        .collect();
    states.sort();
    states.dedup();
    let state_index = |s: &str| states.iter().position(|x| *x == s).unwrap_or(0);

    c.doc(&format!(
        "The access rules of {} as its description states them: the table [`{model_ty}`] applies.",
        doc::code(&block.name)
    ));
    c.open(&format!(
        "pub static {spec}: armreg_rt::model::BlockSpec = armreg_rt::model::BlockSpec"
    ));
    c.fmt(format_args!("name: {},", string(&block.name)));
    c.fmt(format_args!("size: {},", hex(block.size)));
    c.fmt(format_args!("bus_bytes: {},", block.access_width / 8));
    c.line("registers: &[");
    c.deeper();
    for (r, l) in &registers {
        let (count, stride) = match r.array {
            Some(a) => (a.count, a.stride),
            None => (1, 0),
        };
        let kind = match &r.access {
            RegAccess::Rw => "Rw".to_string(),
            RegAccess::Ro => "Ro".to_string(),
            RegAccess::Wo => "Wo".to_string(),
            RegAccess::Set { state } => format!("Set({})", state_index(state)),
            RegAccess::Clear { state } => format!("Clear({})", state_index(state)),
        };
        let masks = Masks::of(l, r);
        let reset = (reset::bits(l).value | masks.res1) & bit_range_mask(0, l.width);
        c.open("armreg_rt::model::RegSpec");
        c.fmt(format_args!("name: {},", string(&r.name)));
        c.fmt(format_args!("offset: {},", hex(r.offset)));
        c.fmt(format_args!("bytes: {},", l.width / 8));
        c.fmt(format_args!("count: {count},"));
        c.fmt(format_args!("stride: {},", hex(stride)));
        c.fmt(format_args!("kind: armreg_rt::model::RegKind::{kind},"));
        c.fmt(format_args!("reset: {},", hex(reset)));
        masks.write(c);
        c.close(",");
    }
    c.shallower();
    c.line("],");
    let quoted: Vec<String> = states.iter().map(|s| string(s)).collect();
    c.fmt(format_args!("states: &[{}],", quoted.join(", ")));
    let position = |name: &str| registers.iter().position(|(r, _)| r.name == name);
    let lock = block.lock.as_ref().and_then(|lock| {
        let access = position(&lock.access.name)?;
        let status = position(&lock.status.name)?;
        let field = registers[status]
            .1
            .fields
            .iter()
            .find(|f| f.name == lock.locked.name)?;
        Some((access, status, lock.key, field.mask()))
    });
    match lock {
        Some((access, status, key, locked)) => {
            c.open("lock: Some(armreg_rt::model::LockSpec");
            c.fmt(format_args!("access: {access},"));
            c.fmt(format_args!("status: {status},"));
            c.fmt(format_args!("key: {},", hex(key)));
            c.fmt(format_args!("locked: {},", hex(locked)));
            c.close("),");
        }
        None => c.line("lock: None,"),
    }
    c.close(";");

    c.doc(&doc::paragraphs(&[
        Some(format!(
            "A behavioural model of [`{block_ty}`](crate::mmio::{block_ty}): storage for every register at its described reset, applying the description's access rules (see `armreg_rt::model`); every access is logged, and hooks add what a description cannot state."
        )),
        rules_doc(block, &states),
    ]));
    c.line("#[derive(Debug)]");
    c.fmt(format_args!(
        "pub struct {model_ty}(armreg_rt::model::Model);"
    ));
    c.open(&format!("impl {model_ty}"));
    c.line("/// The block at reset, with no hooks.");
    c.open("pub fn new() -> Self");
    c.fmt(format_args!("Self(armreg_rt::model::Model::new(&{spec}))"));
    c.close("");
    c.line("/// The block on this model, at offset 0: the type driver code uses on hardware,");
    c.line("/// reaching the model instead of memory.");
    c.open(&format!(
        "pub fn block(&self) -> crate::mmio::{block_ty}<&armreg_rt::model::Model>"
    ));
    c.fmt(format_args!(
        "crate::mmio::{block_ty}::with_bus(&self.0, 0)"
    ));
    c.close("");
    c.close("");
    c.open(&format!("impl Default for {model_ty}"));
    c.open("fn default() -> Self");
    c.line("Self::new()");
    c.close("");
    c.close("");
    c.open(&format!("impl core::ops::Deref for {model_ty}"));
    c.line("type Target = armreg_rt::model::Model;");
    c.open("fn deref(&self) -> &armreg_rt::model::Model");
    c.line("&self.0");
    c.close("");
    c.close("");
}

/// The block-specific rules, in words: the shared states and the lock.
fn rules_doc(block: &Block, states: &[&str]) -> Option<String> {
    let mut parts = Vec::new();
    for state in states {
        let views: Vec<String> = block
            .registers
            .iter()
            .filter(|r| {
                matches!(&r.access, RegAccess::Set { state: s } | RegAccess::Clear { state: s } if s == state)
            })
            .map(|r| doc::code(&r.name))
            .collect();
        parts.push(format!(
            "{} act on one state, {}.",
            views.join(" and "),
            doc::code(state)
        ));
    }
    if let Some(lock) = &block.lock {
        parts.push(format!(
            "While {} is 1, writes to every register but {} are ignored; writing {:#x} to {} unlocks, any other value locks.",
            doc::code(&format!("{}.{}", lock.status.name, lock.locked.name)),
            doc::code(&lock.access.name),
            lock.key,
            doc::code(&lock.access.name),
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}
