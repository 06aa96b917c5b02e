//! No two fields of a layout share a bit. In a vendor file overlapping fields are kept (each
//! accessor still reads its own bits) with a warning.
use super::contract::Property;
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Field};
use crate::rules::NO_OVERLAPPING_FIELDS;

/// A derived layout's own fields meet its inherited ones only once derived.
pub const ASSUMES: &[Property] = &[Property::LayoutsDerived];
pub const ESTABLISHES: &[Property] = &[Property::FieldsDisjoint];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &device.layouts {
        // Fields are sorted by lsb, so an overlap always involves the widest-reaching earlier field.
        let mut reach: Option<&Field> = None;
        for field in &layout.fields {
            if let Some(prev) = reach {
                if field.lsb <= prev.msb() {
                    out.push(
                        defect(
                            mode,
                            NO_OVERLAPPING_FIELDS,
                            &field.pos,
                            format!(
                                "field `{}` (bits {}:{}) overlaps field `{}` (bits {}:{}) in layout `{}`",
                                field.name,
                                field.msb(),
                                field.lsb,
                                prev.name,
                                prev.msb(),
                                prev.lsb,
                                layout.name
                            ),
                            "kept both",
                        )
                        .with_note(&prev.pos, "overlapped field"),
                    );
                }
            }
            if reach.is_none_or(|p| field.msb() > p.msb()) {
                reach = Some(field);
            }
        }
    }
    out.dedup_by(|a, b| a.pos == b.pos && a.message == b.message);
    out
}
