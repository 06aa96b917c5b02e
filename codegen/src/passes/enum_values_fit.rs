//! Every enumerated value fits in its field, and no two names share a value.
use crate::diagnostic::Diagnostic;
use crate::ir::{bit_range_mask, Device};

pub const NAME: &str = "enum_values_fit";

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &device.layouts {
        for field in &layout.fields {
            for (i, e) in field.enums.iter().enumerate() {
                if e.value & !bit_range_mask(0, field.width) != 0 {
                    out.push(Diagnostic::error(
                        NAME,
                        &e.pos,
                        format!(
                            "value {:#x} of `{}` does not fit in field `{}` ({} bit(s))",
                            e.value, e.name, field.name, field.width
                        ),
                    ));
                }
                if let Some(first) = field.enums[..i].iter().find(|p| p.value == e.value) {
                    out.push(
                        Diagnostic::error(
                            NAME,
                            &e.pos,
                            format!(
                                "`{}` and `{}` both have the value {:#x}",
                                e.name, first.name, e.value
                            ),
                        )
                        .with_note(&first.pos, "the other name"),
                    );
                }
            }
        }
    }
    out.dedup_by(|a, b| a.pos == b.pos && a.message == b.message);
    out
}
