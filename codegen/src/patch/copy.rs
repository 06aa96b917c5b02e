//! `[[copy]]`: copies the selected block under a new name (its registers sharing the block's
//! layouts), or the selected instance as a new instance of its block; `base` places an instance
//! of the copy.
//! Claims a change of each element it copies.

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
use crate::rules::PATCH_OPERATIONS_APPLY;

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
        base,
    }))
}

impl Operation for Copy {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Change, &op.pos)
    }

    fn apply(&self, run: &mut Run, op: &Op, sel: &Selected) {
        for (elem, _) in &sel.targets {
            match *elem {
                Elem::Block(b) => {
                    if let Err(e) = self.block(run, b, &op.pos) {
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
    /// Copies block `b`; its registers share its layouts.
    fn block(&self, run: &mut Run, b: usize, pos: &Pos) -> Result<(), Diagnostic> {
        let from = run.device.blocks[b].name.clone();
        // The blocks its clusters place are placed by one block each: a copy would place
        // them twice.
        if !run.device.blocks[b].clusters.is_empty() {
            return Err(Diagnostic::error(
                PATCH_OPERATIONS_APPLY,
                pos,
                format!("block `{from}` has clusters, and the blocks they place cannot be shared by a copy; copy the instance instead (another instance of the same block)"),
            ));
        }
        let copied = Block {
            name: self.to.clone(),
            ..run.device.blocks[b].clone()
        };
        run.device.blocks.push(copied);
        run.note(format!(
            "block {from} copied as {} (its registers share {from}'s layouts)",
            self.to
        ));
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
