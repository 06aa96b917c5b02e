//! A fieldset's fields, of every kind the schema has, as IR fields.
use super::condition;
use super::schema::{FieldEntry, Fieldset, Range};
use super::Located;
use crate::ir::{Condition, Field, FieldAccess, FieldArray, Pos};

/// The fields of one fieldset, and the field arrays among them.
#[derive(Default)]
pub struct Lowered {
    pub fields: Vec<Field>,
    pub arrays: Vec<FieldArray>,
    /// Entries left out, with where and why.
    pub problems: Vec<(Pos, String)>,
}

/// Lowers `fieldset`, found at `path`; `access` is what the register's accessors allow, the
/// access of an ordinary field.
pub fn lower(fieldset: &Fieldset, path: &str, access: FieldAccess, at: &Located) -> Lowered {
    let mut out = Lowered::default();
    for (k, entry) in fieldset.values.iter().enumerate() {
        let path = format!("{path}.values[{k}]");
        entry_fields(entry, &path, 0, None, access, at, &mut out);
    }
    out.fields.sort_by_key(|f| f.lsb);
    // Several IMPLEMENTATION DEFINED ranges of one layout are told apart by their bits.
    let impdef = out.fields.iter().filter(|f| f.name == "IMPDEF").count();
    if impdef > 1 {
        for f in out.fields.iter_mut().filter(|f| f.name == "IMPDEF") {
            f.name = format!("IMPDEF_{}_{}", f.lsb + f.width - 1, f.lsb);
        }
    }
    out
}

/// A name in Arm's slice notation (`IPA[39:12]`, the bits of a wider value this field holds) as
/// an identifier (`IPA_39_12`).
fn identifier(name: &str) -> String {
    match name.split_once('[') {
        Some((base, slice)) => {
            let bits = slice.trim_end_matches(']').replace(':', "_");
            format!("{base}_{bits}")
        }
        None => name.to_string(),
    }
}

/// Lowers one entry; `base` is added to its bits (a conditional field's alternatives are
/// relative to it) and `condition` is when it exists.
fn entry_fields(
    entry: &FieldEntry,
    path: &str,
    base: u32,
    condition: Option<Condition>,
    access: FieldAccess,
    at: &Located,
    out: &mut Lowered,
) {
    let pos = at.pos(path);
    let ranges: Vec<Range> = entry
        .rangeset
        .iter()
        .map(|r| Range {
            start: r.start + base,
            width: r.width,
        })
        .collect();
    if ranges.is_empty()
        || ranges
            .iter()
            .any(|r| r.width == 0 || r.start + r.width > 128)
    {
        out.problems
            .push((pos, "a field without a valid `rangeset` is left out".into()));
        return;
    }
    let name = entry.name.clone();
    match entry.kind.as_str() {
        "Fields.Reserved" => {
            let kind = entry
                .value
                .as_ref()
                .and_then(|v| v.as_str())
                .unwrap_or("RES0");
            reserved(kind, &ranges, &pos, out);
        }
        "Fields.Field" | "Fields.ConstantField" | "Fields.Dynamic" => {
            let Some(name) = name else {
                out.problems
                    .push((pos, "a field without a `name` is left out".into()));
                return;
            };
            let access = if entry.kind == "Fields.ConstantField" {
                FieldAccess::Ro
            } else {
                access
            };
            let doc = match entry.kind.as_str() {
                "Fields.Dynamic" => Some(format!(
                    "Its layout depends on the context: Arm's data gives {} encodings of these bits.",
                    entry.instances.len()
                )),
                "Fields.ConstantField" => Some("A constant of the implementation.".to_string()),
                _ => listed_values(entry),
            };
            named(
                &identifier(&name),
                &ranges,
                access,
                doc,
                condition,
                &pos,
                out,
            );
        }
        "Fields.ImplementationDefined" => {
            let name = name.unwrap_or_else(|| "IMPDEF".to_string());
            let doc = Some("IMPLEMENTATION DEFINED.".to_string());
            named(&name, &ranges, access, doc, condition, &pos, out);
        }
        "Fields.Array" | "Fields.Vector" => {
            array(entry, &ranges, access, condition, &pos, out);
        }
        "Fields.ConditionalField" => {
            conditional(entry, path, &ranges, condition, access, at, out);
        }
        other => out.problems.push((
            pos,
            format!("a field of kind `{other}` is not understood; left out"),
        )),
    }
}

fn reserved(kind: &str, ranges: &[Range], pos: &Pos, out: &mut Lowered) {
    let access = match kind {
        "RES1" => FieldAccess::Res1,
        "RAZ/WI" | "RAZ" | "WI" | "RAO/WI" => FieldAccess::RazWi,
        _ => FieldAccess::Res0,
    };
    for r in ranges {
        let msb = r.start + r.width - 1;
        out.fields.push(field(
            format!("{}_{msb}_{}", access.as_str().to_uppercase(), r.start),
            r.start,
            r.width,
            access,
            (kind != "RES0" && kind != "RES1").then(|| format!("Reserved, {kind}.")),
            None,
            pos,
        ));
    }
}

/// A named field; one whose bits are in several ranges becomes one field per range
/// (`NAME_LO`, `NAME_HI`, or `NAME_0`, `NAME_1`, ... from the lowest bits up).
fn named(
    name: &str,
    ranges: &[Range],
    access: FieldAccess,
    doc: Option<String>,
    condition: Option<Condition>,
    pos: &Pos,
    out: &mut Lowered,
) {
    let doc = with_condition(doc, condition.as_ref());
    if let [r] = ranges {
        out.fields.push(field(
            name.to_string(),
            r.start,
            r.width,
            access,
            doc,
            condition,
            pos,
        ));
        return;
    }
    let mut sorted = ranges.to_vec();
    sorted.sort_by_key(|r| r.start);
    for (k, r) in sorted.iter().enumerate() {
        let part = match (sorted.len(), k) {
            (2, 0) => format!("{name}_LO"),
            (2, _) => format!("{name}_HI"),
            _ => format!("{name}_{k}"),
        };
        let split = format!(
            "Bits {}:{} of {name}, whose bits Arm's data gives in {} parts.",
            r.start + r.width - 1,
            r.start,
            sorted.len()
        );
        let doc = Some(match &doc {
            Some(d) => format!("{split} {d}"),
            None => split,
        });
        out.fields.push(field(
            part,
            r.start,
            r.width,
            access,
            doc,
            condition.clone(),
            pos,
        ));
    }
}

/// `Ctype<n>` over bits 20:0 with n in 1..=7: seven fields of three bits, `Ctype1` lowest. An
/// array over several ranges (`HSTR.T<n>`, which skips bits 4 and 14) fills them in order.
fn array(
    entry: &FieldEntry,
    ranges: &[Range],
    access: FieldAccess,
    condition: Option<Condition>,
    pos: &Pos,
    out: &mut Lowered,
) {
    let Some(raw_name) = entry.name.as_deref() else {
        out.problems.push((
            pos.clone(),
            "an array field needs a `name`; left out".into(),
        ));
        return;
    };
    let var = entry.index_variable.as_deref().unwrap_or("n");
    let placeholder = format!("<{var}>");
    // `RANGE[<n>]` is `RANGE<n>`: the brackets are Arm's notation for the index.
    let name = raw_name.replace(&format!("[{placeholder}]"), &placeholder);
    let indexes: Vec<u32> = entry
        .indexes
        .iter()
        .flat_map(|r| r.start..r.start + r.width)
        .collect();
    let count = indexes.len() as u32;
    let bits: u32 = ranges.iter().map(|r| r.width).sum();
    if count == 0 || bits % count != 0 {
        out.problems.push((
            pos.clone(),
            format!(
                "array field `{name}`: {count} elements do not share {bits} bits evenly; left out"
            ),
        ));
        return;
    }
    let stride = bits / count;
    let mut sorted = ranges.to_vec();
    sorted.sort_by_key(|r| r.start);
    let slots = sorted
        .iter()
        .flat_map(|r| (0..r.width / stride).map(move |k| r.start + k * stride));
    let doc = with_condition(None, condition.as_ref());
    let mut members = Vec::new();
    for (index, lsb) in indexes.iter().zip(slots) {
        let member = identifier(&name.replace(&placeholder, &index.to_string()));
        members.push(member.clone());
        out.fields.push(field(
            member,
            lsb,
            stride,
            access,
            doc.clone(),
            condition.clone(),
            pos,
        ));
    }
    // A field array is indexed from 0 with evenly spaced elements; any other stays separate
    // fields.
    let even = sorted.len() == 1;
    if even && count > 1 && indexes.first() == Some(&0) && name.contains(&placeholder) {
        out.arrays.push(FieldArray {
            name: name.replace(&placeholder, "<n>"),
            members,
            stride,
            doc: None,
            pos: pos.clone(),
        });
    }
}

/// Bits that are one field or another depending on the features: the first named alternative
/// (the data lists the newest first), under its condition; the others are named in its doc.
fn conditional(
    entry: &FieldEntry,
    path: &str,
    ranges: &[Range],
    outer: Option<Condition>,
    access: FieldAccess,
    at: &Located,
    out: &mut Lowered,
) {
    let [range] = ranges else {
        out.problems.push((
            at.pos(path),
            "a conditional field over several ranges is not understood; left out".into(),
        ));
        return;
    };
    let chosen = entry
        .fields
        .iter()
        .position(|alt| alt.field.kind != "Fields.Reserved" && alt.field.name.is_some());
    let Some(chosen) = chosen else {
        let kind = entry.reservedtype.as_deref().unwrap_or("RES0");
        reserved(kind, ranges, &at.pos(path), out);
        return;
    };
    let alt = &entry.fields[chosen];
    let inner = alt.condition.as_ref().and_then(condition::lower);
    let condition = match (outer, inner) {
        (None, c) | (c, None) => c,
        (Some(a), Some(b)) => Some(Condition::All { of: vec![a, b] }),
    };
    let before = out.fields.len();
    let inner_path = format!("{path}.fields[{chosen}].field");
    entry_fields(
        &alt.field,
        &inner_path,
        range.start,
        condition,
        access,
        at,
        out,
    );
    let others: Vec<String> = entry
        .fields
        .iter()
        .enumerate()
        .filter(|&(k, a)| k != chosen && a.field.name.is_some())
        .map(|(_, a)| {
            let when = a
                .condition
                .as_ref()
                .and_then(condition::lower)
                .map_or_else(String::new, |c| format!(" when {c}"));
            format!("`{}`{when}", a.field.name.as_deref().unwrap_or(""))
        })
        .collect();
    let otherwise = entry.reservedtype.as_deref().unwrap_or("RES0");
    for field in &mut out.fields[before..] {
        let mut note = format!("Otherwise {otherwise}.");
        if !others.is_empty() {
            note = format!(
                "These bits are {} otherwise; else {otherwise}.",
                others.join(", ")
            );
        }
        field.doc = Some(match field.doc.take() {
            Some(d) => format!("{d} {note}"),
            None => note,
        });
    }
}

/// The values Arm's data lists for a field (it gives them no meaning): `0b00`, `0b01`, ...
fn listed_values(entry: &FieldEntry) -> Option<String> {
    let values: Vec<String> = entry
        .values
        .as_ref()?
        .values
        .iter()
        .filter_map(|v| v.get("value")?.as_str())
        .map(|v| format!("`0b{}`", v.trim_matches('\'')))
        .collect();
    (!values.is_empty()).then(|| format!("Values Arm's data lists: {}.", values.join(", ")))
}

fn with_condition(doc: Option<String>, condition: Option<&Condition>) -> Option<String> {
    match (doc, condition) {
        (doc, None) => doc,
        (None, Some(c)) => Some(format!("Present when {c}.")),
        (Some(d), Some(c)) => Some(format!("Present when {c}. {d}")),
    }
}

fn field(
    name: String,
    lsb: u32,
    width: u32,
    access: FieldAccess,
    doc: Option<String>,
    condition: Option<Condition>,
    pos: &Pos,
) -> Field {
    Field {
        name,
        lsb,
        width,
        access,
        reset: None,
        doc,
        source: None,
        pos: pos.clone(),
        enums: Vec::new(),
        enum_default: None,
        enum_name: None,
        read_action: None,
        write_constraint: None,
        condition,
    }
}
