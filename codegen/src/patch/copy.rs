//! `[[copy]]`: copies the selected block under a new name (its registers sharing the block's
//! layouts, and the blocks its clusters place copied with it, named after the copy), or the
//! selected instance as a new instance of its block; `base` places an instance of the copy.
//! Claims a change of each element it copies.
use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned as S;

use super::conflict::{on_each, Claim, What};
use super::elem::Elem;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, Table};
use super::run::{instance, Run};
use super::select::{Level, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Block, Device, Instance, Pos};
use crate::rules::PATCHES_DO_NOT_CONFLICT;

pub const SPEC: Spec = Spec::new("copy", &["to", "base"], check::<Raw>, read);

#[derive(Deserialize)]
struct Raw {
    to: Option<S<String>>,
    base: Option<S<i64>>,
}

/// The copy's name, and where an instance of it goes.
#[derive(Debug)]
struct Copy {
    to: String,
    to_pos: Pos,
    base: Option<u64>,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    let level = select.level();
    if !matches!(level, Level::Block | Level::Instance) {
        let message = format!(
            "[[copy]] copies a block or an instance, not {}",
            level.as_str()
        );
        return refused(r, pos, message);
    }
    let raw: Raw = read_raw(r, table)?;
    let Some(to) = &raw.to else {
        return refused(r, pos, "[[copy]] needs `to`: the copy's name");
    };
    let base = match &raw.base {
        Some(b) => Some(r.unsigned(b, "`base`", u64::MAX)?),
        None => None,
    };
    if level == Level::Instance && base.is_none() {
        return refused(
            r,
            pos,
            "[[copy]] of an instance needs `base`: the new instance's address",
        );
    }
    Some(Box::new(Copy {
        to: to.get_ref().clone(),
        to_pos: r.pos(to),
        base,
    }))
}

impl Operation for Copy {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Change, &op.pos)
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        for (elem, _) in &sel.targets {
            match *elem {
                Elem::Block(b) => {
                    if let Err(e) = self.block(run, b) {
                        run.errors.push(e);
                    }
                }
                Elem::Instance(i) => self.instance(run, i),
                _ => {}
            }
        }
    }
}

impl Copy {
    /// Copies block `b`, with the blocks its clusters place, at any depth.
    fn block(&self, run: &mut Run, b: usize) -> Result<(), Diagnostic> {
        let from = run.device.blocks[b].name.clone();
        let names = self.nested_names(run.device, &from)?;
        let renamed = |name: &str| names.get(name).cloned().unwrap_or_else(|| name.to_string());
        let copy = |block: &Block, name: String| {
            let mut copy = Block {
                name,
                ..block.clone()
            };
            for cluster in &mut copy.clusters {
                cluster.block.name = renamed(&cluster.block.name);
            }
            copy
        };
        let copied = copy(&run.device.blocks[b], self.to.clone());
        run.device.blocks.push(copied);
        run.note(format!(
            "block {from} copied as {} (its registers share {from}'s layouts)",
            self.to
        ));
        for (old, new) in &names {
            let Some(nested) = run.device.blocks.iter().find(|x| x.name == *old) else {
                continue;
            };
            let copied = copy(nested, new.clone());
            run.device.blocks.push(copied);
            run.note(format!(
                "block {old} copied as {new}, placed by the copy's clusters"
            ));
        }
        if let Some(base) = self.base {
            let source = &run.device.blocks[b];
            let new = instance(&self.to, &self.to, base, source.doc.clone(), &source.pos);
            run.device.instances.push(new);
            run.note(format!(
                "instance {to} of block {to} added at {base:#x}",
                to = self.to
            ));
        }
        Ok(())
    }

    /// The names of the copies of the blocks `from`'s clusters place (at any depth): `from`'s
    /// name at their start becomes the copy's (`DMA_CH` → `DMA2_CH`), else the copy's name and
    /// `_` go before theirs. Each must be free.
    fn nested_names(
        &self,
        device: &Device,
        from: &str,
    ) -> Result<BTreeMap<String, String>, Diagnostic> {
        let mut names = BTreeMap::new();
        let mut todo = vec![from.to_string()];
        while let Some(parent) = todo.pop() {
            let Some(block) = device.blocks.iter().find(|x| x.name == parent) else {
                continue;
            };
            for cluster in &block.clusters {
                let old = &cluster.block.name;
                if names.contains_key(old) || old == from {
                    continue;
                }
                let new = match old.strip_prefix(from) {
                    Some(rest) => format!("{}{rest}", self.to),
                    None => format!("{}_{old}", self.to),
                };
                let message = format!("the copy of block `{old}`, which a cluster of `{from}` places, would be `{new}`, the name of a block there is");
                if let Some(there) = device.blocks.iter().find(|x| x.name == new) {
                    return Err(
                        Diagnostic::error(PATCHES_DO_NOT_CONFLICT, &self.to_pos, message)
                            .with_note(&there.pos, "defined here".to_string()),
                    );
                }
                if new == self.to || names.values().any(|n| *n == new) {
                    let message = format!("the copy of block `{old}`, which a cluster of `{from}` places, would be `{new}`, the name of another copy");
                    return Err(Diagnostic::error(
                        PATCHES_DO_NOT_CONFLICT,
                        &self.to_pos,
                        message,
                    ));
                }
                names.insert(old.clone(), new);
                todo.push(old.clone());
            }
        }
        Ok(names)
    }

    /// A new instance of instance `i`'s block.
    fn instance(&self, run: &mut Run, i: usize) {
        let from = &run.device.instances[i];
        let copy = Instance {
            name: self.to.clone(),
            base: self.base.unwrap_or(from.base),
            interrupts: Vec::new(),
            alias_of: None,
            ..from.clone()
        };
        let line = format!(
            "instance {} copied as {} at {:#x}: one block, {}, for both",
            from.name, self.to, copy.base, from.block.name
        );
        run.device.instances.push(copy);
        run.note(line);
    }
}
