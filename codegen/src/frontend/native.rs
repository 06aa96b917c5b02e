//! The native description format: TOML with a position for every element (see
//! `descriptions/FORMAT.md`).
//!
//! Parsing is two steps: `toml` deserializes into the raw structs below, which keep the byte span
//! of every value, then `lower` checks the value syntax (bit ranges, encodings, access names) and
//! builds the IR. Every failure is a diagnostic at the offending value.
use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::frontend::spanned::Reader;
use crate::ir::{
    Amendment, Block, BlockArray, BlockRegister, Derive, Device, EnumUsage, EnumValue, Event,
    EventPmu, Field, FieldAccess, Instance, Layout, Lock, NameRef, ReadAction, RegisterAmendment,
    SysReg, SysRegPath, View,
};
use crate::rules::{DESCRIPTION_SYNTAX, TOML_SYNTAX};

type S<T> = Spanned<T>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    device: S<RawDevice>,
    #[serde(default)]
    layout: Vec<RawLayout>,
    #[serde(default)]
    sysreg: Vec<RawSysReg>,
    #[serde(default)]
    block: Vec<RawBlock>,
    #[serde(default)]
    instance: Vec<RawInstance>,
    #[serde(default)]
    event: Vec<RawEvent>,
    #[serde(default)]
    amend: Vec<RawAmend>,
    #[serde(default)]
    difference: Vec<RawDifference>,
}

/// A reviewed difference from the architecture's data this description is laid over.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDifference {
    register: S<String>,
    kind: S<String>,
    field: Option<S<String>>,
    reason: S<String>,
}

/// `[[amend]]`: what this file says about a block another input of the crate defines.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAmend {
    block: S<String>,
    source: Option<String>,
    lock: Option<S<RawLock>>,
    #[serde(default)]
    register: Vec<RawAmendRegister>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAmendRegister {
    name: S<String>,
    access: S<String>,
    state: Option<S<String>>,
}

/// `lock = { access = "PMLAR", status = "PMLSR", locked = "SLK", key = 0xC5ACCE55 }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLock {
    access: S<String>,
    status: S<String>,
    locked: S<String>,
    key: S<i64>,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInstance {
    name: S<String>,
    block: S<String>,
    base: S<i64>,
    alias_of: Option<S<String>>,
    doc: Option<String>,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    name: S<String>,
    code: S<i64>,
    doc: Option<String>,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDevice {
    name: S<String>,
    doc: Option<String>,
    source: Option<String>,
    /// The SPDX licence expression of the description, which the generated crate takes.
    license: Option<S<String>>,
    /// Attribution the generated crate must carry (its `NOTICE` file).
    notice: Option<String>,
    /// The PMU the `[[event]]`s are for: pmuv2, pmuv3, pmuv3p1 or dsu.
    event_pmu: Option<S<String>>,
    /// The layout the events convert into (its event-number field is set).
    event_type: Option<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLayout {
    name: S<String>,
    width: Option<S<i64>>,
    doc: Option<String>,
    source: Option<String>,
    reset: Option<S<i64>>,
    #[serde(default)]
    fields: Vec<RawField>,
    base: Option<S<String>>,
    #[serde(default)]
    remove: Vec<S<String>>,
    #[serde(default)]
    raz_wi: Vec<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawField {
    name: Option<S<String>>,
    bits: S<String>,
    access: Option<S<String>>,
    reset: Option<S<i64>>,
    doc: Option<String>,
    source: Option<String>,
    #[serde(default, rename = "enum")]
    enums: Vec<RawEnum>,
    read_action: Option<S<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnum {
    name: S<String>,
    value: S<i64>,
    doc: Option<String>,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSysReg {
    name: S<String>,
    layout: S<String>,
    a64: Option<S<String>>,
    a32: Option<S<String>>,
    a32_64: Option<S<String>>,
    access: Option<S<String>>,
    state: Option<S<String>>,
    count: Option<S<i64>>,
    view_of: Option<S<String>>,
    when: Option<S<String>>,
    doc: Option<String>,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlock {
    name: S<String>,
    size: S<i64>,
    access_width: Option<S<i64>>,
    doc: Option<String>,
    source: Option<String>,
    lock: Option<S<RawLock>>,
    #[serde(default)]
    register: Vec<RawBlockRegister>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlockRegister {
    name: S<String>,
    layout: S<String>,
    offset: S<i64>,
    access: Option<S<String>>,
    state: Option<S<String>>,
    count: Option<S<i64>>,
    stride: Option<S<i64>>,
    alias_of: Option<S<String>>,
    read_action: Option<S<String>>,
    doc: Option<String>,
    source: Option<String>,
}

/// Parses the native description in `text`; `file` is the name positions carry.
pub fn parse(file: &str, text: &str) -> Result<Device, Vec<Diagnostic>> {
    let lines = LineIndex::new(file, text);
    let raw: RawFile = toml::from_str(text).map_err(|error| {
        let span = error.span().unwrap_or(0..0);
        let message = error.message().trim().to_string();
        vec![
            Diagnostic::error(TOML_SYNTAX, &lines.pos(span.start, span.end), message)
                .suggesting_expected(),
        ]
    })?;
    let mut lower = Lower::new(&lines, DESCRIPTION_SYNTAX);
    let device = lower.device(raw);
    if lower.errors.is_empty() {
        Ok(device)
    } else {
        Err(lower.errors)
    }
}

/// The native format's reader: the shared checks of `spanned`, and the methods below.
type Lower<'a> = Reader<'a>;

impl Lower<'_> {
    fn name_ref(&self, spanned: &S<String>) -> NameRef {
        NameRef {
            name: spanned.get_ref().clone(),
            pos: self.pos(spanned),
        }
    }

    fn device(&mut self, raw: RawFile) -> Device {
        let description = raw.device.get_ref();
        let mut device = Device {
            doc: description.doc.clone(),
            source: description.source.clone(),
            license: description
                .license
                .as_ref()
                .map(|license| license.get_ref().clone()),
            notice: description.notice.clone(),
            event_type: description.event_type.as_ref().map(|event_type| {
                format!(
                    "crate::{}",
                    crate::names::ident(event_type.get_ref(), crate::names::Case::Camel)
                        .unwrap_or_default()
                )
            }),
            ..Device::new(
                description.name.get_ref().clone(),
                self.pos(&description.name),
            )
        };
        if let Some(license) = &description.license {
            if !crate::license::is_expression(license.get_ref()) {
                let message = format!(
                    "`license` {:?} is not an SPDX licence expression (`MIT OR Apache-2.0`, `Apache-2.0`)",
                    license.get_ref()
                );
                self.error(license, message);
            }
        }
        if let Some(pmu) = &description.event_pmu {
            device.event_pmu = match pmu.get_ref().as_str() {
                "pmuv2" => Some(EventPmu::Pmuv2),
                "pmuv3" => Some(EventPmu::Pmuv3),
                "pmuv3p1" => Some(EventPmu::Pmuv3p1),
                "dsu" => Some(EventPmu::Dsu),
                other => {
                    let message = format!(
                        "unknown event PMU `{other}`; expected pmuv2, pmuv3, pmuv3p1 or dsu"
                    );
                    self.error(pmu, message);
                    None
                }
            };
        }
        if let Some(event_type) = &description.event_type {
            if !raw
                .layout
                .iter()
                .any(|layout| layout.name.get_ref() == event_type.get_ref())
            {
                let message = format!(
                    "`event_type`: no layout is named `{}`",
                    event_type.get_ref()
                );
                self.error(event_type, message);
            }
        }
        for raw_layout in &raw.layout {
            if let Some(layout) = self.layout(raw_layout) {
                device.layouts.push(layout);
            }
        }
        for raw_sysreg in &raw.sysreg {
            if let Some(sysreg) = self.sysreg(raw_sysreg) {
                device.sysregs.push(sysreg);
            }
        }
        for raw_block in &raw.block {
            if let Some(block) = self.block(raw_block) {
                device.blocks.push(block);
            }
        }
        for instance in &raw.instance {
            let Some(base) = self.unsigned(&instance.base, "a base address", u64::MAX) else {
                continue;
            };
            device.instances.push(Instance {
                name: instance.name.get_ref().clone(),
                block: self.name_ref(&instance.block),
                base,
                alias_of: instance.alias_of.as_ref().map(|alias| self.name_ref(alias)),
                interrupts: Vec::new(),
                doc: instance.doc.clone(),
                source: instance.source.clone(),
                pos: self.pos(&instance.name),
            });
        }
        for raw_amendment in &raw.amend {
            if let Some(amendment) = self.amendment(raw_amendment) {
                device.amendments.push(amendment);
            }
        }
        for difference in &raw.difference {
            if difference.reason.get_ref().trim().is_empty() {
                self.error(
                    &difference.reason,
                    "a difference needs its reason".to_string(),
                );
            }
            device.differences.push(crate::ir::KnownDifference {
                register: difference.register.get_ref().clone(),
                kind: difference.kind.get_ref().clone(),
                field: difference.field.as_ref().map(|f| f.get_ref().clone()),
                reason: difference.reason.get_ref().clone(),
                pos: self.pos(&difference.register),
            });
        }
        for event in &raw.event {
            let Some(code) = self.unsigned(&event.code, "an event code", u64::from(u16::MAX))
            else {
                continue;
            };
            device.events.push(Event {
                code: code as u16,
                name: event.name.get_ref().clone(),
                doc: event.doc.clone(),
                source: event.source.clone(),
                pos: self.pos(&event.name),
            });
        }
        device.canonicalize();
        device
    }

    fn layout(&mut self, raw: &RawLayout) -> Option<Layout> {
        let width = match &raw.width {
            Some(width) => {
                let value = *width.get_ref();
                if ![8, 16, 32, 64].contains(&value) {
                    self.error(width, format!("width must be 8, 16, 32 or 64, got {value}"));
                    return None;
                }
                value as u32
            }
            None if raw.base.is_some() => 0,
            None => {
                self.error(
                    &raw.name,
                    format!("layout `{}` needs a `width`", raw.name.get_ref()),
                );
                return None;
            }
        };
        let reset = match &raw.reset {
            Some(reset) => Some(self.unsigned(reset, "a layout's reset value", u64::MAX)?),
            None => None,
        };
        let mut fields = Vec::new();
        for field in &raw.fields {
            fields.extend(self.field(field));
        }
        let derive = match &raw.base {
            Some(base) => Some(Derive {
                base: self.name_ref(base),
                resolved: false,
                remove: raw.remove.iter().map(|name| self.name_ref(name)).collect(),
                raz_wi: raw.raz_wi.iter().map(|name| self.name_ref(name)).collect(),
            }),
            None => {
                if let Some(first) = raw.remove.first().or(raw.raz_wi.first()) {
                    self.error(
                        first,
                        "`remove` and `raz_wi` need a `base` layout to act on".to_string(),
                    );
                }
                None
            }
        };
        Some(Layout {
            name: raw.name.get_ref().clone(),
            width,
            doc: raw.doc.clone(),
            source: raw.source.clone(),
            reset,
            reset_mask: None,
            pos: self.pos(&raw.name),
            fields,
            field_arrays: Vec::new(),
            derive,
        })
    }

    fn field(&mut self, raw: &RawField) -> Option<Field> {
        let (msb, lsb) = self.bits(&raw.bits, 1024)?;
        let access = match &raw.access {
            Some(access) => self.field_access(access)?,
            None => FieldAccess::Rw,
        };
        let (name, pos) = match &raw.name {
            Some(name) => (name.get_ref().clone(), self.pos(name)),
            None if matches!(access, FieldAccess::Res0 | FieldAccess::Res1) => (
                format!("{}_{msb}_{lsb}", access.as_str().to_uppercase()),
                self.pos(&raw.bits),
            ),
            None => {
                self.error(
                    &raw.bits,
                    "a field needs a `name` unless its access is res0 or res1".to_string(),
                );
                return None;
            }
        };
        let enums = raw
            .enums
            .iter()
            .map(|e| EnumValue {
                mask: None,
                name: e.name.get_ref().clone(),
                value: *e.value.get_ref() as u64,
                usage: EnumUsage::ReadWrite,
                doc: e.doc.clone(),
                source: e.source.clone(),
                pos: self.pos(&e.name),
            })
            .collect();
        for enum_value in &raw.enums {
            if *enum_value.value.get_ref() < 0 {
                self.error(
                    &enum_value.value,
                    "an enumerated value cannot be negative".to_string(),
                );
            }
        }
        let reset = match &raw.reset {
            Some(reset) => Some(self.unsigned(reset, "a field's reset value", u64::MAX)?),
            None => None,
        };
        Some(Field {
            name,
            lsb,
            width: msb - lsb + 1,
            access,
            reset,
            doc: raw.doc.clone(),
            source: raw.source.clone(),
            pos,
            enums,
            enum_default: None,
            enum_name: None,
            read_action: self.read_action(&raw.read_action)?,
            write_constraint: None,
            condition: None,
        })
    }

    fn read_action(&mut self, raw: &Option<S<String>>) -> Option<Option<ReadAction>> {
        let Some(text) = raw else { return Some(None) };
        let action = match text.get_ref().as_str() {
            "clear" => ReadAction::Clear,
            "set" => ReadAction::Set,
            "modify" => ReadAction::Modify,
            "modify-external" => ReadAction::ModifyExternal,
            other => {
                self.error(
                    text,
                    format!("unknown read action `{other}`; expected clear, set, modify or modify-external"),
                );
                return None;
            }
        };
        Some(Some(action))
    }

    /// `"msb:lsb"` or `"bit"`.
    fn sysreg(&mut self, raw: &RawSysReg) -> Option<SysReg> {
        let paths: Vec<(&S<String>, PathParser)> = [
            (raw.a64.as_ref(), parse_a64 as PathParser),
            (raw.a32.as_ref(), parse_a32),
            (raw.a32_64.as_ref(), parse_a32_wide),
        ]
        .into_iter()
        .filter_map(|(path, parser)| path.map(|path| (path, parser)))
        .collect();
        let (text, parse) = match paths.as_slice() {
            [one] => *one,
            [] => {
                self.error(
                    &raw.name,
                    format!(
                        "system register `{}` needs one access path: a64, a32 or a32_64",
                        raw.name.get_ref()
                    ),
                );
                return None;
            }
            [_, second, ..] => {
                self.error(
                    second.0,
                    "a system register has exactly one access path; bind the layout again for another".to_string(),
                );
                return None;
            }
        };
        let path = match parse(text.get_ref()) {
            Ok(path) => path,
            Err(message) => {
                self.error(text, message);
                return None;
            }
        };
        let access = self.reg_access(raw.access.as_ref(), &raw.state, &raw.name)?;
        let count = match &raw.count {
            Some(count) => Some(self.unsigned(count, "count", u64::from(u32::MAX))? as u32),
            None => None,
        };
        let view = match (&raw.view_of, &raw.when) {
            (Some(of), Some(when)) => Some(View {
                of: self.name_ref(of),
                when: when.get_ref().clone(),
            }),
            (None, None) => None,
            (Some(of), None) => {
                self.error(
                    of,
                    "`view_of` needs `when`: the condition under which this layout applies"
                        .to_string(),
                );
                return None;
            }
            (None, Some(when)) => {
                self.error(
                    when,
                    "`when` needs `view_of`: the register whose encoding this view shares"
                        .to_string(),
                );
                return None;
            }
        };
        Some(SysReg {
            name: raw.name.get_ref().clone(),
            layout: self.name_ref(&raw.layout),
            path,
            access,
            count,
            view,
            condition: None,
            doc: raw.doc.clone(),
            source: raw.source.clone(),
            pos: self.pos(&raw.name),
        })
    }

    fn block(&mut self, raw: &RawBlock) -> Option<Block> {
        let size = self.unsigned(&raw.size, "a block's size", u64::from(u32::MAX) + 1)?;
        let access_width = match &raw.access_width {
            Some(width) => {
                let value = *width.get_ref();
                if ![8, 16, 32, 64].contains(&value) {
                    self.error(
                        width,
                        format!("access_width must be 8, 16, 32 or 64, got {value}"),
                    );
                    return None;
                }
                value as u32
            }
            None => 32,
        };
        let mut registers = Vec::new();
        for register in &raw.register {
            registers.extend(self.block_register(register));
        }
        let lock = match &raw.lock {
            Some(lock) => Some(self.lock(lock)?),
            None => None,
        };
        Some(Block {
            name: raw.name.get_ref().clone(),
            size,
            access_width,
            doc: raw.doc.clone(),
            source: raw.source.clone(),
            pos: self.pos(&raw.name),
            registers,
            clusters: Vec::new(),
            lock,
        })
    }

    fn lock(&mut self, raw: &S<RawLock>) -> Option<Lock> {
        let lock = raw.get_ref();
        Some(Lock {
            access: self.name_ref(&lock.access),
            status: self.name_ref(&lock.status),
            locked: self.name_ref(&lock.locked),
            key: self.unsigned(&lock.key, "a lock key", u64::MAX)?,
            source: lock.source.clone(),
            pos: self.pos(raw),
        })
    }

    fn amendment(&mut self, raw: &RawAmend) -> Option<Amendment> {
        let lock = match &raw.lock {
            Some(lock) => Some(self.lock(lock)?),
            None => None,
        };
        let mut registers = Vec::new();
        for register in &raw.register {
            let access =
                self.reg_access(Some(&register.access), &register.state, &register.name)?;
            registers.push(RegisterAmendment {
                name: self.name_ref(&register.name),
                access,
            });
        }
        Some(Amendment {
            block: self.name_ref(&raw.block),
            lock,
            registers,
            source: raw.source.clone(),
            pos: self.pos(&raw.block),
        })
    }

    fn block_register(&mut self, raw: &RawBlockRegister) -> Option<BlockRegister> {
        let offset = self.unsigned(&raw.offset, "offset", u64::from(u32::MAX))?;
        let access = self.reg_access(raw.access.as_ref(), &raw.state, &raw.name)?;
        let array = match (&raw.count, &raw.stride) {
            (Some(count), Some(stride)) => Some(BlockArray {
                count: self.unsigned(count, "count", u64::from(u32::MAX))? as u32,
                stride: self.unsigned(stride, "stride", u64::from(u32::MAX))?,
            }),
            (None, None) => None,
            (Some(count), None) => {
                self.error(count, "an array in a block needs `stride` too".to_string());
                return None;
            }
            (None, Some(stride)) => {
                self.error(stride, "`stride` needs `count`".to_string());
                return None;
            }
        };
        Some(BlockRegister {
            protection: None,
            index_names: Vec::new(),
            name: raw.name.get_ref().clone(),
            layout: self.name_ref(&raw.layout),
            offset,
            access,
            array,
            alias_of: raw.alias_of.as_ref().map(|a| self.name_ref(a)),
            read_action: self.read_action(&raw.read_action)?,
            doc: raw.doc.clone(),
            source: raw.source.clone(),
            pos: self.pos(&raw.name),
        })
    }
}

/// Parses one access-path syntax.
type PathParser = fn(&str) -> Result<SysRegPath, String>;

/// The numbers of an encoding, each checked against its field's range.
fn numbers(parts: &[(&str, &str, u32)]) -> Result<Vec<u8>, String> {
    parts
        .iter()
        .map(|(what, text, max)| {
            text.parse::<u32>()
                .ok()
                .filter(|number| number <= max)
                .map(|number| number as u8)
                .ok_or_else(|| format!("{what} `{text}` is not a number from 0 to {max}"))
        })
        .collect()
}

/// `S<op0>_<op1>_C<n>_C<m>_<op2>`.
fn parse_a64(text: &str) -> Result<SysRegPath, String> {
    let usage = || format!("`{text}` is not an AArch64 encoding like `S3_3_C9_C12_0`");
    let rest = text.trim().strip_prefix(['S', 's']).ok_or_else(usage)?;
    let parts: Vec<&str> = rest.split('_').collect();
    let [op0, op1, crn, crm, op2] = parts.as_slice() else {
        return Err(usage());
    };
    let crn = crn.strip_prefix(['C', 'c']).ok_or_else(usage)?;
    let crm = crm.strip_prefix(['C', 'c']).ok_or_else(usage)?;
    let fields = numbers(&[
        ("op0", op0, 3),
        ("op1", op1, 7),
        ("CRn", crn, 15),
        ("CRm", crm, 15),
        ("op2", op2, 7),
    ])?;
    Ok(SysRegPath::A64 {
        op0: fields[0],
        op1: fields[1],
        crn: fields[2],
        crm: fields[3],
        op2: fields[4],
    })
}

fn split_operands(text: &str) -> Vec<&str> {
    text.split(',').map(str::trim).collect()
}

fn coproc(text: &str) -> Option<&str> {
    text.strip_prefix(['p', 'P'])
}

fn creg(text: &str) -> Option<&str> {
    text.strip_prefix(['c', 'C'])
}

/// `p<coproc>, <opc1>, c<n>, c<m>, <opc2>`.
fn parse_a32(text: &str) -> Result<SysRegPath, String> {
    let usage = || format!("`{text}` is not an AArch32 MRC/MCR encoding like `p15, 0, c9, c12, 0`");
    let parts = split_operands(text);
    let [coprocessor, opc1, crn, crm, opc2] = parts.as_slice() else {
        return Err(usage());
    };
    let fields = numbers(&[
        ("coproc", coproc(coprocessor).ok_or_else(usage)?, 15),
        ("opc1", opc1, 7),
        ("CRn", creg(crn).ok_or_else(usage)?, 15),
        ("CRm", creg(crm).ok_or_else(usage)?, 15),
        ("opc2", opc2, 7),
    ])?;
    Ok(SysRegPath::A32 {
        coproc: fields[0],
        opc1: fields[1],
        crn: fields[2],
        crm: fields[3],
        opc2: fields[4],
    })
}

/// `p<coproc>, <opc1>, c<m>`.
fn parse_a32_wide(text: &str) -> Result<SysRegPath, String> {
    let usage = || format!("`{text}` is not an AArch32 MRRC/MCRR encoding like `p15, 0, c9`");
    let parts = split_operands(text);
    let [coprocessor, opc1, crm] = parts.as_slice() else {
        return Err(usage());
    };
    let fields = numbers(&[
        ("coproc", coproc(coprocessor).ok_or_else(usage)?, 15),
        ("opc1", opc1, 15),
        ("CRm", creg(crm).ok_or_else(usage)?, 15),
    ])?;
    Ok(SysRegPath::A32Wide {
        coproc: fields[0],
        opc1: fields[1],
        crm: fields[2],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_parse() {
        assert_eq!(
            parse_a64("S3_3_C9_C12_0").unwrap(),
            SysRegPath::A64 {
                op0: 3,
                op1: 3,
                crn: 9,
                crm: 12,
                op2: 0
            }
        );
        assert_eq!(
            parse_a32("p15, 0, c9, c13, 0").unwrap(),
            SysRegPath::A32 {
                coproc: 15,
                opc1: 0,
                crn: 9,
                crm: 13,
                opc2: 0
            }
        );
        assert_eq!(
            parse_a32_wide("p15, 1, c14").unwrap(),
            SysRegPath::A32Wide {
                coproc: 15,
                opc1: 1,
                crm: 14
            }
        );
        assert!(parse_a64("S3_3_C9_C16_0").unwrap_err().contains("CRm"));
        assert!(parse_a32("p15, 0, c9, c12").is_err());
    }

    #[test]
    fn syntax_error_has_position() {
        let errors = parse("x.toml", "[device]\nname = \"a\"\n[[layout]]\nname = 3\n").unwrap_err();
        assert_eq!(errors[0].rule, TOML_SYNTAX);
        assert_eq!((errors[0].pos.line, errors[0].pos.col), (4, 8));
    }
}
