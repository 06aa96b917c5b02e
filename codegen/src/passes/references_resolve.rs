//! Every `layout` a register names is defined, and every `alias_of` names a register of the same
//! block.
use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, NameRef};
use crate::rules::REFERENCES_RESOLVE;

/// A name designates one layout or register only when names are unique.
pub const ASSUMES: &[Property] = &[Property::NamesUnique];
pub const ESTABLISHES: &[Property] = &[Property::ReferencesResolve];

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let layout_refs = device.sysregs.iter().map(|r| &r.layout).chain(
        device
            .blocks
            .iter()
            .flat_map(|b| b.registers.iter().map(|r| &r.layout)),
    );
    for r in layout_refs {
        if device.layout(&r.name).is_none() {
            out.push(unknown("layout", r));
        }
    }
    for block in &device.blocks {
        for reg in &block.registers {
            if let Some(alias) = &reg.alias_of {
                if !block
                    .registers
                    .iter()
                    .any(|r| r.name == alias.name && r.name != reg.name)
                {
                    out.push(unknown(
                        &format!("register of block `{}`", block.name),
                        alias,
                    ));
                }
            }
        }
    }
    out
}

fn unknown(kind: &str, r: &NameRef) -> Diagnostic {
    Diagnostic::error(
        REFERENCES_RESOLVE,
        &r.pos,
        format!("no {kind} is named `{}`", r.name),
    )
}
