//! From svd-rs's device (values) and the XML document (positions) to the IR.
//!
//! [`locate`] pairs every svd-rs object with its XML element, so that every IR element takes the
//! position of its `<name>` (or, for a reference, of the attribute or element that names the
//! target); [`derive`] resolves `derivedFrom`, with [`lookup`] finding the element it names; the
//! other modules build the IR, one kind of element each ([`device`], [`block`], [`clusters`],
//! [`register`], [`layout`], [`field`], [`enums`]).
//!
//! How SVD maps onto the IR:
//! - a peripheral's register map becomes a `Block` (named after `headerStructName`, else the
//!   peripheral), an `Instance` places it at `baseAddress` with its interrupts; peripherals
//!   derived without registers of their own share the block; `alternatePeripheral` and
//!   `alternateRegister` become `alias_of`, and a register of an `alternateGroup` is named
//!   `<name>_<group>` and aliases the register outside the group at its offset;
//! - a cluster becomes a block of its own (named after its `headerStructName`, else `dimName`,
//!   else `<block>_<cluster>`), placed in its parent by a `Cluster` at its offset: once, as an IR
//!   array when indexed 0..n-1, or once per element otherwise; clusters nest to any depth;
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

mod access;
mod block;
mod clusters;
mod derive;
mod device;
mod effective;
mod enums;
mod field;
mod layout;
mod license;
mod locate;
mod lookup;
mod names;
mod positions;
mod properties;
mod register;
mod report;
mod text;

use super::xml::Doc;
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::ir::{Block, Device, Layout};
use effective::{
    EffectiveCluster, EffectiveEnumeratedValues, EffectiveField, EffectivePeripheral,
    EffectiveRegister,
};
use layout::LayoutKey;
use locate::{
    LocatedCluster, LocatedEnumeratedValues, LocatedField, LocatedPeripheral, LocatedRegister,
};

pub struct Lowered {
    pub device: Device,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

pub fn lower(doc: &Doc<'_>, lines: &LineIndex<'_>, svd_device: &svd::Device) -> Lowered {
    let mut lowering = Lower {
        doc,
        lines,
        svd_device,
        peripherals: Vec::new(),
        registers: Vec::new(),
        clusters: Vec::new(),
        fields: Vec::new(),
        enumerated_values: Vec::new(),
        effective_peripherals: Vec::new(),
        effective_registers: BTreeMap::new(),
        effective_clusters: BTreeMap::new(),
        effective_fields: BTreeMap::new(),
        effective_enumerated_values: BTreeMap::new(),
        stack: Vec::new(),
        reported: BTreeSet::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        layouts: Vec::new(),
        layout_memo: BTreeMap::new(),
        layout_widths: BTreeMap::new(),
        layout_write_only: BTreeMap::new(),
        layout_idents: BTreeSet::new(),
        block_idents: BTreeSet::new(),
        nested_blocks: Vec::new(),
        expanded: 0,
    };
    lowering.locate();
    let device = lowering.device();
    Lowered {
        device,
        errors: lowering.errors,
        warnings: lowering.warnings,
    }
}

/// The state of one lowering: the located elements (indexes into these vectors are how elements
/// refer to each other), what `derivedFrom` made of them, and the IR built so far.
struct Lower<'d, 'a> {
    doc: &'d Doc<'d>,
    lines: &'d LineIndex<'d>,
    svd_device: &'a svd::Device,
    peripherals: Vec<LocatedPeripheral<'a>>,
    registers: Vec<LocatedRegister<'a>>,
    clusters: Vec<LocatedCluster<'a>>,
    fields: Vec<LocatedField<'a>>,
    enumerated_values: Vec<LocatedEnumeratedValues<'a>>,
    effective_peripherals: Vec<Option<EffectivePeripheral>>,
    effective_registers: BTreeMap<usize, EffectiveRegister<'a>>,
    effective_clusters: BTreeMap<usize, EffectiveCluster<'a>>,
    effective_fields: BTreeMap<usize, EffectiveField<'a>>,
    effective_enumerated_values: BTreeMap<usize, EffectiveEnumeratedValues>,
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
    /// The first write-only field of each layout made so far that has one.
    layout_write_only: BTreeMap<String, String>,
    layout_idents: BTreeSet<String>,
    block_idents: BTreeSet<String>,
    /// The blocks clusters made, placed by their parents' `Cluster`s.
    nested_blocks: Vec<Block>,
    /// Registers and clusters made so far in the current peripheral, nested ones included.
    expanded: usize,
}
