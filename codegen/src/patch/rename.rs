//! `[[rename]]`: renames every selected element; `{1}`, `{2}` ... in the new name stand for what
//! the wildcards of the deepest glob matched. What names an element follows it: a block's
//! instances and the clusters placing it, a register's aliases, a cluster's alternates. Claims
//! each element's new name.
use serde::Deserialize;
use toml::Spanned as S;

use super::conflict::{Claim, What};
use super::elem::{Elem, Reg};
use super::glob::{self, Glob};
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, Table};
use super::run::Run;
use super::select::{needs_selector, Level, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Device, Pos};
use crate::rules::PATCH_OPERATIONS_APPLY;

pub const SPEC: Spec = Spec::new("rename", &["to"], check::<Raw>, read);

#[derive(Deserialize)]
struct Raw {
    to: Option<S<String>>,
}

/// The new name, a template of the selector's captures.
#[derive(Debug)]
struct Rename {
    to: String,
    to_pos: Pos,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    if select.level() == Level::Device {
        needs_selector(r, "rename", pos);
        return None;
    }
    let raw: Raw = read_raw(r, table)?;
    let Some(to) = &raw.to else {
        return refused(r, pos, "[[rename]] needs `to`: the new name");
    };
    let captures = select.deepest().map_or(0, Glob::wildcards);
    if let Err(message) = glob::check_template(to.get_ref(), captures) {
        r.error(to, message);
        return None;
    }
    Some(Box::new(Rename {
        to: to.get_ref().clone(),
        to_pos: r.pos(to),
    }))
}

impl Rename {
    fn new_name(&self, captures: &[String]) -> String {
        glob::expand(&self.to, captures).unwrap_or_else(|_| self.to.clone())
    }
}

impl Operation for Rename {
    fn claims(&self, _: &Device, _: &Op, sel: &Selected) -> Vec<Claim> {
        sel.targets
            .iter()
            .map(|(elem, captures)| Claim {
                elem: *elem,
                what: What::Rename(self.new_name(captures)),
                pos: self.to_pos.clone(),
            })
            .collect()
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        for (elem, captures) in &sel.targets {
            let new = self.new_name(captures);
            let at = run.path(*elem);
            if rename(run, *elem, &new, &self.to_pos).is_some() {
                run.note(format!("{at} → {new}"));
            }
        }
    }
}

/// Renames `elem` to `new`, and what names it; `None` when nothing was renamed.
fn rename(run: &mut Run, elem: Elem, new: &str, to_pos: &Pos) -> Option<()> {
    let device = &mut *run.device;
    match elem {
        Elem::Block(b) => {
            let old = std::mem::replace(&mut device.blocks[b].name, new.to_string());
            let placing = device
                .blocks
                .iter_mut()
                .flat_map(|parent| &mut parent.clusters);
            let refs = device.instances.iter_mut().map(|i| &mut i.block);
            for r in refs.chain(placing.map(|c| &mut c.block)) {
                if r.name == old {
                    r.name = new.to_string();
                }
            }
        }
        Elem::Instance(i) => device.instances[i].name = new.to_string(),
        Elem::Reg(Reg::Block(b, r)) => {
            let block = &mut device.blocks[b];
            let old = std::mem::replace(&mut block.registers[r].name, new.to_string());
            for other in &mut block.registers {
                if let Some(alias) = other.alias_of.as_mut().filter(|a| a.name == old) {
                    alias.name = new.to_string();
                }
            }
        }
        Elem::Reg(Reg::Sys(s)) => device.sysregs[s].name = new.to_string(),
        Elem::Cluster(b, c) => rename_cluster(run, b, c, new, to_pos)?,
        Elem::Field(reg, f) => {
            let l = run.layouts.of_reg(device, reg)?;
            device.layouts[l].fields[f].name = new.to_string();
        }
        Elem::Value(reg, f, v) => {
            let l = run.layouts.of_reg(device, reg)?;
            let field = &mut device.layouts[l].fields[f];
            if field.enum_default.as_deref() == Some(field.enums[v].name.as_str()) {
                field.enum_default = Some(new.to_string());
            }
            field.enums[v].name = new.to_string();
        }
        Elem::Device => return None,
    }
    Some(())
}

/// Renames a cluster, and the alternates that name it; an array's name holds `<n>` once, where
/// the index goes, and a single cluster's none.
fn rename_cluster(run: &mut Run, b: usize, c: usize, new: &str, to_pos: &Pos) -> Option<()> {
    let array = run.device.blocks[b].clusters[c].array.is_some();
    let indices = new.matches("<n>").count();
    if indices != usize::from(array) {
        let at = run.path(Elem::Cluster(b, c));
        let message = if array {
            format!("`{at}` is an array: its name holds `<n>` once, where the index goes, and `{new}` does not")
        } else {
            format!("`{at}` is no array: its name holds no `<n>`, and `{new}` does")
        };
        run.errors
            .push(Diagnostic::error(PATCH_OPERATIONS_APPLY, to_pos, message));
        return None;
    }
    let block = &mut run.device.blocks[b];
    let old = std::mem::replace(&mut block.clusters[c].name, new.to_string());
    for other in &mut block.clusters {
        if let Some(alias) = other.alias_of.as_mut().filter(|a| a.name == old) {
            alias.name = new.to_string();
        }
    }
    Some(())
}
