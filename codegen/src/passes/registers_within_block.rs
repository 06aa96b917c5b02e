//! Every block register lies inside its block and is aligned to its own size, and every element
//! of a cluster lies inside the block that places it.
use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::Device;
use crate::rules::REGISTERS_WITHIN_BLOCK;

/// A register's size is its layout's width, a derived layout's only once derived.
pub const ASSUMES: &[Property] = &[Property::LayoutsDerived];
pub const ESTABLISHES: &[Property] = &[Property::RegistersWithinBlock];

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for block in &device.blocks {
        for reg in &block.registers {
            let Some(layout) = device.layout(&reg.layout.name) else {
                continue;
            };
            let size = u64::from(layout.width / 8);
            let access = u64::from(block.access_width.min(layout.width) / 8);
            if reg.offset + size > block.size {
                out.push(Diagnostic::error(
                    REGISTERS_WITHIN_BLOCK,
                    &reg.pos,
                    format!(
                        "`{}` at offset {:#x} ({size} bytes) lies outside block `{}` (size {:#x})",
                        reg.name, reg.offset, block.name, block.size
                    ),
                ));
            }
            if access > 0 && reg.offset % access != 0 {
                out.push(Diagnostic::error(
                    REGISTERS_WITHIN_BLOCK,
                    &reg.pos,
                    format!(
                        "`{}` at offset {:#x} is not aligned to its {access}-byte accesses",
                        reg.name, reg.offset
                    ),
                ));
            }
        }
    }
    for block in &device.blocks {
        for cluster in &block.clusters {
            let Some(placed) = device.blocks.iter().find(|b| b.name == cluster.block.name) else {
                continue;
            };
            let (count, stride) = cluster.array.map_or((1, 0), |a| (a.count, a.stride));
            let last = cluster
                .offset
                .saturating_add(stride.saturating_mul(u64::from(count.saturating_sub(1))));
            if last.saturating_add(placed.size) > block.size {
                out.push(Diagnostic::error(
                    REGISTERS_WITHIN_BLOCK,
                    &cluster.pos,
                    format!(
                        "cluster `{}` at offset {last:#x} ({:#x} bytes, block `{}`) lies outside block `{}` (size {:#x})",
                        cluster.name, placed.size, placed.name, block.name, block.size
                    ),
                ));
            }
        }
    }
    out
}
