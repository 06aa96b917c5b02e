//! Selectors: one glob per level (`block`, `cluster`, `register`, `field`, `value`; `instance`;
//! `sysreg`), read from an operation's table, checked for their shape, and resolved against the
//! device as the file finds it.
//!
//! A level is a key of its own, never a dotted path, so a level can be added between two others
//! (a `cluster` between `block` and `register`) without changing what an existing selector means.
use serde::Deserialize;
use toml::Spanned as S;

use super::elem::{path, reg_name, Elem, Layouts, Reg};
use super::glob::Glob;
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Device, Pos};
use crate::rules::{PATCH_SELECTORS_MATCH, PATCH_SYNTAX};

/// The keys of a selector, as an operation's table gives them (the rest of the table is the
/// operation's).
pub const KEYS: [&str; 7] = [
    "block", "cluster", "instance", "sysreg", "register", "field", "value",
];

/// Which level of an operation's selector may hold `<n>`, the number of numbered elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbered {
    /// None: `<n>` is text there (the name of an array).
    No,
    /// `register`, which must hold it.
    Registers,
    /// `register`, when it holds it.
    RegistersWhenGiven,
    /// `field`, which must hold it.
    Fields,
}

/// Which elements an operation acts on: one glob per level.
#[derive(Clone, Debug, Default)]
pub struct Selector {
    pub block: Option<Glob>,
    /// Clusters of the selected blocks; with `register`, the registers of the blocks they place.
    pub cluster: Option<Glob>,
    pub instance: Option<Glob>,
    pub sysreg: Option<Glob>,
    pub register: Option<Glob>,
    pub field: Option<Glob>,
    pub value: Option<Glob>,
}

/// The level a selector names: its deepest key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Device,
    Block,
    Instance,
    Cluster,
    Register,
    SysReg,
    Field,
    Value,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Device => "the device",
            Level::Block => "a block",
            Level::Instance => "an instance",
            Level::Cluster => "a cluster",
            Level::Register => "a register",
            Level::SysReg => "a system register",
            Level::Field => "a field",
            Level::Value => "an enumerated value",
        }
    }
}

impl Selector {
    pub fn level(&self) -> Level {
        if self.value.is_some() {
            Level::Value
        } else if self.field.is_some() {
            Level::Field
        } else if self.register.is_some() {
            Level::Register
        } else if self.cluster.is_some() {
            Level::Cluster
        } else if self.sysreg.is_some() {
            Level::SysReg
        } else if self.instance.is_some() {
            Level::Instance
        } else if self.block.is_some() {
            Level::Block
        } else {
            Level::Device
        }
    }

    /// The glob of `level`, when it is the deepest and holds `<n>` (numbered elements).
    pub fn numbered(&self, level: Level) -> Option<&Glob> {
        let glob = match level {
            Level::Register => self.register.as_ref(),
            Level::Field => self.field.as_ref(),
            _ => None,
        };
        glob.filter(|g| g.has_index() && self.level() == level)
    }

    /// The glob of the deepest level.
    pub fn deepest(&self) -> Option<&Glob> {
        self.value
            .as_ref()
            .or(self.field.as_ref())
            .or(self.register.as_ref())
            .or(self.cluster.as_ref())
            .or(self.sysreg.as_ref())
            .or(self.instance.as_ref())
            .or(self.block.as_ref())
    }
}

/// A selector as the file writes it.
#[derive(Deserialize)]
pub struct RawSelector {
    block: Option<S<String>>,
    cluster: Option<S<String>>,
    instance: Option<S<String>>,
    sysreg: Option<S<String>>,
    register: Option<S<String>>,
    field: Option<S<String>>,
    value: Option<S<String>>,
}

/// Compiles `raw`'s globs (`None` after an error at the first bad one) and checks how its levels
/// combine (`false` in `shape_ok` after an error).
pub fn read(
    r: &mut Reader,
    raw: &RawSelector,
    numbered: Numbered,
    pos: &Pos,
) -> Option<(Selector, bool)> {
    let register_numbered = match numbered {
        Numbered::Registers => true,
        Numbered::RegistersWhenGiven => raw
            .register
            .as_ref()
            .is_some_and(|g| g.get_ref().contains("<n>")),
        Numbered::No | Numbered::Fields => false,
    };
    let select = Selector {
        block: glob(r, &raw.block, false)?,
        cluster: glob(r, &raw.cluster, false)?,
        instance: glob(r, &raw.instance, false)?,
        sysreg: glob(r, &raw.sysreg, false)?,
        register: glob(r, &raw.register, register_numbered)?,
        field: glob(r, &raw.field, numbered == Numbered::Fields)?,
        value: glob(r, &raw.value, false)?,
    };
    let shape_ok = shape(r, &select, pos);
    Some((select, shape_ok))
}

/// A glob, `<n>` standing for a number where `numbered`; `None` after an error.
pub fn glob(r: &mut Reader, raw: &Option<S<String>>, numbered: bool) -> Option<Option<Glob>> {
    let Some(raw) = raw else { return Some(None) };
    match Glob::new(raw.get_ref(), r.pos(raw), numbered) {
        Ok(glob) => Some(Some(glob)),
        Err(message) => {
            r.error(raw, message);
            None
        }
    }
}

/// Which levels may be combined: each level below the top needs the one above it.
fn shape(r: &mut Reader, s: &Selector, pos: &Pos) -> bool {
    let problem = if s.cluster.is_some() && s.block.is_none() {
        Some("`cluster` needs `block`: the block whose clusters it selects (with `register`, the registers of the blocks they place)")
    } else if s.register.is_some() && s.block.is_none() {
        Some("`register` needs `block`: the block whose registers it selects (system registers are selected with `sysreg`)")
    } else if s.field.is_some() && s.register.is_none() && s.sysreg.is_none() {
        Some("`field` needs `register` (and `block`) or `sysreg`: the register whose fields it selects")
    } else if s.value.is_some() && s.field.is_none() {
        Some("`value` needs `field`: the field whose enumerated values it selects")
    } else if s.instance.is_some() && (s.block.is_some() || s.sysreg.is_some() || s.field.is_some())
    {
        Some("`instance` selects instances alone; their registers are the block's: select them with `block`")
    } else if s.sysreg.is_some() && (s.block.is_some() || s.register.is_some()) {
        Some("`sysreg` selects system registers; `block` and `register` select a block's registers: not both")
    } else {
        None
    };
    match problem {
        Some(message) => {
            r.errors
                .push(Diagnostic::error(PATCH_SYNTAX, pos, message.to_string()));
            false
        }
        None => true,
    }
}

/// What a selector selected: each element, with what the deepest glob's wildcards matched.
pub struct Selected {
    pub targets: Vec<(Elem, Vec<String>)>,
}

type Found<T> = Result<Vec<(T, Vec<String>)>, Diagnostic>;

/// Every element the selector names; an error at the first level that matches nothing.
pub fn select(device: &Device, layouts: &Layouts, s: &Selector) -> Result<Selected, Diagnostic> {
    let targets = match s.level() {
        Level::Device => vec![(Elem::Device, Vec::new())],
        Level::Instance => {
            let g = s.instance.as_ref().expect("the level says so");
            let found = device
                .instances
                .iter()
                .enumerate()
                .filter_map(|(i, inst)| g.captures(&inst.name).map(|c| (Elem::Instance(i), c)));
            nonempty(
                found.collect(),
                g,
                "instance",
                String::new(),
                device.instances.iter().map(|i| i.name.as_str()),
            )?
        }
        Level::Block => with(blocks(device, s)?, Elem::Block),
        Level::Cluster => clusters(device, s)?,
        Level::Register | Level::SysReg => with(registers(device, s)?, Elem::Reg),
        Level::Field => {
            let found = fields(device, layouts, s, registers(device, s)?)?;
            found
                .into_iter()
                .map(|((r, f), c)| (Elem::Field(r, f), c))
                .collect()
        }
        Level::Value => {
            let found = fields(device, layouts, s, registers(device, s)?)?;
            values(device, layouts, s, found)?
        }
    };
    Ok(Selected { targets })
}

fn with<T>(found: Vec<(T, Vec<String>)>, elem: impl Fn(T) -> Elem) -> Vec<(Elem, Vec<String>)> {
    found.into_iter().map(|(t, c)| (elem(t), c)).collect()
}

/// `found`, or the error that `glob` matches no `what` (`within` says where it looked), with
/// the names among `names` (those it looked in) that a name without wildcards may have meant.
fn nonempty<'a, T>(
    found: Vec<T>,
    glob: &Glob,
    what: &str,
    within: String,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<T>, Diagnostic> {
    if found.is_empty() {
        let error = Diagnostic::error(
            PATCH_SELECTORS_MATCH,
            &glob.pos,
            format!("`{}` matches no {what}{within}", glob.text),
        );
        let plain = !glob.text.contains(['*', '?', '[', '{', '<']);
        return Err(if plain {
            error.suggesting(&glob.text, names, crate::diagnostic::backticked)
        } else {
            error
        });
    }
    Ok(found)
}

/// The blocks `block` selects; with `cluster` and `register`, the blocks the selected blocks'
/// clusters place (once each: a cluster expanded element by element places one block).
fn blocks(device: &Device, s: &Selector) -> Found<usize> {
    let g = s.block.as_ref().expect("the level needs a block");
    let found = device
        .blocks
        .iter()
        .enumerate()
        .filter_map(|(i, b)| g.captures(&b.name).map(|c| (i, c)))
        .collect();
    let blocks = nonempty(
        found,
        g,
        "block",
        String::new(),
        device.blocks.iter().map(|b| b.name.as_str()),
    )?;
    let (Some(cg), Some(_)) = (&s.cluster, &s.register) else {
        return Ok(blocks);
    };
    let placed: Vec<(usize, Vec<String>)> = blocks
        .iter()
        .flat_map(|(b, _)| &device.blocks[*b].clusters)
        .filter_map(|cluster| {
            let c = cg.captures(&cluster.name)?;
            let nested = device
                .blocks
                .iter()
                .position(|n| n.name == cluster.block.name)?;
            Some((nested, c))
        })
        .collect();
    let placed = nonempty(
        placed,
        cg,
        "cluster",
        of_blocks(device, &blocks),
        blocks
            .iter()
            .flat_map(|(b, _)| &device.blocks[*b].clusters)
            .map(|c| c.name.as_str()),
    )?;
    let mut seen = std::collections::BTreeSet::new();
    Ok(placed
        .into_iter()
        .filter(|(b, _)| seen.insert(*b))
        .collect())
}

/// The clusters `cluster` selects in the blocks `block` selects.
fn clusters(device: &Device, s: &Selector) -> Found<Elem> {
    let blocks = blocks(device, s)?;
    let g = s.cluster.as_ref().expect("the level says so");
    let found = blocks
        .iter()
        .flat_map(|(b, _)| {
            device.blocks[*b]
                .clusters
                .iter()
                .enumerate()
                .filter_map(|(c, cluster)| {
                    g.captures(&cluster.name).map(|x| (Elem::Cluster(*b, c), x))
                })
        })
        .collect();
    nonempty(
        found,
        g,
        "cluster",
        of_blocks(device, &blocks),
        blocks
            .iter()
            .flat_map(|(b, _)| &device.blocks[*b].clusters)
            .map(|c| c.name.as_str()),
    )
}

/// The registers `register` (in the blocks selected) or `sysreg` selects.
fn registers(device: &Device, s: &Selector) -> Found<Reg> {
    if let Some(g) = &s.sysreg {
        let found = device
            .sysregs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| g.captures(&r.name).map(|c| (Reg::Sys(i), c)))
            .collect();
        return nonempty(
            found,
            g,
            "system register",
            String::new(),
            device.sysregs.iter().map(|r| r.name.as_str()),
        );
    }
    let blocks = blocks(device, s)?;
    let g = s.register.as_ref().expect("the level needs a register");
    let mut found = Vec::new();
    for (b, _) in &blocks {
        for (r, reg) in device.blocks[*b].registers.iter().enumerate() {
            if let Some(c) = g.captures(&reg.name) {
                found.push((Reg::Block(*b, r), c));
            }
        }
    }
    nonempty(
        found,
        g,
        "register",
        of_blocks(device, &blocks),
        blocks
            .iter()
            .flat_map(|(b, _)| &device.blocks[*b].registers)
            .map(|r| r.name.as_str()),
    )
}

/// The named fields `field` selects in the layouts of `regs`.
fn fields(
    device: &Device,
    layouts: &Layouts,
    s: &Selector,
    regs: Vec<(Reg, Vec<String>)>,
) -> Found<(Reg, usize)> {
    let g = s.field.as_ref().expect("the level needs a field");
    let mut found = Vec::new();
    for (reg, _) in &regs {
        let Some(l) = layouts.of_reg(device, *reg) else {
            continue;
        };
        for (f, field) in device.layouts[l].fields.iter().enumerate() {
            if field.name.is_empty() {
                continue;
            }
            if let Some(c) = g.captures(&field.name) {
                found.push(((*reg, f), c));
            }
        }
    }
    let names: Vec<String> = regs.iter().map(|(r, _)| reg_name(device, *r)).collect();
    nonempty(found, g, "field", of_names("register", &names), [])
}

/// The enumerated values `value` selects of `fields`.
fn values(
    device: &Device,
    layouts: &Layouts,
    s: &Selector,
    fields: Vec<((Reg, usize), Vec<String>)>,
) -> Found<Elem> {
    let g = s.value.as_ref().expect("the level says so");
    let mut found = Vec::new();
    for ((reg, f), _) in &fields {
        let Some(l) = layouts.of_reg(device, *reg) else {
            continue;
        };
        for (v, value) in device.layouts[l].fields[*f].enums.iter().enumerate() {
            if let Some(c) = g.captures(&value.name) {
                found.push((Elem::Value(*reg, *f, v), c));
            }
        }
    }
    let names: Vec<String> = fields
        .iter()
        .map(|((r, f), _)| path(device, layouts, Elem::Field(*r, *f)))
        .collect();
    nonempty(found, g, "enumerated value", of_names("field", &names), [])
}

fn of_blocks(device: &Device, blocks: &[(usize, Vec<String>)]) -> String {
    let names: Vec<String> = blocks
        .iter()
        .map(|(b, _)| device.blocks[*b].name.clone())
        .collect();
    of_names("block", &names)
}

/// ` of block `PWM`` / ` of the 3 blocks selected (`A`, `B`, `C`)` (the first few named).
fn of_names(what: &str, names: &[String]) -> String {
    match names {
        [one] => format!(" of {what} `{one}`"),
        _ => {
            let shown: Vec<String> = names.iter().take(4).map(|n| format!("`{n}`")).collect();
            let more = if names.len() > 4 { ", ..." } else { "" };
            format!(
                " of the {} {what}s selected ({}{more})",
                names.len(),
                shown.join(", ")
            )
        }
    }
}

/// The error of an operation that needs a selector and has none.
pub fn needs_selector(r: &mut Reader, kind: &str, pos: &Pos) {
    r.errors.push(Diagnostic::error(
        PATCH_SYNTAX,
        pos,
        format!("[[{kind}]] needs a selector: `block`, `instance`, `sysreg`, `register`, `field` or `value`"),
    ));
}
