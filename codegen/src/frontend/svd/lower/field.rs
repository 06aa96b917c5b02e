//! A register's fields, with their access, reset and write constraint. A field array (`dim` on a
//! field) gives a field per element and an IR field array grouping them.
use svd_rs as svd;
use svd_rs::Access;

use super::access::{field_access, read_action};
use super::effective::EffectiveRegister;
use super::names::{array_name, indexes, substitute};
use super::properties::Properties;
use super::text::doc_text;
use super::Lower;
use crate::frontend::svd::check::MAX_BIT;
use crate::ir::{self, Field, FieldArray, WriteConstraint};
use crate::rules::NUMBERS_PARSE;

impl<'a> Lower<'_, 'a> {
    /// Lowers field `field` of a register of `size` bits into `out`; `register_access` is the
    /// access of a field that gives none.
    pub(super) fn lower_field(
        &mut self,
        field: usize,
        register: &EffectiveRegister<'a>,
        register_access: Option<Access>,
        size: u32,
        props: Properties,
        out: &mut Vec<Field>,
    ) -> Option<FieldArray> {
        let effective = self.effective_field(field);
        let located = &self.fields[field];
        let (info, node) = (located.info, located.node);
        let access = field_access(
            effective.access.or(register_access),
            effective
                .modified_write_values
                .or(register.modified_write_values),
        );
        let pos = self.name_pos(node);
        let (enums, enum_default) = self.enum_values(effective.enumerated_values_from);
        let width = info.bit_range.width;
        let write_constraint = match effective.write_constraint {
            Some(svd::WriteConstraint::WriteAsRead(true)) => Some(WriteConstraint::LastRead),
            Some(svd::WriteConstraint::UseEnumeratedValues(true)) => {
                Some(WriteConstraint::Enumerated)
            }
            Some(svd::WriteConstraint::Range(range)) => Some(WriteConstraint::Range {
                min: range.min,
                max: range.max,
            }),
            _ => None,
        };
        // (name, lsb, what `%s` in the description stands for)
        let elements: Vec<(String, u64, String)> = match effective.dim {
            None => vec![(
                info.name.clone(),
                u64::from(info.bit_range.offset),
                "n".to_string(),
            )],
            Some(dim) => indexes(dim)
                .iter()
                .enumerate()
                .map(|(i, index)| {
                    (
                        substitute(&info.name, index),
                        u64::from(info.bit_range.offset) + i as u64 * u64::from(dim.dim_increment),
                        index.clone(),
                    )
                })
                .collect(),
        };
        // An array's elements are fields, and one array of them for the Rust layout.
        let array = effective
            .dim
            .filter(|dim| dim.dim >= 2)
            .map(|dim| FieldArray {
                name: array_name(&info.name),
                members: elements.iter().map(|(name, _, _)| name.clone()).collect(),
                stride: dim.dim_increment,
                doc: doc_text(effective.description).map(|text| substitute(&text, "n")),
                pos: pos.clone(),
            });
        for (name, lsb, index) in elements {
            if lsb > MAX_BIT {
                self.error_once(
                    node,
                    NUMBERS_PARSE,
                    pos.clone(),
                    format!("field `{name}` starts at bit {lsb}, beyond any register (the limit is {MAX_BIT})"),
                );
                continue;
            }
            let lsb = lsb as u32;
            let reset = match (props.reset, props.mask) {
                (Some(value), mask) if lsb + width <= size => {
                    let field_mask = ir::bit_range_mask(lsb, width);
                    (mask.unwrap_or(u64::MAX) & field_mask == field_mask)
                        .then_some((value & field_mask) >> lsb)
                }
                _ => None,
            };
            out.push(Field {
                name,
                lsb,
                width,
                access,
                reset,
                doc: doc_text(effective.description).map(|text| substitute(&text, &index)),
                source: None,
                pos: pos.clone(),
                enums: enums.clone(),
                enum_default: enum_default.clone(),
                enum_name: None,
                read_action: effective.read_action.map(read_action),
                write_constraint,
                condition: None,
            });
        }
        array
    }
}
