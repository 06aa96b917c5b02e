//! A peripheral's or cluster's registers and clusters: registers become the block's, and each
//! cluster a block of its own placed in it (`Cluster`), once or as an array, its registers reached
//! through it (`uarte.psel().txd()`, `dma.ch().at::<3>().cr()`), nested to any depth.
//!
//! A cluster array indexed 0..n-1 is one IR cluster array; one with other indexes (`A,B`) is one
//! cluster per element, all placing the same block. The block is named after the cluster's
//! `headerStructName` (else its `dimName`, else `<block>_<cluster>`), and its layouts after it.
//! The registers of an `alternateCluster` are another view of the storage of the cluster it names.
use super::locate::Item;
use super::names::{
    array_name, index_names, indexes, join, plain_name, substitute, unique, zero_based,
};
use super::properties::Scope;
use super::text::doc_text;
use super::Lower;
use crate::ir::{Block, BlockArray, BlockRegister, Cluster, NameRef};
use crate::names::Case;
use crate::rules::ARRAYS_IN_RANGE;

/// The most registers and clusters one peripheral may expand to, nested blocks included.
const MAX_REGISTERS: usize = 1 << 16;

/// What a block's items become.
#[derive(Default)]
pub(super) struct Items {
    pub(super) registers: Vec<BlockRegister>,
    pub(super) clusters: Vec<Cluster>,
}

impl<'a> Lower<'_, 'a> {
    /// Lowers `items` of the block `block` into `out`.
    pub(super) fn lower_items(
        &mut self,
        items: &[Item],
        scope: Scope,
        block: &str,
        out: &mut Items,
    ) {
        // (index in `out.registers`, alternate group) of the registers of this scope
        let mut grouped: Vec<(usize, Option<&'a str>)> = Vec::new();
        for &item in items {
            if self.expanded > MAX_REGISTERS {
                if let Some(&first) = items.first() {
                    self.too_many(first, block);
                }
                return;
            }
            match item {
                Item::Register(register) => {
                    let first = out.registers.len();
                    self.lower_register(register, scope, block, &mut out.registers);
                    self.expanded += out.registers.len() - first;
                    let group = self.registers[register].info.alternate_group.as_deref();
                    grouped.extend((first..out.registers.len()).map(|i| (i, group)));
                }
                Item::Cluster(cluster) => {
                    let first = out.clusters.len();
                    self.lower_cluster(cluster, scope, block, &mut out.clusters);
                    self.expanded += out.clusters.len() - first;
                }
            }
        }
        // A register of an alternate group is the same storage as the register outside the
        // group at its offset.
        let registers = &mut out.registers;
        for &(member, group) in &grouped {
            if group.is_none() || registers[member].alias_of.is_some() {
                continue;
            }
            let base = grouped
                .iter()
                .find(|&&(other, other_group)| {
                    other_group.is_none() && registers[other].offset == registers[member].offset
                })
                .map(|&(other, _)| registers[other].name.clone());
            if let Some(name) = base {
                let pos = registers[member].pos.clone();
                registers[member].alias_of = Some(NameRef { name, pos });
            }
        }
    }

    fn too_many(&mut self, item: Item, block: &str) {
        let node = match item {
            Item::Register(register) => self.registers[register].node,
            Item::Cluster(cluster) => self.clusters[cluster].node,
        };
        let pos = self.name_pos(node);
        self.error_once(
            node,
            ARRAYS_IN_RANGE,
            pos,
            format!("block `{block}` expands to more than {MAX_REGISTERS} registers and clusters"),
        );
    }

    /// Cluster `cluster` of block `block`: a block of its own (made here, kept in
    /// `self.nested_blocks`), placed once, as an array, or once per element of an array with
    /// other indexes.
    fn lower_cluster(&mut self, cluster: usize, scope: Scope, block: &str, out: &mut Vec<Cluster>) {
        let effective = self.effective_cluster(cluster);
        let located = &self.clusters[cluster];
        let (info, node, parent) = (located.info, located.node, located.parent);
        let props = effective.props.derive(scope.props);
        let offset = u64::from(info.address_offset);
        let dim = effective.dim;
        let stride = dim.map_or(0, |dim| u64::from(dim.dim_increment));
        let base_name = info
            .header_struct_name
            .clone()
            .or_else(|| dim.and_then(|dim| dim.dim_name.clone()))
            .unwrap_or_else(|| join(block, &plain_name(&info.name)));
        let nested = unique(&mut self.block_idents, &base_name, Case::Camel);
        let items = self.clusters[effective.items_from].items.clone();
        let mut inner = Items::default();
        let inner_scope = Scope {
            props,
            base_steps: scope.base_steps | offset | stride,
        };
        self.lower_items(&items, inner_scope, &nested, &mut inner);
        let pos = self.name_pos(node);
        let doc = doc_text(info.description.as_deref());
        let size = self.extent(&inner.registers, &inner.clusters);
        let access_width = self.access_width(&inner.registers);
        self.nested_blocks.push(Block {
            name: nested.clone(),
            size,
            access_width,
            doc: doc.as_deref().map(|text| substitute(text, "n")),
            source: None,
            pos: pos.clone(),
            registers: inner.registers,
            clusters: inner.clusters,
            lock: None,
        });
        let alias_of = info.alternate_cluster.as_ref().and_then(|alternate| {
            let found = self.siblings(parent).into_iter().any(|sibling| {
                matches!(sibling, Item::Cluster(_)) && self.item_named(sibling, alternate)
            });
            found.then(|| NameRef {
                name: array_name(alternate),
                pos: self.child_pos(node, "alternateCluster"),
            })
        });
        let make =
            |name: String, offset: u64, array: Option<BlockArray>, doc: Option<String>| Cluster {
                name,
                block: NameRef {
                    name: nested.clone(),
                    pos: pos.clone(),
                },
                offset,
                array,
                index_names: Vec::new(),
                alias_of: alias_of.clone(),
                doc,
                pos: pos.clone(),
            };
        let doc_of = |index: &str| doc.as_deref().map(|text| substitute(text, index));
        match dim {
            None => out.push(make(info.name.clone(), offset, None, doc_of("n"))),
            Some(dim) if zero_based(dim) => out.push(Cluster {
                index_names: index_names(dim),
                ..make(
                    array_name(&info.name),
                    offset,
                    Some(BlockArray {
                        count: dim.dim,
                        stride,
                    }),
                    doc_of("n"),
                )
            }),
            Some(dim) => {
                for (i, index) in indexes(dim).iter().enumerate() {
                    out.push(make(
                        substitute(&info.name, index),
                        offset.saturating_add((i as u64).saturating_mul(stride)),
                        None,
                        doc_of(index),
                    ));
                }
            }
        }
    }
}
