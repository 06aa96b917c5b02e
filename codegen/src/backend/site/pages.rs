//! What each page of the site shows, computed from the IR: the templates only lay it out.
use serde::Serialize;

use super::paths::{self, PathRow};
use super::text::{bits, hex, slug};
use crate::backend::doc::{access as access_meaning, read_action};
use crate::backend::reset;
use crate::backend::rust::rust_paths;
use crate::ir::{bit_range_mask, Device, EnumUsage, Layout, SysRegPath, WriteConstraint};

/// A generated crate's device and where it was described.
pub struct Source<'a> {
    pub crate_name: &'a str,
    pub inputs: &'a [String],
    /// The device with its clusters flattened: each block one map.
    pub device: &'a Device,
    /// The device as its crate has it (clusters not flattened), whose Rust names the pages show.
    pub unflattened: &'a Device,
}

/// The crate's name as Rust code spells it (`rp2040_pac`).
fn krate(s: &Source<'_>) -> String {
    s.crate_name.replace('-', "_")
}

/// The URL of a device's page, from the site's root.
pub fn device_url(crate_name: &str) -> String {
    format!("{}/index.html", slug(crate_name))
}

/// The URL of a layout's page, from the site's root.
pub fn layout_url(crate_name: &str, layout: &str) -> String {
    format!("{}/registers/{}.html", slug(crate_name), slug(layout))
}

#[derive(Serialize)]
pub struct DeviceSummary {
    pub name: String,
    pub url: String,
    pub doc: String,
    pub counts: String,
    pub blocks: Vec<BlockSummary>,
}

#[derive(Serialize)]
pub struct BlockSummary {
    pub name: String,
    pub url: String,
    pub instances: Vec<(String, String)>,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn first_line(text: Option<&str>) -> String {
    text.unwrap_or("")
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

pub fn summary(s: &Source<'_>) -> DeviceSummary {
    let d = s.device;
    let mut counts = Vec::new();
    for (n, one, many) in [
        (d.layouts.len(), "layout", "layouts"),
        (d.sysregs.len(), "system register", "system registers"),
        (d.blocks.len(), "block", "blocks"),
        (d.instances.len(), "instance", "instances"),
        (d.events.len(), "event", "events"),
    ] {
        if n > 0 {
            counts.push(plural(n, one, many));
        }
    }
    DeviceSummary {
        name: s.crate_name.to_string(),
        url: device_url(s.crate_name),
        doc: first_line(d.doc.as_deref()),
        counts: counts.join(", "),
        blocks: d
            .blocks
            .iter()
            .map(|b| BlockSummary {
                name: b.name.clone(),
                url: format!("{}#block-{}", device_url(s.crate_name), slug(&b.name)),
                instances: paths::instances_of(d, &b.name)
                    .iter()
                    .map(|i| (i.name.clone(), hex(i.base)))
                    .collect(),
            })
            .collect(),
    }
}

#[derive(Serialize)]
pub struct DevicePage {
    pub name: String,
    pub doc: String,
    pub source: String,
    pub inputs: Vec<String>,
    pub sysreg_groups: Vec<SysRegGroup>,
    pub blocks: Vec<BlockMap>,
    pub layouts: Vec<LayoutRow>,
    pub events: Vec<EventRow>,
}

#[derive(Serialize)]
pub struct SysRegGroup {
    pub title: String,
    pub rows: Vec<SysRegRow>,
}

#[derive(Serialize)]
pub struct SysRegRow {
    pub name: String,
    pub url: String,
    pub encoding: String,
    pub access: String,
    pub layout: String,
    pub count: String,
    pub source: String,
}

#[derive(Serialize)]
pub struct BlockMap {
    pub name: String,
    pub anchor: String,
    pub doc: String,
    pub source: String,
    pub size: String,
    pub access_width: u32,
    pub instances: Vec<InstanceRow>,
    pub rows: Vec<MapRow>,
}

#[derive(Serialize)]
pub struct InstanceRow {
    pub name: String,
    pub base: String,
    pub end: String,
    pub notes: String,
    pub source: String,
}

#[derive(Serialize)]
pub struct MapRow {
    pub offset: String,
    pub name: String,
    pub url: String,
    pub access: String,
    pub layout: String,
    pub width: u32,
    pub addresses: Vec<String>,
    pub notes: String,
    pub source: String,
}

#[derive(Serialize)]
pub struct LayoutRow {
    pub name: String,
    pub url: String,
    pub width: u32,
    pub fields: usize,
    pub paths: usize,
    pub doc: String,
}

#[derive(Serialize)]
pub struct EventRow {
    pub anchor: String,
    pub code: String,
    pub name: String,
    pub doc: String,
    pub source: String,
}

/// URLs on a device's page are relative to the device's folder.
fn local(url: &str, crate_name: &str) -> String {
    url.strip_prefix(&format!("{}/", slug(crate_name)))
        .unwrap_or(url)
        .to_string()
}

pub fn device(s: &Source<'_>) -> DevicePage {
    let d = s.device;
    let layout_width = |name: &str| d.layout(name).map_or(0, |l| l.width);
    let mut groups = Vec::new();
    for (title, a64) in [
        ("AArch64 system registers (MRS/MSR)", true),
        ("AArch32 system registers (MRC/MCR, MRRC/MCRR)", false),
    ] {
        let rows: Vec<SysRegRow> = d
            .sysregs
            .iter()
            .filter(|r| matches!(r.path, SysRegPath::A64 { .. }) == a64)
            .map(|r| SysRegRow {
                name: r.name.clone(),
                url: local(&layout_url(s.crate_name, &r.layout.name), s.crate_name),
                encoding: r.path.to_string(),
                access: paths::access_text(&r.access),
                layout: r.layout.name.clone(),
                count: r.count.map(|c| c.to_string()).unwrap_or_default(),
                source: r.source.clone().unwrap_or_default(),
            })
            .collect();
        if !rows.is_empty() {
            groups.push(SysRegGroup {
                title: title.to_string(),
                rows,
            });
        }
    }
    let blocks = d
        .blocks
        .iter()
        .map(|b| {
            let instances = paths::instances_of(d, &b.name);
            BlockMap {
                name: b.name.clone(),
                anchor: format!("block-{}", slug(&b.name)),
                doc: b.doc.clone().unwrap_or_default(),
                source: b.source.clone().unwrap_or_default(),
                size: hex(b.size),
                access_width: b.access_width,
                instances: instances
                    .iter()
                    .map(|i| InstanceRow {
                        name: i.name.clone(),
                        base: hex(i.base),
                        end: hex(i.base.wrapping_add(b.size).wrapping_sub(1)),
                        notes: [
                            i.doc.clone().unwrap_or_default(),
                            i.alias_of
                                .as_ref()
                                .map(|a| format!("Shares its addresses with {}.", a.name))
                                .unwrap_or_default(),
                            i.interrupts
                                .iter()
                                .map(|irq| format!("IRQ {} = {}", irq.name, irq.value))
                                .collect::<Vec<_>>()
                                .join(", "),
                        ]
                        .into_iter()
                        .filter(|t| !t.is_empty())
                        .collect::<Vec<_>>()
                        .join(" "),
                        source: i.source.clone().unwrap_or_default(),
                    })
                    .collect(),
                rows: b
                    .registers
                    .iter()
                    .map(|r| MapRow {
                        offset: paths::place(r, 0),
                        name: r.name.clone(),
                        url: local(&layout_url(s.crate_name, &r.layout.name), s.crate_name),
                        access: paths::access_text(&r.access),
                        layout: r.layout.name.clone(),
                        width: layout_width(&r.layout.name),
                        addresses: instances.iter().map(|i| paths::place(r, i.base)).collect(),
                        notes: r
                            .alias_of
                            .as_ref()
                            .map(|a| format!("alias of {}", a.name))
                            .unwrap_or_default(),
                        source: r.source.clone().unwrap_or_default(),
                    })
                    .collect(),
            }
        })
        .collect();
    DevicePage {
        name: s.crate_name.to_string(),
        doc: d.doc.clone().unwrap_or_default(),
        source: d.source.clone().unwrap_or_default(),
        inputs: s.inputs.to_vec(),
        sysreg_groups: groups,
        blocks,
        layouts: d
            .layouts
            .iter()
            .map(|l| LayoutRow {
                name: l.name.clone(),
                url: local(&layout_url(s.crate_name, &l.name), s.crate_name),
                width: l.width,
                fields: l.fields.iter().filter(|f| !f.is_reserved()).count(),
                paths: paths::of_layout(d, &l.name, &krate(s), s.unflattened).len(),
                doc: first_line(l.doc.as_deref()),
            })
            .collect(),
        events: d
            .events
            .iter()
            .map(|e| EventRow {
                anchor: format!("event-{}", slug(&e.name)),
                code: format!("{:#06x}", e.code),
                name: e.name.clone(),
                doc: e.doc.clone().unwrap_or_default(),
                source: e.source.clone().unwrap_or_default(),
            })
            .collect(),
    }
}

#[derive(Serialize)]
pub struct RegisterPage {
    pub device: String,
    pub name: String,
    /// The layout's type in the crate (`rp2040_pac::Uart0Ctrl`).
    pub rust: String,
    pub doc: String,
    pub width: u32,
    pub reset: String,
    pub derived: String,
    pub derived_url: String,
    /// Layouts derived from this one (other views of the same register), with their pages.
    pub variants: Vec<(String, String)>,
    pub source: String,
    pub res0: String,
    pub res1: String,
    pub svg: String,
    /// How wide the diagram is shown: half as large again as drawn, for reading on a screen.
    pub svg_width: String,
    pub paths: Vec<PathRow>,
    pub fields: Vec<FieldRow>,
}

#[derive(Serialize)]
pub struct FieldRow {
    pub anchor: String,
    pub bits: String,
    pub name: String,
    /// The field's constant in the crate (`Uart0Ctrl::EN`); empty for a reserved field.
    pub rust: String,
    pub reserved: bool,
    pub access: String,
    pub access_meaning: String,
    pub reset: String,
    pub doc: String,
    pub notes: Vec<String>,
    pub values: Vec<ValueRow>,
    pub source: String,
}

#[derive(Serialize)]
pub struct ValueRow {
    pub value: String,
    pub name: String,
    pub usage: String,
    pub doc: String,
    pub source: String,
}

fn reset_text(l: &Layout) -> String {
    let all = bit_range_mask(0, l.width);
    match (reset::value(l), l.reset) {
        (Some(v), _) => hex(v),
        (None, Some(v)) => format!(
            "{} with reset mask {} (the other bits are undefined at reset)",
            hex(v),
            hex(l.reset_mask.unwrap_or(all))
        ),
        (None, None) => {
            let known = reset::bits(l);
            if known.known == 0 {
                "not described".to_string()
            } else {
                format!(
                    "{} in the bits {} (the others are not described)",
                    hex(known.value),
                    hex(known.known)
                )
            }
        }
    }
}

pub fn register(s: &Source<'_>, l: &Layout) -> RegisterPage {
    let fields = l
        .fields
        .iter()
        .rev()
        .map(|f| {
            let mut notes = Vec::new();
            if let Some(a) = f.read_action {
                notes.push(format!("Reading has a side effect: {}.", read_action(a)));
            }
            match f.write_constraint {
                Some(WriteConstraint::Enumerated) => {
                    notes.push("Only the enumerated values may be written.".to_string())
                }
                Some(WriteConstraint::Range { min, max }) => notes.push(format!(
                    "Only values from {} to {} may be written.",
                    hex(min),
                    hex(max)
                )),
                Some(WriteConstraint::LastRead) => {
                    notes.push("Only the value last read may be written.".to_string())
                }
                None => {}
            }
            if let Some(d) = &f.enum_default {
                notes.push(format!("Values not listed are called {d}."));
            }
            let mut values: Vec<ValueRow> = f
                .enums
                .iter()
                .map(|e| ValueRow {
                    value: e.pattern(f.width).unwrap_or_else(|| hex(e.value)),
                    name: e.name.clone(),
                    usage: match e.usage {
                        EnumUsage::ReadWrite => String::new(),
                        EnumUsage::Read => "read".to_string(),
                        EnumUsage::Write => "write".to_string(),
                    },
                    doc: e.doc.clone().unwrap_or_default(),
                    source: e.source.clone().unwrap_or_default(),
                })
                .collect();
            values.sort_by(|a, b| (a.value.len(), &a.value).cmp(&(b.value.len(), &b.value)));
            FieldRow {
                anchor: format!("field-{}", slug(&f.name)),
                bits: bits(f.msb(), f.lsb),
                name: f.name.clone(),
                rust: rust_paths::field(l, f).unwrap_or_default(),
                reserved: f.is_reserved(),
                access: f.access.as_str().to_string(),
                access_meaning: access_meaning(f.access).to_string(),
                reset: f.reset.map(hex).unwrap_or_default(),
                doc: f.doc.clone().unwrap_or_default(),
                notes,
                values,
                source: f.source.clone().unwrap_or_default(),
            }
        })
        .collect();
    RegisterPage {
        device: s.crate_name.to_string(),
        name: l.name.clone(),
        rust: format!("{}::{}", krate(s), rust_paths::layout(l)),
        doc: l.doc.clone().unwrap_or_default(),
        width: l.width,
        reset: reset_text(l),
        derived: l
            .derive
            .as_ref()
            .map(|d| d.base.name.clone())
            .unwrap_or_default(),
        derived_url: l
            .derive
            .as_ref()
            .map(|d| format!("{}.html", slug(&d.base.name)))
            .unwrap_or_default(),
        variants: s
            .device
            .layouts
            .iter()
            .filter(|v| v.derive.as_ref().is_some_and(|d| d.base.name == l.name))
            .map(|v| (v.name.clone(), format!("{}.html", slug(&v.name))))
            .collect(),
        source: l.source.clone().unwrap_or_default(),
        res0: hex(reset::reserved(l, crate::ir::FieldAccess::Res0)),
        res1: hex(reset::reserved(l, crate::ir::FieldAccess::Res1)),
        svg: crate::backend::diagram::svg(l),
        svg_width: format!("{:.0}px", crate::backend::diagram::width(l) * 1.5),
        paths: paths::of_layout(s.device, &l.name, &krate(s), s.unflattened),
        fields,
    }
}
