//! Every field array is still uniform once the repairs before it are done: each member there,
//! `stride` bits after the one before, with the first's width, access, values and write rules.
//! A vendor file's array that a repair broke (a member beyond its register dropped, one value
//! dropped from one member) is read as the separate fields it is made of, with a warning, rather
//! than silently.
use super::contract::Property;
use super::{defect, Mode};
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Field, FieldArray, Layout};
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
            match broken(layout, &array) {
                None => kept.push(array),
                Some(why) => out.push(defect(
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

/// What makes `array` no longer one array of `layout`'s fields, if anything.
fn broken(layout: &Layout, array: &FieldArray) -> Option<String> {
    if array.members.len() < 2 {
        return Some(format!(
            "it has {} member(s), and an array needs 2",
            array.members.len()
        ));
    }
    let mut members: Vec<&Field> = Vec::new();
    for name in &array.members {
        match layout.fields.iter().find(|f| f.name == *name) {
            Some(field) => members.push(field),
            None => {
                return Some(format!(
                    "member `{name}` is no longer a field of the layout"
                ))
            }
        }
    }
    let first = members[0];
    if array.stride < first.width {
        return Some(format!(
            "its stride of {} bit(s) is narrower than its members' {} bit(s)",
            array.stride, first.width
        ));
    }
    for (n, field) in members.iter().enumerate().skip(1) {
        let lsb = u64::from(first.lsb) + n as u64 * u64::from(array.stride);
        if u64::from(field.lsb) != lsb {
            return Some(format!(
                "member `{}` is at bit {}, not {lsb}",
                field.name, field.lsb
            ));
        }
        let differs = [
            (field.width != first.width, "width"),
            (field.access != first.access, "access"),
            (
                field.enums != first.enums || field.enum_default != first.enum_default,
                "enumerated values",
            ),
            (
                field.write_constraint != first.write_constraint,
                "write constraint",
            ),
            (field.read_action != first.read_action, "read action"),
        ];
        if let Some((_, what)) = differs.iter().find(|(d, _)| *d) {
            return Some(format!(
                "member `{}` differs from `{}` in its {what}",
                field.name, first.name
            ));
        }
    }
    None
}
