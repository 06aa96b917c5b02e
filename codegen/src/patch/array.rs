//! `[[array]]`: makes one register array of the numbered registers `register`'s `<n>` matches in
//! each selected block: numbered from 0 without gaps, evenly spaced, alike. The array keeps the
//! first element's layout, renamed after the array where only it has it. Claims each register as
//! a member, named by the array.
use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned as S;

use super::alike::{array_name, numbering_gap, rename_layout, unlike};
use super::conflict::{on_each, Claim, What};
use super::elem::{Elem, Reg};
use super::glob::Glob;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, Table};
use super::run::{short, Run};
use super::select::{Level, Numbered, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{BlockArray, BlockRegister, Device, Pos};
use crate::rules::PATCH_OPERATIONS_APPLY;

pub const SPEC: Spec = Spec::new("array", &["name", "layout"], check::<Raw>, read)
    .numbered(Numbered::Registers)
    .comparing_layouts();

#[derive(Deserialize)]
struct Raw {
    name: Option<S<String>>,
    layout: Option<S<String>>,
}

#[derive(Debug)]
struct Array {
    /// The numbered registers (`CH<n>_CSR`).
    glob: Glob,
    /// The array's name, when not the selector's.
    name: Option<(String, Pos)>,
    /// Its layout's name, when not the first element's renamed after the array.
    layout: Option<(String, Pos)>,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    let Some(glob) = select.numbered(Level::Register) else {
        return refused(r, pos, "[[array]] selects numbered registers of blocks: `block = \"PWM\"`, `register = \"CH<n>_CSR\"`, `<n>` standing for the number");
    };
    let raw: Raw = read_raw(r, table)?;
    let name = array_name(r, &raw.name, "an array")?;
    Some(Box::new(Array {
        glob: glob.clone(),
        name,
        layout: raw.layout.as_ref().map(|n| (n.get_ref().clone(), r.pos(n))),
    }))
}

impl Operation for Array {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Member("array"), &op.pos)
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        let mut by_block: BTreeMap<usize, Vec<(u32, usize)>> = BTreeMap::new();
        for (elem, _) in &sel.targets {
            let Elem::Reg(Reg::Block(b, r)) = *elem else {
                continue;
            };
            if let Some(n) = self.glob.index(&run.device.blocks[b].registers[r].name) {
                by_block.entry(b).or_default().push((n, r));
            }
        }
        for (b, mut members) in by_block {
            members.sort();
            if let Err(e) = self.fold(run, b, &members) {
                run.errors.push(e);
            }
        }
    }
}

impl Array {
    /// An error at the glob, pointing at register `at` of block `b`.
    fn fail(&self, run: &Run, b: usize, message: String, at: Option<usize>) -> Diagnostic {
        let d = Diagnostic::error(PATCH_OPERATIONS_APPLY, &self.glob.pos, message);
        match at {
            Some(r) => d.with_note(
                &run.device.blocks[b].registers[r].pos,
                "this register".to_string(),
            ),
            None => d,
        }
    }

    /// Folds block `b`'s registers `members` (number, register) into the first.
    fn fold(&self, run: &mut Run, b: usize, members: &[(u32, usize)]) -> Result<(), Diagnostic> {
        let stride = self.check(run, b, members)?;
        let block = &run.device.blocks[b];
        let regs: Vec<&BlockRegister> = members.iter().map(|(_, r)| &block.registers[*r]).collect();
        let array_name = self
            .name
            .as_ref()
            .map_or_else(|| self.glob.text.clone(), |(n, _)| n.clone());
        let count = members.len() as u32;
        let (first_name, last_name) = (regs[0].name.clone(), regs[regs.len() - 1].name.clone());
        let dropped: Vec<String> = regs[1..].iter().map(|r| r.layout.name.clone()).collect();
        let block_name = block.name.clone();
        // The layout: the first element's, renamed after the array where only it uses it.
        let old_layout = regs[0].layout.name.clone();
        let wanted = match &self.layout {
            Some((l, _)) => Some(l.clone()),
            None => old_layout
                .contains(first_name.as_str())
                .then(|| old_layout.replacen(&first_name, &array_name.replace("<n>", ""), 1)),
        };
        let renamed = wanted
            .as_ref()
            .is_some_and(|w| rename_layout(run, &old_layout, w));
        let new_layout = match (wanted, &self.layout) {
            (Some(w), _) if renamed => w,
            (Some(w), Some((_, at))) if w != old_layout => {
                return Err(Diagnostic::error(
                    PATCH_OPERATIONS_APPLY,
                    at,
                    format!("the layout cannot be named `{w}`: a layout has that name, or `{old_layout}` is shared with other registers"),
                ));
            }
            _ => old_layout.clone(),
        };
        let reg = &mut run.device.blocks[b].registers[members[0].1];
        reg.name = array_name.clone();
        reg.layout.name = new_layout.clone();
        reg.array = Some(BlockArray { count, stride });
        for &(_, r) in &members[1..] {
            run.dead.insert(Elem::Reg(Reg::Block(b, r)));
        }
        run.note(format!(
            "{block_name}.{first_name}..{last_name} → {block_name}.{array_name}: count {count}, stride {stride:#x}, layout {new_layout} (layouts {} dropped)",
            short(&dropped.join(", "))
        ));
        Ok(())
    }

    /// The stride of block `b`'s registers `members`, when they can be one array: two or more,
    /// numbered from 0 without gaps, rising evenly, alike.
    fn check(&self, run: &Run, b: usize, members: &[(u32, usize)]) -> Result<u64, Diagnostic> {
        let block = &run.device.blocks[b];
        let glob = &self.glob.text;
        if members.len() < 2 {
            let message = format!(
                "`{glob}` matches one register of block `{}`: an array needs two or more",
                block.name
            );
            return Err(self.fail(run, b, message, members.first().map(|m| m.1)));
        }
        if let Some((r, why)) = numbering_gap(members) {
            let message = format!("the registers `{glob}` matches in block `{}` are not numbered from 0 without gaps: {why}", block.name);
            return Err(self.fail(run, b, message, Some(r)));
        }
        let regs: Vec<&BlockRegister> = members.iter().map(|(_, r)| &block.registers[*r]).collect();
        let first = regs[0];
        let stride = regs[1].offset.wrapping_sub(first.offset);
        if regs[1].offset <= first.offset {
            let message = format!(
                "{} is not above {} (offsets {:#x}, {:#x}): an array's elements rise",
                regs[1].name, first.name, regs[1].offset, first.offset
            );
            return Err(self.fail(run, b, message, Some(members[1].1)));
        }
        if let Some(k) =
            (2..regs.len()).find(|&k| regs[k].offset != first.offset + stride * k as u64)
        {
            let message = format!(
                "the registers are not evenly spaced: {} is at {:#x}, not {:#x} ({} at {:#x} and a stride of {stride:#x})",
                regs[k].name,
                regs[k].offset,
                first.offset + stride * k as u64,
                first.name,
                first.offset
            );
            return Err(self.fail(run, b, message, Some(members[k].1)));
        }
        for (k, reg) in regs.iter().enumerate().skip(1) {
            let why = if let Some(why) = unlike(
                run.device,
                &run.layouts,
                &first.layout.name,
                &reg.layout.name,
            ) {
                format!("{} differs from {}: {why}", reg.name, first.name)
            } else if (&reg.access, &reg.read_action, &reg.alias_of, &reg.array)
                != (
                    &first.access,
                    &first.read_action,
                    &first.alias_of,
                    &first.array,
                )
            {
                format!(
                    "{} differs from {} in its access, read action, alias or array",
                    reg.name, first.name
                )
            } else {
                continue;
            };
            let message = format!("the registers `{glob}` matches in block `{}` are not alike: {why}; make them alike first (a [[modify]], [[rename]] or [[delete]] of what differs)", block.name);
            return Err(self.fail(run, b, message, Some(members[k].1)));
        }
        Ok(stride)
    }
}
