//! The patch layer: TOML files that fix a vendor description (CMSIS-SVD, TI XML, Linux sysreg,
//! or a native one) on the IR, before the passes check it (see `descriptions/FORMAT.md`, "Patch
//! files").
//!
//! A patch file is a list of operations (`[[modify]]`, `[[delete]]`, `[[add]]`, `[[rename]]`,
//! `[[copy]]`, `[[derive]]`, `[[array]]`, `[[cluster]]`, `[[merge_enums]]`), each with a selector: one key per
//! level (`block`, `register`, `field`, `value`; `instance`; `sysreg`), each a name or a glob
//! (`GPIO*`, `PIN?`). A level is a key of its own, never a dotted path, so a level can be added
//! between two others (a `cluster` between `block` and `register`) without changing what an
//! existing selector means.
//!
//! Every selector of a file is resolved against the device as it is before the file applies (the
//! names the vendor file gives), and the operations are then applied in a fixed order (see
//! `apply`), so the order of the file does not matter and two operations that contradict each
//! other are found before either applies. Patch files given one after the other apply in turn:
//! a later file sees what an earlier one made.
//!
//! Parsing is two steps, as for native descriptions: `toml` deserializes into the raw structs
//! below, which keep the byte span of every value, then `lower` checks each operation's keys and
//! values and builds an [`Op`]. Every failure is a diagnostic at the offending key.
mod apply;
mod glob;
#[cfg(test)]
mod tests;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::frontend::spanned::Reader;
use crate::ir::{EnumUsage, FieldAccess, Pos, ReadAction, RegAccess};
use crate::rules::PATCH_SYNTAX;

pub use apply::apply;
pub use glob::Glob;

type S<T> = Spanned<T>;

/// One patch file, read.
#[derive(Clone, Debug)]
pub struct PatchFile {
    pub ops: Vec<Op>,
}

/// One operation: what it does, what it selects, and where the file states it.
#[derive(Clone, Debug)]
pub struct Op {
    pub kind: Kind,
    pub select: Selector,
    pub pos: Pos,
}

/// Which elements an operation acts on: one glob per level.
#[derive(Clone, Debug, Default)]
pub struct Selector {
    pub block: Option<Glob>,
    /// Clusters of the selected blocks, whose blocks' registers `register` then selects.
    pub cluster: Option<Glob>,
    pub instance: Option<Glob>,
    pub sysreg: Option<Glob>,
    pub register: Option<Glob>,
    pub field: Option<Glob>,
    pub value: Option<Glob>,
}

/// The level a selector names: its deepest key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Device,
    Block,
    Instance,
    Register,
    SysReg,
    Field,
    Value,
}

impl Level {
    fn as_str(self) -> &'static str {
        match self {
            Level::Device => "the device",
            Level::Block => "a block",
            Level::Instance => "an instance",
            Level::Register => "a register",
            Level::SysReg => "a system register",
            Level::Field => "a field",
            Level::Value => "an enumerated value",
        }
    }
}

impl Selector {
    pub fn level(&self) -> Level {
        if self.value.is_some() {
            Level::Value
        } else if self.field.is_some() {
            Level::Field
        } else if self.register.is_some() {
            Level::Register
        } else if self.sysreg.is_some() {
            Level::SysReg
        } else if self.instance.is_some() {
            Level::Instance
        } else if self.block.is_some() {
            Level::Block
        } else {
            Level::Device
        }
    }

    /// The glob of the deepest level.
    pub fn deepest(&self) -> Option<&Glob> {
        self.value
            .as_ref()
            .or(self.field.as_ref())
            .or(self.register.as_ref())
            .or(self.sysreg.as_ref())
            .or(self.instance.as_ref())
            .or(self.block.as_ref())
    }
}

/// What an operation does.
#[derive(Clone, Debug)]
pub enum Kind {
    /// Sets attributes of every selected element.
    Modify(Vec<Set>),
    /// Removes every selected element (a block with its instances).
    Delete,
    /// Adds an element to every selected parent.
    Add(New),
    /// Renames every selected element; `{1}`, `{2}` ... in the new name stand for what the
    /// wildcards of the deepest glob matched.
    Rename { to: String, to_pos: Pos },
    /// Copies the selected block (under a new name) or instance (a new instance of its block).
    Copy {
        to: String,
        to_pos: Pos,
        base: Option<u64>,
    },
    /// Makes the selected instances instances of the block `from`.
    Derive { from: String, from_pos: Pos },
    /// Makes one register array of the numbered registers the register selector's `<n>` matches.
    Array {
        name: Option<(String, Pos)>,
        layout: Option<(String, Pos)>,
    },
    /// Gives the selected fields whose values are the same (names, values, usage) one set of
    /// values, documentation included, so the backends make one type of them.
    MergeEnums,
    /// Makes a cluster of a repeated group of registers: the register selector's `<n>` numbers
    /// the groups (none: one group), the rest of each name is a member of the new block.
    Cluster {
        /// The cluster's name (`CH<n>`).
        name: (String, Pos),
        /// The new block's name, when not `<BLOCK>_<name without <n>>`.
        block_name: Option<(String, Pos)>,
        /// Globs on the member names: only the registers whose member one matches are taken.
        members: Vec<Glob>,
    },
    /// Makes one field array of the numbered fields the field selector's `<n>` matches, in each
    /// selected register's layout; `name` when not the selector's text (`PIN<n>`).
    FieldArray { name: Option<(String, Pos)> },
}

impl Kind {
    pub fn as_str(&self) -> &'static str {
        match self {
            Kind::Modify(_) => "modify",
            Kind::Delete => "delete",
            Kind::Add(_) => "add",
            Kind::Rename { .. } => "rename",
            Kind::Copy { .. } => "copy",
            Kind::Derive { .. } => "derive",
            Kind::Array { .. } => "array",
            Kind::MergeEnums => "merge_enums",
            Kind::Cluster { .. } => "cluster",
            Kind::FieldArray { .. } => "field_array",
        }
    }
}

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
        }
    }

    /// The value as `--explain-patches` shows it.
    pub fn shown(&self) -> String {
        match self {
            Attr::Doc(s) | Attr::Source(s) => format!("{:?}", short(s)),
            Attr::FieldAccess(a) => a.as_str().to_string(),
            Attr::RegAccess(a) => reg_access_str(a),
            Attr::Reset(v)
            | Attr::ResetMask(v)
            | Attr::Offset(v)
            | Attr::Size(v)
            | Attr::Base(v)
            | Attr::Value(v) => {
                format!("{v:#x}")
            }
            Attr::Bits(msb, lsb) => format!("{msb}:{lsb}"),
            Attr::AccessWidth(w) | Attr::Width(w) => w.to_string(),
            Attr::Usage(u) => usage_str(*u).to_string(),
            Attr::ReadAction(a) => read_action_str(*a).to_string(),
        }
    }

    /// The levels the attribute applies to.
    fn levels(&self) -> &'static [Level] {
        use Level::*;
        match self {
            Attr::Doc(_) | Attr::Source(_) => &[Block, Instance, Register, SysReg, Field, Value],
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
        }
    }
}

/// A text cut to its first line and 40 characters, for the explanation.
pub(crate) fn short(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    let cut: String = line.chars().take(40).collect();
    if cut.len() < s.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

pub(crate) fn reg_access_str(a: &RegAccess) -> String {
    match a {
        RegAccess::Rw => "rw".into(),
        RegAccess::Ro => "ro".into(),
        RegAccess::Wo => "wo".into(),
        RegAccess::Set { state } => format!("set (state {state})"),
        RegAccess::Clear { state } => format!("clear (state {state})"),
    }
}

pub(crate) fn usage_str(u: EnumUsage) -> &'static str {
    match u {
        EnumUsage::ReadWrite => "read-write",
        EnumUsage::Read => "read",
        EnumUsage::Write => "write",
    }
}

pub(crate) fn read_action_str(a: ReadAction) -> &'static str {
    match a {
        ReadAction::Clear => "clear",
        ReadAction::Set => "set",
        ReadAction::Modify => "modify",
        ReadAction::ModifyExternal => "modify-external",
    }
}

/// A new element, as `[[add]]` states it.
#[derive(Clone, Debug)]
pub enum New {
    Block(NewBlock),
    Instance(NewInstance),
    Register(NewRegister),
    Field(NewField),
    Value(NewValue),
    Interrupt(NewInterrupt),
}

impl New {
    pub fn name(&self) -> &str {
        match self {
            New::Block(b) => &b.name,
            New::Instance(i) => &i.name,
            New::Register(r) => &r.name,
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

#[derive(Clone, Debug)]
pub struct NewBlock {
    pub name: String,
    pub size: u64,
    pub access_width: u32,
    pub doc: Option<String>,
    /// Where to place an instance of the same name, if anywhere.
    pub base: Option<u64>,
    pub registers: Vec<NewRegister>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct NewInstance {
    pub name: String,
    pub block: String,
    pub block_pos: Pos,
    pub base: u64,
    pub doc: Option<String>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct NewRegister {
    pub name: String,
    pub offset: u64,
    pub width: u32,
    pub access: RegAccess,
    pub doc: Option<String>,
    pub reset: Option<u64>,
    pub array: Option<(u32, u64)>,
    pub fields: Vec<NewField>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct NewField {
    pub name: String,
    pub msb: u32,
    pub lsb: u32,
    pub access: FieldAccess,
    pub doc: Option<String>,
    pub reset: Option<u64>,
    pub values: Vec<NewValue>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct NewValue {
    pub name: String,
    pub value: u64,
    pub usage: EnumUsage,
    pub doc: Option<String>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct NewInterrupt {
    pub name: String,
    pub value: u32,
    pub doc: Option<String>,
    pub pos: Pos,
}

// ----- the raw file

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    modify: Vec<S<RawOp>>,
    #[serde(default)]
    delete: Vec<S<RawOp>>,
    #[serde(default)]
    add: Vec<S<RawOp>>,
    #[serde(default)]
    rename: Vec<S<RawOp>>,
    #[serde(default)]
    copy: Vec<S<RawOp>>,
    #[serde(default)]
    derive: Vec<S<RawOp>>,
    #[serde(default)]
    array: Vec<S<RawOp>>,
    #[serde(default)]
    merge_enums: Vec<S<RawOp>>,
    #[serde(default)]
    cluster: Vec<S<RawOp>>,
    #[serde(default)]
    field_array: Vec<S<RawOp>>,
}

/// Every key any operation takes; which of them one kind takes is checked in `lower`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOp {
    block: Option<S<String>>,
    cluster: Option<S<String>>,
    instance: Option<S<String>>,
    sysreg: Option<S<String>>,
    register: Option<S<String>>,
    field: Option<S<String>>,
    value: Option<S<String>>,
    /// `[[modify]]`
    set: Option<S<RawSet>>,
    /// `[[rename]]`, `[[copy]]`
    to: Option<S<String>>,
    /// `[[copy]]` of an instance or block: where the new instance is.
    base: Option<S<i64>>,
    /// `[[derive]]`
    from: Option<S<String>>,
    /// `[[array]]`, `[[cluster]]`
    name: Option<S<String>>,
    /// `[[array]]`
    layout: Option<S<String>>,
    /// `[[cluster]]`
    block_name: Option<S<String>>,
    members: Option<Vec<S<String>>>,
    /// `[[add]]`
    new_block: Option<S<RawNewBlock>>,
    new_instance: Option<S<RawNewInstance>>,
    new_register: Option<S<RawNewRegister>>,
    new_field: Option<S<RawNewField>>,
    new_value: Option<S<RawNewValue>>,
    new_interrupt: Option<S<RawNewInterrupt>>,
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

/// Parses the patch file `text`; `file` is the name positions carry.
pub fn parse(file: &str, text: &str) -> Result<PatchFile, Vec<Diagnostic>> {
    let lines = LineIndex::new(file, text);
    let raw: RawFile = toml::from_str(text).map_err(|error| {
        let span = error.span().unwrap_or(0..0);
        vec![Diagnostic::error(
            PATCH_SYNTAX,
            &lines.pos(span.start, span.end),
            error.message().trim().to_string(),
        )]
    })?;
    let mut lower = Lower::new(&lines, PATCH_SYNTAX);
    let mut ops = Vec::new();
    let kinds: [(&str, &Vec<S<RawOp>>); 10] = [
        ("modify", &raw.modify),
        ("delete", &raw.delete),
        ("add", &raw.add),
        ("rename", &raw.rename),
        ("copy", &raw.copy),
        ("derive", &raw.derive),
        ("array", &raw.array),
        ("merge_enums", &raw.merge_enums),
        ("cluster", &raw.cluster),
        ("field_array", &raw.field_array),
    ];
    for (kind, raws) in kinds {
        for raw in raws {
            ops.extend(lower.op(kind, raw));
        }
    }
    if ops.is_empty() && lower.errors.is_empty() {
        lower.errors.push(Diagnostic::error(
            PATCH_SYNTAX,
            &Pos::file_start(file),
            "the patch file holds no operation ([[modify]], [[delete]], [[add]], [[rename]], [[copy]], [[derive]], [[array]], [[cluster]], [[field_array]] or [[merge_enums]])",
        ));
    }
    // File order: the explanation lists operations as the file states them.
    ops.sort_by_key(|op| op.pos.span.0);
    if lower.errors.is_empty() {
        Ok(PatchFile { ops })
    } else {
        lower.errors.sort_by_key(|d| d.pos.span.0);
        Err(lower.errors)
    }
}

/// The patch file's reader: the shared checks of `frontend::spanned`, and the methods below.
type Lower<'a> = Reader<'a>;

impl Lower<'_> {
    /// The position of an operation: its `[[kind]]` header (the span `toml` gives a table of
    /// an array of tables).
    fn op_pos(&self, raw: &S<RawOp>) -> Pos {
        self.pos(raw)
    }

    fn glob(&mut self, raw: &Option<S<String>>, array: bool) -> Option<Option<Glob>> {
        let Some(raw) = raw else { return Some(None) };
        match Glob::new(raw.get_ref(), self.pos(raw), array) {
            Ok(glob) => Some(Some(glob)),
            Err(message) => {
                self.error(raw, message);
                None
            }
        }
    }

    fn op(&mut self, kind: &str, raw: &S<RawOp>) -> Option<Op> {
        let pos = self.op_pos(raw);
        let r = raw.get_ref();
        // The keys each kind takes besides the selector.
        let extra: [(&str, bool); 15] = [
            ("set", r.set.is_some()),
            ("to", r.to.is_some()),
            ("base", r.base.is_some()),
            ("from", r.from.is_some()),
            ("name", r.name.is_some()),
            ("layout", r.layout.is_some()),
            ("block_name", r.block_name.is_some()),
            ("members", r.members.is_some()),
            ("new_block", r.new_block.is_some()),
            ("new_instance", r.new_instance.is_some()),
            ("new_register", r.new_register.is_some()),
            ("new_field", r.new_field.is_some()),
            ("new_value", r.new_value.is_some()),
            ("new_interrupt", r.new_interrupt.is_some()),
            ("", false),
        ];
        let allowed: &[&str] = match kind {
            "modify" => &["set"],
            "delete" | "merge_enums" => &[],
            "add" => &[
                "new_block",
                "new_instance",
                "new_register",
                "new_field",
                "new_value",
                "new_interrupt",
            ],
            "rename" => &["to"],
            "copy" => &["to", "base"],
            "derive" => &["from"],
            "array" => &["name", "layout"],
            "cluster" => &["name", "block_name", "members"],
            "field_array" => &["name"],
            _ => &[],
        };
        let mut ok = true;
        for (key, given) in extra {
            if given && !allowed.contains(&key) {
                let takes = if allowed.is_empty() {
                    "only a selector".to_string()
                } else {
                    allowed
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                self.errors.push(Diagnostic::error(
                    PATCH_SYNTAX,
                    &pos,
                    format!("[[{kind}]] takes no `{key}`; besides the selector it takes {takes}"),
                ));
                ok = false;
            }
        }
        let select = Selector {
            block: self.glob(&r.block, false)?,
            cluster: self.glob(&r.cluster, false)?,
            instance: self.glob(&r.instance, false)?,
            sysreg: self.glob(&r.sysreg, false)?,
            register: self.glob(
                &r.register,
                kind == "array"
                    || (kind == "cluster"
                        && r.register
                            .as_ref()
                            .is_some_and(|g| g.get_ref().contains("<n>"))),
            )?,
            field: self.glob(&r.field, kind == "field_array")?,
            value: self.glob(&r.value, false)?,
        };
        ok &= self.selector_shape(&select, &pos);
        if !ok {
            return None;
        }
        let level = select.level();
        let kind = match kind {
            "modify" => {
                let Some(set) = &r.set else {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[modify]] needs `set = { ... }`: the attributes to set",
                    ));
                    return None;
                };
                Kind::Modify(self.sets(set, level)?)
            }
            "delete" => {
                if level == Level::Device {
                    return self.needs_selector("delete", &pos);
                }
                Kind::Delete
            }
            "add" => Kind::Add(self.new_element(r, level, &pos)?),
            "rename" => {
                if level == Level::Device {
                    return self.needs_selector("rename", &pos);
                }
                let Some(to) = &r.to else {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[rename]] needs `to`: the new name",
                    ));
                    return None;
                };
                let captures = select.deepest().map_or(0, Glob::wildcards);
                if let Err(message) = glob::check_template(to.get_ref(), captures) {
                    self.error(to, message);
                    return None;
                }
                Kind::Rename {
                    to: to.get_ref().clone(),
                    to_pos: self.pos(to),
                }
            }
            "copy" => {
                if !matches!(level, Level::Block | Level::Instance) {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        format!(
                            "[[copy]] copies a block or an instance, not {}",
                            level.as_str()
                        ),
                    ));
                    return None;
                }
                let Some(to) = &r.to else {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[copy]] needs `to`: the copy's name",
                    ));
                    return None;
                };
                let base = match &r.base {
                    Some(b) => Some(self.unsigned(b, "`base`", u64::MAX)?),
                    None => None,
                };
                if level == Level::Instance && base.is_none() {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[copy]] of an instance needs `base`: the new instance's address",
                    ));
                    return None;
                }
                Kind::Copy {
                    to: to.get_ref().clone(),
                    to_pos: self.pos(to),
                    base,
                }
            }
            "derive" => {
                let Some(from) = &r.from else {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[derive]] needs `from`: the block the instances share",
                    ));
                    return None;
                };
                if level != Level::Instance {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        format!(
                            "[[derive]] selects instances (`instance = ...`), not {}",
                            level.as_str()
                        ),
                    ));
                    return None;
                }
                Kind::Derive {
                    from: from.get_ref().clone(),
                    from_pos: self.pos(from),
                }
            }
            "array" => {
                let is_array = select.register.as_ref().is_some_and(Glob::has_index);
                if level != Level::Register || !is_array {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[array]] selects numbered registers of blocks: `block = \"PWM\"`, `register = \"CH<n>_CSR\"`, `<n>` standing for the number",
                    ));
                    return None;
                }
                let name = self.array_name(r, "an array")?;
                Kind::Array {
                    name,
                    layout: r
                        .layout
                        .as_ref()
                        .map(|n| (n.get_ref().clone(), self.pos(n))),
                }
            }
            "cluster" => self.cluster(r, &select, &pos)?,
            "field_array" => {
                let is_array = select.field.as_ref().is_some_and(Glob::has_index);
                if level != Level::Field || !is_array {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[field_array]] selects numbered fields of registers: `register = \"OUT\"`, `field = \"PIN<n>\"`, `<n>` standing for the number",
                    ));
                    return None;
                }
                Kind::FieldArray {
                    name: self.array_name(r, "a field array")?,
                }
            }
            _ => {
                if level != Level::Field {
                    self.errors.push(Diagnostic::error(
                        PATCH_SYNTAX,
                        &pos,
                        "[[merge_enums]] selects fields: `block`, `register` and `field` (or `sysreg` and `field`), globs allowed",
                    ));
                    return None;
                }
                Kind::MergeEnums
            }
        };
        Some(Op { kind, select, pos })
    }

    /// A `[[cluster]]`'s keys: registers of blocks, `name` with `<n>` exactly when the register
    /// selector has it, member globs.
    fn cluster(&mut self, r: &RawOp, select: &Selector, pos: &Pos) -> Option<Kind> {
        if select.level() != Level::Register {
            self.errors.push(Diagnostic::error(
                PATCH_SYNTAX,
                pos,
                "[[cluster]] selects the registers of a repeated group: `block = \"DMA\"`, `register = \"CH<n>_*\"`, `<n>` standing for the group's number",
            ));
            return None;
        }
        let Some(name) = &r.name else {
            self.errors.push(Diagnostic::error(
                PATCH_SYNTAX,
                pos,
                "[[cluster]] needs `name`: the cluster's name (`CH<n>` for an array of groups)",
            ));
            return None;
        };
        let text = name.get_ref();
        let array = select.register.as_ref().is_some_and(Glob::has_index);
        let problem = if text.replace("<n>", "").is_empty() {
            Some(format!(
                "`{text}` is no name: a cluster's name holds more than `<n>`"
            ))
        } else if array && text.matches("<n>").count() != 1 {
            Some(format!("the registers are numbered (`<n>`), so the cluster is an array and its name holds `<n>` once, where the index goes: `{text}` does not"))
        } else if !array && text.contains("<n>") {
            Some(format!("`{text}` holds `<n>`, but the register selector does not: one group makes one cluster, not an array"))
        } else {
            None
        };
        if let Some(message) = problem {
            self.error(name, message);
            return None;
        }
        let mut members = Vec::new();
        for m in r.members.iter().flatten() {
            members.push(self.glob(&Some(m.clone()), false)?.expect("given"));
        }
        if r.members.as_ref().is_some_and(Vec::is_empty) {
            self.errors.push(Diagnostic::error(
                PATCH_SYNTAX,
                pos,
                "`members = []` takes no register; leave `members` out to take every register the selector matches",
            ));
            return None;
        }
        Some(Kind::Cluster {
            name: (text.clone(), self.pos(name)),
            block_name: r
                .block_name
                .as_ref()
                .map(|n| (n.get_ref().clone(), self.pos(n))),
            members,
        })
    }

    /// The optional `name` of an array operation (`what`: "an array"), which must hold `<n>`
    /// once; `None` (with an error) when it does not.
    fn array_name(&mut self, r: &RawOp, what: &str) -> Option<Option<(String, Pos)>> {
        let Some(raw) = &r.name else {
            return Some(None);
        };
        let text = raw.get_ref();
        if text.matches("<n>").count() != 1 {
            self.error(
                raw,
                format!("{what}'s name holds `<n>` once, where the index goes: `{text}` does not"),
            );
            return None;
        }
        Some(Some((text.clone(), self.pos(raw))))
    }

    fn needs_selector(&mut self, kind: &str, pos: &Pos) -> Option<Op> {
        self.errors.push(Diagnostic::error(
            PATCH_SYNTAX,
            pos,
            format!("[[{kind}]] needs a selector: `block`, `instance`, `sysreg`, `register`, `field` or `value`"),
        ));
        None
    }

    /// Which levels may be combined: each level below the top needs the one above it.
    fn selector_shape(&mut self, s: &Selector, pos: &Pos) -> bool {
        let problem = if s.cluster.is_some() && (s.block.is_none() || s.register.is_none()) {
            Some("`cluster` needs `block` and `register`: it selects the registers of the blocks the block's clusters place (a cluster itself is not an operation's target)")
        } else if s.register.is_some() && s.block.is_none() {
            Some("`register` needs `block`: the block whose registers it selects (system registers are selected with `sysreg`)")
        } else if s.field.is_some() && s.register.is_none() && s.sysreg.is_none() {
            Some("`field` needs `register` (and `block`) or `sysreg`: the register whose fields it selects")
        } else if s.value.is_some() && s.field.is_none() {
            Some("`value` needs `field`: the field whose enumerated values it selects")
        } else if s.instance.is_some()
            && (s.block.is_some() || s.sysreg.is_some() || s.field.is_some())
        {
            Some("`instance` selects instances alone; their registers are the block's: select them with `block`")
        } else if s.sysreg.is_some() && (s.block.is_some() || s.register.is_some()) {
            Some("`sysreg` selects system registers; `block` and `register` select a block's registers: not both")
        } else {
            None
        };
        match problem {
            Some(message) => {
                self.errors
                    .push(Diagnostic::error(PATCH_SYNTAX, pos, message.to_string()));
                false
            }
            None => true,
        }
    }

    fn sets(&mut self, raw: &S<RawSet>, level: Level) -> Option<Vec<Set>> {
        let s = raw.get_ref();
        let mut given: Vec<(Option<Attr>, Pos)> = Vec::new();
        if let Some(v) = &s.doc {
            given.push((Some(Attr::Doc(v.get_ref().clone())), self.pos(v)));
        }
        if let Some(v) = &s.source {
            given.push((Some(Attr::Source(v.get_ref().clone())), self.pos(v)));
        }
        let mut ok = true;
        if let Some(v) = &s.access {
            let attr = if matches!(level, Level::Register | Level::SysReg) {
                self.reg_access(Some(v), &s.state, v).map(Attr::RegAccess)
            } else {
                self.field_access(v).map(Attr::FieldAccess)
            };
            given.push((attr, self.pos(v)));
        } else if let Some(state) = &s.state {
            self.error(
                state,
                "`state` goes with `access = \"set\"` or `\"clear\"`".into(),
            );
            ok = false;
        }
        if let Some(v) = &s.reset {
            let attr = self.unsigned(v, "`reset`", u64::MAX).map(Attr::Reset);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.reset_mask {
            let attr = self
                .unsigned(v, "`reset_mask`", u64::MAX)
                .map(Attr::ResetMask);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.bits {
            let attr = self.bits(v, 64).map(|(m, l)| Attr::Bits(m, l));
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.offset {
            let attr = self
                .unsigned(v, "`offset`", u64::from(u32::MAX))
                .map(Attr::Offset);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.size {
            let attr = self
                .unsigned(v, "`size`", u64::from(u32::MAX) + 1)
                .map(Attr::Size);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.access_width {
            let attr = self.width(v, "access_width").map(Attr::AccessWidth);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.width {
            let attr = self.width(v, "width").map(Attr::Width);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.base {
            let attr = self.unsigned(v, "`base`", u64::MAX).map(Attr::Base);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.value {
            let attr = self.unsigned(v, "`value`", u64::MAX).map(Attr::Value);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.usage {
            let attr = self.usage(v).map(Attr::Usage);
            given.push((attr, self.pos(v)));
        }
        if let Some(v) = &s.read_action {
            let attr = self.read_action_of(v).map(Attr::ReadAction);
            given.push((attr, self.pos(v)));
        }
        let mut out = Vec::new();
        for (attr, pos) in given {
            match attr {
                Some(attr) => out.push(Set { attr, pos }),
                None => ok = false,
            }
        }
        for set in &out {
            if !set.attr.levels().contains(&level) {
                let applies: Vec<&str> = set.attr.levels().iter().map(|l| l.as_str()).collect();
                self.errors.push(Diagnostic::error(
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
        if out.is_empty() && ok {
            self.error(raw, "`set` names no attribute".into());
            ok = false;
        }
        ok.then_some(out)
    }

    fn width(&mut self, v: &S<i64>, what: &str) -> Option<u32> {
        let value = *v.get_ref();
        if [8, 16, 32, 64].contains(&value) {
            Some(value as u32)
        } else {
            self.error(v, format!("`{what}` must be 8, 16, 32 or 64, got {value}"));
            None
        }
    }

    fn usage(&mut self, raw: &S<String>) -> Option<EnumUsage> {
        match raw.get_ref().as_str() {
            "read-write" => Some(EnumUsage::ReadWrite),
            "read" => Some(EnumUsage::Read),
            "write" => Some(EnumUsage::Write),
            other => {
                self.error(
                    raw,
                    format!("unknown usage `{other}`; expected read, write or read-write"),
                );
                None
            }
        }
    }

    fn read_action_of(&mut self, raw: &S<String>) -> Option<ReadAction> {
        match raw.get_ref().as_str() {
            "clear" => Some(ReadAction::Clear),
            "set" => Some(ReadAction::Set),
            "modify" => Some(ReadAction::Modify),
            "modify-external" => Some(ReadAction::ModifyExternal),
            other => {
                self.error(
                    raw,
                    format!("unknown read action `{other}`; expected clear, set, modify or modify-external"),
                );
                None
            }
        }
    }

    fn new_element(&mut self, r: &RawOp, level: Level, pos: &Pos) -> Option<New> {
        let given = [
            r.new_block.is_some(),
            r.new_instance.is_some(),
            r.new_register.is_some(),
            r.new_field.is_some(),
            r.new_value.is_some(),
            r.new_interrupt.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.errors.push(Diagnostic::error(
                PATCH_SYNTAX,
                pos,
                "[[add]] adds one element: exactly one of `new_block`, `new_instance`, `new_register`, `new_field`, `new_value`, `new_interrupt`",
            ));
            return None;
        }
        let new = if let Some(b) = &r.new_block {
            New::Block(self.new_block(b)?)
        } else if let Some(i) = &r.new_instance {
            let raw = i.get_ref();
            New::Instance(NewInstance {
                name: raw.name.get_ref().clone(),
                block: raw.block.get_ref().clone(),
                block_pos: self.pos(&raw.block),
                base: self.unsigned(&raw.base, "`base`", u64::MAX)?,
                doc: raw.doc.clone(),
                pos: self.pos(&raw.name),
            })
        } else if let Some(reg) = &r.new_register {
            New::Register(self.new_register(reg)?)
        } else if let Some(f) = &r.new_field {
            New::Field(self.new_field(f)?)
        } else if let Some(v) = &r.new_value {
            New::Value(self.new_value(v)?)
        } else if let Some(i) = &r.new_interrupt {
            let raw = i.get_ref();
            New::Interrupt(NewInterrupt {
                name: raw.name.get_ref().clone(),
                value: self.unsigned(&raw.value, "an interrupt number", u64::from(u32::MAX))?
                    as u32,
                doc: raw.doc.clone(),
                pos: self.pos(&raw.name),
            })
        } else {
            return None;
        };
        if !new.parent().contains(&level) {
            let parents: Vec<&str> = new.parent().iter().map(|l| l.as_str()).collect();
            self.errors.push(Diagnostic::error(
                PATCH_SYNTAX,
                pos,
                format!(
                    "a new {} is added to {}, but the selector names {}",
                    new.what(),
                    parents.join(" or "),
                    level.as_str()
                ),
            ));
            return None;
        }
        Some(new)
    }

    fn new_block(&mut self, raw: &S<RawNewBlock>) -> Option<NewBlock> {
        let b = raw.get_ref();
        let mut registers = Vec::new();
        for r in &b.registers {
            registers.push(self.new_register(r)?);
        }
        Some(NewBlock {
            name: b.name.get_ref().clone(),
            size: self.unsigned(&b.size, "a block's size", u64::from(u32::MAX) + 1)?,
            access_width: match &b.access_width {
                Some(w) => self.width(w, "access_width")?,
                None => 32,
            },
            doc: b.doc.clone(),
            base: match &b.base {
                Some(base) => Some(self.unsigned(base, "`base`", u64::MAX)?),
                None => None,
            },
            registers,
            pos: self.pos(&b.name),
        })
    }

    fn new_register(&mut self, raw: &S<RawNewRegister>) -> Option<NewRegister> {
        let r = raw.get_ref();
        let access = match &r.access {
            Some(a) => self.reg_access(Some(a), &r.state, a)?,
            None => RegAccess::Rw,
        };
        let array = match (&r.count, &r.stride) {
            (Some(c), Some(s)) => Some((
                self.unsigned(c, "count", u64::from(u32::MAX))? as u32,
                self.unsigned(s, "stride", u64::from(u32::MAX))?,
            )),
            (None, None) => None,
            (Some(c), None) => {
                self.error(c, "an array needs `stride` too".into());
                return None;
            }
            (None, Some(s)) => {
                self.error(s, "`stride` needs `count`".into());
                return None;
            }
        };
        let mut fields = Vec::new();
        for f in &r.fields {
            fields.push(self.new_field(f)?);
        }
        Some(NewRegister {
            name: r.name.get_ref().clone(),
            offset: self.unsigned(&r.offset, "offset", u64::from(u32::MAX))?,
            width: match &r.width {
                Some(w) => self.width(w, "width")?,
                None => 32,
            },
            access,
            doc: r.doc.clone(),
            reset: match &r.reset {
                Some(v) => Some(self.unsigned(v, "`reset`", u64::MAX)?),
                None => None,
            },
            array,
            fields,
            pos: self.pos(&r.name),
        })
    }

    fn new_field(&mut self, raw: &S<RawNewField>) -> Option<NewField> {
        let f = raw.get_ref();
        let (msb, lsb) = self.bits(&f.bits, 64)?;
        let mut values = Vec::new();
        for v in &f.values {
            values.push(self.new_value(v)?);
        }
        Some(NewField {
            name: f.name.get_ref().clone(),
            msb,
            lsb,
            access: match &f.access {
                Some(a) => self.field_access(a)?,
                None => FieldAccess::Rw,
            },
            doc: f.doc.clone(),
            reset: match &f.reset {
                Some(v) => Some(self.unsigned(v, "`reset`", u64::MAX)?),
                None => None,
            },
            values,
            pos: self.pos(&f.name),
        })
    }

    fn new_value(&mut self, raw: &S<RawNewValue>) -> Option<NewValue> {
        let v = raw.get_ref();
        Some(NewValue {
            name: v.name.get_ref().clone(),
            value: self.unsigned(&v.value, "`value`", u64::MAX)?,
            usage: match &v.usage {
                Some(u) => self.usage(u)?,
                None => EnumUsage::ReadWrite,
            },
            doc: v.doc.clone(),
            pos: self.pos(&v.name),
        })
    }
}
