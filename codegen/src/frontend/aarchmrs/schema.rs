//! The parts of AARCHMRS `Registers.json` (schema 2.5.3) the generator reads, as serde types.
//!
//! Field kinds share one struct (`_type` tells them apart): the schema's kinds differ only in which
//! members they carry, and one struct keeps the reading fast on a 75 MB file. Members the
//! generator does not use (the access permission trees, resets, which are empty in this release)
//! are not declared and so are skipped without being stored.
use serde::Deserialize;
use serde_json::Value;

/// A top-level entry: `Register`, `RegisterArray` or `RegisterBlock`.
#[derive(Debug, Deserialize)]
#[allow(
    dead_code,
    reason = "the memory-mapped views' members are read by the block lowering to come"
)]
pub struct Entry {
    /// The release's licence and version (`license`, `version`).
    #[serde(default, rename = "_meta")]
    pub meta: Option<Value>,
    #[serde(rename = "_type")]
    pub kind: String,
    pub name: String,
    #[serde(default)]
    pub state: Option<String>,
    #[serde(default)]
    pub condition: Option<Ast>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub accessors: Vec<Accessor>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub fieldsets: Vec<Fieldset>,
    #[serde(default)]
    pub index_variable: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub indexes: Vec<Range>,
    /// A `RegisterBlock`'s registers.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub blocks: Vec<Entry>,
    /// A `RegisterBlock`'s size in bytes.
    #[serde(default)]
    pub size: Option<Value>,
}

/// A bit range: `start` is the lowest bit.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub struct Range {
    pub start: u32,
    pub width: u32,
}

/// A way to reach a register: an instruction (`A64.MRS`), or a memory-mapped offset.
#[derive(Debug, Deserialize)]
#[allow(
    dead_code,
    reason = "the memory-mapped views' members are read by the block lowering to come"
)]
pub struct Accessor {
    #[serde(rename = "_type")]
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub condition: Option<Ast>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub encoding: Vec<Encoding>,
    #[serde(default)]
    pub index_variable: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub indexes: Vec<Range>,
    /// A memory-mapped accessor's offset (an expression, or a list of them).
    #[serde(default)]
    pub offset: Option<Value>,
    /// The frame or component a memory-mapped accessor's offset is in.
    #[serde(default)]
    pub component: Option<String>,
    #[serde(default)]
    pub frame: Option<String>,
    #[serde(default)]
    pub instance: Option<String>,
    /// A memory-mapped accessor's bits of its register, where it reaches only some.
    #[serde(default)]
    pub range: Option<Range>,
    /// A block accessor's register, whole (`PMCR_EL0`) or sliced (`PMCCNTR_EL0[31:0]`).
    #[serde(default)]
    pub references: Option<Ast>,
    /// A block accessor's permission tree: which reads and writes it answers, under which
    /// conditions.
    #[serde(default)]
    pub access: Option<Value>,
}

/// One instruction encoding: the assembler name and its operand fields.
#[derive(Debug, Deserialize)]
pub struct Encoding {
    #[serde(default)]
    pub asmvalue: Option<String>,
    pub encodings: std::collections::BTreeMap<String, EncodingValue>,
}

/// An operand field's value: a bit string (`'1110'`), a concatenation (`'10':m[4:3]`), or a
/// slice of the index (`m` with `slice`).
#[derive(Debug, Deserialize)]
pub struct EncodingValue {
    #[serde(rename = "_type")]
    pub kind: String,
    pub value: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub slice: Vec<Range>,
}

/// A layout of the register, under a condition.
#[derive(Debug, Deserialize)]
pub struct Fieldset {
    pub width: u32,
    #[serde(default)]
    pub condition: Option<Ast>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub values: Vec<FieldEntry>,
}

/// A field of any kind (`Fields.Field`, `Fields.Reserved`, `Fields.ConstantField`,
/// `Fields.ConditionalField`, `Fields.Array`, `Fields.Vector`, `Fields.Dynamic`,
/// `Fields.ImplementationDefined`).
#[derive(Debug, Deserialize)]
pub struct FieldEntry {
    #[serde(rename = "_type")]
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub rangeset: Vec<Range>,
    /// `Reserved`: `RES0`, `RES1`, ...; `ConstantField`: the constant.
    #[serde(default)]
    pub value: Option<Value>,
    /// The values a field may hold.
    #[serde(default)]
    pub values: Option<Valueset>,
    /// `ConditionalField`: the fields the bits are, each under its condition.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub fields: Vec<ConditionalInner>,
    /// `ConditionalField`: what the bits are when no condition holds.
    #[serde(default)]
    pub reservedtype: Option<String>,
    /// `Array` and `Vector`: the index and its range.
    #[serde(default)]
    pub index_variable: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub indexes: Vec<Range>,
    /// `Dynamic`: the layouts of the bits, each under its condition.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub instances: Vec<Fieldset>,
}

/// One alternative of a `ConditionalField`; its bits are relative to the conditional field's.
#[derive(Debug, Deserialize)]
pub struct ConditionalInner {
    #[serde(default)]
    pub condition: Option<Ast>,
    pub field: FieldEntry,
}

/// A set of values (`Valuesets.Values`): bit strings, possibly with `x` for any bit.
#[derive(Debug, Deserialize)]
pub struct Valueset {
    #[serde(default, deserialize_with = "null_as_empty")]
    pub values: Vec<Value>,
}

/// A node of the specification's expression language (`AST.Function`, `AST.BinaryOp`, ...).
#[derive(Debug, Deserialize)]
pub struct Ast {
    #[serde(rename = "_type")]
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub arguments: Vec<Ast>,
    #[serde(default)]
    pub op: Option<String>,
    #[serde(default)]
    pub left: Option<Box<Ast>>,
    #[serde(default)]
    pub right: Option<Box<Ast>>,
    #[serde(default)]
    pub expr: Option<Box<Ast>>,
    /// `AST.SquareOp`: what is sliced (`PMCCNTR_EL0` in `PMCCNTR_EL0[31:0]`).
    #[serde(default)]
    pub var: Option<Box<Ast>>,
    /// A literal (`AST.Bool`, `AST.Integer`, `AST.Identifier`, `Values.Value`) or a field
    /// reference (`Types.Field`).
    #[serde(default)]
    pub value: Option<Value>,
    /// `AST.DotAtom`, `AST.Set`: the parts.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub values: Vec<Ast>,
}

/// `null` and an absent member both read as empty.
fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}
