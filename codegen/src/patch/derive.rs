//! `[[derive]]`: makes the selected instances instances of the block `from` (the vendor's second
//! description of one block, dropped with a `[[delete]]` of its block). Claims a change of each
//! instance; names `from`, which must be a block.
use serde::Deserialize;
use toml::Spanned as S;

use super::conflict::{on_each, Claim, What};
use super::elem::Elem;
use super::operation::{Op, Operation, Spec};
use super::raw::{check, read as read_raw, refused, Table};
use super::run::Run;
use super::select::{Level, Selected, Selector};
use crate::frontend::spanned::Reader;
use crate::ir::{Device, NameRef, Pos};

pub const SPEC: Spec = Spec::new("derive", &["from"], check::<Raw>, read);

#[derive(Deserialize)]
struct Raw {
    from: Option<S<String>>,
}

/// The block the instances share.
#[derive(Debug)]
struct Derive {
    from: String,
    from_pos: Pos,
}

fn read(r: &mut Reader, table: &Table, select: &Selector, pos: &Pos) -> Option<Box<dyn Operation>> {
    let raw: Raw = read_raw(r, table)?;
    let Some(from) = &raw.from else {
        return refused(
            r,
            pos,
            "[[derive]] needs `from`: the block the instances share",
        );
    };
    let level = select.level();
    if level != Level::Instance {
        return refused(
            r,
            pos,
            format!(
                "[[derive]] selects instances (`instance = ...`), not {}",
                level.as_str()
            ),
        );
    }
    Some(Box::new(Derive {
        from: from.get_ref().clone(),
        from_pos: r.pos(from),
    }))
}

impl Operation for Derive {
    fn claims(&self, _: &Device, op: &Op, sel: &Selected) -> Vec<Claim> {
        on_each(sel, &What::Change, &op.pos)
    }

    fn names_block(&self) -> Option<(&str, &Pos)> {
        Some((&self.from, &self.from_pos))
    }

    fn apply(&self, run: &mut Run, _: &Op, sel: &Selected) {
        for (elem, _) in &sel.targets {
            let Elem::Instance(i) = *elem else { continue };
            let inst = &mut run.device.instances[i];
            let old = std::mem::replace(
                &mut inst.block,
                NameRef {
                    name: self.from.clone(),
                    pos: self.from_pos.clone(),
                },
            );
            let name = inst.name.clone();
            run.note(format!(
                "instance {name}: block {} → {}",
                old.name, self.from
            ));
        }
    }
}
