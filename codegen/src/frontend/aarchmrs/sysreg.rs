//! System registers: an AArch64 entry with `MRS`/`MSR` accessors, or an AArch32 entry with
//! `MRC`/`MCR`/`MRRC`/`MCRR` ones, as IR system registers, their layouts and their views.
use super::schema::{Accessor, Entry, Fieldset};
use super::{condition, encoding, fields, Located, Lowering};
use crate::ir::{Condition, FieldAccess, Layout, NameRef, RegAccess, SysReg, SysRegPath, View};

/// The accessors that read and write a register of each state: (read, write) names.
const A64: [&str; 2] = ["A64.MRS", "A64.MSRregister"];
const A64_128: [&str; 2] = ["A64.MRRS", "A64.MSRRregister"];
const A32: [&str; 2] = ["A32.MRC", "A32.MCR"];
const A32_64: [&str; 2] = ["A32.MRRC", "A32.MCRR"];

/// The register's name with its index placeholder made uniform (`PMEVCNTR<m>_EL0` and
/// `PMEVCNTR<n>_EL0` are one register).
fn normalized(name: &str) -> String {
    without_index(name, "<>")
}

/// The access of an ordinary field of a register with `access`.
fn field_access(access: &RegAccess) -> FieldAccess {
    match access {
        RegAccess::Ro => FieldAccess::Ro,
        RegAccess::Wo => FieldAccess::Wo,
        _ => FieldAccess::Rw,
    }
}

/// The register whose encoding an entry without one of its own is reached through: the virtual
/// CPU interface's `ICV_PMR_EL1` is `MRS`/`MSR` of `ICC_PMR_EL1` with virtual interrupts enabled.
fn borrowed_encoding(entry: &Entry, kinds: &[&str]) -> Option<String> {
    let mut names = entry
        .accessors
        .iter()
        .filter(|a| matches!(a.name.as_deref(), Some(n) if kinds.contains(&n)))
        .flat_map(|a| a.encoding.iter().filter_map(|e| e.asmvalue.clone()));
    let first = names.next()?;
    (names.all(|n| n == first) && !first.contains("<op1>")).then(|| {
        let var = entry.index_variable.as_deref().unwrap_or("n");
        // `ICC_AP0R<m>_EL1` is the array `ICC_AP0R<n>_EL1`.
        let mut out = normalized(&first);
        out = out.replace("<>", &format!("<{var}>"));
        out
    })
}

fn entry_index(path: &str) -> usize {
    path.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .unwrap_or(0)
}

/// Lowers an entry whose encoding is `of`'s as a view of it, once `of` is lowered.
pub fn lower_view_of(entry: &Entry, path: &str, of: &str, at: &Located, out: &mut Lowering) {
    let pos = at.pos(path);
    let Some(target) = out
        .device
        .sysregs
        .iter()
        .find(|r| {
            let same_state = matches!(r.path, SysRegPath::A64 { .. })
                == (entry.state.as_deref() == Some("AArch64"));
            same_state && r.view.is_none() && layout_name(&r.name) == layout_name(of)
        })
        .cloned()
    else {
        out.unsupported(
            &pos,
            format!(
                "{}: reached through `{of}`, which is not generated; left out",
                entry.name
            ),
        );
        return;
    };
    let Some((fs_index, fieldset)) = primary(entry, 64) else {
        out.unsupported(
            &pos,
            format!("{}: no fieldset of at most 64 bits; left out", entry.name),
        );
        return;
    };
    let access = target.access.clone();
    let field_access = field_access(&access);
    let fs_path = format!("{path}.fieldsets[{fs_index}]");
    let name = if target.count.is_some() {
        entry.name.replace(
            &format!("<{}>", entry.index_variable.as_deref().unwrap_or("n")),
            "<n>",
        )
    } else {
        entry.name.clone()
    };
    let layout_name = layout_name(&entry.name);
    let layout = layout(
        entry,
        fieldset,
        &fs_path,
        &layout_name,
        field_access,
        at,
        out,
    );
    out.device.layouts.push(layout);
    let condition = entry.condition.as_ref().and_then(condition::lower);
    out.device.sysregs.push(SysReg {
        name,
        layout: NameRef {
            name: layout_name,
            pos: at.pos(&fs_path),
        },
        path: target.path,
        access,
        count: target.count,
        view: Some(View {
            of: NameRef {
                name: target.name.clone(),
                pos: pos.clone(),
            },
            when: if entry.name.starts_with("ICV_") {
                format!(
                    "the access is from EL1 with virtual interrupts enabled (HCR_EL2.IMO or FMO set): {} is then {}",
                    target.name, entry.name
                )
            } else {
                format!(
                    "Arm's data reaches {} through {}'s encoding, under the conditions of its accessors",
                    entry.name, target.name
                )
            },
        }),
        doc: None,
        condition,
        source: Some(format!("Arm ARM DDI0487, {}", entry.name)),
        pos,
    });
}

/// The accessor named `name` whose encoding is the register's own (not an alias such as
/// `SCTLR_EL12`), with that encoding's index in its list.
fn own<'a>(entry: &'a Entry, name: &str) -> Option<(usize, &'a Accessor, usize)> {
    let want = normalized(&entry.name);
    entry
        .accessors
        .iter()
        .enumerate()
        .filter(|(_, a)| a.name.as_deref() == Some(name))
        .find_map(|(k, a)| {
            a.encoding
                .iter()
                .position(|e| e.asmvalue.as_deref().map(normalized).as_ref() == Some(&want))
                .map(|e| (k, a, e))
        })
}

/// Lowers the entry at `path`, if it is a system register this generator can reach.
pub fn lower(entry: &Entry, path: &str, at: &Located, out: &mut Lowering) {
    let aarch64 = entry.state.as_deref() == Some("AArch64");
    let pos = at.pos(path);
    let (read, write) = if aarch64 {
        (own(entry, A64[0]), own(entry, A64[1]))
    } else {
        (own(entry, A32[0]), own(entry, A32[1]))
    };
    let (read64, write64) = if aarch64 {
        (None, None)
    } else {
        (own(entry, A32_64[0]), own(entry, A32_64[1]))
    };
    let wide = aarch64 && (own(entry, A64_128[0]).is_some() || own(entry, A64_128[1]).is_some());
    if wide {
        out.unsupported(
            &pos,
            format!(
                "{}: its 128-bit `MRRS`/`MSRR` accessor is not generated (the runtime has no 128-bit transfer); its 64-bit `MRS`/`MSR` view is",
                entry.name
            ),
        );
    }
    // A 64-bit layout of an AArch32 register is reached by `MRRC`/`MCRR` where it has them.
    let fieldset = primary(entry, 64);
    let use_64 = !aarch64
        && (read64.is_some() || write64.is_some())
        && (fieldset.is_some_and(|(_, f)| f.width == 64) || (read.is_none() && write.is_none()));
    let (read, write) = if use_64 {
        (read64, write64)
    } else {
        (read, write)
    };
    let Some(&(k, accessor, e)) = read.as_ref().or(write.as_ref()) else {
        let kinds: &[&str] = if aarch64 {
            &A64
        } else {
            &[A32[0], A32[1], A32_64[0], A32_64[1]]
        };
        if let Some(of) = borrowed_encoding(entry, kinds) {
            out.borrowed.push((entry_index(path), of));
            return;
        }
        if aarch64
            && entry
                .accessors
                .iter()
                .any(|a| matches!(a.name.as_deref(), Some(n) if A64.contains(&n)))
        {
            out.unsupported(
                &pos,
                format!(
                    "{}: an encoding space (IMPLEMENTATION DEFINED registers), not one register; left out",
                    entry.name
                ),
            );
            return;
        }
        if !aarch64 {
            let kinds: Vec<&str> = entry
                .accessors
                .iter()
                .filter_map(|a| a.name.as_deref())
                .collect();
            out.unsupported(
                &pos,
                format!(
                    "{}: no coprocessor accessor ({}); only `MRC`/`MCR`/`MRRC`/`MCRR` registers are generated",
                    entry.name,
                    if kinds.is_empty() { "none".to_string() } else { kinds.join(", ") }
                ),
            );
        } else if wide {
            out.unsupported(
                &pos,
                format!("{}: only a 128-bit accessor; left out", entry.name),
            );
        }
        return;
    };
    let access = match (read.is_some(), write.is_some()) {
        (true, true) => RegAccess::Rw,
        (true, false) => RegAccess::Ro,
        _ => RegAccess::Wo,
    };
    let field_access = field_access(&access);
    let encoding_path = format!("{path}.accessors[{k}].encoding[{e}]");
    let array = entry.kind == "RegisterArray";
    let var = accessor.index_variable.as_deref();
    let indexes: Vec<u32> = if array {
        accessor
            .indexes
            .iter()
            .flat_map(|r| r.start..r.start + r.width)
            .collect()
    } else {
        vec![0]
    };
    let mut paths = Vec::new();
    for &n in &indexes {
        match path_of(accessor, e, aarch64, use_64, var, n) {
            Ok(p) => paths.push(p),
            Err(why) => {
                out.syntax(&at.pos(&encoding_path), format!("{}: {why}", entry.name));
                return;
            }
        }
    }
    let Some((fs_index, fieldset)) = fieldset else {
        if entry.fieldsets.is_empty() {
            operation(entry, path, paths[0], access, at, out);
        } else {
            out.unsupported(
                &pos,
                format!("{}: no fieldset of at most 64 bits; left out", entry.name),
            );
        }
        return;
    };
    let layout_name = layout_name(&entry.name);
    let register_condition = entry.condition.as_ref().and_then(condition::lower);
    let fs_path = format!("{path}.fieldsets[{fs_index}]");
    let layout = layout(
        entry,
        fieldset,
        &fs_path,
        &layout_name,
        field_access,
        at,
        out,
    );
    out.device.layouts.push(layout);
    let doc = register_doc(entry, fieldset);
    let source = Some(format!("Arm ARM DDI0487, {}", entry.name));
    let sysreg = |name: String, path: SysRegPath, count: Option<u32>| SysReg {
        name,
        layout: NameRef {
            name: layout_name.clone(),
            pos: at.pos(&fs_path),
        },
        path,
        access: access.clone(),
        count,
        view: None,
        condition: register_condition.clone(),
        doc: doc.clone(),
        source: source.clone(),
        pos: pos.clone(),
    };
    // An array whose elements step CRm:op2 (or CRm) from element 0 is one array; any other is
    // one register per element.
    let base = paths[0];
    let linear = array
        && indexes.first() == Some(&0)
        && indexes.windows(2).all(|w| w[1] == w[0] + 1)
        && paths.iter().zip(0..).all(|(p, n)| {
            use crate::ir::PathExt;
            base.element(n) == Some(*p)
        });
    if !array {
        out.device
            .sysregs
            .push(sysreg(entry.name.clone(), base, None));
    } else if linear {
        let name = entry.name.replace(
            &format!("<{}>", entry.index_variable.as_deref().unwrap_or("n")),
            "<n>",
        );
        out.device
            .sysregs
            .push(sysreg(name, base, Some(indexes.len() as u32)));
    } else {
        let placeholder = format!("<{}>", entry.index_variable.as_deref().unwrap_or("n"));
        for (p, n) in paths.iter().zip(&indexes) {
            out.device.sysregs.push(sysreg(
                entry.name.replace(&placeholder, &n.to_string()),
                *p,
                None,
            ));
        }
    }
    if !array {
        views(entry, path, fs_index, base, &access, field_access, at, out);
        if aarch64 {
            aliases(entry, path, &layout_name, &access, at, out);
        }
    }
}

/// The other names the register's `MRS`/`MSR` accessors give it (`SCTLR_EL12`: `SCTLR_EL1`
/// from EL2 with HCR_EL2.E2H set), each a register of its own encoding with the register's
/// layout. A name that is an entry of its own (`ICC_PMR_EL1` in `ICV_PMR_EL1`'s accessors) is not
/// an alias.
fn aliases(
    entry: &Entry,
    path: &str,
    layout_name: &str,
    access: &RegAccess,
    at: &Located,
    out: &mut Lowering,
) {
    // Name, encoding, read, written, and the accessor's own condition (SCTLRALIAS_EL1 needs
    // FEAT_SRMASK where SCTLR_EL1 needs nothing).
    type Alias = (String, SysRegPath, bool, bool, Option<Condition>);
    let mut seen: Vec<Alias> = Vec::new();
    for (k, accessor) in entry.accessors.iter().enumerate() {
        let Some(kind) = accessor.name.as_deref().filter(|n| A64.contains(n)) else {
            continue;
        };
        for (e, enc) in accessor.encoding.iter().enumerate() {
            let Some(name) = enc.asmvalue.as_deref() else {
                continue;
            };
            if name == entry.name || name.contains('<') || out.entries.contains(name) {
                continue;
            }
            match path_of(accessor, e, true, false, None, 0) {
                Ok(p) => match seen.iter_mut().find(|s| s.0 == name) {
                    Some(s) => {
                        s.2 |= kind == A64[0];
                        s.3 |= kind == A64[1];
                    }
                    None => seen.push((
                        name.to_string(),
                        p,
                        kind == A64[0],
                        kind == A64[1],
                        accessor.condition.as_ref().and_then(condition::lower),
                    )),
                },
                Err(why) => out.syntax(
                    &at.pos(&format!("{path}.accessors[{k}].encoding[{e}]")),
                    format!("{name}: {why}"),
                ),
            }
        }
    }
    for (name, p, read, write, accessor_condition) in seen {
        let alias_access = match (read, write) {
            (true, true) => access.clone(),
            (true, false) => RegAccess::Ro,
            _ => RegAccess::Wo,
        };
        let condition = match (
            entry.condition.as_ref().and_then(condition::lower),
            accessor_condition,
        ) {
            (None, c) | (c, None) => c,
            (Some(a), Some(b)) => Some(Condition::All { of: vec![a, b] }),
        };
        out.device.sysregs.push(SysReg {
            name: name.clone(),
            layout: NameRef {
                name: layout_name.to_string(),
                pos: at.pos(path),
            },
            path: p,
            access: alias_access,
            count: None,
            view: None,
            doc: Some(format!(
                "Another encoding of {}: {name} reaches it from a higher exception level (Arm ARM DDI0487, {}, its accessors).",
                entry.name, entry.name
            )),
            condition,
            source: Some(format!("Arm ARM DDI0487, {}", entry.name)),
            pos: at.pos(path),
        });
    }
}

/// A register the data gives no fieldset, such as AArch32's `BPIALL` or `CP15DSB`: an operation
/// performed by writing it, whose value has no fields.
fn operation(
    entry: &Entry,
    path: &str,
    encoding: SysRegPath,
    access: RegAccess,
    at: &Located,
    out: &mut Lowering,
) {
    use crate::ir::PathExt;
    let name = layout_name(&entry.name);
    let pos = at.pos(path);
    out.device.layouts.push(Layout {
        name: name.clone(),
        width: encoding.width(),
        doc: Some(format!(
            "{}: Arm's data gives it no fields; writing it performs an operation",
            entry.name
        )),
        source: Some(format!("Arm ARM DDI0487, {}", entry.name)),
        reset: None,
        reset_mask: None,
        pos: pos.clone(),
        fields: Vec::new(),
        field_arrays: Vec::new(),
        derive: None,
    });
    let condition = entry.condition.as_ref().and_then(condition::lower);
    out.device.sysregs.push(SysReg {
        name: entry.name.clone(),
        layout: NameRef {
            name,
            pos: pos.clone(),
        },
        path: encoding,
        access,
        count: None,
        view: None,
        doc: None,
        condition,
        source: Some(format!("Arm ARM DDI0487, {}", entry.name)),
        pos,
    });
}

/// The operands of the accessor's encoding `e` for index `n`.
fn path_of(
    accessor: &Accessor,
    e: usize,
    aarch64: bool,
    wide: bool,
    var: Option<&str>,
    n: u32,
) -> Result<SysRegPath, String> {
    let enc = &accessor.encoding[e];
    let op = |f: &str| encoding::operand(enc, f, var, n);
    Ok(if aarch64 {
        SysRegPath::A64 {
            op0: op("op0")?,
            op1: op("op1")?,
            crn: op("CRn")?,
            crm: op("CRm")?,
            op2: op("op2")?,
        }
    } else if wide {
        SysRegPath::A32Wide {
            coproc: op("coproc")?,
            opc1: op("opc1")?,
            crm: op("CRm")?,
        }
    } else {
        SysRegPath::A32 {
            coproc: op("coproc")?,
            opc1: op("opc1")?,
            crn: op("CRn")?,
            crm: op("CRm")?,
            opc2: op("opc2")?,
        }
    })
}

/// A layout's name: the register's, without the index placeholder (`PMEVCNTR_EL0`).
pub fn layout_name(register: &str) -> String {
    without_index(register, "")
}

/// `name` with each `<index>` placeholder replaced by `with`.
fn without_index(name: &str, with: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in name.chars() {
        match c {
            '<' => {
                inside = true;
                out.push_str(with);
            }
            '>' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// Bits that named fields (not reserved ones) cover.
fn named_bits(fieldset: &Fieldset) -> u32 {
    fieldset
        .values
        .iter()
        .filter(|v| v.kind != "Fields.Reserved")
        .flat_map(|v| v.rangeset.iter())
        .map(|r| r.width)
        .sum()
}

/// The fieldset the register's layout is made from: of those at most `max` bits wide whose
/// condition only names features (not another register's contents), the one that names the
/// most bits, the first of equals (the data lists the newest first); else the first.
pub fn primary(entry: &Entry, max: u32) -> Option<(usize, &Fieldset)> {
    let fitting = || {
        entry
            .fieldsets
            .iter()
            .enumerate()
            .filter(|(_, f)| f.width <= max)
    };
    let mut best: Option<(usize, &Fieldset)> = None;
    for (k, f) in fitting() {
        let cond = f.condition.as_ref().and_then(condition::lower);
        if !condition::is_static(cond.as_ref()) {
            continue;
        }
        if best.is_none_or(|(_, b)| named_bits(f) > named_bits(b)) {
            best = Some((k, f));
        }
    }
    best.or_else(|| fitting().next())
}

pub(super) fn layout(
    entry: &Entry,
    fieldset: &Fieldset,
    fs_path: &str,
    name: &str,
    access: FieldAccess,
    at: &Located,
    out: &mut Lowering,
) -> Layout {
    let lowered = fields::lower(fieldset, fs_path, access, at);
    for (pos, why) in lowered.problems {
        out.unsupported(&pos, format!("{}: {why}", entry.name));
    }
    let when = fieldset
        .condition
        .as_ref()
        .and_then(condition::lower)
        .map(|c| format!(" when {c}"))
        .unwrap_or_default();
    Layout {
        name: name.to_string(),
        width: fieldset.width,
        doc: Some(format!("Layout of {}{when}, from Arm's data.", entry.name)),
        source: Some(format!("Arm ARM DDI0487, {}", entry.name)),
        reset: None,
        reset_mask: None,
        pos: at.pos(fs_path),
        fields: lowered.fields,
        field_arrays: lowered.arrays,
        derive: None,
    }
}

/// What the data says of the register beyond its fields: how many layouts it has. (Its condition
/// is the IR's, which the backends state.)
fn register_doc(entry: &Entry, fieldset: &Fieldset) -> Option<String> {
    let mut doc = String::new();
    let others = entry.fieldsets.len() - 1;
    if others > 0 {
        let when = fieldset
            .condition
            .as_ref()
            .and_then(condition::lower)
            .map_or_else(
                || "unconditional".to_string(),
                |c| format!("the one when {c}"),
            );
        if !doc.is_empty() {
            doc.push(' ');
        }
        doc.push_str(&format!(
            "Arm's data gives {} layouts; this is {when}.",
            others + 1
        ));
    }
    (!doc.is_empty()).then_some(doc)
}

/// The other fieldsets that hold under a condition on another register (HCR_EL2.E2H, TTBCR.EAE),
/// each a view of the register with a layout of its own.
#[allow(clippy::too_many_arguments)]
fn views(
    entry: &Entry,
    path: &str,
    primary: usize,
    base: SysRegPath,
    access: &RegAccess,
    field_access: FieldAccess,
    at: &Located,
    out: &mut Lowering,
) {
    let mut taken: Vec<String> = Vec::new();
    for (k, fieldset) in entry.fieldsets.iter().enumerate() {
        let cond = fieldset.condition.as_ref().and_then(condition::lower);
        if k == primary || fieldset.width > base_width(base) || named_bits(fieldset) == 0 {
            continue;
        }
        // An unconditional alternative is the register's layout without the primary's feature
        // (CCSIDR_EL1 without FEAT_CCIDX): the view `_BASE`.
        let (cond, mut suffix) = match cond {
            None => (
                Condition::Other {
                    text: "the features the register's other layouts need are not implemented"
                        .into(),
                },
                "BASE".to_string(),
            ),
            Some(c) if condition::is_static(Some(&c)) => {
                let features = c.features().join("_").replace("FEAT_", "");
                let s = if features.is_empty() {
                    "VIEW".to_string()
                } else {
                    super::sanitize(&features)
                };
                (c, s)
            }
            Some(c) => {
                let s = view_suffix(&c, fieldset);
                (c, s)
            }
        };
        if taken.contains(&suffix) {
            suffix = format!("{suffix}{k}");
        }
        taken.push(suffix.clone());
        let name = format!("{}_{suffix}", entry.name);
        let fs_path = format!("{path}.fieldsets[{k}]");
        let layout_name = format!("{}_{suffix}", layout_name(&entry.name));
        let layout = layout(
            entry,
            fieldset,
            &fs_path,
            &layout_name,
            field_access,
            at,
            out,
        );
        out.device.layouts.push(layout);
        out.device.sysregs.push(SysReg {
            name,
            layout: NameRef {
                name: layout_name,
                pos: at.pos(&fs_path),
            },
            path: base,
            access: access.clone(),
            count: None,
            view: Some(View {
                of: NameRef {
                    name: entry.name.clone(),
                    pos: at.pos(&fs_path),
                },
                when: cond.to_string(),
            }),
            condition: entry.condition.as_ref().and_then(condition::lower),
            doc: Some(format!(
                "{} when {cond}: Arm's data gives it this layout.",
                entry.name
            )),
            source: Some(format!("Arm ARM DDI0487, {}", entry.name)),
            pos: at.pos(&fs_path),
        });
    }
}

fn base_width(path: SysRegPath) -> u32 {
    use crate::ir::PathExt;
    path.width()
}

/// A view's name suffix from its condition: `E2H` for `ELIsInHost(EL2)`, `EAE1` for
/// `TTBCR.EAE == '1'`, the fieldset's own name where it has one, else `VIEW`.
fn view_suffix(cond: &Condition, fieldset: &Fieldset) -> String {
    let text = cond.to_string();
    if text.contains("ELIsInHost(EL2)") {
        return "E2H".into();
    }
    if let Some(name) = fieldset.name.as_deref().filter(|n| !n.is_empty()) {
        return super::sanitize(name);
    }
    // `(TTBCR.EAE == '1')` → `EAE1`; `(DBGBCR<n>_EL1.BT IN '001x')` → `BT001X`.
    let parts: Vec<&str> = text
        .split(['(', ')', ' ', '&', '|', '!'])
        .filter(|p| !p.is_empty())
        .collect();
    let mut out = String::new();
    let mut k = 0;
    while k < parts.len() {
        if let Some((_, field)) = parts[k].rsplit_once('.') {
            if let (Some(op), Some(v)) = (parts.get(k + 1), parts.get(k + 2)) {
                if matches!(*op, "==" | "IN") {
                    out.push_str(&super::sanitize(field));
                    out.push_str(&super::sanitize(v.trim_matches('\'')).to_uppercase());
                    k += 3;
                    continue;
                }
            }
        }
        k += 1;
    }
    if out.is_empty() {
        "VIEW".into()
    } else {
        out
    }
}
