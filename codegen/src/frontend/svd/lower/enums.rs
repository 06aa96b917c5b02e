//! A field's enumerated values, `derivedFrom` applied, and the name of the default one. A value
//! with don't-care digits (`#1x0`, `0b01XX`) keeps which bits count as its mask; one whose name
//! has no letter or digit (`_`) is named after its value, with a warning.
use svd_rs::Usage;

use super::text::doc_text;
use super::Lower;
use crate::frontend::svd::check::dont_care_value;
use crate::ir::{EnumUsage, EnumValue};
use crate::rules::{ENUM_VALUES_HAVE_VALUES, NAMES_ARE_IDENTIFIERS};

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
                let raw = self
                    .doc
                    .child(node, "value")
                    .and_then(|element| self.doc.text_of(element));
                let dont_care = raw.and_then(dont_care_value);
                let label = match dont_care {
                    Some(_) => raw
                        .unwrap_or_default()
                        .trim()
                        .trim_start_matches('#')
                        .trim_start_matches("0b")
                        .to_ascii_uppercase(),
                    None => number.to_string(),
                };
                let name = self.enum_value_name(node, &value.name, &label);
                values.push(EnumValue {
                    name,
                    value: dont_care.map_or(number, |(bits, _)| bits),
                    mask: dont_care.map(|(_, mask)| mask),
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

impl Lower<'_, '_> {
    /// The name of the enumerated value `node`: `name`, or `VALUE_<label>` (its value in
    /// decimal, or its binary digits with don't-cares: `VALUE_14`, `VALUE_01XX`) when `name` has
    /// no letter or digit to make an identifier of.
    fn enum_value_name(&mut self, node: usize, name: &str, label: &str) -> String {
        // Digits make an identifier (`16` is `_16`, as written); only a name without any is
        // named after its value.
        if name.chars().any(char::is_alphanumeric) {
            return name.to_string();
        }
        let renamed = format!("VALUE_{label}");
        let pos = self.name_pos(node);
        self.warn_once(
            node,
            NAMES_ARE_IDENTIFIERS,
            pos,
            format!("enumeratedValue `{name}` has no letter or digit to name it by; named it `{renamed}` after its value"),
        );
        renamed
    }
}
