//! The set and clear views of one shared state use the same layout, so a mask built for one is
//! valid for the other.
use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::ir::{Device, NameRef, Pos, RegAccess};

pub const NAME: &str = "shared_states_agree";

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
            Some((l, p, n)) if l.name != layout.name => out.push(
                Diagnostic::error(
                    NAME,
                    &layout.pos,
                    format!(
                        "`{name}` views state `{state}` through layout `{}` but `{n}` uses `{}`",
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
