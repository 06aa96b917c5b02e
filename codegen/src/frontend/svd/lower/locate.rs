//! Pairs each svd-rs object with its XML element. svd-parser reads the children of an element
//! in document order (with the same filters as here), so the k-th object of a list is the k-th
//! element; a missing element (never expected) falls back to the parent's, so no index panics.
use svd_rs as svd;
use svd_rs::RegisterCluster;

use super::{split, ClusterL, EnumsL, FieldL, Item, Lower, Parent, PeriphL, RegL};

impl<'a> Lower<'_, 'a> {
    pub(super) fn locate(&mut self) {
        let doc = self.doc;
        let dev = self.dev;
        let nodes: Vec<usize> = doc
            .child(0, "peripherals")
            .map(|p| doc.elements[p].children.clone())
            .unwrap_or_default();
        for (k, p) in dev.peripherals.iter().enumerate() {
            let (info, dim) = split(p);
            let node = nodes.get(k).copied().unwrap_or(0);
            let irq_nodes: Vec<usize> = doc.children_named(node, "interrupt").collect();
            let irqs = info
                .interrupt
                .iter()
                .enumerate()
                .map(|(i, irq)| (irq, irq_nodes.get(i).copied().unwrap_or(node)))
                .collect();
            self.periphs.push(PeriphL {
                info,
                dim,
                node,
                items: None,
                irqs,
            });
            if let Some(rs) = &info.registers {
                let rnode = doc.child(node, "registers").unwrap_or(node);
                let kids = doc.elements[rnode].children.clone();
                let items = self.items(rs, &kids, rnode, Parent::Periph(k));
                self.periphs[k].items = Some(items);
            }
        }
    }

    fn items(
        &mut self,
        rcs: &'a [RegisterCluster],
        nodes: &[usize],
        fallback: usize,
        parent: Parent,
    ) -> Vec<Item> {
        rcs.iter()
            .enumerate()
            .map(|(i, rc)| {
                let node = nodes.get(i).copied().unwrap_or(fallback);
                match rc {
                    RegisterCluster::Register(r) => Item::Reg(self.register(r, node, parent)),
                    RegisterCluster::Cluster(c) => {
                        let (info, dim) = split(c);
                        let id = self.clusters.len();
                        self.clusters.push(ClusterL {
                            info,
                            dim,
                            node,
                            items: Vec::new(),
                            parent,
                        });
                        let doc = self.doc;
                        let kids: Vec<usize> = doc.elements[node]
                            .children
                            .iter()
                            .copied()
                            .filter(|&c| matches!(doc.name(c), "register" | "cluster"))
                            .collect();
                        let items = self.items(&info.children, &kids, node, Parent::Cluster(id));
                        self.clusters[id].items = items;
                        Item::Cluster(id)
                    }
                }
            })
            .collect()
    }

    fn register(&mut self, r: &'a svd::Register, node: usize, parent: Parent) -> usize {
        let (info, dim) = split(r);
        let id = self.regs.len();
        self.regs.push(RegL {
            info,
            dim,
            node,
            fields: None,
            parent,
        });
        if let Some(fs) = &info.fields {
            let doc = self.doc;
            let fnode = doc.child(node, "fields").unwrap_or(node);
            let kids = doc.elements[fnode].children.clone();
            let mut ids = Vec::new();
            for (i, f) in fs.iter().enumerate() {
                let fnode = kids.get(i).copied().unwrap_or(node);
                ids.push(self.field(f, fnode, id));
            }
            self.regs[id].fields = Some(ids);
        }
        id
    }

    fn field(&mut self, f: &'a svd::Field, node: usize, reg: usize) -> usize {
        let doc = self.doc;
        let (info, dim) = split(f);
        let id = self.fields.len();
        let ev_nodes: Vec<usize> = doc.children_named(node, "enumeratedValues").collect();
        let mut evs = Vec::new();
        for (i, e) in info.enumerated_values.iter().enumerate() {
            let enode = ev_nodes.get(i).copied().unwrap_or(node);
            let value_nodes: Vec<usize> = doc.elements[enode]
                .children
                .iter()
                .copied()
                .filter(|&c| !matches!(doc.name(c), "name" | "headerEnumName" | "usage"))
                .collect();
            let values = e
                .values
                .iter()
                .enumerate()
                .map(|(k, v)| (v, value_nodes.get(k).copied().unwrap_or(enode)))
                .collect();
            evs.push(self.enums.len());
            self.enums.push(EnumsL {
                info: e,
                node: enode,
                values,
                field: id,
            });
        }
        self.fields.push(FieldL {
            info,
            dim,
            node,
            evs,
            reg,
        });
        id
    }
}
