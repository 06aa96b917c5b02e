//! Pairs each svd-rs object with its XML element. svd-parser reads the children of an element
//! in document order (with the same filters as here), so the k-th object of a list is the k-th
//! element; a missing element (never expected) falls back to the parent's, so no index panics.
use svd_rs as svd;
use svd_rs::{DimElement, EnumeratedValue, MaybeArray, RegisterCluster};

use super::Lower;

/// A register or cluster, by its index in `Lower::registers` or `Lower::clusters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Item {
    Register(usize),
    Cluster(usize),
}

/// What holds a register or cluster, by its index.
#[derive(Clone, Copy, Debug)]
pub(super) enum Parent {
    Peripheral(usize),
    Cluster(usize),
}

pub(super) struct LocatedPeripheral<'a> {
    pub(super) info: &'a svd::PeripheralInfo,
    pub(super) dim: Option<&'a DimElement>,
    pub(super) node: usize,
    pub(super) items: Option<Vec<Item>>,
    /// Each `<interrupt>` with its element.
    pub(super) interrupts: Vec<(&'a svd::Interrupt, usize)>,
}

pub(super) struct LocatedRegister<'a> {
    pub(super) info: &'a svd::RegisterInfo,
    pub(super) dim: Option<&'a DimElement>,
    pub(super) node: usize,
    /// Indexes into `Lower::fields`; `None` when the register has no `<fields>`.
    pub(super) fields: Option<Vec<usize>>,
    pub(super) parent: Parent,
}

pub(super) struct LocatedCluster<'a> {
    pub(super) info: &'a svd::ClusterInfo,
    pub(super) dim: Option<&'a DimElement>,
    pub(super) node: usize,
    pub(super) items: Vec<Item>,
    pub(super) parent: Parent,
}

pub(super) struct LocatedField<'a> {
    pub(super) info: &'a svd::FieldInfo,
    pub(super) dim: Option<&'a DimElement>,
    pub(super) node: usize,
    /// Indexes into `Lower::enumerated_values`.
    pub(super) enumerated_values: Vec<usize>,
    /// The register the field is in, by index.
    pub(super) register: usize,
}

/// One `<enumeratedValues>` element.
pub(super) struct LocatedEnumeratedValues<'a> {
    pub(super) info: &'a svd::EnumeratedValues,
    pub(super) node: usize,
    /// Each `<enumeratedValue>` with its element.
    pub(super) values: Vec<(&'a EnumeratedValue, usize)>,
    /// The field they are in, by index.
    pub(super) field: usize,
}

/// An svd-rs element and its array dimensions, if it is an array.
fn split<T>(maybe_array: &MaybeArray<T>) -> (&T, Option<&DimElement>) {
    match maybe_array {
        MaybeArray::Single(info) => (info, None),
        MaybeArray::Array(info, dim) => (info, Some(dim)),
    }
}

impl<'a> Lower<'_, 'a> {
    pub(super) fn locate(&mut self) {
        let doc = self.doc;
        let svd_device = self.svd_device;
        let nodes: Vec<usize> = doc
            .child(0, "peripherals")
            .map(|peripherals| doc.elements[peripherals].children.clone())
            .unwrap_or_default();
        for (index, peripheral) in svd_device.peripherals.iter().enumerate() {
            let (info, dim) = split(peripheral);
            let node = nodes.get(index).copied().unwrap_or(0);
            let interrupt_nodes: Vec<usize> = doc.children_named(node, "interrupt").collect();
            let interrupts = info
                .interrupt
                .iter()
                .enumerate()
                .map(|(i, interrupt)| (interrupt, interrupt_nodes.get(i).copied().unwrap_or(node)))
                .collect();
            self.peripherals.push(LocatedPeripheral {
                info,
                dim,
                node,
                items: None,
                interrupts,
            });
            if let Some(registers) = &info.registers {
                let registers_node = doc.child(node, "registers").unwrap_or(node);
                let children = doc.elements[registers_node].children.clone();
                let items = self.items(
                    registers,
                    &children,
                    registers_node,
                    Parent::Peripheral(index),
                );
                self.peripherals[index].items = Some(items);
            }
        }
    }

    fn items(
        &mut self,
        registers_and_clusters: &'a [RegisterCluster],
        nodes: &[usize],
        fallback: usize,
        parent: Parent,
    ) -> Vec<Item> {
        registers_and_clusters
            .iter()
            .enumerate()
            .map(|(i, register_or_cluster)| {
                let node = nodes.get(i).copied().unwrap_or(fallback);
                match register_or_cluster {
                    RegisterCluster::Register(register) => {
                        Item::Register(self.register(register, node, parent))
                    }
                    RegisterCluster::Cluster(cluster) => {
                        let (info, dim) = split(cluster);
                        let id = self.clusters.len();
                        self.clusters.push(LocatedCluster {
                            info,
                            dim,
                            node,
                            items: Vec::new(),
                            parent,
                        });
                        let doc = self.doc;
                        let children: Vec<usize> = doc.elements[node]
                            .children
                            .iter()
                            .copied()
                            .filter(|&c| matches!(doc.name(c), "register" | "cluster"))
                            .collect();
                        let items =
                            self.items(&info.children, &children, node, Parent::Cluster(id));
                        self.clusters[id].items = items;
                        Item::Cluster(id)
                    }
                }
            })
            .collect()
    }

    fn register(&mut self, register: &'a svd::Register, node: usize, parent: Parent) -> usize {
        let (info, dim) = split(register);
        let id = self.registers.len();
        self.registers.push(LocatedRegister {
            info,
            dim,
            node,
            fields: None,
            parent,
        });
        if let Some(fields) = &info.fields {
            let doc = self.doc;
            let fields_node = doc.child(node, "fields").unwrap_or(node);
            let children = doc.elements[fields_node].children.clone();
            let mut ids = Vec::new();
            for (i, field) in fields.iter().enumerate() {
                let field_node = children.get(i).copied().unwrap_or(node);
                ids.push(self.field(field, field_node, id));
            }
            self.registers[id].fields = Some(ids);
        }
        id
    }

    fn field(&mut self, field: &'a svd::Field, node: usize, register: usize) -> usize {
        let doc = self.doc;
        let (info, dim) = split(field);
        let id = self.fields.len();
        let enumerated_nodes: Vec<usize> = doc.children_named(node, "enumeratedValues").collect();
        let mut enumerated_values = Vec::new();
        for (i, enumerated) in info.enumerated_values.iter().enumerate() {
            let enumerated_node = enumerated_nodes.get(i).copied().unwrap_or(node);
            let value_nodes: Vec<usize> = doc.elements[enumerated_node]
                .children
                .iter()
                .copied()
                .filter(|&c| !matches!(doc.name(c), "name" | "headerEnumName" | "usage"))
                .collect();
            let values = enumerated
                .values
                .iter()
                .enumerate()
                .map(|(k, value)| {
                    (
                        value,
                        value_nodes.get(k).copied().unwrap_or(enumerated_node),
                    )
                })
                .collect();
            enumerated_values.push(self.enumerated_values.len());
            self.enumerated_values.push(LocatedEnumeratedValues {
                info: enumerated,
                node: enumerated_node,
                values,
                field: id,
            });
        }
        self.fields.push(LocatedField {
            info,
            dim,
            node,
            enumerated_values,
            register,
        });
        id
    }
}
