//! Reading a patch file, in two steps as for native descriptions: the TOML, each operation's
//! table checked key by key against the operations given (a value of the wrong type or a key no
//! operation takes stops the reading there, as a typed document would); then each operation read
//! by its own [`Spec`], every problem a diagnostic at the offending key.
use serde::de::IgnoredAny;
use serde::Deserialize;
use toml::de::{DeString, DeTable, DeValue, ValueDeserializer};
use toml::Spanned as S;

use super::operation::{Op, PatchFile, Spec};
use super::raw::{diagnostic, Table};
use super::select::{self, RawSelector};
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::frontend::spanned::Reader;
use crate::ir::Pos;
use crate::rules::PATCH_SYNTAX;

/// The operations a file may hold, each with its phase.
pub type Registry = [(u8, &'static Spec)];

/// Reads the patch file `text` (`file`: the name positions carry).
pub fn file(file: &str, text: &str, registry: &Registry) -> Result<PatchFile, Vec<Diagnostic>> {
    let lines = LineIndex::new(file, text);
    let tables = tables(&lines, text, registry).map_err(|d| vec![d])?;
    let mut r = Reader::new(&lines, PATCH_SYNTAX);
    let mut ops = Vec::new();
    for (phase, spec, table) in &tables {
        ops.extend(op(&mut r, registry, (*phase, spec), table));
    }
    if ops.is_empty() && r.errors.is_empty() {
        let names: Vec<String> = registry
            .iter()
            .map(|(_, s)| format!("[[{}]]", s.name))
            .collect();
        let (last, rest) = names.split_last().expect("operations exist");
        r.errors.push(Diagnostic::error(
            PATCH_SYNTAX,
            &Pos::file_start(file),
            format!(
                "the patch file holds no operation ({} or {last})",
                rest.join(", ")
            ),
        ));
    }
    // File order: the explanation lists operations as the file states them.
    ops.sort_by_key(|op| op.pos.span.0);
    if r.errors.is_empty() {
        Ok(PatchFile { ops })
    } else {
        r.errors.sort_by_key(|d| d.pos.span.0);
        Err(r.errors)
    }
}

type Tables<'i> = Vec<(u8, &'static Spec, Table<'i>)>;

/// Every operation's table, its keys checked; the first problem stops the reading.
fn tables<'i>(
    lines: &LineIndex,
    text: &'i str,
    registry: &Registry,
) -> Result<Tables<'i>, Diagnostic> {
    let doc = DeTable::parse(text).map_err(|e| diagnostic(lines, &e))?;
    let mut out = Vec::new();
    for (kind, value) in doc.get_ref() {
        let Some(&(phase, spec)) = registry.iter().find(|(_, s)| s.name == kind.get_ref()) else {
            let names: Vec<&str> = registry.iter().map(|(_, s)| s.name).collect();
            return Err(unknown(lines, kind, &names));
        };
        let DeValue::Array(items) = value.get_ref() else {
            // The message and position a typed document gives.
            let error = Vec::<IgnoredAny>::deserialize(ValueDeserializer::from(value.clone()))
                .err()
                .unwrap_or_else(|| serde::de::Error::custom("expected an array of tables"));
            return Err(diagnostic(lines, &error));
        };
        for item in items.iter() {
            let DeValue::Table(entries) = item.get_ref() else {
                let at = item.span();
                return Err(Diagnostic::error(
                    PATCH_SYNTAX,
                    &lines.pos(at.start, at.end),
                    format!("[[{kind}]] is an array of tables", kind = spec.name),
                ));
            };
            let table = Table {
                span: item.span(),
                entries: entries.clone(),
            };
            check_keys(lines, &table, registry)?;
            out.push((phase, spec, table));
        }
    }
    Ok(out)
}

/// Each key of `table` in order: a selector's key holds a name; an operation's key the type that
/// operation reads (checked with the first that takes it); any other key is unknown.
fn check_keys(lines: &LineIndex, table: &Table, registry: &Registry) -> Result<(), Diagnostic> {
    for (key, value) in table.entries.iter() {
        let name: &str = key.get_ref();
        let checked = if select::KEYS.contains(&name) {
            S::<String>::deserialize(ValueDeserializer::from(value.clone())).map(drop)
        } else if let Some((_, owner)) = registry.iter().find(|(_, s)| s.keys.contains(&name)) {
            (owner.check)(&table.only(key, value))
        } else {
            return Err(unknown(lines, key, &all_keys(registry)));
        };
        checked.map_err(|e| diagnostic(lines, &e))?;
    }
    Ok(())
}

/// Every key an operation's table may hold: the selector's, then the operations' in turn.
fn all_keys(registry: &Registry) -> Vec<&'static str> {
    let mut keys = select::KEYS.to_vec();
    for key in registry.iter().flat_map(|(_, s)| s.keys) {
        if !keys.contains(key) {
            keys.push(key);
        }
    }
    keys
}

/// The error of a key no operation (or, at the top, no operation's name) is.
fn unknown(lines: &LineIndex, key: &S<DeString>, expected: &[&str]) -> Diagnostic {
    let listed: Vec<String> = expected.iter().map(|k| format!("`{k}`")).collect();
    let span = key.span();
    Diagnostic::error(
        PATCH_SYNTAX,
        &lines.pos(span.start, span.end),
        format!(
            "unknown field `{}`, expected one of {}",
            key.get_ref(),
            listed.join(", ")
        ),
    )
    .suggesting_expected()
}

/// One operation: its keys, its selector, then what its own reading makes of its table.
fn op(
    r: &mut Reader,
    registry: &Registry,
    (phase, spec): (u8, &'static Spec),
    table: &Table,
) -> Option<Op> {
    let pos = r.lines.pos(table.span.start, table.span.end);
    let takes_its_keys = its_keys(r, registry, spec, table, &pos);
    let raw: RawSelector = super::raw::read(r, table)?;
    let (select, shape_ok) = select::read(r, &raw, spec.numbered, &pos)?;
    if !(takes_its_keys && shape_ok) {
        return None;
    }
    let operation = (spec.read)(r, table, &select, &pos)?;
    Some(Op {
        spec,
        phase,
        operation,
        select,
        pos,
    })
}

/// Whether the table holds only the selector and `spec`'s keys; an error for each other key.
fn its_keys(r: &mut Reader, registry: &Registry, spec: &Spec, table: &Table, pos: &Pos) -> bool {
    let given = |key: &str| table.entries.keys().any(|k| **k.get_ref() == *key);
    let mut ok = true;
    for key in all_keys(registry).into_iter().skip(select::KEYS.len()) {
        if given(key) && !spec.keys.contains(&key) {
            let takes = if spec.keys.is_empty() {
                "only a selector".to_string()
            } else {
                let keys: Vec<String> = spec.keys.iter().map(|k| format!("`{k}`")).collect();
                keys.join(", ")
            };
            r.errors.push(Diagnostic::error(
                PATCH_SYNTAX,
                pos,
                format!(
                    "[[{}]] takes no `{key}`; besides the selector it takes {takes}",
                    spec.name
                ),
            ));
            ok = false;
        }
    }
    ok
}
