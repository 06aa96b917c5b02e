//! `[[field_array]]`: makes one field array of the numbered fields `field`'s `<n>` matches, in
//! each selected register's layout: numbered from 0 without gaps, evenly spaced, alike. The
//! fields stay (C headers, diagrams and the site show them); the Rust layout gives the array one
//! constant. Claims each field as a member, named by the array.
use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned as S;

use super::alike::{array_name, numbering_gap};
use super::conflict::{on_each, Claim, What};
use super::elem::Elem;
use super::glob::Glob;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, Table};
use super::run::Run;
use super::select::{Level, Numbered, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Device, Field, FieldArray as IrFieldArray, Pos};
use crate::rules::PATCH_OPERATIONS_APPLY;

pub const SPEC: Spec = Spec::new("field_array", &["name"], check::<Raw>, read)
    .numbered(Numbered::Fields)
    .comparing_layouts();

#[derive(Deserialize)]
struct Raw {
    name: Option<S<String>>,
}

#[derive(Debug)]
struct FieldArray {
    /// The numbered fields (`PIN<n>`).
    glob: Glob,
    /// The array's name, when not the selector's.
    name: Option<(String, Pos)>,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    let Some(glob) = select.numbered(Level::Field) else {
        return refused(r, pos, "[[field_array]] selects numbered fields of registers: `register = \"OUT\"`, `field = \"PIN<n>\"`, `<n>` standing for the number");
    };
    let raw: Raw = read_raw(r, table)?;
    Some(Box::new(FieldArray {
        glob: glob.clone(),
        name: array_name(r, &raw.name, "a field array")?,
    }))
}

impl Operation for FieldArray {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Member("field array"), &op.pos)
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        let mut by_layout: BTreeMap<usize, Vec<(u32, usize)>> = BTreeMap::new();
        for (elem, _) in &sel.targets {
            let Elem::Field(reg, f) = *elem else {
                continue;
            };
            let Some(l) = run.layout_of(reg) else {
                continue;
            };
            if let Some(n) = self.glob.index(&run.device.layouts[l].fields[f].name) {
                let members = by_layout.entry(l).or_default();
                if !members.contains(&(n, f)) {
                    members.push((n, f));
                }
            }
        }
        for (l, mut members) in by_layout {
            members.sort();
            match self.array(run, l, &members) {
                Ok(array) => self.make(run, l, array),
                Err(e) => run.errors.push(e),
            }
        }
    }
}

impl FieldArray {
    /// The array of layout `l`'s fields `members` (number, field), when they can be one.
    fn array(
        &self,
        run: &Run,
        l: usize,
        members: &[(u32, usize)],
    ) -> Result<IrFieldArray, Diagnostic> {
        let layout = &run.device.layouts[l];
        let glob = &self.glob;
        let fail = |message: String, at: Option<usize>| {
            let d = Diagnostic::error(PATCH_OPERATIONS_APPLY, &glob.pos, message);
            match at {
                Some(f) => d.with_note(&layout.fields[f].pos, "this field".to_string()),
                None => d,
            }
        };
        if members.len() < 2 {
            let message = format!(
                "`{}` matches one field of layout `{}`: an array needs two or more",
                glob.text, layout.name
            );
            return Err(fail(message, members.first().map(|m| m.1)));
        }
        if let Some((f, why)) = numbering_gap(members) {
            let message = format!(
                "`{}` its fields in layout `{}` are not numbered from 0 without gaps: {why}",
                glob.text, layout.name
            );
            return Err(fail(message, Some(f)));
        }
        let fields: Vec<&Field> = members.iter().map(|&(_, f)| &layout.fields[f]).collect();
        let first = fields[0];
        let stride = fields[1].lsb.saturating_sub(first.lsb);
        let array = IrFieldArray {
            name: self
                .name
                .as_ref()
                .map_or_else(|| glob.text.clone(), |(text, _)| text.clone()),
            members: fields.iter().map(|f| f.name.clone()).collect(),
            stride,
            doc: first.doc.clone(),
            pos: glob.pos.clone(),
        };
        // One definition of a whole array, the one the `field_arrays_uniform` pass keeps.
        if let Some((at, why)) = layout.field_array_break(&array) {
            let message = format!(
                "the fields `{}` matches in layout `{}` cannot be one field array ({stride} bits apart): {why}",
                glob.text, layout.name
            );
            return Err(fail(message, at));
        }
        Ok(array)
    }

    fn make(&self, run: &mut Run, l: usize, array: IrFieldArray) {
        let layout = &mut run.device.layouts[l];
        let (name, count, stride) = (array.name.clone(), array.members.len(), array.stride);
        let layout_name = layout.name.clone();
        layout.field_arrays.retain(|a| a.members != array.members);
        layout.field_arrays.push(array);
        run.note(format!(
            "layout {layout_name}: fields {name} made one array of {count}, {stride} bit{} apart",
            if stride == 1 { "" } else { "s" }
        ));
    }
}
