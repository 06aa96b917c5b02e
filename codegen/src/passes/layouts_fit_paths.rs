//! A layout is no wider than the access that transfers it (32 bits for MRC/MCR, 64 for MRS/MSR
//! and MRRC/MCRR), and a block register's layout is a whole number of bus accesses.
use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, PathExt};
use crate::rules::LAYOUTS_FIT_PATHS;

/// A derived layout's width is its base's until derived. An unknown layout is skipped.
pub const ASSUMES: &[Property] = &[Property::LayoutsDerived];
pub const ESTABLISHES: &[Property] = &[Property::LayoutsFitPaths];

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for reg in &device.sysregs {
        let Some(layout) = device.layout(&reg.layout.name) else {
            continue;
        };
        if layout.width > reg.path.width() {
            out.push(Diagnostic::error(
                LAYOUTS_FIT_PATHS,
                &reg.layout.pos,
                format!(
                    "layout `{}` is {} bits wide but `{}` ({}) transfers {} bits",
                    layout.name,
                    layout.width,
                    reg.name,
                    reg.path,
                    reg.path.width()
                ),
            ));
        }
    }
    for block in &device.blocks {
        for reg in &block.registers {
            let Some(layout) = device.layout(&reg.layout.name) else {
                continue;
            };
            if layout.width < block.access_width {
                out.push(Diagnostic::error(
                    LAYOUTS_FIT_PATHS,
                    &reg.layout.pos,
                    format!(
                        "layout `{}` is {} bits wide, narrower than block `{}`'s {}-bit accesses",
                        layout.name, layout.width, block.name, block.access_width
                    ),
                ));
            }
        }
    }
    out
}
