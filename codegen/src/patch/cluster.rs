//! `[[cluster]]`: makes a block of a repeated group of registers, placed in their block by a
//! cluster: `register`'s `<n>` numbers the groups (none: one group), the rest of each name is a
//! member of the new block (`CH3_READ_ADDR` is member `READ_ADDR` of group 3); `members` keeps
//! the registers whose member one of its globs matches. The groups must be alike and evenly
//! spaced (`cluster_groups`). Claims each register as a member, named by the cluster.
use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde::Deserialize;
use toml::Spanned as S;

use super::alike::rename_layout;
use super::cluster_groups::{Groups, Span};
use super::conflict::{on_each, Claim, What};
use super::elem::{Elem, Reg};
use super::glob::Glob;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, Table};
use super::run::{short, Run};
use super::select::{glob, Level, Numbered, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Block, BlockArray, Cluster as IrCluster, Device, NameRef, Pos};
use crate::rules::{PATCHES_DO_NOT_CONFLICT, PATCH_SELECTORS_MATCH};

pub const SPEC: Spec = Spec::new(
    "cluster",
    &["name", "block_name", "members"],
    check::<Raw>,
    read,
)
.numbered(Numbered::RegistersWhenGiven)
.comparing_layouts();

#[derive(Deserialize)]
struct Raw {
    name: Option<S<String>>,
    block_name: Option<S<String>>,
    members: Option<Vec<S<String>>>,
}

#[derive(Debug)]
struct Cluster {
    /// The registers of the groups (`CH<n>_*`).
    glob: Glob,
    /// The cluster's name (`CH<n>`).
    name: (String, Pos),
    /// The new block's name, when not `<BLOCK>_<name without <n>>`.
    block_name: Option<(String, Pos)>,
    /// Globs on the member names: only the registers whose member one matches are taken.
    members: Vec<Glob>,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    let (Some(registers), Level::Register) = (&select.register, select.level()) else {
        return refused(r, pos, "[[cluster]] selects the registers of a repeated group: `block = \"DMA\"`, `register = \"CH<n>_*\"`, `<n>` standing for the group's number");
    };
    let raw: Raw = read_raw(r, table)?;
    let Some(name) = &raw.name else {
        return refused(
            r,
            pos,
            "[[cluster]] needs `name`: the cluster's name (`CH<n>` for an array of groups)",
        );
    };
    let text = name.get_ref();
    let array = registers.has_index();
    let problem = if text.replace("<n>", "").is_empty() {
        Some(format!(
            "`{text}` is no name: a cluster's name holds more than `<n>`"
        ))
    } else if array && text.matches("<n>").count() != 1 {
        Some(format!("the registers are numbered (`<n>`), so the cluster is an array and its name holds `<n>` once, where the index goes: `{text}` does not"))
    } else if !array && text.contains("<n>") {
        Some(format!("`{text}` holds `<n>`, but the register selector does not: one group makes one cluster, not an array"))
    } else {
        None
    };
    if let Some(message) = problem {
        r.error(name, message);
        return None;
    }
    let mut members = Vec::new();
    for m in raw.members.iter().flatten() {
        members.extend(glob(r, &Some(m.clone()), false)?);
    }
    if raw.members.as_ref().is_some_and(Vec::is_empty) {
        return refused(r, pos, "`members = []` takes no register; leave `members` out to take every register the selector matches");
    }
    Some(Box::new(Cluster {
        glob: registers.clone(),
        name: (text.clone(), r.pos(name)),
        block_name: raw
            .block_name
            .as_ref()
            .map(|n| (n.get_ref().clone(), r.pos(n))),
        members,
    }))
}

impl Operation for Cluster {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Member("cluster"), &op.pos)
    }

    /// Keeps the registers whose member name one of `members` matches; each must match one
    /// (`patch_selectors_match`).
    fn narrow(&self, device: &Device, _: &Op, sel: &mut Selected) -> Result<(), Diagnostic> {
        if self.members.is_empty() {
            return Ok(());
        }
        let member = |e: &Elem| match *e {
            Elem::Reg(Reg::Block(b, r)) => self
                .glob
                .member(&device.blocks[b].registers[r].name)
                .map(|(_, m)| m),
            _ => None,
        };
        for m in &self.members {
            if sel
                .targets
                .iter()
                .any(|(e, _)| member(e).is_some_and(|name| m.is_match(&name)))
            {
                continue;
            }
            let found: BTreeSet<String> =
                sel.targets.iter().filter_map(|(e, _)| member(e)).collect();
            let mut found: Vec<String> = found.into_iter().collect();
            found.truncate(6);
            return Err(Diagnostic::error(
                PATCH_SELECTORS_MATCH,
                &m.pos,
                format!(
                    "`{}` matches no member of the groups `{}` selects (members: {}{})",
                    m.text,
                    self.glob.text,
                    found.join(", "),
                    if found.len() == 6 { ", ..." } else { "" }
                ),
            ));
        }
        sel.targets.retain(|(e, _)| {
            member(e).is_some_and(|name| self.members.iter().any(|m| m.is_match(&name)))
        });
        Ok(())
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        // Block → group number → (member name, register index).
        let mut by_block: BTreeMap<usize, BTreeMap<u32, Vec<(String, usize)>>> = BTreeMap::new();
        for (elem, _) in &sel.targets {
            let Elem::Reg(Reg::Block(b, r)) = *elem else {
                continue;
            };
            if let Some((n, member)) = self.glob.member(&run.device.blocks[b].registers[r].name) {
                let group = by_block.entry(b).or_default().entry(n.unwrap_or(0));
                group.or_default().push((member, r));
            }
        }
        for (b, groups) in by_block {
            if let Err(e) = self.fold(run, b, groups) {
                run.errors.push(e);
            }
        }
    }
}

impl Cluster {
    /// Folds block `b`'s groups (number → members) into a cluster of a new block.
    fn fold(
        &self,
        run: &mut Run,
        b: usize,
        groups: BTreeMap<u32, Vec<(String, usize)>>,
    ) -> Result<(), Diagnostic> {
        let groups = Groups::new(run, b, &self.glob, groups);
        groups.check()?;
        let span = groups.span()?;
        groups.nothing_inside(&span, &run.dead)?;
        let (model, first, last) = groups.model();
        let taken: HashSet<usize> = groups.registers();
        let new_block = self.names_free(run, b, &taken)?;
        let renamed = self.build(run, b, (&model, &taken), &span, &new_block);
        let (parent, name, glob) = (&run.device.blocks[b].name, &self.name.0, &self.glob.text);
        let count = span.count;
        let members: Vec<&str> = model.iter().map(|(m, _)| m.as_str()).collect();
        let line = format!(
            "{parent}: {} of `{glob}` → cluster {parent}.{name} of block {} ({} members: {}){}, offset {:#x}, {:#x} bytes; {} registers removed, {} layouts renamed after their members",
            if count == 1 { "the group".to_string() } else { format!("{count} groups ({first} .. {last})") },
            new_block.0,
            members.len(),
            short(&members.join(", ")),
            if span.array { format!(", count {count}, stride {:#x}", span.stride) } else { String::new() },
            span.base,
            span.size,
            taken.len(),
            renamed,
        );
        run.note(line);
        Ok(())
    }

    /// The new block's name and position, once the cluster's name is free in block `b` (but for
    /// the registers `taken`) and the block's in the device.
    fn names_free(
        &self,
        run: &Run,
        b: usize,
        taken: &HashSet<usize>,
    ) -> Result<(String, Pos), Diagnostic> {
        let parent = &run.device.blocks[b];
        let (name, name_pos) = &self.name;
        let register = parent.registers.iter().enumerate().find(|(r, x)| {
            x.name == *name
                && !taken.contains(r)
                && !run.dead.contains(&Elem::Reg(Reg::Block(b, *r)))
        });
        let taken_by = register.map(|(_, x)| x.pos.clone()).or_else(|| {
            parent
                .clusters
                .iter()
                .find(|c| c.name == *name)
                .map(|c| c.pos.clone())
        });
        if let Some(pos) = taken_by {
            return Err(Diagnostic::error(
                PATCHES_DO_NOT_CONFLICT,
                name_pos,
                format!(
                    "block `{}` already has a register or cluster named `{name}`",
                    parent.name
                ),
            )
            .with_note(&pos, "defined here".to_string()));
        }
        let (new_block, new_pos) = match &self.block_name {
            Some((n, at)) => (n.clone(), at.clone()),
            None => (
                format!("{}_{}", parent.name, name.replace("<n>", "")),
                name_pos.clone(),
            ),
        };
        if let Some(other) = run.device.blocks.iter().find(|x| x.name == new_block) {
            return Err(Diagnostic::error(
                PATCHES_DO_NOT_CONFLICT,
                &new_pos,
                format!(
                    "the cluster's block would be `{new_block}`, the name of a block there is{}",
                    if self.block_name.is_some() {
                        ""
                    } else {
                        "; name it with `block_name`"
                    }
                ),
            )
            .with_note(&other.pos, "defined here".to_string()));
        }
        Ok((new_block, new_pos))
    }

    /// The new block: group 0's registers (`model`, member and register) named after their
    /// members, at offsets from the group's start, each layout renamed after the member where
    /// only it uses it; the registers `taken` go, and block `b` places the new block. How many
    /// layouts were renamed.
    fn build(
        &self,
        run: &mut Run,
        b: usize,
        (model, taken): (&[(String, usize)], &HashSet<usize>),
        span: &Span,
        (new_block, new_pos): &(String, Pos),
    ) -> usize {
        let plain = self.name.0.replace("<n>", "");
        let mut registers = Vec::new();
        let mut renamed = 0;
        for (m, r) in model {
            let mut x = run.device.blocks[b].registers[*r].clone();
            let wanted = x.layout.name.replacen(&x.name, &format!("{plain}_{m}"), 1);
            if rename_layout(run, &x.layout.name.clone(), &wanted) {
                x.layout.name = wanted;
                renamed += 1;
            }
            if let Some(t) = x.alias_of.as_mut() {
                let registers = &run.device.blocks[b].registers;
                if let Some((tm, _)) = model.iter().find(|(_, o)| registers[*o].name == t.name) {
                    t.name = tm.clone();
                }
            }
            x.offset -= span.base;
            x.name = m.clone();
            registers.push(x);
        }
        for r in taken {
            run.dead.insert(Elem::Reg(Reg::Block(b, *r)));
        }
        let parent = &run.device.blocks[b];
        let doc = if span.array {
            format!(
                "{}'s registers `{}`, one group of them per element",
                parent.name, self.glob.text
            )
        } else {
            format!("{}'s registers `{}`", parent.name, self.glob.text)
        };
        let access_width = parent.access_width;
        run.device.blocks[b].clusters.push(IrCluster {
            name: self.name.0.clone(),
            block: NameRef {
                name: new_block.clone(),
                pos: new_pos.clone(),
            },
            offset: span.base,
            array: span.array.then_some(BlockArray {
                count: span.count,
                stride: span.stride,
            }),
            index_names: Vec::new(),
            alias_of: None,
            doc: Some(doc.clone()),
            pos: self.name.1.clone(),
        });
        run.device.blocks.push(Block {
            name: new_block.clone(),
            size: span.size,
            access_width,
            doc: Some(doc),
            source: None,
            pos: new_pos.clone(),
            registers,
            clusters: Vec::new(),
            lock: None,
        });
        renamed
    }
}
