//! The names SVD arrays, clusters and layouts get in the IR: indexes substituted or kept as
//! `<n>`, cluster prefixes joined, and names made unique as identifiers.
use std::collections::BTreeSet;

use svd_rs::DimElement;

use super::text::doc_text;
use crate::ir::IndexName;
use crate::names::{ident, Case};

/// The indexes of an array, as svd-rs gives them (`dimIndex` was checked against `dim`).
pub(super) fn indexes(dim: &DimElement) -> Vec<String> {
    match &dim.dim_index {
        Some(listed) => listed.clone(),
        None => (0..dim.dim).map(|i| i.to_string()).collect(),
    }
}

/// Whether an array is indexed 0..n-1, so that it can stay an IR array.
pub(super) fn zero_based(dim: &DimElement) -> bool {
    indexes(dim)
        .iter()
        .enumerate()
        .all(|(i, index)| *index == i.to_string())
}

/// Whether `wanted` names the element `name` (with its array dimensions `dim`): the name itself,
/// the array's name without its `%s` (`ctl[%s]` is `ctl`), or one element as expanded
/// (`P100PFS` of `P10%sPFS` indexed 0-7), as `derivedFrom` paths name them.
pub(super) fn names_element(name: &str, dim: Option<&DimElement>, wanted: &str) -> bool {
    if name == wanted {
        return true;
    }
    let Some(dim) = dim else {
        return false;
    };
    let pattern = name.replace("[%s]", "%s");
    let Some((before, after)) = pattern.split_once("%s") else {
        return false;
    };
    if format!("{before}{after}") == wanted {
        return true;
    }
    wanted
        .strip_prefix(before)
        .and_then(|rest| rest.strip_suffix(after))
        .is_some_and(|index| dim.indexes().any(|listed| listed == index))
}

/// `name` with its `%s` (or `[%s]`) replaced by `index`.
pub(super) fn substitute(name: &str, index: &str) -> String {
    // Most names and descriptions have none: one `memchr` rather than two substring searches.
    if !name.contains('%') {
        return name.to_string();
    }
    name.replace("[%s]", index).replace("%s", index)
}

/// The IR name of an array: `%s` (or `[%s]`) becomes `<n>`. An `_` beside a `%s` at either end
/// of the name, or between two `_`, goes with it (`REG_%s` → `REG<n>`, `A_%s_B` → `A<n>_B`), so
/// that the identifier, which drops `<n>`, has no `__` or trailing `_`.
pub(super) fn array_name(name: &str) -> String {
    let name = name.replace("[%s]", "%s");
    let Some(at) = name.find("%s") else {
        return name;
    };
    let (mut before, mut after) = (&name[..at], &name[at + 2..]);
    if before.ends_with('_') && (after.is_empty() || after.starts_with('_')) {
        before = &before[..before.len() - 1];
    }
    if before.is_empty() && after.starts_with('_') {
        after = &after[1..];
    }
    format!("{before}<n>{after}")
}

/// `prefix_name`, with one `_` at the joint (none when there is no prefix).
pub(super) fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!(
            "{}_{}",
            prefix.trim_end_matches('_'),
            name.trim_start_matches('_')
        )
    }
}

/// A layout name from a register name: index placeholders dropped.
pub(super) fn plain_name(name: &str) -> String {
    let mut out = name
        .replace("[%s]", "")
        .replace("%s", "")
        .replace("<n>", "");
    while out.contains("__") {
        out = out.replace("__", "_");
    }
    out.trim_matches('_').to_string()
}

/// `base`, or `base_2`, `base_3`, ... : the first whose identifier is not yet in `taken` (which
/// it is added to).
pub(super) fn unique(taken: &mut BTreeSet<String>, base: &str, case: Case) -> String {
    let mut name = base.to_string();
    let mut suffix = 2;
    while let Ok(id) = ident(&name, case) {
        if taken.insert(id) {
            break;
        }
        name = format!("{base}_{suffix}");
        suffix += 1;
    }
    name
}

/// The names `dimArrayIndex` gives an array's elements (values past the array are left out:
/// they name no element).
pub(super) fn index_names(dim: &DimElement) -> Vec<IndexName> {
    let Some(names) = &dim.dim_array_index else {
        return Vec::new();
    };
    names
        .values
        .iter()
        .filter_map(|value| {
            let index = u32::try_from(value.value?).ok().filter(|&i| i < dim.dim)?;
            Some(IndexName {
                name: value.name.clone(),
                index,
                doc: doc_text(value.description.as_deref()),
            })
        })
        .collect()
}
