//! Every field array is still uniform once the repairs before it are done: each member there,
//! `stride` bits after the one before, with the first's width, access, values and write rules.
//! A vendor file's array that a repair broke (a member beyond its register dropped, one value
//! dropped from one member) is read as the separate fields it is made of, with a warning, rather
//! than silently.
use super::contract::Property;
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::Device;
use crate::rules::FIELD_ARRAYS_UNIFORM;

/// Compares the members as the repairs left them: inside the width, disjoint, values fitted.
pub const ASSUMES: &[Property] = &[
    Property::FieldsWithinWidth,
    Property::FieldsDisjoint,
    Property::EnumValuesFit,
];
pub const ESTABLISHES: &[Property] = &[Property::FieldArraysUniform];

pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &mut device.layouts {
        let mut kept = Vec::new();
        for array in std::mem::take(&mut layout.field_arrays) {
            match layout.field_array_break(&array) {
                None => kept.push(array),
                Some((_, why)) => out.push(defect(
                    mode,
                    FIELD_ARRAYS_UNIFORM,
                    &array.pos,
                    format!(
                        "field array `{}` of layout `{}` is not uniform: {why}",
                        array.name, layout.name
                    ),
                    "read its members as separate fields",
                )),
            }
        }
        layout.field_arrays = kept;
    }
    out
}
