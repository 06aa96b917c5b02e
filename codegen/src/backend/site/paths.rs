//! Every way a layout is reached, with the encoding or address each way gives: system registers
//! by their instruction operands, block registers by their offset and, for each instance of the
//! block, their absolute address.
use serde::Serialize;

use super::text::hex;
use crate::backend::rust::rust_paths;
use crate::ir::{Block, BlockRegister, Device, Instance, PathExt, RegAccess, SysReg, SysRegPath};

/// One access path of a layout, as a row of the register page's table.
#[derive(Serialize)]
pub struct PathRow {
    /// `AArch64 MRS/MSR`, `MMIO PMU_EXT32`, ...
    pub kind: String,
    pub register: String,
    /// The register in the crate (`rp2040_pac::mmio::Uart0::uartcr()`); empty for a register
    /// of a cluster, whose accessor is on the cluster's block.
    pub rust: String,
    /// The encoding (`S3_3_C9_C12_0`) or the offset (`0xe04`, `0x400 + 4n`).
    pub encoding: String,
    /// The encoding's fields spelt out (`op0=3 op1=3 CRn=9 CRm=12 op2=0`).
    pub operands: String,
    /// The instructions or accesses that use it, as assembly or C would write them.
    pub forms: Vec<String>,
    pub access: String,
    pub array: Option<String>,
    /// For arrays, every element with its encoding or offset.
    pub elements: Vec<(String, String)>,
    /// For block registers, the absolute address in each instance of the block.
    pub addresses: Vec<(String, String)>,
    pub doc: String,
    pub source: String,
}

pub fn access_text(access: &RegAccess) -> String {
    match access {
        RegAccess::Rw => "read/write".to_string(),
        RegAccess::Ro => "read-only".to_string(),
        RegAccess::Wo => "write-only".to_string(),
        RegAccess::Set { state } => format!("write-1-to-set view of {state}"),
        RegAccess::Clear { state } => format!("write-1-to-clear view of {state}"),
    }
}

fn reads(access: &RegAccess) -> bool {
    !matches!(access, RegAccess::Wo)
}

fn writes(access: &RegAccess) -> bool {
    !matches!(access, RegAccess::Ro)
}

pub fn kind(path: SysRegPath) -> &'static str {
    match path {
        SysRegPath::A64 { .. } => "AArch64 MRS/MSR",
        SysRegPath::A32 { .. } => "AArch32 MRC/MCR",
        SysRegPath::A32Wide { .. } => "AArch32 MRRC/MCRR",
    }
}

fn operands(path: SysRegPath) -> String {
    match path {
        SysRegPath::A64 {
            op0,
            op1,
            crn,
            crm,
            op2,
        } => format!("op0={op0} op1={op1} CRn={crn} CRm={crm} op2={op2}"),
        SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm,
            opc2,
        } => format!("coproc={coproc} opc1={opc1} CRn={crn} CRm={crm} opc2={opc2}"),
        SysRegPath::A32Wide { coproc, opc1, crm } => {
            format!("coproc={coproc} opc1={opc1} CRm={crm}")
        }
    }
}

/// The instructions reading and writing `path`.
fn forms(path: SysRegPath, access: &RegAccess) -> Vec<String> {
    let (read, write) = match path {
        SysRegPath::A64 { .. } => (format!("MRS <Xt>, {path}"), format!("MSR {path}, <Xt>")),
        SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm,
            opc2,
        } => (
            format!("MRC p{coproc}, {opc1}, <Rt>, c{crn}, c{crm}, {opc2}"),
            format!("MCR p{coproc}, {opc1}, <Rt>, c{crn}, c{crm}, {opc2}"),
        ),
        SysRegPath::A32Wide { coproc, opc1, crm } => (
            format!("MRRC p{coproc}, {opc1}, <Rt>, <Rt2>, c{crm}"),
            format!("MCRR p{coproc}, {opc1}, <Rt>, <Rt2>, c{crm}"),
        ),
    };
    let mut out = Vec::new();
    if reads(access) {
        out.push(read);
    }
    if writes(access) {
        out.push(write);
    }
    out
}

pub fn sysreg(r: &SysReg) -> PathRow {
    let elements = match r.count {
        Some(count) => (0..count)
            .filter_map(|n| {
                r.path
                    .element(n)
                    .map(|p| (r.name.replace("<n>", &n.to_string()), p.to_string()))
            })
            .collect(),
        None => Vec::new(),
    };
    PathRow {
        kind: kind(r.path).to_string(),
        register: r.name.clone(),
        rust: String::new(),
        encoding: r.path.to_string(),
        operands: operands(r.path),
        forms: forms(r.path, &r.access),
        access: access_text(&r.access),
        array: r.count.map(|c| {
            format!(
                "{c} registers, n = 0..{}: element n adds n to the CRm:op2 part of the encoding",
                c.saturating_sub(1)
            )
        }),
        elements,
        addresses: Vec::new(),
        doc: r.doc.clone().unwrap_or_default(),
        source: r.source.clone().unwrap_or_default(),
    }
}

/// The instances of `block`.
pub fn instances_of<'a>(device: &'a Device, block: &str) -> Vec<&'a Instance> {
    device
        .instances
        .iter()
        .filter(|i| i.block.name == block)
        .collect()
}

/// Where register `r` is, relative to `base` (0 for the offset itself).
pub fn place(r: &BlockRegister, base: u64) -> String {
    let at = hex(base.wrapping_add(r.offset));
    match r.array {
        Some(a) => format!("{at} + {:#x}n", a.stride),
        None => at,
    }
}

pub fn block_register(device: &Device, b: &Block, r: &BlockRegister) -> PathRow {
    let elements = match r.array {
        Some(a) => (0..a.count)
            .map(|n| {
                (
                    r.name.replace("<n>", &n.to_string()),
                    hex(r.offset + u64::from(n) * a.stride),
                )
            })
            .collect(),
        None => Vec::new(),
    };
    let mut forms = Vec::new();
    let bus = format!("{}-bit", b.access_width);
    if reads(&r.access) {
        forms.push(format!("{bus} load from base + {}", place(r, 0)));
    }
    if writes(&r.access) {
        forms.push(format!("{bus} store to base + {}", place(r, 0)));
    }
    let mut notes = Vec::new();
    if let Some(a) = &r.alias_of {
        notes.push(format!("The same register as {}.", a.name));
    }
    if let Some(a) = r.read_action {
        notes.push(format!(
            "Reading has a side effect: {}.",
            crate::backend::doc::read_action(a)
        ));
    }
    if let Some(p) = r.protection {
        notes.push(p.describe().to_string());
    }
    if let Some(d) = &r.doc {
        notes.push(d.clone());
    }
    PathRow {
        kind: format!("MMIO {}", b.name),
        register: r.name.clone(),
        rust: String::new(),
        encoding: place(r, 0),
        operands: format!("block {} ({} bytes)", b.name, hex(b.size)),
        forms,
        access: access_text(&r.access),
        array: r.array.map(|a| {
            format!(
                "{} registers, {:#x} bytes apart (n = 0..{})",
                a.count,
                a.stride,
                a.count.saturating_sub(1)
            )
        }),
        elements,
        addresses: instances_of(device, &b.name)
            .iter()
            .map(|i| (i.name.clone(), place(r, i.base)))
            .collect(),
        doc: notes.join(" "),
        source: r.source.clone().unwrap_or_default(),
    }
}

/// Every path that reaches the layout `layout` in `device`: system registers by name, then block
/// registers by block and offset; each with its Rust path in the crate `krate`, whose device
/// (clusters not flattened) is `unflattened`.
pub fn of_layout(device: &Device, layout: &str, krate: &str, unflattened: &Device) -> Vec<PathRow> {
    let mut out: Vec<PathRow> = device
        .sysregs
        .iter()
        .filter(|r| r.layout.name == layout)
        .map(|r| PathRow {
            rust: format!("{krate}::{}", rust_paths::sysreg(r)),
            ..sysreg(r)
        })
        .collect();
    for b in &device.blocks {
        for r in b.registers.iter().filter(|r| r.layout.name == layout) {
            // A register of the block itself, not one a cluster placed in the flat map.
            let own = unflattened
                .blocks
                .iter()
                .find(|o| o.name == b.name)
                .is_some_and(|o| {
                    o.registers
                        .iter()
                        .any(|x| x.name == r.name && x.offset == r.offset)
                });
            out.push(PathRow {
                rust: if own {
                    format!("{krate}::{}", rust_paths::block_register(b, r))
                } else {
                    String::new()
                },
                ..block_register(device, b, r)
            });
        }
    }
    out
}
