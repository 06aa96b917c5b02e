//! The groups of registers a `[[cluster]]` folds in one block, and what they must be: numbered
//! from 0 without gaps (two or more for an array), each member named once, alike (the same
//! members at the same offsets from their group's start, with the same layouts, accesses and
//! aliases), evenly spaced, no group wider than the stride, and no other register in between.
use std::collections::{BTreeMap, HashSet};

use super::alike::unlike;
use super::elem::{Elem, Layouts, Reg};
use super::glob::Glob;
use super::run::Run;
use crate::diagnostic::Diagnostic;
use crate::ir::{BlockRegister, Device};
use crate::rules::PATCH_OPERATIONS_APPLY;

/// One block's groups: number, and members (member name, register) by offset.
pub struct Groups<'a> {
    device: &'a Device,
    layouts: &'a Layouts,
    b: usize,
    glob: &'a Glob,
    groups: Vec<(u32, Vec<(String, usize)>)>,
}

/// Where the groups lie in their block.
pub struct Span {
    /// Whether the groups are numbered: an array of clusters.
    pub array: bool,
    /// Group 0's lowest offset.
    pub base: u64,
    /// Bytes between two groups (0 for one).
    pub stride: u64,
    /// The bytes of one group.
    pub size: u64,
    pub count: u32,
}

impl<'a> Groups<'a> {
    pub fn new(
        run: &'a Run,
        b: usize,
        glob: &'a Glob,
        groups: BTreeMap<u32, Vec<(String, usize)>>,
    ) -> Self {
        let registers = &run.device.blocks[b].registers;
        let groups = groups
            .into_iter()
            .map(|(n, mut members)| {
                members.sort_by_key(|(m, r)| (registers[*r].offset, m.clone()));
                (n, members)
            })
            .collect();
        Groups {
            device: run.device,
            layouts: &run.layouts,
            b,
            glob,
            groups,
        }
    }

    fn reg(&self, r: usize) -> &'a BlockRegister {
        &self.device.blocks[self.b].registers[r]
    }

    fn first_reg(&self, k: usize) -> usize {
        self.groups[k].1[0].1
    }

    fn base(&self, k: usize) -> u64 {
        self.reg(self.first_reg(k)).offset
    }

    /// An error at the glob, pointing at register `at`.
    fn fail(&self, message: String, at: Option<usize>) -> Diagnostic {
        let d = Diagnostic::error(PATCH_OPERATIONS_APPLY, &self.glob.pos, message);
        match at {
            Some(r) => d.with_note(&self.reg(r).pos, "this register".to_string()),
            None => d,
        }
    }

    fn block(&self) -> &'a str {
        &self.device.blocks[self.b].name
    }

    /// Group 0's members, and the first registers of the first and the last group.
    pub fn model(&self) -> (Vec<(String, usize)>, String, String) {
        let last = self.groups.len() - 1;
        (
            self.groups[0].1.clone(),
            self.reg(self.first_reg(0)).name.clone(),
            self.reg(self.first_reg(last)).name.clone(),
        )
    }

    /// Every register of every group.
    pub fn registers(&self) -> HashSet<usize> {
        self.groups
            .iter()
            .flat_map(|(_, g)| g.iter().map(|(_, r)| *r))
            .collect()
    }

    /// Numbered, named, alike, and aliases leading to members.
    pub fn check(&self) -> Result<(), Diagnostic> {
        self.numbered()?;
        self.named()?;
        for k in 1..self.groups.len() {
            self.alike(k)?;
        }
        self.aliases()
    }

    /// Numbered from 0 without gaps; two or more for an array.
    fn numbered(&self) -> Result<(), Diagnostic> {
        let glob = &self.glob.text;
        if let Some((k, (n, members))) = self
            .groups
            .iter()
            .enumerate()
            .find(|(k, (n, _))| *n as usize != *k)
        {
            let message = format!(
                "the groups `{glob}` matches in block `{}` are not numbered from 0 without gaps: number {k} is missing (the next is {n})",
                self.block()
            );
            return Err(self.fail(message, Some(members[0].1)));
        }
        if self.glob.has_index() && self.groups.len() < 2 {
            let message = format!(
                "`{glob}` matches one group of block `{}`: a cluster array needs two or more (leave `<n>` out of both names for one cluster)",
                self.block()
            );
            return Err(self.fail(message, Some(self.first_reg(0))));
        }
        Ok(())
    }

    /// Members: named, once each per group.
    fn named(&self) -> Result<(), Diagnostic> {
        for (_, members) in &self.groups {
            for (i, (m, r)) in members.iter().enumerate() {
                if m.is_empty() {
                    let message = format!(
                        "`{}` leaves nothing of `{}` to name its member: put `*` where the member's name is (`CH<n>_*`)",
                        self.glob.text,
                        self.reg(*r).name
                    );
                    return Err(self.fail(message, Some(*r)));
                }
                if let Some((_, other)) = members[..i].iter().find(|(o, _)| o == m) {
                    let (a, b) = (&self.reg(*other).name, &self.reg(*r).name);
                    let message = format!("`{a}` and `{b}` are both member `{m}` of one group");
                    return Err(self.fail(message, Some(*r)));
                }
            }
        }
        Ok(())
    }

    /// Group `k` is alike group 0: the same members at the same places, with the same layouts,
    /// accesses and aliases.
    fn alike(&self, k: usize) -> Result<(), Diagnostic> {
        let (model, (n, members)) = (&self.groups[0].1, &self.groups[k]);
        let (base0, base) = (self.base(0), self.base(k));
        let unlike_err = |why: String, r: usize| {
            self.fail(
                format!(
                    "the groups `{}` matches in block `{}` are not alike: {why}; make them alike first (a [[modify]], [[rename]] or [[delete]] of what differs)",
                    self.glob.text,
                    self.block()
                ),
                Some(r),
            )
        };
        for (m, r0) in model {
            let Some((_, r)) = members.iter().find(|(o, _)| o == m) else {
                let why = format!(
                    "group {n} has no member `{m}` (group 0's is {})",
                    self.reg(*r0).name
                );
                return Err(unlike_err(why, self.first_reg(k)));
            };
            let (a, x) = (self.reg(*r0), self.reg(*r));
            let (rel0, rel) = (a.offset - base0, x.offset - base);
            let why = if rel0 != rel {
                format!(
                    "{} is at {rel:#x} in its group, {} at {rel0:#x} in group 0",
                    x.name, a.name
                )
            } else if let Some(why) =
                unlike(self.device, self.layouts, &a.layout.name, &x.layout.name)
            {
                format!("{} differs from {}: {why}", x.name, a.name)
            } else if (&a.access, &a.read_action, &a.array, self.alias(model, a))
                != (&x.access, &x.read_action, &x.array, self.alias(members, x))
            {
                format!(
                    "{} differs from {} in its access, read action, array or alias",
                    x.name, a.name
                )
            } else {
                continue;
            };
            return Err(unlike_err(why, *r));
        }
        if let Some((m, r)) = members
            .iter()
            .find(|(m, _)| !model.iter().any(|(o, _)| o == m))
        {
            let why = format!(
                "{} is member `{m}`, which group 0 does not have",
                self.reg(*r).name
            );
            return Err(unlike_err(why, *r));
        }
        Ok(())
    }

    /// The member of `group` that `reg` is an alias of, if it is an alias.
    fn alias(&self, group: &[(String, usize)], reg: &BlockRegister) -> Option<String> {
        reg.alias_of.as_ref().map(|t| {
            group
                .iter()
                .find(|(_, o)| self.reg(*o).name == t.name)
                .map_or_else(|| "(not a member)".to_string(), |(m, _)| m.clone())
        })
    }

    /// An alias leads to a member.
    fn aliases(&self) -> Result<(), Diagnostic> {
        let model = &self.groups[0].1;
        for (m, r) in model {
            if let Some(t) = &self.reg(*r).alias_of {
                if !model.iter().any(|(_, o)| self.reg(*o).name == t.name) {
                    let message = format!(
                        "{} (member `{m}`) is an alias of {}, which is not in the cluster: take both or neither",
                        self.reg(*r).name,
                        t.name
                    );
                    return Err(self.fail(message, Some(*r)));
                }
            }
        }
        Ok(())
    }

    /// The bytes register `r` takes from group 0's start to its end.
    fn width(&self, r: usize) -> u64 {
        let x = self.reg(r);
        let bytes = self
            .device
            .layout(&x.layout.name)
            .map_or(0, |l| u64::from(l.width / 8));
        let extent = x
            .array
            .map_or(0, |a| a.stride * u64::from(a.count.saturating_sub(1)));
        x.offset - self.base(0) + extent + bytes
    }

    /// Where the groups lie: evenly spaced, each within one stride.
    pub fn span(&self) -> Result<Span, Diagnostic> {
        let model = &self.groups[0].1;
        let array = self.glob.has_index();
        let base0 = self.base(0);
        let size = model.iter().map(|(_, r)| self.width(*r)).max().unwrap_or(0);
        let span = |stride| Span {
            array,
            base: base0,
            stride,
            size,
            count: self.groups.len() as u32,
        };
        if !array {
            return Ok(span(0));
        }
        let stride = self.base(1).wrapping_sub(base0);
        let name = |k: usize| &self.reg(self.first_reg(k)).name;
        if self.base(1) <= base0 {
            let message = format!(
                "group 1 ({} at {:#x}) is not above group 0 ({} at {base0:#x}): a cluster array's elements rise",
                name(1),
                self.base(1),
                name(0)
            );
            return Err(self.fail(message, Some(self.first_reg(1))));
        }
        if let Some(k) = (2..self.groups.len()).find(|&k| self.base(k) != base0 + stride * k as u64)
        {
            let message = format!(
                "the groups are not evenly spaced: group {k} starts at {:#x} ({}), not {:#x} (group 0 at {base0:#x} and a stride of {stride:#x})",
                self.base(k),
                name(k),
                base0 + stride * k as u64
            );
            return Err(self.fail(message, Some(self.first_reg(k))));
        }
        if size > stride {
            let widest = model.iter().map(|(_, r)| *r).max_by_key(|r| self.width(*r));
            let message = format!(
                "a group spans {size:#x} bytes ({}..), more than the stride of {stride:#x}: the elements would overlap",
                name(0)
            );
            return Err(self.fail(message, Some(widest.unwrap_or(self.first_reg(0)))));
        }
        Ok(span(stride))
    }

    /// No register of the block but the groups' (or one removed) lies inside a group.
    pub fn nothing_inside(&self, span: &Span, dead: &HashSet<Elem>) -> Result<(), Diagnostic> {
        let taken = self.registers();
        let end = span.base + span.stride * u64::from(span.count.saturating_sub(1)) + span.size;
        let registers = &self.device.blocks[self.b].registers;
        let inside = registers.iter().enumerate().find(|(r, o)| {
            !taken.contains(r)
                && !dead.contains(&Elem::Reg(Reg::Block(self.b, *r)))
                && o.offset >= span.base
                && o.offset < end
                && (!span.array || (o.offset - span.base) % span.stride < span.size)
        });
        match inside {
            Some((r, other)) => Err(self.fail(
                format!(
                    "{} (offset {:#x}) lies inside the cluster's span but is not one of its members: take it (`members`, or a wider `register`) or move it first",
                    other.name, other.offset
                ),
                Some(r),
            )),
            None => Ok(()),
        }
    }
}
