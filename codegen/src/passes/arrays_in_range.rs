//! A register array is well-formed: its name holds `<n>` exactly when it has a count, the count is
//! at least 1 and at most [`MAX_COUNT`], every element's encoding or offset stays in range (a
//! system-register index must not carry out of CRm; a block element must lie inside the block),
//! and no block has more than [`MAX_ELEMENTS`] registers, elements counted.
use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, PathExt, Pos, FLAT_LIMIT};
use crate::rules::ARRAYS_IN_RANGE;

/// An element's size is its layout's width, a derived layout's only once derived.
pub const ASSUMES: &[Property] = &[Property::LayoutsDerived];
pub const ESTABLISHES: &[Property] = &[Property::ArraysInRange];

/// The largest array the generator accepts, so a typo cannot ask for billions of accessors (real
/// SVD files have arrays of 5552 registers).
pub const MAX_COUNT: u32 = 1 << 16;

/// The most registers, array elements counted, one block may have: what bounds the passes that
/// look at every element (overlaps), whatever the counts.
pub const MAX_ELEMENTS: u64 = 1 << 20;

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for reg in &device.sysregs {
        shape(&reg.name, &reg.pos, reg.count, &mut out);
        if let Some(count) = reg.count.filter(|c| (1..=MAX_COUNT).contains(c)) {
            if reg.path.element(count - 1).is_none() {
                let first_bad = (0..count)
                    .find(|&n| reg.path.element(n).is_none())
                    .unwrap_or(0);
                out.push(Diagnostic::error(
                    ARRAYS_IN_RANGE,
                    &reg.pos,
                    format!(
                        "element {first_bad} of `{}` (count {count}, base {}) has no encoding: the index carries out of CRm",
                        reg.name, reg.path
                    ),
                ));
            }
        }
    }
    for block in &device.blocks {
        let elements: u64 = block
            .registers
            .iter()
            .map(|reg| reg.array.map_or(1, |a| u64::from(a.count)))
            .sum();
        if elements > MAX_ELEMENTS {
            out.push(Diagnostic::error(
                ARRAYS_IN_RANGE,
                &block.pos,
                format!(
                    "block `{}` has {elements} registers, array elements counted; the limit is {MAX_ELEMENTS}",
                    block.name
                ),
            ));
        }
        for cluster in &block.clusters {
            shape(
                &cluster.name,
                &cluster.pos,
                cluster.array.map(|a| a.count),
                &mut out,
            );
        }
        for reg in &block.registers {
            shape(&reg.name, &reg.pos, reg.array.map(|a| a.count), &mut out);
            let Some(array) = reg.array.filter(|a| (1..=MAX_COUNT).contains(&a.count)) else {
                continue;
            };
            let size = device
                .layout(&reg.layout.name)
                .map_or(0, |l| u64::from(l.width / 8));
            if array.stride < size {
                out.push(Diagnostic::error(
                    ARRAYS_IN_RANGE,
                    &reg.pos,
                    format!(
                        "stride {:#x} of `{}` is smaller than its {size}-byte elements",
                        array.stride, reg.name
                    ),
                ));
            }
            let last = reg.offset + array.stride * u64::from(array.count - 1);
            if last + size > block.size {
                out.push(Diagnostic::error(
                    ARRAYS_IN_RANGE,
                    &reg.pos,
                    format!(
                        "element {} of `{}` at offset {last:#x} lies outside block `{}` (size {:#x})",
                        array.count - 1,
                        reg.name,
                        block.name,
                        block.size
                    ),
                ));
            }
        }
    }
    // What reads a block as a flat map (C headers, models, the site) expands cluster arrays
    // that hold arrays: that is bounded too.
    let parents = device.block_parents();
    for (b, block) in device.blocks.iter().enumerate() {
        if parents[b].is_some() || block.clusters.is_empty() {
            continue;
        }
        if device.flat_registers(b, FLAT_LIMIT + 1).len() > FLAT_LIMIT {
            out.push(Diagnostic::error(
                ARRAYS_IN_RANGE,
                &block.pos,
                format!(
                    "block `{}` flattens to more than {FLAT_LIMIT} registers (its clusters' arrays multiplied)",
                    block.name
                ),
            ));
        }
    }
    out
}

fn shape(name: &str, pos: &Pos, count: Option<u32>, out: &mut Vec<Diagnostic>) {
    let indexed = name.contains("<n>");
    match count {
        Some(0) => out.push(Diagnostic::error(
            ARRAYS_IN_RANGE,
            pos,
            format!("array `{name}` has count 0"),
        )),
        Some(c) if c > MAX_COUNT => out.push(Diagnostic::error(
            ARRAYS_IN_RANGE,
            pos,
            format!("array `{name}` has {c} elements; the limit is {MAX_COUNT}"),
        )),
        Some(_) if !indexed => out.push(Diagnostic::error(
            ARRAYS_IN_RANGE,
            pos,
            format!("array `{name}` needs `<n>` in its name where the index goes"),
        )),
        None if indexed => out.push(Diagnostic::error(
            ARRAYS_IN_RANGE,
            pos,
            format!("`{name}` has `<n>` in its name but no `count`"),
        )),
        _ => {}
    }
}
