//! Register layouts: one per register, shared by every register with the same fields, size,
//! properties and description (expanded array elements, registers derived without fields).
use svd_rs::Access;

use super::effective::EffectiveRegister;
use super::names::{plain_name, unique};
use super::properties::Properties;
use super::text::doc_text;
use super::Lower;
use crate::ir::Layout;
use crate::names::Case;

/// What layouts are keyed on: two registers with the same key share one. (The register whose
/// fields are used, the width, the properties without the size and protection (which are the
/// register's), `modifiedWriteValues`, the description.)
pub(super) type LayoutKey = (usize, u32, Properties, Option<u8>, Option<String>);

impl<'a> Lower<'_, 'a> {
    /// The layout of register `register` (shared with every register of the same key), by name.
    pub(super) fn layout(
        &mut self,
        register: usize,
        effective: &EffectiveRegister<'a>,
        props: Properties,
        size: u32,
        name: &str,
    ) -> String {
        let key: LayoutKey = (
            effective.fields_from,
            size,
            Properties {
                size: None,
                protection: None,
                ..props
            },
            effective.modified_write_values.map(|values| values as u8),
            effective.description.map(str::to_string),
        );
        if let Some(name) = self.layout_memo.get(&key) {
            return name.clone();
        }
        let node = self.registers[register].node;
        let register_access: Option<Access> = props.access();
        let mut fields = Vec::new();
        let mut field_arrays = Vec::new();
        for field in self.registers[effective.fields_from]
            .fields
            .clone()
            .unwrap_or_default()
        {
            field_arrays.extend(self.lower_field(
                field,
                effective,
                register_access,
                size,
                props,
                &mut fields,
            ));
        }
        let name = unique(&mut self.layout_idents, &plain_name(name), Case::Camel);
        self.layout_widths.insert(name.clone(), size);
        if let Some(f) = fields
            .iter()
            .find(|f| f.access.writable() && !f.access.readable())
        {
            self.layout_write_only.insert(name.clone(), f.name.clone());
        }
        self.layouts.push(Layout {
            name: name.clone(),
            width: size,
            doc: doc_text(effective.description),
            source: None,
            reset: props.reset,
            reset_mask: props.mask,
            pos: self.name_pos(node),
            fields,
            field_arrays,
            derive: None,
        });
        self.layout_memo.insert(key, name.clone());
        name
    }
}
