//! Reset values fit: a field's reset in the field's width, a layout's reset in the layout's width,
//! and a layout's reset agrees with the resets of its fields.
use crate::diagnostic::Diagnostic;
use crate::ir::{bit_range_mask, Device};

pub const NAME: &str = "reset_values_fit";

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &device.layouts {
        if let Some(reset) = layout.reset {
            if reset & !bit_range_mask(0, layout.width) != 0 {
                out.push(Diagnostic::error(
                    NAME,
                    &layout.pos,
                    format!(
                        "reset value {reset:#x} of layout `{}` does not fit in {} bits",
                        layout.name, layout.width
                    ),
                ));
            }
        }
        for field in &layout.fields {
            let Some(reset) = field.reset else { continue };
            if reset & !bit_range_mask(0, field.width) != 0 {
                out.push(Diagnostic::error(
                    NAME,
                    &field.pos,
                    format!(
                        "reset value {reset:#x} of field `{}` does not fit in its {} bit(s)",
                        field.name, field.width
                    ),
                ));
            } else if let Some(whole) = layout.reset {
                let from_layout = (whole & field.mask()) >> field.lsb;
                if from_layout != reset {
                    out.push(Diagnostic::error(
                        NAME,
                        &field.pos,
                        format!(
                            "field `{}` resets to {reset:#x} but layout `{}`'s reset {whole:#x} gives it {from_layout:#x}",
                            field.name, layout.name
                        ),
                    ));
                }
            }
        }
    }
    out
}
