//! No two elements of one kind share a name: layouts, system registers, blocks, the fields of a
//! layout, the registers of a block, the values of a field.
use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Pos};

pub const NAME: &str = "no_duplicate_names";

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check(
        "layout",
        device.layouts.iter().map(|l| (&l.name, &l.pos)),
        &mut out,
    );
    check(
        "system register",
        device.sysregs.iter().map(|r| (&r.name, &r.pos)),
        &mut out,
    );
    check(
        "block",
        device.blocks.iter().map(|b| (&b.name, &b.pos)),
        &mut out,
    );
    for layout in &device.layouts {
        // A derived layout's inherited fields point into the base; report duplicates only once.
        if layout.derive.is_none() {
            check(
                "field",
                layout.fields.iter().map(|f| (&f.name, &f.pos)),
                &mut out,
            );
        }
        for field in &layout.fields {
            check(
                "enumerated value",
                field.enums.iter().map(|e| (&e.name, &e.pos)),
                &mut out,
            );
        }
    }
    for block in &device.blocks {
        check(
            "register",
            block.registers.iter().map(|r| (&r.name, &r.pos)),
            &mut out,
        );
    }
    out
}

fn check<'a>(
    kind: &str,
    items: impl Iterator<Item = (&'a String, &'a Pos)>,
    out: &mut Vec<Diagnostic>,
) {
    let mut seen: BTreeMap<&str, &Pos> = BTreeMap::new();
    let mut items: Vec<_> = items.collect();
    items.sort_by(|a, b| a.1.cmp(b.1));
    for (name, pos) in items {
        if let Some(first) = seen.get(name.as_str()) {
            out.push(
                Diagnostic::error(NAME, pos, format!("{kind} `{name}` is defined twice"))
                    .with_note(first, "first defined here"),
            );
        } else {
            seen.insert(name, pos);
        }
    }
}
