//! `derivedFrom`, resolved with svd-rs's rule: what the deriving element gives replaces what it
//! derives from, and `fields`, `registers`, cluster children and enumerated values are taken whole
//! from the base when the deriving element has none. A name without a dot is looked up beside the
//! element (for enumerated values: in the field, the register, the peripheral, then anywhere); a
//! dotted one from the device (`PERIPH.REG.FIELD`), else from the scopes around the element,
//! innermost first (`CLUSTER.REG.FIELD` inside that cluster's parent). An
//! unresolvable or cyclic `derivedFrom` is an error at the attribute.
use super::effective::{
    EffectiveCluster, EffectiveEnumeratedValues, EffectiveField, EffectivePeripheral,
    EffectiveRegister,
};
use super::locate::Item;
use super::lookup::Target;
use super::names::names_element;
use super::Lower;
use crate::diagnostic::Diagnostic;
use crate::rules::DERIVED_FROM_RESOLVES;

/// The longest `derivedFrom` chain followed.
const MAX_CHAIN: usize = 64;

impl<'a> Lower<'_, 'a> {
    /// Starts resolving the element `node`; false (with an error) if that closes a cycle or the
    /// chain is too long.
    fn enter(&mut self, node: usize, what: &str) -> bool {
        if self.stack.contains(&node) || self.stack.len() >= MAX_CHAIN {
            let pos = self.derived_pos(node);
            let message = if self.stack.contains(&node) {
                format!("{what} derives from itself through `derivedFrom`")
            } else {
                format!("{what}: `derivedFrom` chain longer than {MAX_CHAIN}")
            };
            self.error_once(node, DERIVED_FROM_RESOLVES, pos, message);
            return false;
        }
        self.stack.push(node);
        true
    }

    fn unresolved(&mut self, node: usize, what: &str, name: &str, kind: &str) {
        let pos = self.derived_pos(node);
        let where_ = if matches!(kind, "peripheral" | "enumeratedValues") || name.contains('.') {
            "of this device"
        } else {
            "beside it (a dotted path names one elsewhere)"
        };
        if !self.reported.insert((node, DERIVED_FROM_RESOLVES.name)) {
            return;
        }
        // The names it may have meant: of the elements of its kind (the last part of a path).
        let names: Vec<&str> = match kind {
            "peripheral" => self
                .peripherals
                .iter()
                .map(|p| p.info.name.as_str())
                .collect(),
            "register" => self
                .registers
                .iter()
                .map(|r| r.info.name.as_str())
                .collect(),
            "cluster" => self.clusters.iter().map(|c| c.info.name.as_str()).collect(),
            "field" => self.fields.iter().map(|f| f.info.name.as_str()).collect(),
            _ => Vec::new(),
        };
        // Not the deriving element itself (`what` names it: peripheral `UART1`).
        let own = what.split('`').nth(1).unwrap_or("");
        let last = name.rsplit('.').next().unwrap_or(name);
        let help = crate::diagnostic::did_you_mean(
            last,
            names.into_iter().filter(|n| *n != own),
            crate::diagnostic::backticked,
        );
        let mut error = Diagnostic::error(
            DERIVED_FROM_RESOLVES,
            &pos,
            format!("{what} derives from `{name}`, which is no {kind} {where_}"),
        );
        if let Some(help) = help {
            error = error.with_help(help);
        }
        self.errors.push(error);
    }

    pub(super) fn effective_peripheral(&mut self, peripheral: usize) -> EffectivePeripheral {
        if let Some(Some(known)) = self.effective_peripherals.get(peripheral) {
            return known.clone();
        }
        let located = &self.peripherals[peripheral];
        let (info, node) = (located.info, located.node);
        let own = EffectivePeripheral {
            items_from: located.items.is_some().then_some(peripheral),
            interrupts_from: peripheral,
            address_blocks_from: peripheral,
            props: self.props(&info.default_register_properties, node),
            description: info.description.clone(),
            header_struct: info.header_struct_name.clone(),
        };
        let what = format!("peripheral `{}`", info.name);
        let effective = match &info.derived_from {
            None => own,
            Some(base_name) => match self.peripheral_by_name(base_name.trim()) {
                None => {
                    self.unresolved(node, &what, base_name, "peripheral");
                    own
                }
                Some(_) if !self.enter(node, &what) => own,
                Some(base_index) => {
                    let base = self.effective_peripheral(base_index);
                    self.stack.pop();
                    EffectivePeripheral {
                        items_from: own.items_from.or(base.items_from),
                        interrupts_from: if info.interrupt.is_empty() {
                            base.interrupts_from
                        } else {
                            peripheral
                        },
                        address_blocks_from: if info.address_block.is_some() {
                            peripheral
                        } else {
                            base.address_blocks_from
                        },
                        props: own.props.derive(base.props),
                        description: own.description.or(base.description),
                        header_struct: own.header_struct.or(base.header_struct),
                    }
                }
            },
        };
        if self.effective_peripherals.len() <= peripheral {
            self.effective_peripherals.resize(peripheral + 1, None);
        }
        self.effective_peripherals[peripheral] = Some(effective.clone());
        effective
    }

    pub(super) fn effective_register(&mut self, register: usize) -> EffectiveRegister<'a> {
        if let Some(known) = self.effective_registers.get(&register) {
            return known.clone();
        }
        let located = &self.registers[register];
        let (info, node, parent) = (located.info, located.node, located.parent);
        let own = EffectiveRegister {
            dim: located.dim,
            description: info.description.as_deref(),
            props: self.props(&info.properties, node),
            fields_from: register,
            write_constraint: info.write_constraint,
            read_action: info.read_action,
            modified_write_values: info.modified_write_values,
        };
        let effective = match &info.derived_from {
            None => own,
            Some(name) => {
                let what = format!("register `{}`", info.name);
                let name = name.trim();
                let target = if name.contains('.') {
                    match self.resolve_path(name, parent) {
                        Some(Target::Item(Item::Register(base))) => Some(base),
                        _ => None,
                    }
                } else {
                    self.siblings(parent)
                        .into_iter()
                        .find_map(|sibling| match sibling {
                            Item::Register(base) if self.item_named(sibling, name) => Some(base),
                            _ => None,
                        })
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "register");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(base_index) => {
                        let base = self.effective_register(base_index);
                        self.stack.pop();
                        let dim = match (own.dim, base.dim) {
                            (None, Some(dim)) if info.name.contains("%s") => Some(dim),
                            (dim, _) => dim,
                        };
                        EffectiveRegister {
                            dim,
                            description: own.description.or(base.description),
                            props: own.props.derive(base.props),
                            fields_from: if info.fields.is_some() {
                                register
                            } else {
                                base.fields_from
                            },
                            write_constraint: own.write_constraint.or(base.write_constraint),
                            read_action: own.read_action.or(base.read_action),
                            modified_write_values: own
                                .modified_write_values
                                .or(base.modified_write_values),
                        }
                    }
                }
            }
        };
        self.effective_registers.insert(register, effective.clone());
        effective
    }

    pub(super) fn effective_cluster(&mut self, cluster: usize) -> EffectiveCluster<'a> {
        if let Some(known) = self.effective_clusters.get(&cluster) {
            return known.clone();
        }
        let located = &self.clusters[cluster];
        let (info, node, parent) = (located.info, located.node, located.parent);
        let own = EffectiveCluster {
            dim: located.dim,
            props: self.props(&info.default_register_properties, node),
            items_from: cluster,
        };
        let effective = match &info.derived_from {
            None => own,
            Some(name) => {
                let what = format!("cluster `{}`", info.name);
                let name = name.trim();
                let target = if name.contains('.') {
                    match self.resolve_path(name, parent) {
                        Some(Target::Item(Item::Cluster(base))) => Some(base),
                        _ => None,
                    }
                } else {
                    self.siblings(parent)
                        .into_iter()
                        .find_map(|sibling| match sibling {
                            Item::Cluster(base) if self.item_named(sibling, name) => Some(base),
                            _ => None,
                        })
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "cluster");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(base_index) => {
                        let base = self.effective_cluster(base_index);
                        self.stack.pop();
                        let dim = match (own.dim, base.dim) {
                            (None, Some(dim)) if info.name.contains("%s") => Some(dim),
                            (dim, _) => dim,
                        };
                        EffectiveCluster {
                            dim,
                            props: own.props.derive(base.props),
                            items_from: if info.children.is_empty() {
                                base.items_from
                            } else {
                                cluster
                            },
                        }
                    }
                }
            }
        };
        self.effective_clusters.insert(cluster, effective.clone());
        effective
    }

    pub(super) fn effective_field(&mut self, field: usize) -> EffectiveField<'a> {
        if let Some(known) = self.effective_fields.get(&field) {
            return known.clone();
        }
        let located = &self.fields[field];
        let (info, node, register) = (located.info, located.node, located.register);
        let own = EffectiveField {
            dim: located.dim,
            description: info.description.as_deref(),
            access: info.access,
            modified_write_values: info.modified_write_values,
            write_constraint: info.write_constraint,
            read_action: info.read_action,
            enumerated_values_from: field,
        };
        let effective = match &info.derived_from {
            None => own,
            Some(name) => {
                let what = format!("field `{}`", info.name);
                let name = name.trim();
                let target = if name.contains('.') {
                    match self.resolve_path(name, self.registers[register].parent) {
                        Some(Target::Field(base)) => Some(base),
                        _ => None,
                    }
                } else {
                    self.registers[register]
                        .fields
                        .clone()
                        .unwrap_or_default()
                        .into_iter()
                        .find(|&sibling| {
                            let located = &self.fields[sibling];
                            names_element(&located.info.name, located.dim, name)
                        })
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "field");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(base_index) => {
                        let base = self.effective_field(base_index);
                        self.stack.pop();
                        EffectiveField {
                            dim: own.dim,
                            description: own.description.or(base.description),
                            access: own.access.or(base.access),
                            modified_write_values: own
                                .modified_write_values
                                .or(base.modified_write_values),
                            write_constraint: own.write_constraint.or(base.write_constraint),
                            read_action: own.read_action.or(base.read_action),
                            enumerated_values_from: if info.enumerated_values.is_empty() {
                                base.enumerated_values_from
                            } else {
                                field
                            },
                        }
                    }
                }
            }
        };
        self.effective_fields.insert(field, effective.clone());
        effective
    }

    pub(super) fn effective_enumerated_values(
        &mut self,
        enumerated: usize,
    ) -> EffectiveEnumeratedValues {
        if let Some(known) = self.effective_enumerated_values.get(&enumerated) {
            return *known;
        }
        let located = &self.enumerated_values[enumerated];
        let (info, node, field) = (located.info, located.node, located.field);
        let own = EffectiveEnumeratedValues {
            usage: info.usage,
            values_from: enumerated,
        };
        let effective = match &info.derived_from {
            None => own,
            Some(name) => {
                let name = name.trim();
                let what = format!(
                    "enumeratedValues{} of field `{}`",
                    info.name
                        .as_deref()
                        .map(|own_name| format!(" `{own_name}`"))
                        .unwrap_or_default(),
                    self.fields[field].info.name
                );
                let target = if name.contains('.') {
                    let register = self.fields[field].register;
                    match self.resolve_path(name, self.registers[register].parent) {
                        Some(Target::EnumeratedValues(base)) => Some(base),
                        _ => None,
                    }
                } else {
                    self.enumerated_values_by_name(enumerated, name)
                };
                match target {
                    None => {
                        self.unresolved(node, &what, name, "enumeratedValues");
                        own
                    }
                    Some(_) if !self.enter(node, &what) => own,
                    Some(base_index) => {
                        let base = self.effective_enumerated_values(base_index);
                        self.stack.pop();
                        EffectiveEnumeratedValues {
                            usage: own.usage.or(base.usage),
                            values_from: if info.values.is_empty() {
                                base.values_from
                            } else {
                                enumerated
                            },
                        }
                    }
                }
            }
        };
        self.effective_enumerated_values
            .insert(enumerated, effective);
        effective
    }
}
