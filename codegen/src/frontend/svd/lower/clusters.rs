//! Registers and clusters flattened into a block's registers: a cluster's registers are placed
//! at its offset under its name, a cluster array as register arrays where it can be, and the
//! registers of an `alternateCluster` as aliases of those they share their offsets with.
use super::locate::Item;
use super::names::{array_name, indexes, join, plain_name, substitute, zero_based};
use super::properties::Properties;
use super::Lower;
use crate::ir::{BlockArray, BlockRegister, NameRef};
use crate::rules::ARRAYS_IN_RANGE;

/// The most registers one block may expand to (cluster arrays multiply).
const MAX_REGISTERS: usize = 1 << 16;

/// Where registers are being placed while clusters are flattened.
#[derive(Clone)]
pub(super) struct Scope {
    /// The names of the enclosing clusters, joined by `_`, as the registers' names start.
    pub(super) prefix: String,
    /// The same without array indexes, as layout names start.
    pub(super) plain: String,
    pub(super) offset: u64,
    pub(super) props: Properties,
    /// The array an enclosing cluster array makes of every register in it.
    pub(super) array: Option<BlockArray>,
}

/// Makes each register from `first` on an alias of the register before `first` at its offset
/// (one with the same name after the cluster prefix if there is one): the registers of an
/// `alternateCluster`, which describes the storage of the cluster it names another way.
fn alias_alternates(out: &mut [BlockRegister], first: usize) {
    let (before, alternates) = out.split_at_mut(first);
    for reg in alternates.iter_mut().filter(|r| r.alias_of.is_none()) {
        let suffix = |name: &str| name.rsplit('_').next().unwrap_or(name).to_string();
        let at_offset = || {
            before
                .iter()
                .filter(|b| b.offset == reg.offset && b.alias_of.is_none())
        };
        let base = at_offset()
            .find(|b| suffix(&b.name) == suffix(&reg.name) && b.array == reg.array)
            .or_else(|| at_offset().find(|b| b.array == reg.array));
        if let Some(base) = base {
            reg.alias_of = Some(NameRef {
                name: base.name.clone(),
                pos: reg.pos.clone(),
            });
        }
    }
}

impl<'a> Lower<'_, 'a> {
    /// Lowers `items` into `out`, stopping once the block has more than `MAX_REGISTERS`.
    pub(super) fn lower_items(
        &mut self,
        items: &[Item],
        scope: &Scope,
        block: &str,
        out: &mut Vec<BlockRegister>,
    ) {
        // (index in `out`, alternate group) of the registers of this scope
        let mut grouped: Vec<(usize, Option<&'a str>)> = Vec::new();
        for &item in items {
            if out.len() > MAX_REGISTERS {
                return;
            }
            match item {
                Item::Register(register) => {
                    let first = out.len();
                    self.lower_register(register, scope, block, out);
                    let group = self.registers[register].info.alternate_group.as_deref();
                    grouped.extend((first..out.len()).map(|i| (i, group)));
                }
                Item::Cluster(cluster) => {
                    let first = out.len();
                    self.lower_cluster(cluster, scope, block, out);
                    // An `alternateCluster` is another view of the same storage.
                    if self.clusters[cluster].info.alternate_cluster.is_some() {
                        alias_alternates(out, first);
                    }
                }
            }
        }
        // A register of an alternate group is the same storage as the register outside the
        // group at its offset.
        for &(member, group) in &grouped {
            if group.is_none() || out[member].alias_of.is_some() {
                continue;
            }
            let base = grouped
                .iter()
                .find(|&&(other, other_group)| {
                    other_group.is_none() && out[other].offset == out[member].offset
                })
                .map(|&(other, _)| out[other].name.clone());
            if let Some(name) = base {
                let pos = out[member].pos.clone();
                out[member].alias_of = Some(NameRef { name, pos });
            }
        }
        if out.len() > MAX_REGISTERS {
            if let Some(&item) = items.first() {
                let node = match item {
                    Item::Register(register) => self.registers[register].node,
                    Item::Cluster(cluster) => self.clusters[cluster].node,
                };
                let pos = self.name_pos(node);
                self.error_once(
                    node,
                    ARRAYS_IN_RANGE,
                    pos,
                    format!("block `{block}` expands to more than {MAX_REGISTERS} registers"),
                );
            }
        }
    }

    /// Whether any register or cluster under `items` is an array.
    fn has_arrays(&mut self, items: &[Item]) -> bool {
        items.iter().any(|&item| match item {
            Item::Register(register) => self.effective_register(register).dim.is_some(),
            Item::Cluster(cluster) => {
                let effective = self.effective_cluster(cluster);
                let inner = self.clusters[effective.items_from].items.clone();
                effective.dim.is_some() || self.has_arrays(&inner)
            }
        })
    }

    fn lower_cluster(
        &mut self,
        cluster: usize,
        scope: &Scope,
        block: &str,
        out: &mut Vec<BlockRegister>,
    ) {
        let effective = self.effective_cluster(cluster);
        let info = self.clusters[cluster].info;
        let props = effective.props.derive(scope.props);
        let offset = scope.offset.saturating_add(u64::from(info.address_offset));
        let items = self.clusters[effective.items_from].items.clone();
        let Some(dim) = effective.dim else {
            let inner = Scope {
                prefix: join(&scope.prefix, &info.name),
                plain: join(&scope.plain, &info.name),
                offset,
                props,
                array: scope.array,
            };
            self.lower_items(&items, &inner, block, out);
            return;
        };
        if scope.array.is_none() && zero_based(dim) && !self.has_arrays(&items) {
            let inner = Scope {
                prefix: join(&scope.prefix, &array_name(&info.name)),
                plain: join(&scope.plain, &plain_name(&info.name)),
                offset,
                props,
                array: Some(BlockArray {
                    count: dim.dim,
                    stride: u64::from(dim.dim_increment),
                }),
            };
            self.lower_items(&items, &inner, block, out);
            return;
        }
        for (i, index) in indexes(dim).iter().enumerate() {
            let inner = Scope {
                prefix: join(&scope.prefix, &substitute(&info.name, index)),
                plain: join(&scope.plain, &plain_name(&info.name)),
                offset: offset
                    .saturating_add((i as u64).saturating_mul(u64::from(dim.dim_increment))),
                props,
                array: scope.array,
            };
            self.lower_items(&items, &inner, block, out);
            if out.len() > MAX_REGISTERS {
                return;
            }
        }
    }
}
