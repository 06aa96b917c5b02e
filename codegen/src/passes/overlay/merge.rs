//! The merge: the native registers replace the data's of the same name, after comparison.
use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::compare::{self, Kind};
use super::{by_name, Found, Summary};
use crate::ir::{Device, Field, FieldAccess, Layout, PathExt, RegAccess, SysReg};

pub fn merge(mut data: Device, overlay: Device) -> (Device, Vec<Found>, Summary) {
    let mut found = Vec::new();
    let mut summary = Summary::default();
    let data_names = by_name(&data.sysregs);
    let data_layouts: HashMap<&str, &Layout> =
        data.layouts.iter().map(|l| (l.name.as_str(), l)).collect();
    let overlay_layouts: HashMap<&str, &Layout> = overlay
        .layouts
        .iter()
        .map(|l| (l.name.as_str(), l))
        .collect();
    // How many native registers use each native layout: one used once may take the data's
    // fields it lacks.
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for r in &overlay.sysregs {
        *uses.entry(r.layout.name.as_str()).or_default() += 1;
    }
    let mut replaced: BTreeSet<String> = BTreeSet::new();
    let mut added: BTreeMap<String, Vec<Field>> = BTreeMap::new();
    let mut conditions: HashMap<String, crate::ir::Condition> = HashMap::new();
    for reg in &overlay.sysregs {
        let group = match &reg.view {
            Some(view) => view.of.name.as_str(),
            None => reg.name.as_str(),
        };
        let Some(&di) = data_names.get(group.to_ascii_uppercase().as_str()) else {
            if reg.view.is_none() {
                found.push(Found {
                    register: reg.name.clone(),
                    kind: Kind::Missing,
                    field: None,
                    text: "Arm's data has no register of this name".into(),
                    ours: reg.pos.clone(),
                    theirs: None,
                });
            }
            continue;
        };
        let theirs = &data.sysregs[di];
        summary.compared += 1;
        if reg.view.is_none() {
            replaced.insert(theirs.name.clone());
            if let Some(c) = &theirs.condition {
                conditions.insert(reg.name.clone(), c.clone());
            }
            if reg.path != theirs.path || reg.count != theirs.count {
                let show = |r: &SysReg| match r.count {
                    Some(n) => format!("{} ({n} elements)", r.path),
                    None => r.path.to_string(),
                };
                found.push(Found {
                    register: reg.name.clone(),
                    kind: Kind::Encoding,
                    field: None,
                    text: format!("encoded {}; Arm's data has {}", show(reg), show(theirs)),
                    ours: reg.pos.clone(),
                    theirs: Some(theirs.pos.clone()),
                });
            }
            // A set or clear view is a read/write register whose writes act on a shared state.
            let compatible = matches!(
                (&reg.access, &theirs.access),
                (
                    RegAccess::Set { .. } | RegAccess::Clear { .. },
                    RegAccess::Rw
                )
            );
            if reg.access != theirs.access && !compatible {
                found.push(Found {
                    register: reg.name.clone(),
                    kind: Kind::Access,
                    field: None,
                    text: format!(
                        "access {:?}; Arm's data has {:?}",
                        reg.access, theirs.access
                    ),
                    ours: reg.pos.clone(),
                    theirs: Some(theirs.pos.clone()),
                });
            }
        }
        let Some(ours) = overlay_layouts.get(reg.layout.name.as_str()) else {
            continue;
        };
        // The data's layouts of this register: its own and its views'; the closest is compared.
        let candidates: Vec<&Layout> = data
            .sysregs
            .iter()
            .filter(|r| {
                r.name == theirs.name || r.view.as_ref().is_some_and(|v| v.of.name == theirs.name)
            })
            .filter_map(|r| data_layouts.get(r.layout.name.as_str()).copied())
            .collect();
        let best = candidates
            .iter()
            .map(|t| {
                let mut diffs = compare::layouts(ours, t);
                if ours.width != t.width.min(reg.path.width()) {
                    diffs.push(compare::FieldDifference {
                        kind: Kind::Width,
                        field: String::new(),
                        text: format!("{} bits wide; Arm's data has {}", ours.width, t.width),
                        theirs: None,
                        ours: None,
                    });
                }
                (diffs, *t)
            })
            .min_by_key(|(d, _)| d.len());
        let Some((diffs, t)) = best else { continue };
        for d in diffs {
            let ours_pos = d
                .ours
                .map_or_else(|| ours.pos.clone(), |i| ours.fields[i].pos.clone());
            let theirs_pos = d
                .theirs
                .map_or_else(|| t.pos.clone(), |i| t.fields[i].pos.clone());
            let field = (!d.field.is_empty()).then_some(d.field);
            found.push(Found {
                register: reg.name.clone(),
                kind: d.kind,
                field,
                text: d.text,
                ours: ours_pos,
                theirs: Some(theirs_pos),
            });
        }
        let lacking = compare::missing_fields(ours, t);
        if reg.view.is_none() && uses.get(reg.layout.name.as_str()) == Some(&1) {
            summary.fields_added += lacking.len();
            added
                .entry(reg.layout.name.clone())
                .or_default()
                .extend(lacking.into_iter().cloned());
        } else {
            summary.fields_lacking += lacking.len();
        }
    }
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &found {
        *by_kind.entry(f.kind.as_str()).or_default() += 1;
    }
    summary.differences = by_kind
        .into_iter()
        .map(|(k, n)| (k.to_string(), n))
        .collect();

    // The data's registers the description replaces, and their views where it has its own.
    let overlay_views: BTreeSet<&str> = overlay
        .sysregs
        .iter()
        .filter_map(|r| r.view.as_ref().map(|v| v.of.name.as_str()))
        .collect();
    data.sysregs.retain(|r| match &r.view {
        None => !replaced.contains(&r.name),
        Some(v) => !(replaced.contains(&v.of.name) && overlay_views.contains(v.of.name.as_str())),
    });
    let mut overlay = overlay;
    for reg in &mut overlay.sysregs {
        if reg.condition.is_none() {
            reg.condition = conditions.get(&reg.name).cloned();
        }
    }
    for layout in &mut overlay.layouts {
        if let Some(fields) = added.remove(&layout.name) {
            add_fields(layout, fields);
        }
    }
    // The data's memory-mapped views (the PMU, AMU, debug, trace, GIC and timer frames) are not
    // system registers: a crate laid over the data keeps the blocks its native files describe
    // (arm-pmuv3's PMU_EXT32, which the PMU seeds' test compares with Arm's PMU block).
    data.blocks.clear();
    // Data layouts no register uses any more go; one whose name a native layout has is renamed.
    let used: BTreeSet<String> = data.sysregs.iter().map(|r| r.layout.name.clone()).collect();
    data.layouts.retain(|l| used.contains(&l.name));
    let native: BTreeSet<String> = overlay.layouts.iter().map(|l| l.name.clone()).collect();
    let mut renames: HashMap<String, String> = HashMap::new();
    for layout in &mut data.layouts {
        if native.contains(&layout.name) {
            let new = format!("{}_ARM", layout.name);
            renames.insert(layout.name.clone(), new.clone());
            layout.name = new;
        }
    }
    for reg in &mut data.sysregs {
        if let Some(new) = renames.get(&reg.layout.name) {
            reg.layout.name = new.clone();
        }
    }
    let mut merged = overlay;
    merged.license = crate::license::combine(
        merged
            .license
            .iter()
            .chain(&data.license)
            .map(String::as_str),
    );
    merged.notice = match (merged.notice.take(), data.notice.take()) {
        (Some(a), Some(b)) if a != b => Some(format!("{a}\n\n{b}")),
        (a, b) => a.or(b),
    };
    merged.source = match (merged.source.take(), data.source.take()) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    merged.layouts.extend(data.layouts);
    merged.sysregs.extend(data.sysregs);
    merged.differences.clear();
    merged.canonicalize();
    (merged, found, summary)
}

/// Adds the data's `fields` to a native layout, on bits it left reserved or undescribed: its
/// RES0 ranges shrink to the bits still unnamed.
fn add_fields(layout: &mut Layout, fields: Vec<Field>) {
    let mask = Field::mask;
    let new: u64 = fields.iter().map(mask).fold(0, |a, b| a | b);
    let mut kept = Vec::new();
    for f in layout.fields.drain(..) {
        if f.access != FieldAccess::Res0 || mask(&f) & new == 0 {
            kept.push(f);
            continue;
        }
        // The RES0 range minus the new fields' bits, as runs.
        let rest = mask(&f) & !new;
        let mut bit = f.lsb;
        while bit < f.lsb + f.width {
            if rest >> bit & 1 == 0 {
                bit += 1;
                continue;
            }
            let start = bit;
            while bit < f.lsb + f.width && rest >> bit & 1 == 1 {
                bit += 1;
            }
            let mut part = f.clone();
            part.lsb = start;
            part.width = bit - start;
            part.name = format!("RES0_{}_{}", bit - 1, start);
            kept.push(part);
        }
    }
    let names: BTreeSet<String> = kept.iter().map(|f| f.name.to_ascii_uppercase()).collect();
    for mut f in fields {
        if names.contains(&f.name.to_ascii_uppercase()) {
            f.name = format!("{}_{}", f.name, f.lsb);
        }
        let from = "From Arm's data.";
        f.doc = Some(match f.doc.take() {
            Some(d) => format!("{from} {d}"),
            None => from.to_string(),
        });
        kept.push(f);
    }
    kept.sort_by_key(|f| f.lsb);
    layout.fields = kept;
}
