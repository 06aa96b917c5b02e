//! From svd-rs's device (values) and the XML document (positions) to the IR.
//!
//! [`locate`] pairs every svd-rs object with its XML element, so that every IR element takes the
//! position of its `<name>` (or, for a reference, of the attribute or element that names the
//! target); [`derive`] resolves `derivedFrom`; this module builds the IR.
//!
//! How SVD maps onto the IR:
//! - a peripheral's register map becomes a `Block` (named after `headerStructName`, else the
//!   peripheral), an `Instance` places it at `baseAddress` with its interrupts; peripherals
//!   derived without registers of their own share the block; `alternatePeripheral` and
//!   `alternateRegister` become `alias_of`, and a register of an `alternateGroup` is named
//!   `<name>_<group>` and aliases the register outside the group at its offset;
//! - clusters are flattened: a register `R` of cluster `C` becomes the block register `C_R` at the
//!   cluster's offset plus its own. A cluster array indexed 0..n-1 whose registers are not arrays
//!   themselves becomes register arrays `C<n>_R` (stride = the cluster's `dimIncrement`); any
//!   other cluster array is expanded element by element (`C0_R`, `C1_R`, ...);
//! - a register array indexed 0..n-1 (`%s` or `[%s]`, no `dimIndex` or one that lists 0..n-1)
//!   becomes an IR array `R<n>`; one with other indexes (`A,B,C`, `1-4`) is expanded into
//!   individually named registers; field arrays are always expanded;
//! - every register gets a layout named `<block>_<register>` (without the index); expanded
//!   elements and registers derived without fields of their own share one;
//! - the width is the register's `size` (inherited from cluster, peripheral, device; 32 when none
//!   gives one); a register whose offset is not a multiple of its size is read at the width its
//!   offset allows, with a warning; a block's bus access is the width most registers have, or the
//!   narrowest register's when that is narrower (a block is not accessed wider than its registers);
//! - `modifiedWriteValues` gives the write semantics of fields that can be read and written
//!   (read-only and write-only fields keep those accesses, as the IR's write-1/write-0 kinds are
//!   readable);
//! - descriptions have their white space collapsed, and each `\n` starts a paragraph.
use std::collections::{BTreeMap, BTreeSet};

use svd_rs as svd;
use svd_rs::{
    Access, DimElement, EnumeratedValue, MaybeArray, ModifiedWriteValues, RegisterProperties, Usage,
};

mod derive;
mod locate;

use super::check::{MAX_BIT, RULE_ARRAYS, RULE_NUMBERS};
use super::xml::Doc;
use crate::diagnostic::{Diagnostic, LineIndex, Severity};
use crate::ir::{
    self, Block, BlockArray, BlockRegister, Device, EnumUsage, EnumValue, Field, FieldAccess,
    Instance, Interrupt, Layout, NameRef, Pos, RegAccess, WriteConstraint,
};
use crate::names::{ident, Case};

pub const RULE_DERIVED: &str = "derived_from_resolves";
pub const RULE_SIZES: &str = "register_sizes_supported";
pub const RULE_ENUM_VALUES: &str = "enum_values_have_values";
pub const RULE_ALTERNATES: &str = "alternates_resolve";
pub const RULE_ALIGNED: &str = "registers_aligned";

/// The most registers one block may expand to (cluster arrays multiply).
const MAX_REGISTERS: usize = 1 << 16;
/// The longest `derivedFrom` chain followed.
const MAX_CHAIN: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Item {
    Reg(usize),
    Cluster(usize),
}

#[derive(Clone, Copy, Debug)]
enum Parent {
    Periph(usize),
    Cluster(usize),
}

struct PeriphL<'a> {
    info: &'a svd::PeripheralInfo,
    dim: Option<&'a DimElement>,
    node: usize,
    items: Option<Vec<Item>>,
    irqs: Vec<(&'a svd::Interrupt, usize)>,
}

struct RegL<'a> {
    info: &'a svd::RegisterInfo,
    dim: Option<&'a DimElement>,
    node: usize,
    fields: Option<Vec<usize>>,
    parent: Parent,
}

struct ClusterL<'a> {
    info: &'a svd::ClusterInfo,
    dim: Option<&'a DimElement>,
    node: usize,
    items: Vec<Item>,
    parent: Parent,
}

struct FieldL<'a> {
    info: &'a svd::FieldInfo,
    dim: Option<&'a DimElement>,
    node: usize,
    evs: Vec<usize>,
    reg: usize,
}

struct EnumsL<'a> {
    info: &'a svd::EnumeratedValues,
    node: usize,
    values: Vec<(&'a EnumeratedValue, usize)>,
    field: usize,
}

/// Register properties with the `<size>` element that gave the size, for its errors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Props {
    size: Option<(u32, usize)>,
    access: Option<u8>,
    reset: Option<u64>,
    mask: Option<u64>,
}

impl Props {
    fn derive(self, base: Props) -> Props {
        Props {
            size: self.size.or(base.size),
            access: self.access.or(base.access),
            reset: self.reset.or(base.reset),
            mask: self.mask.or(base.mask),
        }
    }
}

const ACCESSES: [Access; 5] = [
    Access::ReadOnly,
    Access::WriteOnly,
    Access::ReadWrite,
    Access::WriteOnce,
    Access::ReadWriteOnce,
];

fn access_code(a: Access) -> u8 {
    ACCESSES.iter().position(|x| *x == a).unwrap_or(2) as u8
}

fn access_of(code: u8) -> Access {
    ACCESSES
        .get(usize::from(code))
        .copied()
        .unwrap_or(Access::ReadWrite)
}

/// A peripheral with `derivedFrom` applied.
#[derive(Clone)]
struct EffPeriph {
    /// The peripheral whose `<registers>` are used.
    items_from: Option<usize>,
    /// The peripheral whose interrupts are used.
    irqs_from: usize,
    /// The peripheral whose address blocks are used.
    blocks_from: usize,
    props: Props,
    description: Option<String>,
    header_struct: Option<String>,
}

#[derive(Clone)]
struct EffReg<'a> {
    dim: Option<&'a DimElement>,
    description: Option<&'a str>,
    props: Props,
    /// The register whose `<fields>` are used.
    fields_from: usize,
    write_constraint: Option<svd::WriteConstraint>,
    read_action: Option<svd::ReadAction>,
    mwv: Option<ModifiedWriteValues>,
}

#[derive(Clone)]
struct EffCluster<'a> {
    dim: Option<&'a DimElement>,
    props: Props,
    items_from: usize,
}

#[derive(Clone)]
struct EffField<'a> {
    dim: Option<&'a DimElement>,
    description: Option<&'a str>,
    access: Option<Access>,
    mwv: Option<ModifiedWriteValues>,
    write_constraint: Option<svd::WriteConstraint>,
    read_action: Option<svd::ReadAction>,
    evs_from: usize,
}

#[derive(Clone, Copy)]
struct EffEnums {
    usage: Option<Usage>,
    values_from: usize,
}

enum Target {
    Periph(usize),
    Item(Item),
    Field(usize),
    Enums(usize),
}

/// What layouts are keyed on: two registers with the same key share one.
type LayoutKey = (usize, u32, Props, Option<u8>, Option<String>);

/// Where registers are being placed while clusters are flattened.
#[derive(Clone)]
struct Scope {
    /// The names of the enclosing clusters, joined by `_`, as the registers' names start.
    prefix: String,
    /// The same without array indexes, as layout names start.
    plain: String,
    offset: u64,
    props: Props,
    array: Option<BlockArray>,
}

pub struct Lowered {
    pub device: Device,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

pub fn lower(doc: &Doc<'_>, lines: &LineIndex<'_>, dev: &svd::Device) -> Lowered {
    let mut l = Lower {
        doc,
        lines,
        dev,
        periphs: Vec::new(),
        regs: Vec::new(),
        clusters: Vec::new(),
        fields: Vec::new(),
        enums: Vec::new(),
        eff_periphs: Vec::new(),
        eff_regs: BTreeMap::new(),
        eff_clusters: BTreeMap::new(),
        eff_fields: BTreeMap::new(),
        eff_enums: BTreeMap::new(),
        stack: Vec::new(),
        reported: BTreeSet::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        layouts: Vec::new(),
        layout_memo: BTreeMap::new(),
        layout_widths: BTreeMap::new(),
        layout_idents: BTreeSet::new(),
        block_idents: BTreeSet::new(),
    };
    l.locate();
    let device = l.device();
    Lowered {
        device,
        errors: l.errors,
        warnings: l.warnings,
    }
}

struct Lower<'d, 'a> {
    doc: &'d Doc<'d>,
    lines: &'d LineIndex<'d>,
    dev: &'a svd::Device,
    periphs: Vec<PeriphL<'a>>,
    regs: Vec<RegL<'a>>,
    clusters: Vec<ClusterL<'a>>,
    fields: Vec<FieldL<'a>>,
    enums: Vec<EnumsL<'a>>,
    eff_periphs: Vec<Option<EffPeriph>>,
    eff_regs: BTreeMap<usize, EffReg<'a>>,
    eff_clusters: BTreeMap<usize, EffCluster<'a>>,
    eff_fields: BTreeMap<usize, EffField<'a>>,
    eff_enums: BTreeMap<usize, EffEnums>,
    /// Elements whose `derivedFrom` is being resolved (XML element ids), to find cycles.
    stack: Vec<usize>,
    /// XML elements already reported, so that one defect is reported once.
    reported: BTreeSet<(usize, &'static str)>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    layouts: Vec<Layout>,
    layout_memo: BTreeMap<LayoutKey, String>,
    /// The width of each layout made so far.
    layout_widths: BTreeMap<String, u32>,
    layout_idents: BTreeSet<String>,
    block_idents: BTreeSet<String>,
}

fn split<T>(m: &MaybeArray<T>) -> (&T, Option<&DimElement>) {
    match m {
        MaybeArray::Single(i) => (i, None),
        MaybeArray::Array(i, d) => (i, Some(d)),
    }
}

/// Description text: white space collapsed; a literal `\n` (how SVD files mark line breaks)
/// starts a new paragraph, so that no line is read as Markdown continuing a list.
fn doc_text(text: Option<&str>) -> Option<String> {
    let paragraphs: Vec<String> = text?
        .split("\\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect();
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

/// The indexes of an array, as svd-rs gives them (`dimIndex` was checked against `dim`).
fn indexes(d: &DimElement) -> Vec<String> {
    match &d.dim_index {
        Some(v) => v.clone(),
        None => (0..d.dim).map(|i| i.to_string()).collect(),
    }
}

fn zero_based(d: &DimElement) -> bool {
    indexes(d)
        .iter()
        .enumerate()
        .all(|(i, s)| *s == i.to_string())
}

/// `name` with its `%s` (or `[%s]`) replaced by `index`.
fn substitute(name: &str, index: &str) -> String {
    name.replace("[%s]", index).replace("%s", index)
}

/// The IR name of an array: `%s` (or `[%s]`) becomes `<n>`. An `_` beside a `%s` at either end
/// of the name, or between two `_`, goes with it (`REG_%s` → `REG<n>`, `A_%s_B` → `A<n>_B`), so
/// that the identifier, which drops `<n>`, has no `__` or trailing `_`.
fn array_name(name: &str) -> String {
    let name = name.replace("[%s]", "%s");
    let Some(k) = name.find("%s") else {
        return name;
    };
    let (mut before, mut after) = (&name[..k], &name[k + 2..]);
    if before.ends_with('_') && (after.is_empty() || after.starts_with('_')) {
        before = &before[..before.len() - 1];
    }
    if before.is_empty() && after.starts_with('_') {
        after = &after[1..];
    }
    format!("{before}<n>{after}")
}

/// `prefix_name`, with one `_` at the joint (none when there is no prefix).
fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!(
            "{}_{}",
            prefix.trim_end_matches('_'),
            name.trim_start_matches('_')
        )
    }
}

/// A layout name from a register name: index placeholders dropped.
fn plain_name(name: &str) -> String {
    let mut out = name
        .replace("[%s]", "")
        .replace("%s", "")
        .replace("<n>", "");
    while out.contains("__") {
        out = out.replace("__", "_");
    }
    out.trim_matches('_').to_string()
}

impl<'a> Lower<'_, 'a> {
    // ----- positions -----

    fn pos(&self, span: (usize, usize)) -> Pos {
        self.lines.pos(span.0, span.1)
    }

    /// The position of an element's `<name>` text, or of its tag.
    fn name_pos(&self, node: usize) -> Pos {
        match self.doc.child(node, "name") {
            Some(n) => self.pos(self.doc.text_span(n)),
            None => self.pos(self.doc.elements[node].name),
        }
    }

    /// The position of a child element's text, or of `node`'s name.
    fn child_pos(&self, node: usize, child: &str) -> Pos {
        match self.doc.child(node, child) {
            Some(c) => self.pos(self.doc.text_span(c)),
            None => self.name_pos(node),
        }
    }

    fn derived_pos(&self, node: usize) -> Pos {
        match self.doc.attr(node, "derivedFrom") {
            Some(a) => self.pos(a.value_span),
            None => self.name_pos(node),
        }
    }

    fn error_once(&mut self, node: usize, rule: &'static str, pos: Pos, message: String) {
        if self.reported.insert((node, rule)) {
            self.errors.push(Diagnostic::error(rule, &pos, message));
        }
    }

    fn warn_once(&mut self, node: usize, rule: &'static str, pos: Pos, message: String) {
        if self.reported.insert((node, rule)) {
            self.warnings.push(Diagnostic {
                severity: Severity::Warning,
                rule,
                message,
                pos,
                notes: Vec::new(),
            });
        }
    }

    fn props(&self, rp: &RegisterProperties, node: usize) -> Props {
        Props {
            size: rp
                .size
                .map(|s| (s, self.doc.child(node, "size").unwrap_or(node))),
            access: rp.access.map(access_code),
            reset: rp.reset_value,
            mask: rp.reset_mask,
        }
    }

    fn device(&mut self) -> Device {
        let dev = self.dev;
        let dev_props = self.props(&dev.default_register_properties, 0);
        let mut device = Device {
            name: dev.name.clone(),
            doc: doc_text(Some(&dev.description)),
            source: Some(
                [
                    "CMSIS-SVD",
                    dev.vendor.as_deref().unwrap_or(""),
                    &dev.name,
                    &dev.version,
                ]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            ),
            license: dev.license_text.as_deref().and_then(spdx_identifier),
            notice: dev.license_text.as_deref().map(|text| {
                format!(
                    "The register descriptions come from the CMSIS-SVD file of the {}, whose licence statement reads:\n\n{}",
                    dev.name,
                    license_text(text)
                )
            }),
            pos: self.name_pos(0),
            layouts: Vec::new(),
            sysregs: Vec::new(),
            blocks: Vec::new(),
            instances: Vec::new(),
            events: Vec::new(),
            event_pmu: None,
            event_type: None,
            cores: Vec::new(),
            amendments: Vec::new(),
        };
        // (the peripheral whose registers are used, props) -> block name
        let mut blocks: BTreeMap<(usize, Props), String> = BTreeMap::new();
        for k in 0..self.periphs.len() {
            let eff = self.eff_periph(k);
            let props = eff.props.derive(dev_props);
            let key = (eff.items_from.unwrap_or(k), props);
            let block = match blocks.get(&key) {
                Some(b) => b.clone(),
                None => {
                    let b = self.block(k, &eff, props);
                    let name = b.name.clone();
                    device.blocks.push(b);
                    blocks.insert(key, name.clone());
                    name
                }
            };
            self.instances(k, &eff, &block, &mut device.instances);
        }
        device.layouts = std::mem::take(&mut self.layouts);
        device.canonicalize();
        device
    }

    fn instances(&mut self, k: usize, eff: &EffPeriph, block: &str, out: &mut Vec<Instance>) {
        let p = &self.periphs[k];
        let (info, node, dim) = (p.info, p.node, p.dim);
        let irqs: Vec<Interrupt> = self.periphs[eff.irqs_from]
            .irqs
            .iter()
            .map(|(irq, n)| Interrupt {
                name: irq.name.clone(),
                value: irq.value,
                doc: doc_text(irq.description.as_deref()),
                pos: self.name_pos(*n),
            })
            .collect();
        let alias_of = info.alternate_peripheral.as_ref().and_then(|a| {
            let pos = self.child_pos(node, "alternatePeripheral");
            if self.periph_by_name(a).is_some() {
                Some(NameRef {
                    name: a.clone(),
                    pos,
                })
            } else {
                self.warn_once(
                    node,
                    RULE_ALTERNATES,
                    pos,
                    format!(
                        "alternatePeripheral `{a}` names no peripheral of this device; ignored it"
                    ),
                );
                None
            }
        });
        let pos = self.name_pos(node);
        let elements: Vec<(String, u64)> = match dim {
            None => vec![(info.name.clone(), info.base_address)],
            Some(d) => indexes(d)
                .iter()
                .enumerate()
                .map(|(i, idx)| {
                    (
                        substitute(&info.name, idx),
                        info.base_address
                            .saturating_add(i as u64 * u64::from(d.dim_increment)),
                    )
                })
                .collect(),
        };
        for (name, base) in elements {
            out.push(Instance {
                name,
                block: NameRef {
                    name: block.to_string(),
                    pos: pos.clone(),
                },
                base,
                alias_of: alias_of.clone(),
                interrupts: irqs.clone(),
                doc: doc_text(eff.description.as_deref()),
                source: None,
                pos: pos.clone(),
            });
        }
    }

    fn unique(set: &mut BTreeSet<String>, base: &str, case: Case) -> String {
        let mut name = base.to_string();
        let mut k = 2;
        while let Ok(id) = ident(&name, case) {
            if set.insert(id) {
                break;
            }
            name = format!("{base}_{k}");
            k += 1;
        }
        name
    }

    fn block(&mut self, k: usize, eff: &EffPeriph, props: Props) -> Block {
        let p = &self.periphs[k];
        let owner = eff.items_from.unwrap_or(k);
        let base_name = eff
            .header_struct
            .clone()
            .unwrap_or_else(|| plain_name(&self.periphs[owner].info.name));
        let base_name = if base_name.is_empty() {
            p.info.name.clone()
        } else {
            base_name
        };
        let name = Self::unique(&mut self.block_idents, &base_name, Case::Camel);
        let pos = self.name_pos(self.periphs[owner].node);
        let doc = doc_text(eff.description.as_deref());
        let items = match eff.items_from {
            Some(f) => self.periphs[f].items.clone().unwrap_or_default(),
            None => Vec::new(),
        };
        let mut registers = Vec::new();
        let scope = Scope {
            prefix: String::new(),
            plain: String::new(),
            offset: 0,
            props,
            array: None,
        };
        self.lower_items(&items, &scope, &name, &mut registers);
        let extent = registers
            .iter()
            .map(|r: &BlockRegister| {
                let bytes = self
                    .layout_widths
                    .get(&r.layout.name)
                    .map_or(4, |w| u64::from(w / 8));
                let last = r.array.map_or(0, |a| {
                    a.stride
                        .saturating_mul(u64::from(a.count.saturating_sub(1)))
                });
                r.offset.saturating_add(last).saturating_add(bytes)
            })
            .max()
            .unwrap_or(0);
        let declared = self.periphs[eff.blocks_from]
            .info
            .address_block
            .iter()
            .flatten()
            .map(|b| u64::from(b.offset) + u64::from(b.size))
            .max()
            .unwrap_or(0);
        let access_width = self.access_width(&registers);
        Block {
            name,
            size: extent.max(declared),
            access_width,
            doc,
            source: None,
            pos,
            registers,
            lock: None,
        }
    }

    /// The register width most registers have (the narrowest of the most common, on a tie), or
    /// the narrowest register's when that is narrower: a block is accessed no wider than its
    /// narrowest register. 32 for a block without registers.
    fn access_width(&self, registers: &[BlockRegister]) -> u32 {
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for r in registers {
            if let Some(&w) = self.layout_widths.get(&r.layout.name) {
                *counts.entry(w).or_default() += 1;
            }
        }
        let Some(&narrowest) = counts.keys().next() else {
            return 32;
        };
        let most = counts
            .iter()
            .max_by_key(|(w, n)| (**n, std::cmp::Reverse(**w)))
            .map_or(32, |(w, _)| *w);
        most.min(narrowest)
    }

    /// Whether any register or cluster under `items` is an array.
    fn any_dims(&mut self, items: &[Item]) -> bool {
        items.iter().any(|&i| match i {
            Item::Reg(r) => self.eff_reg(r).dim.is_some(),
            Item::Cluster(c) => {
                let ec = self.eff_cluster(c);
                let inner = self.clusters[ec.items_from].items.clone();
                ec.dim.is_some() || self.any_dims(&inner)
            }
        })
    }

    fn lower_items(
        &mut self,
        items: &[Item],
        scope: &Scope,
        block: &str,
        out: &mut Vec<BlockRegister>,
    ) {
        // (index in `out`, alternate group) of the registers of this scope
        let mut grouped: Vec<(usize, Option<&'a str>)> = Vec::new();
        for &item in items {
            if out.len() > MAX_REGISTERS {
                return;
            }
            match item {
                Item::Reg(r) => {
                    let first = out.len();
                    self.lower_register(r, scope, block, out);
                    let group = self.regs[r].info.alternate_group.as_deref();
                    grouped.extend((first..out.len()).map(|i| (i, group)));
                }
                Item::Cluster(c) => self.lower_cluster(c, scope, block, out),
            }
        }
        // A register of an alternate group is the same storage as the register outside the
        // group at its offset.
        for &(i, group) in &grouped {
            if group.is_none() || out[i].alias_of.is_some() {
                continue;
            }
            let base = grouped
                .iter()
                .find(|&&(j, g)| g.is_none() && out[j].offset == out[i].offset)
                .map(|&(j, _)| out[j].name.clone());
            if let Some(name) = base {
                let pos = out[i].pos.clone();
                out[i].alias_of = Some(NameRef { name, pos });
            }
        }
        if out.len() > MAX_REGISTERS {
            if let Some(&item) = items.first() {
                let node = match item {
                    Item::Reg(r) => self.regs[r].node,
                    Item::Cluster(c) => self.clusters[c].node,
                };
                let pos = self.name_pos(node);
                self.error_once(
                    node,
                    RULE_ARRAYS,
                    pos,
                    format!("block `{block}` expands to more than {MAX_REGISTERS} registers"),
                );
            }
        }
    }

    fn lower_cluster(
        &mut self,
        c: usize,
        scope: &Scope,
        block: &str,
        out: &mut Vec<BlockRegister>,
    ) {
        let ec = self.eff_cluster(c);
        let info = self.clusters[c].info;
        let props = ec.props.derive(scope.props);
        let offset = scope.offset.saturating_add(u64::from(info.address_offset));
        let items = self.clusters[ec.items_from].items.clone();
        let Some(d) = ec.dim else {
            let inner = Scope {
                prefix: join(&scope.prefix, &info.name),
                plain: join(&scope.plain, &info.name),
                offset,
                props,
                array: scope.array,
            };
            self.lower_items(&items, &inner, block, out);
            return;
        };
        if scope.array.is_none() && zero_based(d) && !self.any_dims(&items) {
            let inner = Scope {
                prefix: join(&scope.prefix, &array_name(&info.name)),
                plain: join(&scope.plain, &plain_name(&info.name)),
                offset,
                props,
                array: Some(BlockArray {
                    count: d.dim,
                    stride: u64::from(d.dim_increment),
                }),
            };
            self.lower_items(&items, &inner, block, out);
            return;
        }
        for (i, idx) in indexes(d).iter().enumerate() {
            let inner = Scope {
                prefix: join(&scope.prefix, &substitute(&info.name, idx)),
                plain: join(&scope.plain, &plain_name(&info.name)),
                offset: offset
                    .saturating_add((i as u64).saturating_mul(u64::from(d.dim_increment))),
                props,
                array: scope.array,
            };
            self.lower_items(&items, &inner, block, out);
            if out.len() > MAX_REGISTERS {
                return;
            }
        }
    }

    fn lower_register(
        &mut self,
        r: usize,
        scope: &Scope,
        block: &str,
        out: &mut Vec<BlockRegister>,
    ) {
        let er = self.eff_reg(r);
        let (info, node, parent) = (self.regs[r].info, self.regs[r].node, self.regs[r].parent);
        let props = er.props.derive(scope.props);
        let (size, size_node) = props.size.unwrap_or((32, node));
        if ![8, 16, 32, 64].contains(&size) {
            let pos = self.pos(self.doc.text_span(size_node));
            self.error_once(
                size_node,
                RULE_SIZES,
                pos,
                format!("register size {size} is not 8, 16, 32 or 64 bits"),
            );
            return;
        }
        let name = match &info.alternate_group {
            Some(g) => format!("{}_{g}", info.name),
            None => info.name.clone(),
        };
        let flat = join(&scope.prefix, &name);
        let offset = scope.offset.saturating_add(u64::from(info.address_offset));
        // A register is reached with accesses of its size (64-bit ones in 32-bit halves), so
        // its offset (and its arrays' strides) must be multiples of that.
        let steps = offset
            | er.dim.map_or(0, |d| u64::from(d.dim_increment))
            | scope.array.map_or(0, |a| a.stride);
        let align = 1u64 << steps.trailing_zeros().min(3);
        let size = if align < u64::from(size.min(32) / 8) {
            let narrowed = (align * 8) as u32;
            let pos = self.name_pos(node);
            self.warn_once(
                node,
                RULE_ALIGNED,
                pos,
                format!(
                    "register `{flat}` at offset {offset:#x}{} is not aligned to its {size}-bit size; read it as a {narrowed}-bit register",
                    if steps == offset { String::new() } else { " (with its array stride)".to_string() }
                ),
            );
            narrowed
        } else {
            size
        };
        let layout_name = join(block, &join(&scope.plain, &plain_name(&name)));
        let layout = self.layout(r, &er, props, size, &layout_name);
        let access = match props.access.map(access_of) {
            Some(Access::ReadOnly) => RegAccess::Ro,
            Some(Access::WriteOnly | Access::WriteOnce) => RegAccess::Wo,
            _ => RegAccess::Rw,
        };
        let alias_of = info.alternate_register.as_ref().and_then(|a| {
            let apos = self.child_pos(node, "alternateRegister");
            let target = self.siblings(parent).into_iter().find_map(|i| match i {
                Item::Reg(x) if self.regs[x].info.name == *a => Some(self.regs[x].info),
                _ => None,
            });
            if let Some(t) = target.filter(|_| !a.contains("%s")) {
                let name = match &t.alternate_group {
                    Some(g) => format!("{a}_{g}"),
                    None => a.clone(),
                };
                Some(NameRef {
                    name: join(&scope.prefix, &name),
                    pos: apos,
                })
            } else {
                self.warn_once(
                    node,
                    RULE_ALTERNATES,
                    apos,
                    format!(
                        "alternateRegister `{a}` names no single register beside `{}`; ignored it",
                        info.name
                    ),
                );
                None
            }
        });
        let pos = self.name_pos(node);
        let doc = doc_text(er.description);
        let make = |name: String, offset: u64, array: Option<BlockArray>| BlockRegister {
            name,
            layout: NameRef {
                name: layout.clone(),
                pos: pos.clone(),
            },
            offset,
            access: access.clone(),
            array,
            alias_of: alias_of.clone(),
            read_action: er.read_action.map(read_action),
            doc: doc.clone(),
            source: None,
            pos: pos.clone(),
        };
        match (er.dim, scope.array) {
            (None, array) => out.push(make(flat, offset, array)),
            (Some(d), None) if zero_based(d) => out.push(make(
                join(&scope.prefix, &array_name(&name)),
                offset,
                Some(BlockArray {
                    count: d.dim,
                    stride: u64::from(d.dim_increment),
                }),
            )),
            (Some(d), array) => {
                for (i, idx) in indexes(d).iter().enumerate() {
                    out.push(make(
                        join(&scope.prefix, &substitute(&name, idx)),
                        offset
                            .saturating_add((i as u64).saturating_mul(u64::from(d.dim_increment))),
                        array,
                    ));
                }
            }
        }
    }

    /// The layout of register `r` (shared with every register of the same key), by name.
    fn layout(&mut self, r: usize, er: &EffReg<'a>, props: Props, size: u32, name: &str) -> String {
        let key: LayoutKey = (
            er.fields_from,
            size,
            Props {
                size: None,
                ..props
            },
            er.mwv.map(|m| m as u8),
            er.description.map(str::to_string),
        );
        if let Some(n) = self.layout_memo.get(&key) {
            return n.clone();
        }
        let node = self.regs[r].node;
        let reg_access = props.access.map(access_of);
        let mut fields = Vec::new();
        for f in self.regs[er.fields_from].fields.clone().unwrap_or_default() {
            self.lower_field(f, er, reg_access, size, props, &mut fields);
        }
        let name = Self::unique(&mut self.layout_idents, &plain_name(name), Case::Camel);
        self.layout_widths.insert(name.clone(), size);
        self.layouts.push(Layout {
            name: name.clone(),
            width: size,
            doc: doc_text(er.description),
            source: None,
            reset: props.reset,
            reset_mask: props.mask,
            pos: self.name_pos(node),
            fields,
            derive: None,
        });
        self.layout_memo.insert(key, name.clone());
        name
    }

    fn lower_field(
        &mut self,
        f: usize,
        er: &EffReg<'a>,
        reg_access: Option<Access>,
        size: u32,
        props: Props,
        out: &mut Vec<Field>,
    ) {
        let ef = self.eff_field(f);
        let fl = &self.fields[f];
        let (info, node) = (fl.info, fl.node);
        let access = field_access(ef.access.or(reg_access), ef.mwv.or(er.mwv));
        let pos = self.name_pos(node);
        let (enums, enum_default) = self.enum_values(ef.evs_from);
        let width = info.bit_range.width;
        let write_constraint = match ef.write_constraint {
            Some(svd::WriteConstraint::WriteAsRead(true)) => Some(WriteConstraint::LastRead),
            Some(svd::WriteConstraint::UseEnumeratedValues(true)) => {
                Some(WriteConstraint::Enumerated)
            }
            Some(svd::WriteConstraint::Range(r)) => Some(WriteConstraint::Range {
                min: r.min,
                max: r.max,
            }),
            _ => None,
        };
        let elements: Vec<(String, u64)> = match ef.dim {
            None => vec![(info.name.clone(), u64::from(info.bit_range.offset))],
            Some(d) => indexes(d)
                .iter()
                .enumerate()
                .map(|(i, idx)| {
                    (
                        substitute(&info.name, idx),
                        u64::from(info.bit_range.offset) + i as u64 * u64::from(d.dim_increment),
                    )
                })
                .collect(),
        };
        for (name, lsb) in elements {
            if lsb > MAX_BIT {
                self.error_once(
                    node,
                    RULE_NUMBERS,
                    pos.clone(),
                    format!("field `{name}` starts at bit {lsb}, beyond any register (the limit is {MAX_BIT})"),
                );
                continue;
            }
            let lsb = lsb as u32;
            let reset = match (props.reset, props.mask) {
                (Some(v), mask) if lsb + width <= size => {
                    let m = ir::bit_range_mask(lsb, width);
                    (mask.unwrap_or(u64::MAX) & m == m).then_some((v & m) >> lsb)
                }
                _ => None,
            };
            out.push(Field {
                name,
                lsb,
                width,
                access,
                reset,
                doc: doc_text(ef.description),
                source: None,
                pos: pos.clone(),
                enums: enums.clone(),
                enum_default: enum_default.clone(),
                read_action: ef.read_action.map(read_action),
                write_constraint,
            });
        }
    }

    /// The enumerated values of field `f` (`derivedFrom` applied), and the name of the default.
    fn enum_values(&mut self, f: usize) -> (Vec<EnumValue>, Option<String>) {
        let mut values = Vec::new();
        let mut default = None;
        for e in self.fields[f].evs.clone() {
            let ee = self.eff_enums(e);
            let usage = match ee.usage {
                Some(Usage::Read) => EnumUsage::Read,
                Some(Usage::Write) => EnumUsage::Write,
                _ => EnumUsage::ReadWrite,
            };
            for (v, node) in self.enums[ee.values_from].values.clone() {
                let pos = self.name_pos(node);
                if v.is_default == Some(true) {
                    default.get_or_insert_with(|| v.name.clone());
                }
                let Some(value) = v.value else {
                    if v.is_default != Some(true) {
                        self.warn_once(
                            node,
                            RULE_ENUM_VALUES,
                            pos,
                            format!("enumeratedValue `{}` has neither `<value>` nor `<isDefault>`; dropped it", v.name),
                        );
                    }
                    continue;
                };
                values.push(EnumValue {
                    name: v.name.clone(),
                    value,
                    usage,
                    doc: doc_text(v.description.as_deref()),
                    source: None,
                    pos,
                });
            }
        }
        (values, default)
    }
}

fn read_action(a: svd::ReadAction) -> ir::ReadAction {
    match a {
        svd::ReadAction::Clear => ir::ReadAction::Clear,
        svd::ReadAction::Set => ir::ReadAction::Set,
        svd::ReadAction::Modify => ir::ReadAction::Modify,
        svd::ReadAction::ModifyExternal => ir::ReadAction::ModifyExternal,
    }
}

/// A field's access: `access` (the register's when the field gives none), with
/// `modifiedWriteValues` giving the write semantics of a field that is read and written.
fn field_access(access: Option<Access>, mwv: Option<ModifiedWriteValues>) -> FieldAccess {
    match access {
        Some(Access::ReadOnly) => FieldAccess::Ro,
        Some(Access::WriteOnly) => FieldAccess::Wo,
        Some(Access::WriteOnce) => FieldAccess::WoOnce,
        Some(Access::ReadWriteOnce) => FieldAccess::RwOnce,
        Some(Access::ReadWrite) | None => match mwv {
            Some(ModifiedWriteValues::OneToClear) => FieldAccess::W1c,
            Some(ModifiedWriteValues::OneToSet) => FieldAccess::W1s,
            Some(ModifiedWriteValues::OneToToggle) => FieldAccess::W1t,
            Some(ModifiedWriteValues::ZeroToClear) => FieldAccess::W0c,
            Some(ModifiedWriteValues::ZeroToSet) => FieldAccess::W0s,
            Some(ModifiedWriteValues::ZeroToToggle) => FieldAccess::W0t,
            Some(ModifiedWriteValues::Clear) => FieldAccess::WClr,
            Some(ModifiedWriteValues::Set) => FieldAccess::WSet,
            Some(ModifiedWriteValues::Modify) | None => FieldAccess::Rw,
        },
    }
}

/// The SPDX expression of an SVD `<licenseText>` that states one
/// (`SPDX-License-Identifier: BSD-3-Clause`).
fn spdx_identifier(text: &str) -> Option<String> {
    let rest = text.split("SPDX-License-Identifier:").nth(1)?;
    let id: String = rest
        .trim_start()
        .split(|c: char| c.is_whitespace() || c == '\\')
        .next()?
        .to_string();
    let valid = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '+'));
    valid.then_some(id)
}

/// An SVD `<licenseText>` as plain text. The schema writes a line break as `\n`, and files
/// follow it with a real one or not; lines keep their indentation relative to the least indented.
fn license_text(text: &str) -> String {
    let text = text
        .replace("\r\n", "\n")
        .replace("\\n\n", "\n")
        .replace("\\n", "\n");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    // The first line may follow the opening tag directly, so it does not count.
    let indent = lines
        .iter()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.trim_start()
            } else {
                l.get(indent..).unwrap_or("")
            }
        })
        .collect();
    body.join("\n").trim().to_string()
}
