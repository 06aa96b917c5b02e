//! Every field lies inside its layout's width; in a vendor file one that does not is dropped.
use super::contract::Property;
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::Device;
use crate::rules::FIELDS_WITHIN_WIDTH;

/// A derived layout has its width and its inherited fields (which this pass tells apart) only
/// once derived.
pub const ASSUMES: &[Property] = &[Property::LayoutsDerived];
pub const ESTABLISHES: &[Property] = &[Property::FieldsWithinWidth];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &mut device.layouts {
        let base = layout.derive.as_ref().map(|d| d.base.name.clone());
        let width = layout.width;
        let (layout_name, layout_pos) = (layout.name.clone(), layout.pos.clone());
        layout.fields.retain(|field| {
            if field.msb() < width {
                return true;
            }
            let inherited = base.is_some() && field.pos.span < layout_pos.span;
            let (pos, extra) = match (&base, inherited) {
                (Some(b), true) => (&layout_pos, format!(" (inherited from `{b}`; `remove` it)")),
                _ => (&field.pos, String::new()),
            };
            out.push(defect(
                mode,
                FIELDS_WITHIN_WIDTH,
                pos,
                format!(
                    "field `{}` (bits {}:{}) lies outside the {width}-bit layout `{layout_name}`{extra}",
                    field.name,
                    field.msb(),
                    field.lsb,
                ),
                "dropped the field",
            ));
            mode == Mode::Strict
        });
    }
    out
}
