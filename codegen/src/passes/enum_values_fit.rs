//! Every enumerated value fits in its field, and no two names share a value. In a vendor file a
//! value that does not fit, or repeats another's value, is dropped.
use super::contract::Property;
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::{bit_range_mask, Device, EnumValue};
use crate::rules::ENUM_VALUES_FIT;

/// Reads each field alone: a derived layout's copies carry their base's checked values.
pub const ASSUMES: &[Property] = &[];
pub const ESTABLISHES: &[Property] = &[Property::EnumValuesFit];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &mut device.layouts {
        for field in &mut layout.fields {
            let mut kept: Vec<EnumValue> = Vec::new();
            for e in std::mem::take(&mut field.enums) {
                if e.value & !bit_range_mask(0, field.width) != 0 {
                    out.push(defect(
                        mode,
                        ENUM_VALUES_FIT,
                        &e.pos,
                        format!(
                            "value {:#x} of `{}` does not fit in field `{}` ({} bit(s))",
                            e.value, e.name, field.name, field.width
                        ),
                        "dropped the value",
                    ));
                    if mode == Mode::Strict {
                        kept.push(e);
                    }
                    continue;
                }
                if let Some(first) = kept
                    .iter()
                    .find(|p| p.value == e.value && p.usage == e.usage)
                {
                    out.push(
                        defect(
                            mode,
                            ENUM_VALUES_FIT,
                            &e.pos,
                            format!(
                                "`{}` and `{}` both have the value {:#x}",
                                e.name, first.name, e.value
                            ),
                            "dropped the second",
                        )
                        .with_note(&first.pos, "the other name"),
                    );
                    if mode == Mode::Strict {
                        kept.push(e);
                    }
                    continue;
                }
                kept.push(e);
            }
            field.enums = kept;
        }
    }
    out.dedup_by(|a, b| a.pos == b.pos && a.message == b.message);
    out
}
