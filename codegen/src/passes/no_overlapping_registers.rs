//! No two registers of a block (array elements included) share a byte, unless one is declared an
//! alias of the other. In a vendor file, overlapping registers are kept as aliases of the first.
use super::arrays_in_range::MAX_COUNT;
use super::contract::Property;
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::{BlockRegister, Device, NameRef};
use crate::rules::NO_OVERLAPPING_REGISTERS;

/// Sizes are layout widths; the repair makes a register an alias of another by name, which
/// designates one register only when names are unique; every element is looked at, which the
/// bound on elements keeps affordable.
pub const ASSUMES: &[Property] = &[
    Property::LayoutsDerived,
    Property::NamesUnique,
    Property::ArraysInRange,
];
pub const ESTABLISHES: &[Property] = &[Property::RegistersDisjoint];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for b in 0..device.blocks.len() {
        let mut aliases: Vec<(usize, NameRef)> = Vec::new();
        let block = &device.blocks[b];
        let by_name: std::collections::BTreeMap<&str, &BlockRegister> = block
            .registers
            .iter()
            .map(|reg| (reg.name.as_str(), reg))
            .collect();
        // (start, end, register index, element)
        let mut spans: Vec<(u64, u64, usize, Option<u32>)> = Vec::new();
        for (r, reg) in block.registers.iter().enumerate() {
            let size = device
                .layout(&reg.layout.name)
                .map_or(0, |l| u64::from(l.width / 8));
            match reg.array {
                Some(a) => {
                    for n in 0..a.count.min(MAX_COUNT) {
                        let start = reg
                            .offset
                            .saturating_add(a.stride.saturating_mul(u64::from(n)));
                        spans.push((start, start.saturating_add(size), r, Some(n)));
                    }
                }
                None => spans.push((reg.offset, reg.offset.saturating_add(size), r, None)),
            }
        }
        spans.sort_by_key(|s| (s.0, s.1));
        let mut reported = std::collections::BTreeSet::new();
        for (i, a) in spans.iter().enumerate() {
            for s in spans[i + 1..].iter().take_while(|s| s.0 < a.1) {
                let (ra, rb) = (&block.registers[a.2], &block.registers[s.2]);
                if a.2 == s.2 || root(&by_name, ra) == root(&by_name, rb) {
                    continue;
                }
                let (later, earlier) = if ra.pos > rb.pos { (a, s) } else { (s, a) };
                let (lr, er) = (&block.registers[later.2], &block.registers[earlier.2]);
                // One warning per register, naming the first it overlaps.
                if !reported.insert(later.2) {
                    continue;
                }
                out.push(
                    defect(
                        mode,
                        NO_OVERLAPPING_REGISTERS,
                        &lr.pos,
                        format!(
                            "`{}` ({:#x}..{:#x}) overlaps `{}` ({:#x}..{:#x}) in block `{}`; declare `alias_of` if they are one register",
                            element(lr, later.3), later.0, later.1,
                            element(er, earlier.3), earlier.0, earlier.1,
                            block.name
                        ),
                        format!("kept it as an alias of `{}`", er.name),
                    )
                    .with_note(&er.pos, "overlapped register"),
                );
                if lr.alias_of.is_none() && !aliases.iter().any(|(r, _)| *r == later.2) {
                    aliases.push((
                        later.2,
                        NameRef {
                            name: er.name.clone(),
                            pos: lr.pos.clone(),
                        },
                    ));
                }
            }
        }
        if mode == Mode::Lenient {
            for (r, alias) in aliases {
                device.blocks[b].registers[r].alias_of = Some(alias);
            }
        }
        out.extend(cluster_overlaps(device, b, mode));
    }
    out
}

/// A cluster's elements against the block's registers and other clusters: the storage of one
/// byte reached two ways, which only an `alternateCluster` declares. Both are kept (a cluster
/// cannot be an alias of a register).
fn cluster_overlaps(device: &Device, b: usize, mode: Mode) -> Vec<Diagnostic> {
    let block = &device.blocks[b];
    if block.clusters.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // (start, end, name, position, alias group) of every cluster element and register
    let mut spans: Vec<(u64, u64, String, &crate::ir::Pos, Option<&str>)> = Vec::new();
    for cluster in &block.clusters {
        let Some(placed) = device.blocks.iter().find(|p| p.name == cluster.block.name) else {
            continue;
        };
        let (count, stride) = cluster.array.map_or((1, 0), |a| (a.count, a.stride));
        let group = cluster
            .alias_of
            .as_ref()
            .map_or(cluster.name.as_str(), |a| a.name.as_str());
        for n in 0..count.min(MAX_COUNT) {
            let start = cluster
                .offset
                .saturating_add(stride.saturating_mul(u64::from(n)));
            let name = cluster.name.replace("<n>", &n.to_string());
            spans.push((
                start,
                start.saturating_add(placed.size),
                name,
                &cluster.pos,
                Some(group),
            ));
        }
    }
    for reg in &block.registers {
        let size = device
            .layout(&reg.layout.name)
            .map_or(0, |l| u64::from(l.width / 8));
        let (count, stride) = reg.array.map_or((1, 0), |a| (a.count, a.stride));
        for n in 0..count.min(MAX_COUNT) {
            let start = reg
                .offset
                .saturating_add(stride.saturating_mul(u64::from(n)));
            let name = element(reg, reg.array.map(|_| n));
            spans.push((start, start.saturating_add(size), name, &reg.pos, None));
        }
    }
    // Sorted by start, each span meets only those that start before it ends.
    spans.sort_by_key(|a| (a.0, a.1));
    let mut reported = std::collections::BTreeSet::new();
    for (i, a) in spans.iter().enumerate() {
        for s in spans[i + 1..].iter().take_while(|s| s.0 < a.1) {
            // Two registers are the other loop's; two views of one storage may overlap.
            let both_registers = a.4.is_none() && s.4.is_none();
            if both_registers || (a.4.is_some() && a.4 == s.4) {
                continue;
            }
            // The cluster is the one reported.
            let (c, o) = if a.4.is_some() { (a, s) } else { (s, a) };
            if !reported.insert((c.3.clone(), o.3.clone())) {
                continue;
            }
            out.push(
                defect(
                    mode,
                    NO_OVERLAPPING_REGISTERS,
                    c.3,
                    format!(
                        "cluster `{}` ({:#x}..{:#x}) overlaps `{}` ({:#x}..{:#x}) in block `{}`; declare `alternateCluster` if they are one storage",
                        c.2, c.0, c.1, o.2, o.0, o.1, block.name
                    ),
                    "kept both".to_string(),
                )
                .with_note(o.3, "overlapped"),
            );
        }
    }
    out
}

/// The register `reg` is, following `alias_of` (a bounded number of steps, so a cycle ends):
/// two registers with one root are one storage under several names (SVD `alternateGroup`,
/// `alternateRegister` and `alternateCluster` declare such), and may overlap.
fn root<'r>(
    by_name: &std::collections::BTreeMap<&str, &'r BlockRegister>,
    reg: &'r BlockRegister,
) -> &'r str {
    let mut at = reg;
    for _ in 0..by_name.len().min(64) {
        match at
            .alias_of
            .as_ref()
            .and_then(|a| by_name.get(a.name.as_str()))
        {
            Some(next) => at = next,
            None => break,
        }
    }
    at.alias_of.as_ref().map_or(&at.name, |a| &a.name)
}

fn element(reg: &BlockRegister, n: Option<u32>) -> String {
    match n {
        Some(n) => reg.name.replace("<n>", &n.to_string()),
        None => reg.name.clone(),
    }
}
