//! Every name becomes a Rust identifier after sanitising (see `names`), and no two names of one
//! namespace become the same identifier.
use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::ir::{Device, Pos};
use crate::names::{ident, Case};

pub const NAME: &str = "names_are_identifiers";

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check(
        "layout",
        Case::Camel,
        device.layouts.iter().map(|l| (&l.name, &l.pos)),
        &mut out,
    );
    check(
        "system register",
        Case::Verbatim,
        device.sysregs.iter().map(|r| (&r.name, &r.pos)),
        &mut out,
    );
    check(
        "block",
        Case::Camel,
        device.blocks.iter().map(|b| (&b.name, &b.pos)),
        &mut out,
    );
    for layout in &device.layouts {
        let named = layout.fields.iter().filter(|f| !f.is_reserved());
        check(
            "field",
            Case::Snake,
            named.map(|f| (&f.name, &f.pos)),
            &mut out,
        );
        for field in &layout.fields {
            check(
                "enumerated value",
                Case::Camel,
                field.enums.iter().map(|e| (&e.name, &e.pos)),
                &mut out,
            );
        }
    }
    for block in &device.blocks {
        check(
            "register",
            Case::Snake,
            block.registers.iter().map(|r| (&r.name, &r.pos)),
            &mut out,
        );
    }
    // Reports of inherited fields would repeat at the base's position.
    out.dedup_by(|a, b| a.pos == b.pos && a.message == b.message);
    out
}

fn check<'a>(
    kind: &str,
    case: Case,
    items: impl Iterator<Item = (&'a String, &'a Pos)>,
    out: &mut Vec<Diagnostic>,
) {
    let mut seen: BTreeMap<String, (&str, &Pos)> = BTreeMap::new();
    let mut items: Vec<_> = items.collect();
    items.sort_by(|a, b| a.1.cmp(b.1));
    for (name, pos) in items {
        match ident(name, case) {
            Err(why) => out.push(Diagnostic::error(
                NAME,
                pos,
                format!("{kind} name is not an identifier: {why}"),
            )),
            Ok(id) => match seen.get(&id) {
                // Exact duplicates are `no_duplicate_names`' to report.
                Some((first, _)) if *first == name.as_str() => {}
                Some((first, first_pos)) => out.push(
                    Diagnostic::error(
                        NAME,
                        pos,
                        format!("{kind} `{name}` and `{first}` both become the identifier `{id}`"),
                    )
                    .with_note(first_pos, "the other name"),
                ),
                None => {
                    seen.insert(id, (name, pos));
                }
            },
        }
    }
}
