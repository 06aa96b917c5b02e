//! A field's enumerated values, `derivedFrom` applied, and the name of the default one.
use svd_rs::Usage;

use super::text::doc_text;
use super::Lower;
use crate::ir::{EnumUsage, EnumValue};
use crate::rules::ENUM_VALUES_HAVE_VALUES;

impl Lower<'_, '_> {
    /// The enumerated values of field `field` (`derivedFrom` applied), and the name of the
    /// default.
    pub(super) fn enum_values(&mut self, field: usize) -> (Vec<EnumValue>, Option<String>) {
        let mut values = Vec::new();
        let mut default = None;
        for enumerated in self.fields[field].enumerated_values.clone() {
            let effective = self.effective_enumerated_values(enumerated);
            let usage = match effective.usage {
                Some(Usage::Read) => EnumUsage::Read,
                Some(Usage::Write) => EnumUsage::Write,
                _ => EnumUsage::ReadWrite,
            };
            for (value, node) in self.enumerated_values[effective.values_from].values.clone() {
                let pos = self.name_pos(node);
                if value.is_default == Some(true) {
                    default.get_or_insert_with(|| value.name.clone());
                }
                let Some(number) = value.value else {
                    if value.is_default != Some(true) {
                        self.warn_once(
                            node,
                            ENUM_VALUES_HAVE_VALUES,
                            pos,
                            format!("enumeratedValue `{}` has neither `<value>` nor `<isDefault>`; dropped it", value.name),
                        );
                    }
                    continue;
                };
                values.push(EnumValue {
                    name: value.name.clone(),
                    value: number,
                    usage,
                    doc: doc_text(value.description.as_deref()),
                    source: None,
                    pos,
                });
            }
        }
        (values, default)
    }
}
