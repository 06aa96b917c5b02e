//! What differs between a native layout and the layout Arm's data gives the same register.
use crate::ir::{Field, FieldAccess, Layout};

/// A kind of difference, named as the reviewed list names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The register is not in Arm's data.
    Missing,
    /// Another encoding.
    Encoding,
    /// Another register access (read/write, read-only, write-only).
    Access,
    /// Another width.
    Width,
    /// A named field on bits Arm's data reserves.
    Reserved,
    /// A field at other bits than Arm's field of that name, or across Arm's fields.
    Bits,
    /// A field software may write where Arm's data gives a constant.
    Constant,
    /// Bits Arm's data makes RES1 that the description does not.
    Res1,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Missing => "missing",
            Kind::Encoding => "encoding",
            Kind::Access => "access",
            Kind::Width => "width",
            Kind::Reserved => "reserved",
            Kind::Bits => "bits",
            Kind::Constant => "constant",
            Kind::Res1 => "res1",
        }
    }

    pub const ALL: [Kind; 8] = [
        Kind::Missing,
        Kind::Encoding,
        Kind::Access,
        Kind::Width,
        Kind::Reserved,
        Kind::Bits,
        Kind::Constant,
        Kind::Res1,
    ];
}

/// One difference of a layout: its kind, the field (or bits) it is about, and what it is.
#[derive(Clone, Debug)]
pub struct FieldDifference {
    pub kind: Kind,
    pub field: String,
    pub text: String,
    /// The field of Arm's data it is about, where there is one (for its position).
    pub theirs: Option<usize>,
    /// The native field, where there is one.
    pub ours: Option<usize>,
}

/// Reserved bits, or bits that read as zero and ignore writes: no named field.
fn reserved(access: FieldAccess) -> bool {
    matches!(
        access,
        FieldAccess::Res0 | FieldAccess::Res1 | FieldAccess::RazWi
    )
}

/// Both layouts are at most 64 bits wide (the frontend takes no wider fieldset).
fn mask(f: &Field) -> u64 {
    f.mask()
}

fn bits(f: &Field) -> String {
    if f.width == 1 {
        f.lsb.to_string()
    } else {
        format!("{}:{}", f.msb(), f.lsb)
    }
}

/// The differences of `ours` from `theirs`, field by field (the width is compared by the caller).
pub fn layouts(ours: &Layout, theirs: &Layout) -> Vec<FieldDifference> {
    let mut out = Vec::new();
    for (i, f) in ours.fields.iter().enumerate() {
        if reserved(f.access) {
            continue;
        }
        let m = mask(f);
        let overlapping: Vec<(usize, &Field)> = theirs
            .fields
            .iter()
            .enumerate()
            .filter(|(_, t)| mask(t) & m != 0)
            .collect();
        if overlapping.is_empty() {
            // Bits Arm's data leaves out entirely (beyond its width): the width difference says it.
            continue;
        }
        // Bits that read as zero and ignore writes, named as read-only bits, agree.
        if overlapping
            .iter()
            .all(|(_, t)| t.access == FieldAccess::RazWi)
            && !f.access.writable()
        {
            continue;
        }
        if overlapping.iter().all(|(_, t)| reserved(t.access)) {
            out.push(FieldDifference {
                kind: Kind::Reserved,
                field: f.name.clone(),
                text: format!(
                    "field `{}` (bits {}) is on bits Arm's data reserves ({})",
                    f.name,
                    bits(f),
                    overlapping[0].1.access.as_str().to_uppercase()
                ),
                theirs: Some(overlapping[0].0),
                ours: Some(i),
            });
            continue;
        }
        let same = overlapping
            .iter()
            .find(|(_, t)| t.lsb == f.lsb && t.width == f.width && !reserved(t.access));
        if let Some((k, t)) = same {
            if t.access == FieldAccess::Ro
                && t.doc
                    .as_deref()
                    .is_some_and(|d| d.starts_with("A constant"))
                && f.access.writable()
            {
                out.push(FieldDifference {
                    kind: Kind::Constant,
                    field: f.name.clone(),
                    text: format!(
                        "field `{}` is {} where Arm's data gives a constant",
                        f.name,
                        f.access.as_str()
                    ),
                    theirs: Some(*k),
                    ours: Some(i),
                });
            }
            continue;
        }
        // One field over several whole named fields of Arm's (`ID` over `ID0`..`ID31`) is the
        // same bits named as one value: it agrees.
        let covered = overlapping
            .iter()
            .map(|(_, t)| mask(t))
            .fold(0, |a, b| a | b);
        if covered == m && overlapping.iter().all(|(_, t)| !reserved(t.access)) {
            continue;
        }
        // A field inside one of Arm's fields (a part of it named on its own) agrees.
        if overlapping
            .iter()
            .any(|(_, t)| !reserved(t.access) && mask(t) & m == m && overlapping.len() == 1)
        {
            continue;
        }
        let named = theirs
            .fields
            .iter()
            .enumerate()
            .find(|(_, t)| t.name.eq_ignore_ascii_case(&f.name));
        let text = match named {
            Some((_, t)) => format!(
                "field `{}` is at bits {}; Arm's data has it at {}",
                f.name,
                bits(f),
                bits(t)
            ),
            None => format!(
                "field `{}` (bits {}) spans Arm's fields {}",
                f.name,
                bits(f),
                overlapping
                    .iter()
                    .map(|(_, t)| format!("`{}` ({})", t.name, bits(t)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        out.push(FieldDifference {
            kind: Kind::Bits,
            field: f.name.clone(),
            text,
            theirs: named.map(|(k, _)| k).or(Some(overlapping[0].0)),
            ours: Some(i),
        });
    }
    // RES1 bits of Arm's data must be RES1 here too.
    let ours_res1: u64 = ours
        .fields
        .iter()
        .filter(|f| f.access == FieldAccess::Res1)
        .map(mask)
        .fold(0, |a, b| a | b);
    for (k, t) in theirs.fields.iter().enumerate() {
        if t.access != FieldAccess::Res1 || mask(t) & !ours_res1 == 0 {
            continue;
        }
        let missing = mask(t) & !ours_res1;
        let list: Vec<String> = (0..64)
            .rev()
            .filter(|b| missing >> b & 1 == 1)
            .map(|b| b.to_string())
            .collect();
        out.push(FieldDifference {
            kind: Kind::Res1,
            field: list.join(","),
            text: format!(
                "Arm's data makes bit(s) {} RES1; this description does not",
                list.join(", ")
            ),
            theirs: Some(k),
            ours: None,
        });
    }
    out
}

/// Arm's named fields on bits this layout names nothing on (reserved or undescribed): the
/// fields the description lacks.
pub fn missing_fields<'a>(ours: &Layout, theirs: &'a Layout) -> Vec<&'a Field> {
    // Every bit the description gives a meaning, RES1 included; RES0 bits may take a field.
    let named: u64 = ours
        .fields
        .iter()
        .filter(|f| f.access != FieldAccess::Res0)
        .map(mask)
        .fold(0, |a, b| a | b);
    theirs
        .fields
        .iter()
        .filter(|t| !reserved(t.access) && mask(t) & named == 0 && t.lsb + t.width <= ours.width)
        .collect()
}
