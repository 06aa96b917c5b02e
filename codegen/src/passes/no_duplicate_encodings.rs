//! No two system registers (array elements included) share an encoding.
use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::ir::{Device, PathExt, SysRegPath};
use crate::rules::NO_DUPLICATE_ENCODINGS;

use super::arrays_in_range::MAX_COUNT;
use super::contract::Property;

/// Reads system registers' encodings alone, bounding arrays itself.
pub const ASSUMES: &[Property] = &[];
pub const ESTABLISHES: &[Property] = &[Property::EncodingsUnique];

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen: BTreeMap<SysRegPath, (String, &crate::ir::Pos)> = BTreeMap::new();
    // A view shares the encoding of the register it is a view of, and nothing else's.
    for reg in device.sysregs.iter().filter(|r| r.view.is_some()) {
        let Some(view) = &reg.view else { continue };
        let of = device
            .sysregs
            .iter()
            .find(|r| r.name == view.of.name && r.view.is_none());
        match of {
            Some(of) if of.path == reg.path && of.count == reg.count => {}
            Some(of) => out.push(
                Diagnostic::error(
                    NO_DUPLICATE_ENCODINGS,
                    &view.of.pos,
                    format!(
                        "`{}` is a view of `{}`, so it must have its encoding ({}), not {}",
                        reg.name, of.name, of.path, reg.path
                    ),
                )
                .with_note(&of.pos, format!("`{}` defined here", of.name)),
            ),
            None => out.push(Diagnostic::error(
                NO_DUPLICATE_ENCODINGS,
                &view.of.pos,
                format!(
                    "`{}` is a view of `{}`, which is not a system register of this description",
                    reg.name, view.of.name
                ),
            )),
        }
    }
    for reg in device.sysregs.iter().filter(|r| r.view.is_none()) {
        let count = reg.count.unwrap_or(1).min(MAX_COUNT);
        for n in 0..count {
            let Some(path) = reg.path.element(n) else {
                break;
            };
            let name = match reg.count {
                Some(_) => reg.name.replace("<n>", &n.to_string()),
                None => reg.name.clone(),
            };
            if let Some((first, first_pos)) = seen.get(&path) {
                out.push(
                    Diagnostic::error(
                        NO_DUPLICATE_ENCODINGS,
                        &reg.pos,
                        format!("`{name}` has the same encoding ({path}) as `{first}`"),
                    )
                    .with_note(first_pos, format!("`{first}` defined here")),
                );
                break;
            }
            seen.insert(path, (name, &reg.pos));
        }
    }
    out
}
