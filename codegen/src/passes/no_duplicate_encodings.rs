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
    for reg in &device.sysregs {
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
