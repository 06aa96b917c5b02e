//! Materialises derived layouts: copies the base's fields, drops `remove`, turns `raz_wi` fields
//! RAZ/WI, and inherits width, doc, source and reset where the derived layout gives none.
use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, FieldAccess};
use crate::rules::DERIVED_LAYOUTS_RESOLVE;

/// Finds each base by name, and reports a missing base or a cycle itself.
pub const ASSUMES: &[Property] = &[];
pub const ESTABLISHES: &[Property] = &[Property::LayoutsDerived];

pub fn run(device: &mut Device) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    // Resolve in dependency order; each round resolves layouts whose base is already resolved, so
    // a chain resolves in at most `len` rounds and a cycle is what is left over.
    for _ in 0..device.layouts.len() {
        let mut progressed = false;
        for i in 0..device.layouts.len() {
            let Some(derive) = device.layouts[i].derive.clone() else {
                continue;
            };
            if derive.resolved {
                continue;
            }
            let Some(base) = device.layouts.iter().find(|l| l.name == derive.base.name) else {
                diagnostics.push(Diagnostic::error(
                    DERIVED_LAYOUTS_RESOLVE,
                    &derive.base.pos,
                    format!("base layout `{}` is not defined", derive.base.name),
                ));
                mark_resolved(device, i);
                continue;
            };
            if base.derive.as_ref().is_some_and(|d| !d.resolved) {
                continue;
            }
            let base = base.clone();
            let layout = &mut device.layouts[i];
            let mut fields = base.fields.clone();
            for name in &derive.remove {
                match fields.iter().position(|f| f.name == name.name) {
                    Some(at) => {
                        fields.remove(at);
                    }
                    None => diagnostics.push(Diagnostic::error(
                        DERIVED_LAYOUTS_RESOLVE,
                        &name.pos,
                        format!(
                            "`remove`: layout `{}` has no field `{}`",
                            base.name, name.name
                        ),
                    )),
                }
            }
            for name in &derive.raz_wi {
                match fields.iter_mut().find(|f| f.name == name.name) {
                    Some(field) => {
                        field.access = FieldAccess::RazWi;
                        field.reset = Some(0);
                    }
                    None => diagnostics.push(Diagnostic::error(
                        DERIVED_LAYOUTS_RESOLVE,
                        &name.pos,
                        format!(
                            "`raz_wi`: layout `{}` has no field `{}` (or it was removed)",
                            base.name, name.name
                        ),
                    )),
                }
            }
            // The derived layout's own fields are added to (or replace) the base's.
            for own in std::mem::take(&mut layout.fields) {
                fields.retain(|f| f.name != own.name);
                fields.push(own);
            }
            fields.sort_by(|a, b| (a.lsb, &a.name).cmp(&(b.lsb, &b.name)));
            layout.fields = fields;
            if layout.width == 0 {
                layout.width = base.width;
            }
            layout.doc = layout.doc.take().or(base.doc);
            layout.source = layout.source.take().or(base.source);
            if layout.reset.is_none() && layout.width == base.width {
                layout.reset = base.reset;
            }
            mark_resolved(device, i);
            progressed = true;
        }
        if !progressed {
            break;
        }
    }
    for i in 0..device.layouts.len() {
        if let Some(derive) = &device.layouts[i].derive {
            if !derive.resolved {
                diagnostics.push(Diagnostic::error(
                    DERIVED_LAYOUTS_RESOLVE,
                    &derive.base.pos,
                    format!(
                        "layout `{}` derives from itself through `base`",
                        device.layouts[i].name
                    ),
                ));
                mark_resolved(device, i);
            }
        }
    }
    diagnostics
}

fn mark_resolved(device: &mut Device, i: usize) {
    let layout = &mut device.layouts[i];
    if let Some(d) = layout.derive.as_mut() {
        d.resolved = true;
    }
    if layout.width == 0 {
        // Keep later passes meaningful for a layout whose base is missing.
        layout.width = 64;
    }
}
