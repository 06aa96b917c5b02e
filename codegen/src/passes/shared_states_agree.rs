//! The set and clear views of one shared state agree on its bits, so a mask built for one is
//! valid for the other: they use the same layout, or (a vendor format that gives each register a
//! layout of its own, as TI XML does) layouts of one width with the same fields at the same bits.
//! The fields' accesses may differ: the set view's bits are write-1-to-set, the clear view's
//! write-1-to-clear.
use std::collections::BTreeMap;

use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Layout, NameRef, Pos, RegAccess};
use crate::rules::SHARED_STATES_AGREE;

/// Set and clear views may come from an amendment; views compare their layouts' fields.
pub const ASSUMES: &[Property] = &[Property::AmendmentsFolded, Property::LayoutsDerived];
pub const ESTABLISHES: &[Property] = &[Property::SharedStatesAgree];

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let views = device
        .sysregs
        .iter()
        .map(|r| (&r.access, &r.layout, &r.pos, &r.name))
        .chain(device.blocks.iter().flat_map(|b| {
            b.registers
                .iter()
                .map(|r| (&r.access, &r.layout, &r.pos, &r.name))
        }));
    let mut first: BTreeMap<&str, (&NameRef, &Pos, &String)> = BTreeMap::new();
    for (access, layout, pos, name) in views {
        let state = match access {
            RegAccess::Set { state } | RegAccess::Clear { state } => state,
            _ => continue,
        };
        match first.get(state.as_str()) {
            Some((l, p, n)) if !same_bits(device, &l.name, &layout.name) => out.push(
                Diagnostic::error(
                    SHARED_STATES_AGREE,
                    &layout.pos,
                    format!(
                        "`{name}` views state `{state}` through layout `{}` but `{n}` uses `{}`, whose bits differ",
                        layout.name, l.name
                    ),
                )
                .with_note(p, format!("`{n}` defined here")),
            ),
            Some(_) => {}
            None => {
                first.insert(state, (layout, pos, name));
            }
        }
    }
    out
}

/// Whether layouts `a` and `b` are one layout, or have one width and the same fields (by name
/// and bits) whatever their accesses.
fn same_bits(device: &Device, a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    fn fields(l: &Layout) -> (u32, Vec<(&str, u32, u32)>) {
        let mut f: Vec<(&str, u32, u32)> = l
            .fields
            .iter()
            .map(|f| (f.name.as_str(), f.lsb, f.width))
            .collect();
        f.sort();
        (l.width, f)
    }
    match (device.layout(a), device.layout(b)) {
        (Some(a), Some(b)) => fields(a) == fields(b),
        // An unknown layout is `references_resolve`'s to report.
        _ => true,
    }
}
