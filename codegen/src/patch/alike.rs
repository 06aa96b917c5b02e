//! What numbered elements need to become one array, a cluster array or a field array, and what
//! they get: numbered from 0 without gaps, alike layouts (and why two are not), and layouts named
//! after what they become.
use toml::Spanned as S;

use super::elem::{layout_users, Layouts};
use super::run::Run;
use crate::frontend::spanned::Reader;
use crate::ir::{Device, Layout, Pos};

/// Where numbered elements (sorted by number) are not numbered 0, 1, 2, ...: the element at the
/// first break and why (a number missing, or one there twice).
pub fn numbering_gap<T: Copy>(members: &[(u32, T)]) -> Option<(T, String)> {
    let (k, &(n, at)) = members
        .iter()
        .enumerate()
        .find(|(k, (n, _))| *n as usize != *k)?;
    let why = if n as usize > k {
        format!("number {k} is missing")
    } else {
        format!("number {n} is there twice")
    };
    Some((at, why))
}

/// Why the layout named `b` is not alike the layout named `a` (the same structure), if it is
/// not.
pub fn unlike(device: &Device, layouts: &Layouts, a: &str, b: &str) -> Option<String> {
    match (layouts.get(a), layouts.get(b)) {
        (Some(p), Some(q)) => {
            let (x, y) = (&device.layouts[p], &device.layouts[q]);
            (p != q && x.structure_key() != y.structure_key()).then(|| difference(x, y))
        }
        _ => (a != b).then(|| "another layout".to_string()),
    }
}

/// Why layout `b` is not `a` (its first difference), in words.
fn difference(a: &Layout, b: &Layout) -> String {
    if a.width != b.width {
        return format!("width {} where the first has {}", b.width, a.width);
    }
    if a.reset != b.reset || a.reset_mask != b.reset_mask {
        return format!(
            "reset {} where the first has {}",
            b.reset.map_or("none".into(), |r| format!("{r:#x}")),
            a.reset.map_or("none".into(), |r| format!("{r:#x}"))
        );
    }
    if a.fields.len() != b.fields.len() {
        return format!(
            "{} fields where the first has {}",
            b.fields.len(),
            a.fields.len()
        );
    }
    for (fa, fb) in a.fields.iter().zip(&b.fields) {
        if fa.name != fb.name {
            return format!("field `{}` where the first has `{}`", fb.name, fa.name);
        }
        let one = |f: &crate::ir::Field| Layout {
            fields: vec![f.clone()],
            ..a.clone()
        };
        if one(fa).structure_key() != one(fb).structure_key() {
            let what = if (fa.lsb, fa.width) != (fb.lsb, fb.width) {
                "bits"
            } else if fa.access != fb.access {
                "access"
            } else if fa.reset != fb.reset {
                "reset"
            } else if fa.enums.len() != fb.enums.len()
                || fa
                    .enums
                    .iter()
                    .zip(&fb.enums)
                    .any(|(x, y)| (&x.name, x.value, x.usage) != (&y.name, y.value, y.usage))
            {
                "enumerated values"
            } else {
                "read or write semantics"
            };
            return format!("field `{}` differs in its {what}", fb.name);
        }
    }
    "a different layout".to_string()
}

/// Renames layout `old` to `wanted` when one register alone has it and no layout has that name;
/// whether it did. The register's reference is the caller's to change.
pub fn rename_layout(run: &mut Run, old: &str, wanted: &str) -> bool {
    let Some(l) = run.layouts.get(old) else {
        return false;
    };
    if layout_users(run.device, old) != 1 || wanted == old || run.layouts.get(wanted).is_some() {
        return false;
    }
    run.layouts.rename(run.device, l, old, wanted);
    true
}

/// The optional `name` of an array operation (`what`: "an array"), which must hold `<n>` once;
/// `None` (with an error) when it does not.
pub fn array_name(
    r: &mut Reader,
    raw: &Option<S<String>>,
    what: &str,
) -> Option<Option<(String, Pos)>> {
    let Some(raw) = raw else {
        return Some(None);
    };
    let text = raw.get_ref();
    if text.matches("<n>").count() != 1 {
        r.error(
            raw,
            format!("{what}'s name holds `<n>` once, where the index goes: `{text}` does not"),
        );
        return None;
    }
    Some(Some((text.clone(), r.pos(raw))))
}
