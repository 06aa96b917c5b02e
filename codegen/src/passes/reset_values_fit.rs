//! Reset values fit: a field's reset in the field's width, a layout's reset in the layout's width,
//! and a layout's reset agrees with the resets of its fields. In a vendor file a reset too wide is
//! masked to the width, and a field reset that disagrees gives way to the layout's.
use super::contract::Property;
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::{bit_range_mask, Device};
use crate::rules::RESET_VALUES_FIT;

/// A derived layout inherits its reset; and a field's share of the layout's reset is shifted by
/// the field's lsb, a sound shift only for a field inside its (at most 64-bit) layout.
pub const ASSUMES: &[Property] = &[Property::LayoutsDerived, Property::FieldsWithinWidth];
pub const ESTABLISHES: &[Property] = &[Property::ResetsFit];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &mut device.layouts {
        if let Some(reset) = layout.reset {
            let fits = bit_range_mask(0, layout.width);
            if reset & !fits != 0 {
                out.push(defect(
                    mode,
                    RESET_VALUES_FIT,
                    &layout.pos,
                    format!(
                        "reset value {reset:#x} of layout `{}` does not fit in {} bits",
                        layout.name, layout.width
                    ),
                    format!("masked it to {:#x}", reset & fits),
                ));
                layout.reset = Some(reset & fits);
            }
        }
        let whole = layout.reset;
        let layout_name = layout.name.clone();
        for field in &mut layout.fields {
            let Some(reset) = field.reset else { continue };
            let fits = bit_range_mask(0, field.width);
            if reset & !fits != 0 {
                out.push(defect(
                    mode,
                    RESET_VALUES_FIT,
                    &field.pos,
                    format!(
                        "reset value {reset:#x} of field `{}` does not fit in its {} bit(s)",
                        field.name, field.width
                    ),
                    format!("masked it to {:#x}", reset & fits),
                ));
                field.reset = Some(reset & fits);
            } else if let Some(whole) = whole {
                let from_layout = (whole & field.mask()) >> field.lsb;
                if from_layout != reset {
                    out.push(defect(
                        mode,
                        RESET_VALUES_FIT,
                        &field.pos,
                        format!(
                            "field `{}` resets to {reset:#x} but layout `{layout_name}`'s reset {whole:#x} gives it {from_layout:#x}",
                            field.name
                        ),
                        format!("used the layout's {from_layout:#x}"),
                    ));
                    field.reset = Some(from_layout);
                }
            }
        }
    }
    out
}
