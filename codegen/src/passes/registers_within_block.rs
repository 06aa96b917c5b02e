//! Every block register lies inside its block and is aligned to its own size.
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
    out
}
