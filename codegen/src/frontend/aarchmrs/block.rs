//! Memory-mapped register blocks: a `RegisterBlock` entry (the Performance Monitors' and the
//! Activity Monitors' external views, `PMU` and `AMU`) as IR blocks.
//!
//! The entry's registers are in `blocks` and their places in its `accessors`: each
//! `Accessors.BlockAccess` names a register, whole (`PMCR_EL0`) or sliced (`PMCCNTR_EL0[31:0]`),
//! at an offset; each `Accessors.BlockAccessArray` does so for every index (`0 + 8*n`). One entry
//! describes two views, told apart by the accessors' conditions (`FEAT_PMUv3_EXT32`,
//! `FEAT_PMUv3_EXT64`): each view becomes a block of its own (`PMU_EXT32`, `PMU_EXT64`), whose bus
//! accesses are 32 or 64 bits wide.
//!
//! Within a view, several accessors may place registers at one offset under other features
//! (`PMSWINC_EL0` without FEAT_PMUv3p9, `PMZR_EL0` with it; a 32-bit `PMCNTENSET_EL0` without
//! FEAT_PMUv3_ICNTR, a 64-bit one with it). The block keeps the one of the base architecture (the
//! one whose condition holds when no feature beyond the view is implemented), else the narrower,
//! and an offset only a newer feature uses holds its register, with the feature in its doc. The two 32-bit halves
//! of a 64-bit register at consecutive words (`PMCCNTR_EL0[31:0]` at 0x0F8, `[63:32]` at 0x0FC)
//! are one 64-bit register, which the 32-bit bus reaches in two accesses; a lone upper half
//! (`PMEVTYPER<n>_EL0[63:32]` at 0xA00 + 4n) is a register of its own, `..._HI`.
//!
//! The other memory-mapped registers (`state` `ext` outside the blocks: debug, trace, CTI,
//! timer, GIC, MPAM, RAS) carry their component and frame on each accessor (`Timer`,
//! `CNTBaseN`) and their offset, and a `range` where an accessor reaches only some bits: each
//! component and frame becomes a block (`EXT_Timer_CNTBaseN`), 32-bit accesses, as large as its
//! registers reach in 4 KB pages. An array not indexed from 0 (`GICD_IROUTER<n>`, from 32) is left
//! out with a warning.
//!
//! Layouts are named after the register with an `EXT_` prefix (`EXT_PMCR_EL0`), apart from the
//! system registers' (`PMCR_EL0`); a register whose two views have different layouts has the
//! 64-bit view's suffixed (`EXT_PMCR_EL0_EXT64`).
use serde_json::Value;

use super::schema::{Accessor, Ast, Entry, Fieldset};
use super::{condition, sysreg, Located, Lowering};
use crate::ir::{Block, BlockArray, BlockRegister, FieldAccess, Layout, NameRef, RegAccess};

/// Three-valued truth: a feature the view neither implies nor excludes is unknown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Truth {
    True,
    False,
    Unknown,
}

impl Truth {
    fn not(self) -> Self {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
        }
    }
    fn and(self, other: Self) -> Self {
        match (self, other) {
            (Truth::False, _) | (_, Truth::False) => Truth::False,
            (Truth::True, Truth::True) => Truth::True,
            _ => Truth::Unknown,
        }
    }
    fn or(self, other: Self) -> Self {
        match (self, other) {
            (Truth::True, _) | (_, Truth::True) => Truth::True,
            (Truth::False, Truth::False) => Truth::False,
            _ => Truth::Unknown,
        }
    }
}

/// One view of a block: the feature it is (`FEAT_PMUv3_EXT32`), the one it excludes, and the
/// feature both imply (`FEAT_PMUv3_EXT`).
struct View {
    suffix: String,
    on: Option<String>,
    off: Option<String>,
    implied: Option<String>,
    access_width: u32,
}

impl View {
    /// The condition's truth in this view; with `baseline`, a feature the view does not decide
    /// is taken as not implemented.
    fn eval(&self, ast: Option<&Ast>, baseline: bool) -> Truth {
        let Some(ast) = ast else {
            return Truth::True;
        };
        let undecided = if baseline {
            Truth::False
        } else {
            Truth::Unknown
        };
        match (ast.kind.as_str(), ast.name.as_deref()) {
            ("AST.Bool", _) => match ast.value {
                Some(Value::Bool(true)) => Truth::True,
                Some(Value::Bool(false)) => Truth::False,
                _ => undecided,
            },
            ("AST.Function", Some("IsFeatureImplemented")) => {
                let Some(feature) = ast.arguments.first().map(condition::text) else {
                    return undecided;
                };
                if Some(&feature) == self.on.as_ref() || Some(&feature) == self.implied.as_ref() {
                    Truth::True
                } else if Some(&feature) == self.off.as_ref() {
                    Truth::False
                } else {
                    undecided
                }
            }
            ("AST.UnaryOp", _) if ast.op.as_deref() == Some("!") => {
                self.eval(ast.expr.as_deref(), baseline).not()
            }
            ("AST.BinaryOp", _) if matches!(ast.op.as_deref(), Some("&&" | "||")) => {
                let left = self.eval(ast.left.as_deref(), baseline);
                let right = self.eval(ast.right.as_deref(), baseline);
                if ast.op.as_deref() == Some("&&") {
                    left.and(right)
                } else {
                    left.or(right)
                }
            }
            _ => undecided,
        }
    }
}

/// The views an entry's accessors tell apart: `FEAT_X_EXT32` and `FEAT_X_EXT64`, or one view.
fn views(entry: &Entry) -> Vec<View> {
    let mut features: Vec<String> = entry
        .accessors
        .iter()
        .filter_map(|a| a.condition.as_ref().and_then(condition::lower))
        .flat_map(|c| {
            c.features()
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|f| f.ends_with("_EXT32") || f.ends_with("_EXT64"))
        .collect();
    features.sort();
    features.dedup();
    let pair = features.iter().find_map(|f| {
        let stem = f.strip_suffix("_EXT32")?;
        let wide = format!("{stem}_EXT64");
        features
            .contains(&wide)
            .then(|| (stem.to_string(), f.clone(), wide))
    });
    match pair {
        Some((stem, narrow, wide)) => vec![
            View {
                suffix: "EXT32".into(),
                on: Some(narrow.clone()),
                off: Some(wide.clone()),
                implied: Some(format!("{stem}_EXT")),
                access_width: 32,
            },
            View {
                suffix: "EXT64".into(),
                on: Some(wide),
                off: Some(narrow),
                implied: Some(format!("{stem}_EXT")),
                access_width: 64,
            },
        ],
        None => vec![View {
            suffix: String::new(),
            on: None,
            off: None,
            implied: None,
            access_width: 32,
        }],
    }
}

/// A register an accessor places: which, which bits, where, and under what.
#[derive(Clone)]
struct Placed<'a> {
    /// Which register (the same key for two accessors of one register).
    key: usize,
    entry: &'a Entry,
    entry_path: String,
    accessor: &'a Accessor,
    accessor_path: String,
    /// The accessor's place in the data, for a stable order.
    order: usize,
    /// The bits the accessor reaches (lowest, highest), or the whole register.
    slice: Option<(u32, u32)>,
    offset: u64,
    array: Option<BlockArray>,
    /// The index variable of an array (`n`).
    var: String,
    fieldset: usize,
    /// Whether the accessor's condition holds in the base architecture of the view.
    baseline: bool,
    access: RegAccess,
}

impl Placed<'_> {
    fn bits(&self) -> u32 {
        match self.slice {
            Some((lo, hi)) => hi - lo + 1,
            None => self.entry.fieldsets[self.fieldset].width,
        }
    }

    /// The byte ranges the register takes.
    fn spans(&self) -> Vec<(u64, u64)> {
        let bytes = u64::from(self.bits().div_ceil(8));
        match &self.array {
            Some(a) => (0..u64::from(a.count))
                .map(|k| {
                    let start = self.offset + k * a.stride;
                    (start, start + bytes)
                })
                .collect(),
            None => vec![(self.offset, self.offset + bytes)],
        }
    }

    /// Whether this slice covers the whole fieldset.
    fn whole(&self) -> bool {
        let width = self.entry.fieldsets[self.fieldset].width;
        self.slice.is_none_or(|(lo, hi)| lo == 0 && hi + 1 >= width)
    }
}

/// Lowers the `RegisterBlock` entry at `path` into a block per view.
pub(super) fn lower(entry: &Entry, path: &str, at: &Located, out: &mut Lowering) {
    // The release writes the size as a string of decimal digits ("4096").
    let size = match &entry.size {
        Some(Value::Number(n)) => n.as_u64().unwrap_or(0),
        Some(Value::String(s)) => s.trim().parse().unwrap_or(0),
        _ => 0,
    };
    if size == 0 {
        out.syntax(
            &at.pos(path),
            format!("{}: a register block needs its `size` in bytes", entry.name),
        );
        return;
    }
    for view in views(entry) {
        let mut placed = Vec::new();
        for (k, accessor) in entry.accessors.iter().enumerate() {
            if view.eval(accessor.condition.as_ref(), false) == Truth::False {
                continue;
            }
            let accessor_path = format!("{path}.accessors[{k}]");
            let found = reference(accessor.references.as_ref()).and_then(|(target, slice)| {
                let r = entry
                    .blocks
                    .iter()
                    .position(|r| r.name == target)
                    .ok_or_else(|| format!("`{target}` is not one of the block's registers"))?;
                let entry_path = format!("{path}.blocks[{r}]");
                let at = (r, &entry.blocks[r], entry_path);
                place(at, accessor, accessor_path.clone(), k, slice, &view)
            });
            match found {
                Ok(p) => placed.push(p),
                Err(why) => out.unsupported(
                    &at.pos(&accessor_path),
                    format!("{}: {why}; left out", entry.name),
                ),
            }
        }
        let name = if view.suffix.is_empty() {
            entry.name.clone()
        } else {
            format!("{}_{}", entry.name, view.suffix)
        };
        let when = view
            .on
            .as_ref()
            .map(|f| format!(" when {f} is implemented"))
            .unwrap_or_default();
        let doc = format!(
            "The {} register block{when}, from Arm's data: the registers of the base architecture, and those of newer features at offsets the base leaves free. Accesses are {} bits wide.",
            entry.name, view.access_width
        );
        let shape = Shape {
            name,
            size,
            doc,
            source: format!("Arm ARM DDI0487, {} external register block", entry.name),
            pos: at.pos(path),
        };
        finish(shape, placed, &view, at, out);
    }
}

/// Lowers the memory-mapped registers outside the register blocks (`state` `ext`: the debug,
/// trace, CTI, timer, GIC, MPAM and RAS components), one block per component and frame
/// (`Timer` `CNTBaseN`), at the offsets their accessors give; `entries` are `(index, entry)`.
pub(super) fn lower_external(entries: &[(usize, &Entry)], at: &Located, out: &mut Lowering) {
    let view = View {
        suffix: String::new(),
        on: None,
        off: None,
        implied: None,
        access_width: 32,
    };
    let mut groups: Vec<(String, Vec<Placed>)> = Vec::new();
    let mut order = 0;
    for &(i, entry) in entries {
        let path = format!("[{i}]");
        let mut reached = false;
        for (k, accessor) in entry.accessors.iter().enumerate() {
            if !matches!(
                accessor.kind.as_str(),
                "Accessors.MemoryMapped" | "Accessors.ExternalDebug"
            ) {
                continue;
            }
            reached = true;
            order += 1;
            let accessor_path = format!("{path}.accessors[{k}]");
            let component = accessor.component.as_deref().unwrap_or("EXT");
            let name = match accessor.frame.as_deref() {
                Some(frame) => format!("{component}_{frame}"),
                None => component.to_string(),
            };
            let name = super::sanitize(&name);
            let slice = accessor.range.map(|r| (r.start, r.start + r.width - 1));
            match place(
                (i, entry, path.clone()),
                accessor,
                accessor_path.clone(),
                order,
                slice,
                &view,
            ) {
                Ok(p) => match groups.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, g)) => g.push(p),
                    None => groups.push((name, vec![p])),
                },
                Err(why) => out.unsupported(
                    &at.pos(&accessor_path),
                    format!("{}: {why}; left out", entry.name),
                ),
            }
        }
        if !reached {
            out.unsupported(
                &at.pos(&path),
                format!(
                    "{}: a memory-mapped register without an offset; left out",
                    entry.name
                ),
            );
        }
    }
    for (name, placed) in groups {
        // The frame is as large as its registers reach, in 4 KB pages.
        let end = placed
            .iter()
            .flat_map(|p| p.spans())
            .map(|s| s.1)
            .max()
            .unwrap_or(0);
        let size = end.div_ceil(0x1000).max(1) * 0x1000;
        let pos = placed
            .first()
            .map(|p| at.pos(&p.entry_path))
            .unwrap_or_else(|| at.pos(""));
        let shape = Shape {
            doc: format!(
                "The memory-mapped registers of `{name}` in Arm's data, at the offsets it gives; its size is the 4 KB pages they reach. Accesses are 32 bits wide."
            ),
            source: format!("Arm ARM DDI0487, {name} (memory-mapped registers)"),
            name: format!("EXT_{name}"),
            size,
            pos,
        };
        finish(shape, placed, &view, at, out);
    }
}

/// A block's name, size, documentation and position.
struct Shape {
    name: String,
    size: u64,
    doc: String,
    source: String,
    pos: crate::ir::Pos,
}

/// Chooses among the registers placed in a block and adds the block.
fn finish(shape: Shape, mut placed: Vec<Placed>, view: &View, at: &Located, out: &mut Lowering) {
    // The base architecture's register first, then the narrower (older) of two newer ones;
    // another at an offset one of them takes is left out.
    placed.sort_by_key(|p| (!p.baseline, p.bits(), p.order));
    let mut kept: Vec<Placed> = Vec::new();
    for p in placed {
        let spans = p.spans();
        let clash = kept.iter().any(|q| {
            q.spans()
                .iter()
                .any(|a| spans.iter().any(|b| a.0 < b.1 && b.0 < a.1))
        });
        if !clash {
            kept.push(p);
        }
    }
    kept.sort_by_key(|p| (p.offset, p.order));
    let kept = join_halves(kept, view);
    let name = shape.name;
    let mut registers: Vec<BlockRegister> = Vec::new();
    for p in &kept {
        // A block has one bus width: the 64-bit view's 32-bit registers (identification, lock,
        // integration) cannot be placed beside its 64-bit ones.
        if p.bits() < view.access_width {
            out.unsupported(
                &at.pos(&p.accessor_path),
                format!(
                    "`{}` is {} bits wide in the {}-bit view `{name}`, whose block accesses are all {} bits; left out of it",
                    p.entry.name,
                    p.bits(),
                    view.access_width,
                    view.access_width
                ),
            );
            continue;
        }
        if p.spans().iter().any(|s| s.1 > shape.size) {
            out.unsupported(
                &at.pos(&p.accessor_path),
                format!(
                    "`{}` lies outside the block `{name}`'s {} bytes; left out",
                    p.entry.name, shape.size
                ),
            );
            continue;
        }
        let mut reg = register(p, view, at, out);
        // The same register at a second offset (`PMPCSR` at 0x200 and 0x220) is an alias.
        if let Some(first) = registers.iter().find(|r| r.name == reg.name) {
            let of = NameRef {
                name: first.name.clone(),
                pos: first.pos.clone(),
            };
            reg.name = format!("{}_{:X}", reg.name, reg.offset);
            reg.alias_of = Some(of);
        }
        registers.push(reg);
    }
    out.device.blocks.push(Block {
        name,
        size: shape.size,
        access_width: view.access_width,
        doc: Some(shape.doc),
        source: Some(shape.source),
        pos: shape.pos,
        registers,
        clusters: Vec::new(),
        lock: None,
    });
}

/// The register `entry` (`key`, at `entry_path`) as `accessor` places it in `view`, or why it
/// cannot be placed.
fn place<'a>(
    (key, entry, entry_path): (usize, &'a Entry, String),
    accessor: &'a Accessor,
    accessor_path: String,
    order: usize,
    slice: Option<(u32, u32)>,
    view: &View,
) -> Result<Placed<'a>, String> {
    let target = &entry.name;
    let needed = slice.map_or(0, |(_, hi)| hi + 1);
    let candidates: Vec<(usize, &Fieldset)> = entry
        .fieldsets
        .iter()
        .enumerate()
        .filter(|(_, f)| f.width <= 64 && f.width >= needed)
        .filter(|(_, f)| view.eval(f.condition.as_ref(), false) != Truth::False)
        .collect();
    // The fieldset that names the most of the bits reached (PMLAR's `KEY` where the software
    // lock is implemented, not its all-reserved other layout); of equals, the base
    // architecture's, else the first.
    let (lo, hi) = slice.unwrap_or((0, 63));
    let named = |f: &Fieldset| -> u32 {
        f.values
            .iter()
            .filter(|v| v.kind != "Fields.Reserved")
            .flat_map(|v| v.rangeset.iter())
            .map(|r| {
                let (start, end) = (r.start.max(lo), (r.start + r.width).min(hi + 1));
                end.saturating_sub(start)
            })
            .sum()
    };
    let fieldset = candidates
        .iter()
        .enumerate()
        .max_by_key(|(k, (_, f))| {
            (
                named(f),
                view.eval(f.condition.as_ref(), true) == Truth::True,
                std::cmp::Reverse(*k),
            )
        })
        .map(|(_, (i, _))| *i)
        .ok_or_else(|| format!("`{target}` has no fieldset of at most 64 bits in this view"))?;
    let offsets = offset_list(accessor.offset.as_ref())?;
    let [expr] = offsets.as_slice() else {
        return Err(format!(
            "`{target}`: {} offsets for one accessor are not understood",
            offsets.len()
        ));
    };
    let var = accessor
        .index_variable
        .clone()
        .or_else(|| entry.index_variable.clone())
        .unwrap_or_else(|| "n".to_string());
    // A block's array accessor has its own index range; a memory-mapped register array's
    // accessor is its register's.
    let array_accessor = accessor.kind == "Accessors.BlockAccessArray";
    let (offset, array) = if array_accessor || entry.kind == "RegisterArray" {
        let ranges = if accessor.indexes.is_empty() {
            &entry.indexes
        } else {
            &accessor.indexes
        };
        let indexes: Vec<u64> = ranges
            .iter()
            .flat_map(|r| u64::from(r.start)..u64::from(r.start + r.width))
            .collect();
        // An array register may have fewer elements than its accessor's index range.
        let own = entry.indexes.iter().map(|r| r.width).sum::<u32>();
        let count = if own > 0 {
            own.min(indexes.len() as u32)
        } else {
            indexes.len() as u32
        };
        if indexes.first() != Some(&0) || count == 0 {
            return Err(format!("`{target}`: an array not indexed from 0"));
        }
        let at = |n: u64| evaluate(expr, &var, n);
        let base = at(0)?;
        let stride = if count > 1 { at(1)? - base } else { 0 };
        let stride =
            u64::try_from(stride).map_err(|_| format!("`{target}`: its offsets step downwards"))?;
        for n in 0..u64::from(count) {
            if at(n)? != base + (n * stride) as i64 {
                return Err(format!("`{target}`: its offsets are not evenly spaced"));
            }
        }
        (base, Some(BlockArray { count, stride }))
    } else {
        (evaluate(expr, &var, 0)?, None)
    };
    let offset = u64::try_from(offset).map_err(|_| format!("`{target}`: a negative offset"))?;
    Ok(Placed {
        key,
        entry,
        entry_path,
        accessor,
        accessor_path,
        order,
        slice,
        offset,
        array,
        var,
        fieldset,
        baseline: view.eval(accessor.condition.as_ref(), true) == Truth::True,
        access: access(accessor.access.as_ref()),
    })
}

/// The register an accessor names, and the bits it reaches if not all.
fn reference(ast: Option<&Ast>) -> Result<(String, Option<(u32, u32)>), String> {
    let ast = ast.ok_or("a block accessor without `references`")?;
    let name = |a: &Ast| match (&a.kind[..], &a.value) {
        ("AST.Identifier", Some(Value::String(s))) => Some(s.clone()),
        _ => None,
    };
    if let Some(n) = name(ast) {
        return Ok((n, None));
    }
    let bad = || format!("a reference `{}` is not understood", condition::text(ast));
    if ast.kind != "AST.SquareOp" {
        return Err(bad());
    }
    let target = ast.var.as_deref().and_then(name).ok_or_else(bad)?;
    let [slice] = ast.arguments.as_slice() else {
        return Err(bad());
    };
    let int = |a: Option<&Ast>| a.and_then(|a| a.value.as_ref()?.as_u64());
    let (Some(hi), Some(lo)) = (int(slice.left.as_deref()), int(slice.right.as_deref())) else {
        return Err(bad());
    };
    if slice.kind != "AST.Slice" || lo > hi || hi > 63 {
        return Err(bad());
    }
    Ok((target, Some((lo as u32, hi as u32))))
}

fn offset_list(value: Option<&Value>) -> Result<Vec<Ast>, String> {
    let value = value.ok_or("a block accessor without `offset`")?;
    let items: Vec<Value> = match value {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    items
        .into_iter()
        .map(|v| {
            serde_json::from_value(v).map_err(|e| format!("an offset is not an expression: {e}"))
        })
        .collect()
}

/// An offset expression's value for index `n` of variable `var`.
fn evaluate(ast: &Ast, var: &str, n: u64) -> Result<i64, String> {
    match ast.kind.as_str() {
        "AST.Integer" => ast
            .value
            .as_ref()
            .and_then(Value::as_i64)
            .ok_or_else(|| "an integer without a value".to_string()),
        "AST.Identifier" if ast.value.as_ref().and_then(Value::as_str) == Some(var) => Ok(n as i64),
        "AST.BinaryOp" => {
            let side = |s: Option<&Ast>| -> Result<i64, String> {
                evaluate(s.ok_or("an operation without an operand")?, var, n)
            };
            let (l, r) = (side(ast.left.as_deref())?, side(ast.right.as_deref())?);
            match ast.op.as_deref() {
                Some("+") => l.checked_add(r),
                Some("-") => l.checked_sub(r),
                Some("*") => l.checked_mul(r),
                _ => None,
            }
            .ok_or_else(|| format!("the offset `{}` is not understood", condition::text(ast)))
        }
        _ => Err(format!(
            "the offset `{}` is not understood",
            condition::text(ast)
        )),
    }
}

/// What the accessor's permission tree allows: reads where some case reads (`R`), writes where
/// some case writes (`W`).
fn access(tree: Option<&Value>) -> RegAccess {
    fn walk(v: &Value, read: &mut bool, write: &mut bool) {
        match v {
            Value::Object(o) => {
                if o.get("_type").and_then(Value::as_str)
                    == Some("Accessors.Permission.AccessTypes.Memory.ReadWriteAccess")
                {
                    *read |= o.get("read").and_then(Value::as_str) == Some("R");
                    *write |= o.get("write").and_then(Value::as_str) == Some("W");
                }
                o.values().for_each(|v| walk(v, read, write));
            }
            Value::Array(a) => a.iter().for_each(|v| walk(v, read, write)),
            _ => {}
        }
    }
    let (mut read, mut write) = (false, false);
    if let Some(tree) = tree {
        walk(tree, &mut read, &mut write);
    }
    match (read, write) {
        (false, true) => RegAccess::Wo,
        (true, false) => RegAccess::Ro,
        _ => RegAccess::Rw,
    }
}

/// A register's low half at an offset and its high half at the next word become one register.
fn join_halves<'a>(kept: Vec<Placed<'a>>, view: &View) -> Vec<Placed<'a>> {
    let mut out: Vec<Placed<'a>> = Vec::new();
    let mut used = vec![false; kept.len()];
    for i in 0..kept.len() {
        if used[i] {
            continue;
        }
        let p = &kept[i];
        let partner = (p.slice == Some((0, 31)))
            .then(|| {
                kept.iter().enumerate().position(|(j, q)| {
                    !used[j]
                        && j != i
                        && q.key == p.key
                        && q.slice == Some((32, 63))
                        && q.offset == p.offset + 4
                        && q.array == p.array
                })
            })
            .flatten();
        let wide =
            p.entry.fieldsets.iter().position(|f| {
                f.width == 64 && view.eval(f.condition.as_ref(), false) != Truth::False
            });
        used[i] = true;
        let mut joined = p.clone();
        if let (Some(j), Some(fieldset)) = (partner, wide) {
            used[j] = true;
            joined.slice = None;
            joined.fieldset = fieldset;
        }
        out.push(joined);
    }
    out
}

fn register(p: &Placed, view: &View, at: &Located, out: &mut Lowering) -> BlockRegister {
    let entry = p.entry;
    let apath = &p.accessor_path;
    let fs_path = format!("{}.fieldsets[{}]", p.entry_path, p.fieldset);
    let high = !p.whole() && p.slice.is_some_and(|(lo, _)| lo > 0);
    let part = if high { "_HI" } else { "" };
    let field_access = match p.access {
        RegAccess::Ro => FieldAccess::Ro,
        RegAccess::Wo => FieldAccess::Wo,
        _ => FieldAccess::Rw,
    };
    let base_name = format!("EXT_{}{part}", sysreg::layout_name(&entry.name));
    let mut layout = sysreg::layout(
        entry,
        &entry.fieldsets[p.fieldset],
        &fs_path,
        &base_name,
        field_access,
        at,
        out,
    );
    if !p.whole() {
        slice_layout(&mut layout, p.slice.unwrap_or((0, 31)), &entry.name, out);
    }
    let layout_name = add_layout(layout, &view.suffix, out);
    let placeholder = format!("<{}>", p.var);
    let mut name = entry.name.replace(&placeholder, "<n>");
    if p.array.is_none() {
        name = entry.name.clone();
    }
    name.push_str(part);
    let accessor = p.accessor;
    let mut doc = Vec::new();
    if let Some((lo, hi)) = p.slice.filter(|_| !p.whole()) {
        doc.push(format!("Bits {hi}:{lo} of {}.", entry.name));
    }
    let conditions: Vec<String> = [entry.condition.as_ref(), accessor.condition.as_ref()]
        .into_iter()
        .flatten()
        .filter_map(condition::lower)
        .map(|c| c.to_string())
        .collect();
    if !conditions.is_empty() {
        doc.push(format!("Present when {}.", conditions.join(" and ")));
    }
    BlockRegister {
        name,
        layout: NameRef {
            name: layout_name,
            pos: at.pos(&fs_path),
        },
        offset: p.offset,
        access: p.access.clone(),
        array: p.array,
        alias_of: None,
        read_action: None,
        index_names: Vec::new(),
        protection: None,
        doc: (!doc.is_empty()).then(|| doc.join(" ")),
        source: Some(format!("Arm ARM DDI0487, {}", entry.name)),
        pos: at.pos(apath),
    }
}

/// Keeps the fields of bits `lo..=hi`, moved down to bit 0; a field across the edge is left out
/// with a warning.
fn slice_layout(layout: &mut Layout, (lo, hi): (u32, u32), register: &str, out: &mut Lowering) {
    let pos = layout.pos.clone();
    let mut kept = Vec::new();
    for mut f in std::mem::take(&mut layout.fields) {
        let (start, end) = (f.lsb, f.lsb + f.width - 1);
        if start >= lo && end <= hi {
            f.lsb -= lo;
            kept.push(f);
        } else if start <= hi && end >= lo {
            out.unsupported(
                &f.pos,
                format!(
                    "{register}: field `{}` [{end}:{start}] crosses the edge of the bits {hi}:{lo} an access reaches; left out",
                    f.name
                ),
            );
        }
    }
    let names: Vec<&str> = kept.iter().map(|f| f.name.as_str()).collect();
    layout
        .field_arrays
        .retain(|a| a.members.iter().all(|m| names.contains(&m.as_str())));
    layout.fields = kept;
    layout.width = hi - lo + 1;
    layout.doc = Some(format!("Bits {hi}:{lo} of {register}, from Arm's data."));
    layout.pos = pos;
}

/// Adds `layout` unless an equal one of its name is there; one of the name that differs makes
/// this one `<name>_<suffix>`. Returns the name used.
fn add_layout(mut layout: Layout, suffix: &str, out: &mut Lowering) -> String {
    let same = |a: &Layout, b: &Layout| {
        a.width == b.width
            && a.fields.len() == b.fields.len()
            && a.fields.iter().zip(&b.fields).all(|(x, y)| {
                x.name == y.name && x.lsb == y.lsb && x.width == y.width && x.access == y.access
            })
    };
    let suffix = if suffix.is_empty() { "2" } else { suffix };
    for attempt in 0..2 {
        if attempt == 1 {
            layout.name = format!("{}_{suffix}", layout.name);
        }
        match out.device.layouts.iter().find(|l| l.name == layout.name) {
            Some(existing) if same(existing, &layout) => return layout.name,
            Some(_) => continue,
            None => {
                let name = layout.name.clone();
                out.device.layouts.push(layout);
                return name;
            }
        }
    }
    // Both names are taken by other layouts: the data repeats a register; keep the first.
    layout.name
}

#[cfg(test)]
mod tests {
    use crate::ir::Device;

    /// A `PMU` block in miniature: counters whose width depends on FEAT_PMUv3p5, a 64-bit
    /// counter in two halves, an event type whose upper half lies elsewhere, two registers at
    /// one offset under other features, and a 32-bit register the 64-bit view cannot hold; and
    /// three memory-mapped registers of two components (CTI; the timer's `CNTBaseN` frame),
    /// an array among them and a 64-bit one reached in two halves.
    const FIXTURE: &str = include_str!("testdata/blocks.json");

    /// Each block and register as one line: offset, name, array, access, layout, width, fields.
    fn summary(device: &Device) -> String {
        let mut out = String::new();
        for block in &device.blocks {
            out.push_str(&format!(
                "{} size {:#x} access {}\n",
                block.name, block.size, block.access_width
            ));
            for r in &block.registers {
                let layout = device.layout(&r.layout.name).unwrap();
                let fields: Vec<String> = layout
                    .fields
                    .iter()
                    .filter(|f| !f.is_reserved())
                    .map(|f| format!("{}@{}+{}", f.name, f.lsb, f.width))
                    .collect();
                let array = r
                    .array
                    .as_ref()
                    .map(|a| format!(" x{}/{:#x}", a.count, a.stride))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "  {:#05x} {}{array} {:?} {} {} [{}]\n",
                    r.offset,
                    r.name,
                    r.access,
                    layout.name,
                    layout.width,
                    fields.join(" ")
                ));
            }
        }
        out
    }

    #[test]
    fn lowers_each_view_of_a_register_block_and_each_component() {
        let (device, warnings) = super::super::parse_json("blocks.json", FIXTURE).unwrap();
        let expected = "\
PMU_EXT32 size 0x1000 access 32
  0x000 PMEVCNTR<n>_EL0 x4/0x8 Rw EXT_PMEVCNTR_EL0 32 [EVCNT@0+32]
  0x0f8 PMCCNTR_EL0 Rw EXT_PMCCNTR_EL0 64 [CCNT@0+64]
  0x400 PMEVTYPER<n>_EL0 x4/0x4 Rw EXT_PMEVTYPER_EL0 32 [evtCount@0+16]
  0xa00 PMEVTYPER<n>_EL0_HI x4/0x4 Rw EXT_PMEVTYPER_EL0_HI 32 [TC@29+3]
  0xca0 PMSWINC_EL0 Wo EXT_PMSWINC_EL0 32 [P0@0+1 P1@1+1 P2@2+1 P3@3+1]
  0xfb0 PMLAR Wo EXT_PMLAR 32 [KEY@0+32]
PMU_EXT64 size 0x1000 access 64
  0x000 PMEVCNTR<n>_EL0 x4/0x8 Rw EXT_PMEVCNTR_EL0_EXT64 64 [EVCNT@0+64]
  0x0f8 PMCCNTR_EL0 Rw EXT_PMCCNTR_EL0 64 [CCNT@0+64]
  0x400 PMEVTYPER<n>_EL0 x4/0x8 Rw EXT_PMEVTYPER_EL0_EXT64 64 [evtCount@0+16 TC@61+3]
  0xca0 PMZR_EL0 Wo EXT_PMZR_EL0 64 [P0@0+1 P1@1+1 P2@2+1 P3@3+1]
EXT_CTI size 0x1000 access 32
  0x000 CTICONTROL Rw EXT_CTICONTROL 32 [GLBEN@0+1]
  0x020 CTIINEN<n> x4/0x4 Rw EXT_CTIINEN 32 [TRIGINEN@0+32]
EXT_Timer_CNTBaseN size 0x1000 access 32
  0x000 CNTPCT Ro EXT_CNTPCT 64 [PhysicalCount@0+64]
";
        assert_eq!(summary(&device), expected);
        // The 64-bit view cannot hold the 32-bit PMLAR: left out, with a warning where its
        // accessor is.
        let pmlar: Vec<_> = warnings
            .iter()
            .filter(|w| w.message.contains("`PMLAR`"))
            .collect();
        assert_eq!(pmlar.len(), 1, "{warnings:?}");
        assert_eq!(pmlar[0].rule.name, "aarchmrs_supported");
        // Registers and layouts point into the JSON: the accessor, and the fieldset.
        let ext32 = &device.blocks[0];
        let pmccntr = &ext32.registers[1];
        let line = |n: u32| FIXTURE.lines().nth(n as usize - 1).unwrap();
        assert!(line(pmccntr.pos.line).contains('{'), "{:?}", pmccntr.pos);
        assert!(pmccntr.pos.line > 1);
        let layout = device.layout("EXT_PMCCNTR_EL0").unwrap();
        assert!(layout.pos.line > 1 && layout.pos.line < pmccntr.pos.line);
        assert_eq!(device.layout("EXT_PMEVTYPER_EL0_HI").unwrap().width, 32);
    }

    #[test]
    fn an_accessor_naming_no_register_of_the_block_is_a_located_warning() {
        let broken = FIXTURE.replace("\"value\": \"PMLAR\"", "\"value\": \"PMXYZ\"");
        let (device, warnings) = super::super::parse_json("broken.json", &broken).unwrap();
        let w = warnings
            .iter()
            .find(|w| {
                w.message
                    .contains("`PMXYZ` is not one of the block's registers")
            })
            .unwrap_or_else(|| panic!("{warnings:?}"));
        assert!(w.pos.line > 1);
        assert!(device.blocks[0].registers.iter().all(|r| r.name != "PMLAR"));
    }
}
