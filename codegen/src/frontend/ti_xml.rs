//! The TI register XML frontend: Code Composer Studio "targetdb" files.
//!
//! Two shapes are read:
//! - a **module file**, `<module id description>` holding `<register id acronym offset width
//!   description>` elements, each holding `<bitfield id begin end width rwaccess resetval
//!   description>` (`begin` is the most significant bit, `end` the least) with optional
//!   `<bitenum id value description>` values;
//! - a **device file**, `<device id description>` with `<instance id baseaddr href size
//!   description>` elements anywhere below it, each placing the module file named by `href`
//!   (relative to the device file) at `baseaddr`.
//!
//! Each module becomes one IR block (its registers at their offsets), each register one layout
//! (TI files have no shared layouts), each device `<instance>` one IR instance. A register's access
//! follows from its fields: all read-only gives a read-only register, all write-only a write-only
//! one. Every element keeps its file, line and column; errors in a module file name that file.
//!
//! Defects that a pass repairs in lenient mode (overlapping fields, resets too wide, names
//! repeated) are passed on as they are. The frontend itself repairs only an access name whose
//! meaning is plain (`rw` for `RW`), with a warning.
mod xml;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::Parsed;
use crate::diagnostic::{Diagnostic, LineIndex, Sources};
use crate::ir::{
    Block, BlockRegister, Device, EnumUsage, EnumValue, Field, FieldAccess, Instance, Layout,
    NameRef, Pos, RegAccess,
};
use crate::rules::{Rule, DESCRIPTION_SYNTAX, INPUT_READABLE};
use xml::{Attr, Element};

/// The highest bit number a field may name (as in the native format).
const MAX_BIT: u64 = 1023;

/// The `rwaccess` spellings and what they mean.
const ACCESS_NAMES: &[(&str, FieldAccess)] = &[
    ("R", FieldAccess::Ro),
    ("RO", FieldAccess::Ro),
    ("RW", FieldAccess::Rw),
    ("R/W", FieldAccess::Rw),
    ("W", FieldAccess::Wo),
    ("WO", FieldAccess::Wo),
    ("N", FieldAccess::RazWi),
    ("W1C", FieldAccess::W1c),
    ("RW1C", FieldAccess::W1c),
    ("R/W1C", FieldAccess::W1c),
    ("W1TC", FieldAccess::W1c),
    ("RW1TC", FieldAccess::W1c),
    ("R/W1TC", FieldAccess::W1c),
    ("W1S", FieldAccess::W1s),
    ("RW1S", FieldAccess::W1s),
    ("R/W1S", FieldAccess::W1s),
    ("W1TS", FieldAccess::W1s),
    ("RW1TS", FieldAccess::W1s),
    ("R/W1TS", FieldAccess::W1s),
];

/// Parses a TI module file or device file at `path`; `file` is the name positions carry. The
/// module files of a device file are read relative to `path`, and their texts added to `sources`
/// so that their diagnostics can be shown with snippets.
pub fn parse(file: &str, path: &Path, text: &str, sources: &mut Sources) -> Parsed {
    let root = xml::parse(file, text).map_err(|d| vec![d])?;
    let mut ctx = Ctx::new(file, text);
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let device = match root.name.as_str() {
        "module" => Some(module_device(&mut ctx, &root, file)),
        "device" => Some(device(&mut ctx, &root, file, &dir, sources)),
        other => {
            ctx.error(
                DESCRIPTION_SYNTAX,
                root.name_span,
                format!("expected a TI module file (`<module>`) or device file (`<device>`), found `<{other}>`"),
            );
            None
        }
    };
    let mut diagnostics = ctx.diagnostics;
    diagnostics.sort_by(|a, b| a.pos.cmp(&b.pos));
    match device {
        Some(device) if !diagnostics.iter().any(Diagnostic::is_error) => Ok((device, diagnostics)),
        _ => Err(diagnostics),
    }
}

/// One input file: positions in it, and what was found wrong.
struct Ctx<'a> {
    lines: LineIndex<'a>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Ctx<'a> {
    fn new(file: &'a str, text: &'a str) -> Self {
        Self {
            lines: LineIndex::new(file, text),
            diagnostics: Vec::new(),
        }
    }

    fn pos(&self, span: (usize, usize)) -> Pos {
        self.lines.pos(span.0, span.1)
    }

    fn error(&mut self, rule: &'static Rule, span: (usize, usize), message: String) {
        let pos = self.pos(span);
        self.diagnostics
            .push(Diagnostic::error(rule, &pos, message));
    }

    fn warning(&mut self, rule: &'static Rule, span: (usize, usize), message: String) {
        let pos = self.pos(span);
        self.diagnostics
            .push(Diagnostic::warning(rule, &pos, message));
    }

    /// The attribute `name` of `element`, or an error at the element's name.
    fn required<'e>(&mut self, element: &'e Element, name: &str) -> Option<&'e Attr> {
        let found = element.attr(name).filter(|a| !a.value.trim().is_empty());
        if found.is_none() {
            let what = element
                .attr("id")
                .map(|id| format!(" `{}`", id.value))
                .unwrap_or_default();
            self.error(
                DESCRIPTION_SYNTAX,
                element.name_span,
                format!("`<{}>`{what} needs the attribute `{name}`", element.name),
            );
        }
        found
    }

    /// The value of `attr` as a number (decimal or `0x` hexadecimal) no larger than `max`.
    fn number(&mut self, attr: &Attr, max: u64) -> Option<u64> {
        match parse_number(&attr.value) {
            Some(number) if number <= max => Some(number),
            Some(number) => {
                self.error(
                    DESCRIPTION_SYNTAX,
                    attr.span,
                    format!("`{}` {number} is out of range: at most {max}", attr.name),
                );
                None
            }
            None => {
                self.error(
                    DESCRIPTION_SYNTAX,
                    attr.span,
                    format!(
                        "`{}` value `{}` is not a number (decimal, or hexadecimal with `0x`)",
                        attr.name, attr.value
                    ),
                );
                None
            }
        }
    }

    /// A required numeric attribute.
    fn required_number(&mut self, element: &Element, name: &str, max: u64) -> Option<u64> {
        let attr = self.required(element, name)?;
        self.number(attr, max)
    }

    /// An optional numeric attribute: `Ok(None)` when absent or empty, `Err(())` when it does not
    /// parse (reported).
    fn optional_number(
        &mut self,
        element: &Element,
        name: &str,
        max: u64,
    ) -> Result<Option<u64>, ()> {
        match element.attr(name).filter(|a| !a.value.trim().is_empty()) {
            None => Ok(None),
            Some(attr) => self.number(attr, max).map(Some).ok_or(()),
        }
    }

    fn name_ref(&self, name: &str, span: (usize, usize)) -> NameRef {
        NameRef {
            name: name.to_string(),
            pos: self.pos(span),
        }
    }
}

/// A decimal or `0x`-prefixed hexadecimal number.
fn parse_number(text: &str) -> Option<u64> {
    let trimmed = text.trim();
    match trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
    {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(hex, 16).ok()
        }
        Some(_) => None,
        None if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) => {
            trimmed.parse().ok()
        }
        None => None,
    }
}

/// A non-empty description attribute.
fn description(element: &Element) -> Option<String> {
    element
        .attr("description")
        .map(|a| a.value.trim().to_string())
        .filter(|d| !d.is_empty())
}

/// The file name without directories and extension.
fn stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "registers".to_string())
}

// ------------------------------------------------------------------ module files

/// A parsed module file, before its registers get layout names.
struct Module {
    name: String,
    pos: Pos,
    doc: Option<String>,
    registers: Vec<Register>,
}

struct Register {
    name: String,
    pos: Pos,
    offset: u64,
    width: u32,
    doc: Option<String>,
    fields: Vec<Field>,
}

/// The `<module>` element `element`, with the registers that parsed.
fn module(ctx: &mut Ctx<'_>, element: &Element, file: &str) -> Module {
    let (name, span) = match element.attr("id").filter(|a| !a.value.trim().is_empty()) {
        Some(id) => (id.value.trim().to_string(), id.span),
        None => (stem(file), element.name_span),
    };
    let registers = element
        .children_named("register")
        .filter_map(|r| register(ctx, r))
        .collect();
    Module {
        name,
        pos: ctx.pos(span),
        doc: description(element),
        registers,
    }
}

fn register(ctx: &mut Ctx<'_>, element: &Element) -> Option<Register> {
    let name_attr = element
        .attr("id")
        .filter(|a| !a.value.trim().is_empty())
        .or_else(|| {
            element
                .attr("acronym")
                .filter(|a| !a.value.trim().is_empty())
        });
    let Some(name_attr) = name_attr else {
        ctx.error(
            DESCRIPTION_SYNTAX,
            element.name_span,
            "`<register>` needs an `id` (or `acronym`) attribute".to_string(),
        );
        return None;
    };
    let name = name_attr.value.trim().to_string();
    let offset = ctx.required_number(element, "offset", u64::from(u32::MAX));
    let width = ctx.required(element, "width").and_then(|width_attr| {
        let value = ctx.number(width_attr, u64::MAX)?;
        if [8, 16, 32, 64].contains(&value) {
            Some(value as u32)
        } else {
            ctx.error(
                DESCRIPTION_SYNTAX,
                width_attr.span,
                format!(
                    "register `{name}` is {value} bits wide; a register is 8, 16, 32 or 64 bits"
                ),
            );
            None
        }
    });
    let fields: Vec<Option<Field>> = element
        .children_named("bitfield")
        .map(|f| bitfield(ctx, f))
        .collect();
    let (offset, width) = (offset?, width?);
    let fields = fields.into_iter().collect::<Option<Vec<_>>>()?;
    Some(Register {
        name,
        pos: ctx.pos(name_attr.span),
        offset,
        width,
        doc: description(element),
        fields,
    })
}

fn bitfield(ctx: &mut Ctx<'_>, element: &Element) -> Option<Field> {
    let id = ctx.required(element, "id");
    let begin = ctx.required(element, "begin");
    let end = ctx.required(element, "end");
    let rwaccess = ctx.required(element, "rwaccess");
    let (id, begin_attr, end_attr, rwaccess) = (id?, begin?, end?, rwaccess?);
    let name = id.value.trim().to_string();
    let begin = ctx.number(begin_attr, MAX_BIT);
    let end = ctx.number(end_attr, MAX_BIT);
    let access = field_access(ctx, rwaccess);
    let reset = ctx.optional_number(element, "resetval", u64::MAX);
    let width_attr = ctx.optional_number(element, "width", MAX_BIT + 1);
    let enums: Vec<Option<EnumValue>> = element
        .children_named("bitenum")
        .map(|e| bitenum(ctx, e))
        .collect();
    let (msb, lsb) = (begin? as u32, end? as u32);
    if msb < lsb {
        ctx.error(
            DESCRIPTION_SYNTAX,
            begin_attr.span,
            format!(
                "bitfield `{name}`: begin {msb} is below end {lsb}; `begin` is the most significant bit"
            ),
        );
        return None;
    }
    let width = msb - lsb + 1;
    if let Ok(Some(given)) = width_attr {
        if given != u64::from(width) {
            let span = element.attr("width").map_or(element.name_span, |a| a.span);
            ctx.warning(
                DESCRIPTION_SYNTAX,
                span,
                format!(
                    "bitfield `{name}`: width {given} disagrees with begin {msb} and end {lsb} ({width} bit(s)); used begin and end"
                ),
            );
        }
    }
    let access = access?;
    let reset = reset.ok()?;
    width_attr.ok()?;
    let enums = enums.into_iter().collect::<Option<Vec<_>>>()?;
    Some(Field {
        name,
        lsb,
        width,
        access,
        reset,
        doc: description(element),
        source: None,
        pos: ctx.pos(id.span),
        enums,
        enum_default: None,
        enum_name: None,
        read_action: None,
        write_constraint: None,
        condition: None,
    })
}

fn bitenum(ctx: &mut Ctx<'_>, element: &Element) -> Option<EnumValue> {
    let name_attr = element
        .attr("id")
        .filter(|a| !a.value.trim().is_empty())
        .or_else(|| element.attr("token").filter(|a| !a.value.trim().is_empty()));
    let Some(name_attr) = name_attr else {
        ctx.error(
            DESCRIPTION_SYNTAX,
            element.name_span,
            "`<bitenum>` needs an `id` (or `token`) attribute".to_string(),
        );
        return None;
    };
    let value = ctx.required_number(element, "value", u64::MAX)?;
    Some(EnumValue {
        mask: None,
        name: name_attr.value.trim().to_string(),
        value,
        usage: EnumUsage::ReadWrite,
        doc: description(element),
        source: None,
        pos: ctx.pos(name_attr.span),
    })
}

/// The access an `rwaccess` value names; a value that differs from a TI spelling only in case or
/// spaces is read as that spelling, with a warning.
fn field_access(ctx: &mut Ctx<'_>, attr: &Attr) -> Option<FieldAccess> {
    let text = attr.value.as_str();
    if let Some((_, access)) = ACCESS_NAMES.iter().find(|(n, _)| *n == text) {
        return Some(*access);
    }
    let normal: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    if let Some((spelling, access)) = ACCESS_NAMES.iter().find(|(n, _)| *n == normal) {
        ctx.warning(
            DESCRIPTION_SYNTAX,
            attr.span,
            format!("rwaccess `{text}` is not a TI access name; read it as `{spelling}`"),
        );
        return Some(*access);
    }
    let known: Vec<&str> = ACCESS_NAMES.iter().map(|(n, _)| *n).collect();
    ctx.error(
        DESCRIPTION_SYNTAX,
        attr.span,
        format!(
            "unknown rwaccess `{text}`; expected one of: {}",
            known.join(", ")
        ),
    );
    None
}

/// A register's access from its fields: read-only if every field with an access is, write-only if
/// none of them can be read, else read/write.
fn register_access(fields: &[Field]) -> RegAccess {
    let live: Vec<FieldAccess> = fields
        .iter()
        .map(|f| f.access)
        .filter(|a| {
            !matches!(
                a,
                FieldAccess::RazWi | FieldAccess::Res0 | FieldAccess::Res1
            )
        })
        .collect();
    if live.is_empty() {
        RegAccess::Rw
    } else if live.iter().all(|a| *a == FieldAccess::Ro) {
        RegAccess::Ro
    } else if live.iter().all(|a| !a.readable()) {
        RegAccess::Wo
    } else {
        RegAccess::Rw
    }
}

/// A device for a module file on its own: the block, no instances.
fn module_device(ctx: &mut Ctx<'_>, root: &Element, file: &str) -> Device {
    let module = module(ctx, root, file);
    let name = module.name.clone();
    let pos = module.pos.clone();
    let doc = module.doc.clone();
    let (blocks, layouts) = lower_modules(vec![module], &BTreeMap::new());
    let mut device = Device {
        name,
        doc,
        source: None,
        license: None,
        notice: None,
        pos,
        layouts,
        sysregs: Vec::new(),
        blocks,
        instances: Vec::new(),
        events: Vec::new(),
        event_pmu: None,
        event_type: None,
        cores: Vec::new(),
        cpu: None,
        amendments: Vec::new(),
        differences: Vec::new(),
    };
    device.canonicalize();
    device
}

/// Blocks and layouts for `modules`; `sizes` gives a block's size where instances state it.
/// Layouts are named after their registers, prefixed with the module's name where two modules
/// have a register of that name.
fn lower_modules(modules: Vec<Module>, sizes: &BTreeMap<usize, u64>) -> (Vec<Block>, Vec<Layout>) {
    let mut owners: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for module in &modules {
        for register in &module.registers {
            owners
                .entry(&register.name)
                .or_default()
                .insert(&module.name);
        }
    }
    let shared: BTreeSet<String> = owners
        .iter()
        .filter(|(_, modules)| modules.len() > 1)
        .map(|(name, _)| name.to_string())
        .collect();
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut blocks = Vec::new();
    let mut layouts = Vec::new();
    for (index, module) in modules.into_iter().enumerate() {
        let extent = module
            .registers
            .iter()
            .map(|register| {
                register
                    .offset
                    .saturating_add(u64::from(register.width / 8))
            })
            .max()
            .unwrap_or(0);
        let access_width = module
            .registers
            .iter()
            .map(|register| register.width)
            .min()
            .unwrap_or(32)
            .min(32);
        let mut registers = Vec::new();
        for register in module.registers {
            let base = if shared.contains(&register.name) {
                format!("{}_{}", module.name, register.name)
            } else {
                register.name.clone()
            };
            let layout_name = if taken.contains(&base) {
                (1..)
                    .map(|k| format!("{base}_{k}"))
                    .find(|c| !taken.contains(c))
                    .unwrap_or(base)
            } else {
                base
            };
            taken.insert(layout_name.clone());
            registers.push(BlockRegister {
                protection: None,
                index_names: Vec::new(),
                name: register.name.clone(),
                layout: NameRef {
                    name: layout_name.clone(),
                    pos: register.pos.clone(),
                },
                offset: register.offset,
                access: register_access(&register.fields),
                array: None,
                alias_of: None,
                read_action: None,
                doc: register.doc.clone(),
                source: None,
                pos: register.pos.clone(),
            });
            layouts.push(Layout {
                name: layout_name,
                width: register.width,
                doc: register.doc,
                source: None,
                reset: None,
                reset_mask: None,
                pos: register.pos,
                fields: register.fields,
                field_arrays: Vec::new(),
                derive: None,
            });
        }
        blocks.push(Block {
            name: module.name,
            size: sizes.get(&index).copied().unwrap_or(extent),
            access_width,
            doc: module.doc,
            source: None,
            pos: module.pos,
            registers,
            clusters: Vec::new(),
            lock: None,
        });
    }
    (blocks, layouts)
}

// ------------------------------------------------------------------ device files

/// The device file `root`: every `<instance>` below it, with the module files they name.
fn device(
    ctx: &mut Ctx<'_>,
    root: &Element,
    file: &str,
    open_dir: &Path,
    sources: &mut Sources,
) -> Device {
    let (name, span) = match root.attr("id").filter(|a| !a.value.trim().is_empty()) {
        Some(id) => (id.value.trim().to_string(), id.span),
        None => (stem(file), root.name_span),
    };
    let mut instance_elements = Vec::new();
    root.descendants_named("instance", &mut instance_elements);
    let mut modules: Vec<Module> = Vec::new();
    // Module files by the path shown: the index of their module, or None when unusable.
    let mut loaded: BTreeMap<String, Option<usize>> = BTreeMap::new();
    let mut sizes: BTreeMap<usize, u64> = BTreeMap::new();
    let mut placed: Vec<Instance> = Vec::new();
    for element in instance_elements {
        let id = ctx.required(element, "id");
        let href = ctx.required(element, "href");
        let (Some(id), Some(href)) = (id, href) else {
            continue;
        };
        let href_text = href.value.trim().replace('\\', "/");
        let shown = shown_path(file, &href_text);
        let index = match loaded.get(&shown) {
            Some(index) => *index,
            None => {
                let index = load_module(
                    ctx,
                    &open_dir.join(&href_text),
                    &shown,
                    href,
                    &mut modules,
                    sources,
                );
                loaded.insert(shown.clone(), index);
                index
            }
        };
        let Some(index) = index else { continue };
        let Some(base) = ctx.required_number(element, "baseaddr", u64::MAX) else {
            continue;
        };
        let Ok(size) = ctx.optional_number(element, "size", u64::from(u32::MAX) + 1) else {
            continue;
        };
        if let Some(size) = size {
            let entry = sizes.entry(index).or_insert(size);
            *entry = (*entry).max(size);
        }
        placed.push(Instance {
            name: id.value.trim().to_string(),
            block: ctx.name_ref(&modules[index].name, href.span),
            base,
            alias_of: None,
            interrupts: Vec::new(),
            doc: description(element),
            source: None,
            pos: ctx.pos(id.span),
        });
    }
    let (blocks, layouts) = lower_modules(modules, &sizes);
    let mut device = Device {
        name,
        doc: description(root),
        source: None,
        license: None,
        notice: None,
        pos: ctx.pos(span),
        layouts,
        sysregs: Vec::new(),
        blocks,
        instances: placed,
        events: Vec::new(),
        event_pmu: None,
        event_type: None,
        cores: Vec::new(),
        cpu: None,
        amendments: Vec::new(),
        differences: Vec::new(),
    };
    device.canonicalize();
    device
}

/// Reads and parses the module file at `path` (shown as `shown`); its diagnostics join `ctx`'s.
/// Returns the index of its module in `modules`, or `None` when it cannot be used.
fn load_module(
    ctx: &mut Ctx<'_>,
    path: &Path,
    shown: &str,
    href: &Attr,
    modules: &mut Vec<Module>,
    sources: &mut Sources,
) -> Option<usize> {
    sources.note_read(path);
    let text = match super::read_input(path) {
        Ok(text) => text,
        Err(error) => {
            ctx.error(
                INPUT_READABLE,
                href.span,
                format!("cannot read module file `{shown}`: {error}"),
            );
            return None;
        }
    };
    sources.insert(shown, text.clone());
    let root = match xml::parse(shown, &text) {
        Ok(root) => root,
        Err(diagnostic) => {
            ctx.diagnostics.push(diagnostic);
            return None;
        }
    };
    if root.name != "module" {
        ctx.warning(
            DESCRIPTION_SYNTAX,
            href.span,
            format!(
                "`{shown}` is not a TI module file (its root element is `<{}>`); skipped this instance",
                root.name
            ),
        );
        return None;
    }
    let mut module_ctx = Ctx::new(shown, &text);
    let module = module(&mut module_ctx, &root, shown);
    ctx.diagnostics.extend(module_ctx.diagnostics);
    modules.push(module);
    Some(modules.len() - 1)
}

/// `href` relative to the directory of `file`, with `.` and `dir/..` steps taken out: the name a
/// module file's positions carry.
fn shown_path(file: &str, href: &str) -> String {
    crate::paths::normalize(&Path::new(file).parent().unwrap_or(Path::new("")).join(href))
}

#[cfg(test)]
mod tests;
