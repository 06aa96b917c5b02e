//! Pay for what you use: every memory-mapped block of a crate is behind a cargo feature named
//! after it, and every layout is compiled only when a selected block uses it.
//!
//! A block's own layouts (used by it alone) are in a file of their own under `layouts/`, declared
//! behind the block's feature; layouts several blocks use are grouped by the set of blocks that
//! use them, one file per set, declared behind `any(...)` of their features. A layout a system
//! register uses, or nothing uses, is always compiled. Dependencies between layouts (an alias
//! names its original, a reused enum names its defining layout) widen the set of the layout
//! named, so a selection never compiles a name without what it names. A file declared behind a
//! `cfg` that is off is not even read, so an unselected block costs the compiler nothing.
//!
//! A build script's modules are compiled in the user's crate, whose features are its own: there
//! the files are the same and no `cfg` is written ([`Gating::None`]).
use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::code::name;
use super::layout::Plan;
use crate::ir::Device;
use crate::names::Case;

/// Whether items carry their block's `cfg(feature = ...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gating {
    /// A crate of its own: one cargo feature per block.
    Features,
    /// Modules a build script writes into another crate: everything compiled.
    None,
}

/// Feature names a block's cannot take: the crate's own.
const RESERVED: [&str; 3] = ["default", "all", "model"];

/// Who needs what: the feature of every block and the groups its layouts fall into.
pub(super) struct Gates {
    pub gating: Gating,
    /// Per block, in the device's order: its feature, which also names its module files (a
    /// block a cluster places has the feature of the top-level block it is reached from); then
    /// the features of the system registers' families (`families`).
    pub features: Vec<String>,
    /// The families of system registers behind a feature, after the blocks in `features`.
    pub families: Vec<String>,
    /// Per system register of the device, its family's index in `features` (`sysreg_users`).
    sysreg_users: Vec<Option<usize>>,
    /// Per block: the top-level block it is reached from (itself for a top-level one).
    pub tops: Vec<usize>,
    /// The layouts, grouped by the blocks that use them, in order of their first layout.
    pub groups: Vec<Group>,
}

/// Layouts compiled under one condition.
pub(super) struct Group {
    /// The blocks any of which compiles the group; `None`: always compiled.
    pub users: Option<Vec<usize>>,
    /// The group's module inside `layouts` (`None` for the always-compiled group, whose
    /// layouts are `layouts`' own items).
    pub module: Option<String>,
    /// Indices into the device's layouts, in order.
    pub layouts: Vec<usize>,
}

impl Gates {
    /// Each user's condition (`feature = "x"`: a block's or a register family's), and per layout
    /// the one condition it is compiled under if one (a layout of one user), for the layouts'
    /// pages; `None` where nothing is gated.
    pub(super) fn features_of(&self, layouts: usize) -> Option<(Vec<String>, Vec<Option<String>>)> {
        if self.gating == Gating::None {
            return None;
        }
        let mut layout_feature = vec![None; layouts];
        for g in &self.groups {
            if let Some([b]) = g.users.as_deref() {
                for &l in &g.layouts {
                    layout_feature[l] = Some(self.atom(*b));
                }
            }
        }
        let predicates = (0..self.features.len()).map(|u| self.atom(u)).collect();
        Some((predicates, layout_feature))
    }

    pub(super) fn of(device: &Device, plan: &Plan<'_>, gating: Gating) -> Gates {
        let tops = device.block_tops();
        let own = block_features(device);
        let mut features: Vec<String> = tops.iter().map(|&t| own[t].clone()).collect();
        let families = families(device, &own);
        features.extend(families.iter().cloned());
        let sysreg_users = sysreg_users(device);
        let index: HashMap<&str, usize> = device
            .layouts
            .iter()
            .enumerate()
            .map(|(i, l)| (l.name.as_str(), i))
            .collect();
        // Per layout: the blocks using it, or `None` once something always compiled uses it.
        let mut users: Vec<Option<BTreeSet<usize>>> = vec![Some(BTreeSet::new()); index.len()];
        // A register of a family compiles its layout with the family's feature; any other, always.
        for (s, _) in device
            .sysregs
            .iter()
            .zip(&sysreg_users)
            .filter(|(_, u)| u.is_none())
        {
            if let Some(&i) = index.get(s.layout.name.as_str()) {
                users[i] = None;
            }
        }
        for (s, user) in device.sysregs.iter().zip(&sysreg_users) {
            if let (Some(u), Some(&i)) = (user, index.get(s.layout.name.as_str())) {
                if let Some(set) = &mut users[i] {
                    set.insert(*u);
                }
            }
        }
        // The event set names the layout of its event-type register (`crate::Layout`): always
        // compiled, as the events are.
        if let Some(ty) = device
            .event_type
            .as_deref()
            .and_then(|p| p.strip_prefix("crate::"))
        {
            for (i, l) in device.layouts.iter().enumerate() {
                if super::naming::type_text(l) == ty {
                    users[i] = None;
                }
            }
        }
        // A block a cluster places is compiled with the top-level block it is reached from.
        for (b, block) in device.blocks.iter().enumerate() {
            for r in &block.registers {
                if let Some(Some(set)) = index.get(r.layout.name.as_str()).map(|&i| &mut users[i]) {
                    set.insert(tops[b]);
                }
            }
        }
        // A layout no block uses (and no system register) is the description's own: always.
        for u in &mut users {
            if u.as_ref().is_some_and(BTreeSet::is_empty) {
                *u = None;
            }
        }
        // What a layout names is earlier than it: one pass from the last widens every need.
        for i in (0..users.len()).rev() {
            for j in plan.needs(i) {
                users[j] = match (users[j].take(), &users[i]) {
                    (Some(mut mine), Some(theirs)) => {
                        mine.extend(theirs);
                        Some(mine)
                    }
                    _ => None,
                };
            }
        }
        let groups = groups(device, &features, users);
        Gates {
            gating,
            features,
            families,
            sysreg_users,
            tops,
            groups,
        }
    }

    /// The condition the device's system register `index` is compiled under, and its family's
    /// feature; `None` for a register always compiled, and without gating.
    pub(super) fn sysreg_cfg(&self, index: usize) -> Option<(String, String)> {
        if self.gating == Gating::None {
            return None;
        }
        let user = (*self.sysreg_users.get(index)?)?;
        Some((self.atom(user), self.features[user].clone()))
    }

    /// The top-level blocks, by index: those with a feature of their own.
    pub(super) fn top_blocks(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.tops.len()).filter(|&b| self.tops[b] == b)
    }

    /// The attribute that compiles an item used by `blocks` only when one of them is selected,
    /// with its line break; empty without gating.
    pub(super) fn cfg(&self, blocks: &[usize]) -> String {
        if self.gating == Gating::None {
            return String::new();
        }
        match blocks {
            [b] => format!("#[cfg({})]\n", self.atom(*b)),
            _ => format!(
                "#[cfg(any({}))]\n",
                blocks
                    .iter()
                    .map(|b| self.atom(*b))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// The condition of one user: its feature; for the AArch32 registers, also a target other
    /// than AArch64, where `MRC`/`MCR` do not exist (an AArch64 build leaves them out whole).
    fn atom(&self, user: usize) -> String {
        let feature = &self.features[user];
        if user >= self.features.len() - self.families.len() && feature == AARCH32 {
            format!("all(feature = \"{feature}\", not(target_arch = \"aarch64\"))")
        } else {
            format!("feature = \"{feature}\"")
        }
    }
}

/// The features an instance of a block has of its own, when its name is not its block's
/// (`GPIOB`, an instance of block `GPIOA`): `(instance feature, block feature)`, the instance's
/// name in snake case enabling its block's feature. None where the name is a block's feature, or
/// one the crate has for itself.
pub(super) fn instance_features(device: &Device) -> Vec<(String, String)> {
    let own = block_features(device);
    let mut out: Vec<(String, String)> = Vec::new();
    for inst in &device.instances {
        let Some(b) = device.blocks.iter().position(|b| b.name == inst.block.name) else {
            continue;
        };
        let feature = name(&inst.name, Case::Snake);
        let taken = own.contains(&feature)
            || RESERVED.contains(&feature.as_str())
            || feature == "defmt"
            || out.iter().any(|(f, _)| *f == feature);
        if !taken {
            out.push((feature, own[device.block_tops()[b]].clone()));
        }
    }
    out
}

/// Per system register of `device`, the user index its family has in `Gates::features` (after
/// the blocks), for the layouts' pages; `None` for a register always compiled.
pub(super) fn sysreg_users(device: &Device) -> Vec<Option<usize>> {
    let own = block_features(device);
    let families = families(device, &own);
    device
        .sysregs
        .iter()
        .map(|r| {
            let f = family(r, &own)?;
            families
                .iter()
                .position(|x| *x == f)
                .map(|k| device.blocks.len() + k)
        })
        .collect()
}

/// The family of every AArch32 register.
const AARCH32: &str = "aarch32";

/// The family of a system register, named after the architecture feature that gates it
/// (`pmuv3` for FEAT_PMUv3, the first feature its condition names), or `aarch32` for every AArch32
/// register: a firmware enables the families it uses. A register without a feature condition has
/// none and is always compiled. A family named like a block or a crate feature takes `_regs`.
pub(super) fn family(reg: &crate::ir::SysReg, blocks: &[String]) -> Option<String> {
    let name = if matches!(reg.path, crate::ir::SysRegPath::A64 { .. }) {
        let condition = reg.condition.as_ref()?;
        let feature = *condition.features().first()?;
        let stem = feature.strip_prefix("FEAT_").unwrap_or(feature);
        stem.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect()
    } else {
        AARCH32.to_string()
    };
    let taken = RESERVED.contains(&name.as_str())
        || blocks.contains(&name)
        || ["defmt", "rt", "cortex-m", "critical-section"].contains(&name.as_str());
    Some(if taken { format!("{name}_regs") } else { name })
}

/// The families of the device's system registers, sorted; none for a device without any
/// feature condition (then nothing about its system registers is gated).
fn families(device: &Device, blocks: &[String]) -> Vec<String> {
    if !device.sysregs.iter().any(|r| r.condition.is_some()) {
        return Vec::new();
    }
    let set: BTreeSet<String> = device
        .sysregs
        .iter()
        .filter_map(|r| family(r, blocks))
        .collect();
    set.into_iter().collect()
}

/// Each block's feature: its name in snake case (`io_bank0`), `_block` added to a name the
/// crate's own features take.
fn block_features(device: &Device) -> Vec<String> {
    device
        .blocks
        .iter()
        .map(|b| {
            let n = name(&b.name, Case::Snake);
            if RESERVED.contains(&n.as_str()) {
                format!("{n}_block")
            } else {
                n
            }
        })
        .collect()
}

/// The layouts grouped by their users. Module names end in `_layouts` and are kept apart from
/// every layout's enum module, which shares their namespace (a glob re-export would otherwise
/// lose one of the two).
fn groups(device: &Device, features: &[String], users: Vec<Option<BTreeSet<usize>>>) -> Vec<Group> {
    let taken: BTreeSet<String> = device
        .layouts
        .iter()
        .map(|l| name(&l.name, Case::Snake))
        .collect();
    let mut by_users: BTreeMap<Option<Vec<usize>>, usize> = BTreeMap::new();
    let mut groups: Vec<Group> = Vec::new();
    let mut shared = 0;
    for (i, u) in users.into_iter().enumerate() {
        let key = u.map(|set| set.into_iter().collect::<Vec<_>>());
        let k = *by_users.entry(key.clone()).or_insert_with(|| {
            let module = key.as_ref().map(|blocks| {
                let stem = match blocks[..] {
                    [b] => features[b].clone(),
                    _ => {
                        shared += 1;
                        format!("shared{shared}")
                    }
                };
                // `crate_` (a keyword's escape) makes `crate_layouts`, not `crate__layouts`.
                let mut m = format!("{}_layouts", stem.trim_end_matches('_'));
                while taken.contains(&m) {
                    m.push('_');
                }
                m
            });
            groups.push(Group {
                users: key,
                module,
                layouts: Vec::new(),
            });
            groups.len() - 1
        });
        groups[k].layouts.push(i);
    }
    groups
}
