//! Applying one patch file to a device: select, check, then change.
//!
//! 1. Every operation's selector is resolved against the device as the file finds it. A level
//!    that matches nothing is an error at its key (`patch_selectors_match`).
//! 2. What each operation claims of each element it selected is listed, and the claims are
//!    checked against each other (`patches_do_not_conflict`, naming both operations).
//! 3. The operations are applied phase by phase (their phases are the registry's, in `mod.rs`),
//!    in file order within a phase. Until the end elements are only appended or marked for
//!    removal, so what step 1 selected stays where it was.
//!
//! A register's fields live in its layout, which other registers may share: before a field of
//! it changes, a register whose layout is shared gets a copy of its own (`<BLOCK>_<REGISTER>`),
//! so the patch changes exactly the registers it selects. Layouts the patch leaves unused (the
//! other elements of a new array, deleted registers) are removed.
use std::collections::HashMap;

use super::conflict::{conflicts, Effect};
use super::elem::{reg_name, Elem, Layouts, Reg};
use super::operation::PatchFile;
use super::run::Run;
use super::select::{select, Selected};
use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Layout};
use crate::rules::PATCH_SELECTORS_MATCH;

/// Applies `file` to `device`. Returns the errors (nothing is applied when the selectors or the
/// checks fail) and, for `--explain-patches`, a line per change.
pub fn apply(device: &mut Device, file: &PatchFile) -> (Vec<Diagnostic>, Vec<String>) {
    let layouts = Layouts::of(device);
    let mut errors = Vec::new();
    let mut selected = Vec::new();
    for op in &file.ops {
        match select(device, &layouts, &op.select) {
            Ok(s) => selected.push(s),
            Err(e) => {
                errors.push(e);
                selected.push(Selected {
                    targets: Vec::new(),
                });
            }
        }
    }
    if errors.is_empty() {
        errors.extend(references(device, file));
    }
    for (op, sel) in file.ops.iter().zip(&mut selected) {
        if let Err(e) = op.operation.narrow(device, op, sel) {
            errors.push(e);
        }
    }
    if !errors.is_empty() {
        return (errors, Vec::new());
    }
    let effects = claims(device, file, &selected);
    errors.extend(conflicts(device, &layouts, &effects));
    if !errors.is_empty() {
        return (errors, Vec::new());
    }
    let mut run = Run::new(device, layouts);
    split(&mut run, file, &selected);
    let mut order: Vec<usize> = (0..file.ops.len()).collect();
    order.sort_by_key(|&i| file.ops[i].phase);
    for (k, &i) in order.iter().enumerate() {
        let op = &file.ops[i];
        if op.spec.compares_layouts {
            // What the operations still to apply selected of the layouts follows their fields.
            let moved = run.sweep_layouts();
            for &later in &order[k..] {
                let targets = std::mem::take(&mut selected[later].targets);
                selected[later].targets = targets
                    .into_iter()
                    .filter_map(|(e, c)| Some((run.moved(&moved, e)?, c)))
                    .collect();
            }
        }
        run.label = op.label();
        op.operation.apply(&mut run, op, &selected[i]);
    }
    if run.errors.is_empty() {
        run.sweep();
    }
    (run.errors, run.log)
}

/// Names operations refer to besides their selectors (`[[derive]]`'s `from`, a new instance's
/// block): each must be a block, or one the file adds.
fn references(device: &Device, file: &PatchFile) -> Vec<Diagnostic> {
    let added: Vec<&str> = file
        .ops
        .iter()
        .filter_map(|op| op.operation.adds_block())
        .collect();
    let known = |name: &str| device.blocks.iter().any(|b| b.name == name) || added.contains(&name);
    let mut out = Vec::new();
    for op in &file.ops {
        if let Some((name, pos)) = op.operation.names_block() {
            if !known(name) {
                out.push(Diagnostic::error(
                    PATCH_SELECTORS_MATCH,
                    pos,
                    format!("no block is named `{name}`"),
                ));
            }
        }
    }
    out
}

/// Every operation's claims, in file order.
fn claims(device: &Device, file: &PatchFile, selected: &[Selected]) -> Vec<Effect> {
    let mut out = Vec::new();
    for (i, (op, sel)) in file.ops.iter().zip(selected).enumerate() {
        for claim in op.operation.claims(device, op, sel) {
            out.push(Effect {
                claim,
                op: i,
                kind: op.spec.name,
            });
        }
    }
    out
}

/// Gives each register whose layout an operation changes a layout of its own, when it shares
/// one.
fn split(run: &mut Run, file: &PatchFile, selected: &[Selected]) {
    let mut users: HashMap<String, usize> = HashMap::new();
    for name in run
        .device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .map(|r| &r.layout.name)
        .chain(run.device.sysregs.iter().map(|s| &s.layout.name))
    {
        *users.entry(name.clone()).or_default() += 1;
    }
    let mut regs: Vec<(Reg, usize)> = Vec::new();
    for (i, (op, sel)) in file.ops.iter().zip(selected).enumerate() {
        for (elem, _) in &sel.targets {
            match *elem {
                Elem::Field(r, _) | Elem::Value(r, _, _) | Elem::Reg(r)
                    if op.operation.changes_layout(*elem) =>
                {
                    regs.push((r, i))
                }
                _ => {}
            }
        }
    }
    regs.sort();
    regs.dedup_by_key(|(r, _)| *r);
    for (reg, op) in regs {
        let Some(l) = run.layout_of(reg) else {
            continue;
        };
        let old = run.device.layouts[l].name.clone();
        if users.get(&old).copied().unwrap_or(0) < 2 {
            continue;
        }
        *users.entry(old.clone()).or_default() -= 1;
        let wanted = match reg {
            Reg::Block(b, r) => format!(
                "{}_{}",
                run.device.blocks[b].name, run.device.blocks[b].registers[r].name
            ),
            Reg::Sys(s) => run.device.sysregs[s].name.clone(),
        };
        let name = run.layouts.free_name(&wanted);
        let copy = Layout {
            name: name.clone(),
            ..run.device.layouts[l].clone()
        };
        run.layouts.push(run.device, copy);
        match reg {
            Reg::Block(b, r) => run.device.blocks[b].registers[r].layout.name = name.clone(),
            Reg::Sys(s) => run.device.sysregs[s].layout.name = name.clone(),
        }
        let at = reg_name(run.device, reg);
        run.label = file.ops[op].label();
        run.note(format!(
            "{at}: layout `{old}` is shared, so {at} gets a copy of its own, `{name}`"
        ));
    }
}
