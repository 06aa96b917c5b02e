//! What the headers say, computed from the IR: every number and every C statement is made here,
//! so `text` only arranges them.
use super::names::{comment, lower, upper, value};
use crate::backend::reset;
use crate::ir::{
    bit_range_mask, Block, BlockRegister, Device, FieldAccess, Instance, Layout, PathExt,
    RegAccess, SysReg, SysRegPath,
};

/// The C type holding a value of `width` bits.
pub fn c_type(width: u32) -> &'static str {
    match width {
        0..=8 => "uint8_t",
        9..=16 => "uint16_t",
        17..=32 => "uint32_t",
        _ => "uint64_t",
    }
}

/// An unsigned constant of a `width`-bit layout.
fn constant(width: u32, v: u64) -> String {
    if width > 32 {
        format!("UINT64_C({v:#x})")
    } else {
        format!("UINT32_C({v:#x})")
    }
}

/// An address: 64-bit only when it needs to be.
fn address(v: u64) -> String {
    constant(if v > u64::from(u32::MAX) { 64 } else { 32 }, v)
}

pub struct CLayout {
    pub comment: String,
    pub name: String,
    pub width: u32,
    pub res0: String,
    pub res1: String,
    pub reset: Option<String>,
    pub fields: Vec<CField>,
}

pub struct CField {
    pub comment: String,
    pub name: String,
    pub shift: u32,
    pub width: u32,
    pub mask: String,
    /// The type a value is widened to before it is shifted into place.
    pub ty: &'static str,
    pub values: Vec<CValue>,
}

pub struct CValue {
    pub name: String,
    pub value: String,
    pub comment: String,
}

fn bits_text(msb: u32, lsb: u32) -> String {
    if msb == lsb {
        format!("[{lsb}]")
    } else {
        format!("[{msb}:{lsb}]")
    }
}

fn sourced(doc: Option<&str>, source: Option<&str>) -> String {
    let mut t = doc.unwrap_or("").to_string();
    if let Some(s) = source {
        if !t.is_empty() {
            t.push_str(". ");
        }
        t.push_str("Source: ");
        t.push_str(s);
    }
    t
}

pub fn layout(prefix: &str, l: &Layout) -> CLayout {
    let name = format!("{prefix}_{}", upper(&l.name));
    let fields = l
        .fields
        .iter()
        .filter(|f| !f.is_reserved())
        .map(|f| {
            let field = format!("{name}_{}", upper(&f.name));
            CField {
                comment: comment(&format!(
                    "{} {} {}: {}",
                    f.name,
                    bits_text(f.msb(), f.lsb),
                    f.access.as_str(),
                    sourced(f.doc.as_deref(), f.source.as_deref())
                )),
                shift: f.lsb,
                width: f.width,
                mask: constant(l.width, f.mask()),
                ty: if l.width > 32 { "uint64_t" } else { "uint32_t" },
                values: f
                    .enums
                    .iter()
                    .map(|e| CValue {
                        name: format!("{field}_{}", value(&e.name)),
                        value: constant(f.width, e.value),
                        comment: comment(&match e.pattern(f.width) {
                            // A don't-care value: what it matches, since the constant is one of
                            // the values.
                            Some(pattern) => format!(
                                "Matches {pattern} (x: either bit). {}",
                                sourced(e.doc.as_deref(), e.source.as_deref())
                            )
                            .trim_end()
                            .to_string(),
                            None => sourced(e.doc.as_deref(), e.source.as_deref()),
                        }),
                    })
                    .collect(),
                name: field,
            }
        })
        .collect();
    CLayout {
        comment: comment(&format!(
            "{} ({} bits): {}",
            l.name,
            l.width,
            sourced(l.doc.as_deref(), l.source.as_deref())
        )),
        width: l.width,
        res0: constant(l.width, reset::reserved(l, FieldAccess::Res0)),
        res1: constant(l.width, reset::reserved(l, FieldAccess::Res1)),
        reset: reset::value(l).map(|v| constant(l.width, v & bit_range_mask(0, l.width))),
        fields,
        name,
    }
}

/// A register's accessors: reads and writes of each element, as C statements.
pub struct CAccessor {
    pub comment: String,
    /// The function name prefix (`arm_pmuv3_pmcr_el0`).
    pub func: String,
    /// The value type (the layout's width).
    pub ty: &'static str,
    /// The parameters before the value (`void`-less): `uintptr_t base`, `unsigned n`.
    pub params: Vec<&'static str>,
    pub read: Option<Body>,
    pub write: Option<Body>,
    /// Extra `#define`s: encodings, offsets, strides.
    pub defines: Vec<(String, String)>,
}

/// A function body: declarations, then one statement per element (one for a single register).
pub struct Body {
    pub decl: String,
    /// Whether the statement is chosen by the index `n` (an array of instructions).
    pub switch: bool,
    pub elements: Vec<(u32, String)>,
    pub result: String,
}

fn reads(access: &RegAccess) -> bool {
    !matches!(access, RegAccess::Wo)
}

fn writes(access: &RegAccess) -> bool {
    !matches!(access, RegAccess::Ro)
}

fn access_text(access: &RegAccess) -> String {
    match access {
        RegAccess::Rw => "read/write".to_string(),
        RegAccess::Ro => "read-only".to_string(),
        RegAccess::Wo => "write-only".to_string(),
        RegAccess::Set { state } => format!("write-1-to-set view of {state}"),
        RegAccess::Clear { state } => format!("write-1-to-clear view of {state}"),
    }
}

/// Which instruction reaches `path`, as documentation says it.
pub fn instruction(path: SysRegPath) -> &'static str {
    match path {
        SysRegPath::A64 { .. } => "MRS/MSR",
        SysRegPath::A32 { .. } => "MRC/MCR",
        SysRegPath::A32Wide { .. } => "MRRC/MCRR",
    }
}

/// The statements reading `path` into `raw` (or `lo`/`hi`) and writing them to it.
fn sysreg_asm(path: SysRegPath) -> (String, String) {
    match path {
        SysRegPath::A64 { .. } => (
            format!(r#"__asm__ volatile("mrs %0, {path}" : "=r"(raw) : : "memory");"#),
            format!(r#"__asm__ volatile("msr {path}, %0" : : "r"(raw) : "memory");"#),
        ),
        SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm,
            opc2,
        } => {
            let ops = |insn: &str| format!("{insn} p{coproc}, {opc1}, %0, c{crn}, c{crm}, {opc2}");
            (
                format!(
                    r#"__asm__ volatile("{}" : "=r"(raw) : : "memory");"#,
                    ops("mrc")
                ),
                format!(
                    r#"__asm__ volatile("{}" : : "r"(raw) : "memory");"#,
                    ops("mcr")
                ),
            )
        }
        SysRegPath::A32Wide { coproc, opc1, crm } => (
            format!(
                r#"__asm__ volatile("mrrc p{coproc}, {opc1}, %0, %1, c{crm}" : "=r"(lo), "=r"(hi) : : "memory");"#
            ),
            format!(
                r#"__asm__ volatile("mcrr p{coproc}, {opc1}, %0, %1, c{crm}" : : "r"(lo), "r"(hi) : "memory");"#
            ),
        ),
    }
}

pub fn sysreg(prefix: &str, r: &SysReg, l: &Layout) -> CAccessor {
    let name = format!("{prefix}_{}", upper(&r.name));
    let ty = c_type(l.width);
    let elements: Vec<(u32, SysRegPath)> = match r.count {
        Some(count) => (0..count)
            .filter_map(|n| r.path.element(n).map(|p| (n, p)))
            .collect(),
        None => vec![(0, r.path)],
    };
    let asm: Vec<(u32, (String, String))> =
        elements.iter().map(|(n, p)| (*n, sysreg_asm(*p))).collect();
    let (read_decl, read_result, write_decl) = match r.path {
        SysRegPath::A64 { .. } => (
            "uint64_t raw = 0;".to_string(),
            format!("({ty})raw"),
            "uint64_t raw = value;".to_string(),
        ),
        SysRegPath::A32 { .. } => (
            "uint32_t raw = 0;".to_string(),
            format!("({ty})raw"),
            "uint32_t raw = (uint32_t)value;".to_string(),
        ),
        SysRegPath::A32Wide { .. } => (
            "uint32_t lo = 0, hi = 0;".to_string(),
            format!("({ty})(((uint64_t)hi << 32) | lo)"),
            "uint32_t lo = (uint32_t)value, hi = (uint32_t)((uint64_t)value >> 32);".to_string(),
        ),
    };
    let mut defines = vec![(format!("{name}_ENCODING"), format!("\"{}\"", r.path))];
    if let Some(count) = r.count {
        defines.push((format!("{name}_COUNT"), format!("{count}u")));
    }
    let array = r.count.map(|c| {
        format!(" An array of {c}: element n adds n to the CRm:op2 part of the encoding; other n read as 0 and are not written.")
    });
    CAccessor {
        comment: comment(&format!(
            "{}: {} {}, {}, layout {}.{} {}",
            r.name,
            instruction(r.path),
            r.path,
            access_text(&r.access),
            l.name,
            array.unwrap_or_default(),
            sourced(r.doc.as_deref(), r.source.as_deref())
        )),
        func: lower(&format!("{prefix}_{}", upper(&r.name))),
        ty,
        params: if r.count.is_some() {
            vec!["unsigned n"]
        } else {
            Vec::new()
        },
        read: reads(&r.access).then(|| Body {
            decl: read_decl,
            switch: r.count.is_some(),
            elements: asm.iter().map(|(n, (rd, _))| (*n, rd.clone())).collect(),
            result: read_result,
        }),
        write: writes(&r.access).then(|| Body {
            decl: write_decl,
            switch: r.count.is_some(),
            elements: asm.iter().map(|(n, (_, wr))| (*n, wr.clone())).collect(),
            result: String::new(),
        }),
        defines,
    }
}

/// A block's constants and its instances.
pub struct CBlock {
    pub comment: String,
    pub name: String,
    pub size: String,
    pub registers: Vec<CAccessor>,
    pub instances: Vec<CInstance>,
}

pub struct CInstance {
    pub comment: String,
    pub name: String,
    pub base: String,
    pub irqs: Vec<CValue>,
}

pub fn block(prefix: &str, device: &Device, b: &Block) -> CBlock {
    let name = format!("{prefix}_{}", upper(&b.name));
    let registers = b
        .registers
        .iter()
        .filter_map(|r| device.layout(&r.layout.name).map(|l| (r, l)))
        .map(|(r, l)| block_register(&name, b, r, l))
        .collect();
    let instances = device
        .instances
        .iter()
        .filter(|i| i.block.name == b.name)
        .map(|i| instance(prefix, i))
        .collect();
    CBlock {
        comment: comment(&format!(
            "{}: {:#x} bytes, {}-bit accesses. {}",
            b.name,
            b.size,
            b.access_width,
            sourced(b.doc.as_deref(), b.source.as_deref())
        )),
        size: address(b.size),
        registers,
        instances,
        name,
    }
}

fn instance(prefix: &str, i: &Instance) -> CInstance {
    let name = format!("{prefix}_{}", upper(&i.name));
    CInstance {
        comment: comment(&format!(
            "{}: {} at {:#x}.{} {}",
            i.name,
            i.block.name,
            i.base,
            i.alias_of
                .as_ref()
                .map(|a| format!(" Shares its addresses with {}.", a.name))
                .unwrap_or_default(),
            sourced(i.doc.as_deref(), i.source.as_deref())
        )),
        base: address(i.base),
        irqs: i
            .interrupts
            .iter()
            .map(|irq| CValue {
                name: format!("{name}_IRQ_{}", upper(&irq.name)),
                value: format!("{}u", irq.value),
                comment: comment(irq.doc.as_deref().unwrap_or("")),
            })
            .collect(),
        name,
    }
}

/// Volatile loads and stores the way `armreg_rt::mmio` makes them: a register no wider than 32
/// bits in one access of its width, a 64-bit one in one access on a 64-bit bus, else as two 32-bit
/// halves, lowest address first.
fn mmio_statements(width: u32, bus_bits: u32, at: &str) -> (String, String, String) {
    let ty = c_type(width);
    if width == 64 && bus_bits < 64 {
        (
            format!("uint32_t lo = *(const volatile uint32_t *)({at});\n    uint32_t hi = *(const volatile uint32_t *)({at} + 4u);"),
            "(((uint64_t)hi << 32) | lo)".to_string(),
            format!("*(volatile uint32_t *)({at}) = (uint32_t)value;\n    *(volatile uint32_t *)({at} + 4u) = (uint32_t)(value >> 32);"),
        )
    } else {
        (
            format!("{ty} raw = *(const volatile {ty} *)({at});"),
            "raw".to_string(),
            format!("*(volatile {ty} *)({at}) = value;"),
        )
    }
}

fn block_register(block: &str, b: &Block, r: &BlockRegister, l: &Layout) -> CAccessor {
    let name = format!("{block}_{}", upper(&r.name));
    let mut defines = vec![(format!("{name}_OFFSET"), format!("{:#x}u", r.offset))];
    let at = match r.array {
        Some(a) => {
            defines.push((format!("{name}_STRIDE"), format!("{:#x}u", a.stride)));
            defines.push((format!("{name}_COUNT"), format!("{}u", a.count)));
            format!("base + {name}_OFFSET + (uintptr_t)n * {name}_STRIDE")
        }
        None => format!("base + {name}_OFFSET"),
    };
    let (load, result, store) = mmio_statements(l.width, b.access_width, &at);
    let where_ = match r.array {
        Some(a) => format!(
            "offset {:#x} + n * {:#x}, n < {} (n is not checked)",
            r.offset, a.stride, a.count
        ),
        None => format!("offset {:#x}", r.offset),
    };
    let mut params = vec!["uintptr_t base"];
    if r.array.is_some() {
        params.push("unsigned n");
    }
    CAccessor {
        comment: comment(&format!(
            "{}: {where_}, {}, layout {}.{}{}{} {}",
            r.name,
            access_text(&r.access),
            l.name,
            r.alias_of
                .as_ref()
                .map(|a| format!(" The same register as {}.", a.name))
                .unwrap_or_default(),
            r.read_action
                .map(|a| format!(
                    " Reading has a side effect: {}.",
                    crate::backend::doc::read_action(a)
                ))
                .unwrap_or_default(),
            r.protection
                .map(|p| format!(" {}", p.describe()))
                .unwrap_or_default(),
            sourced(r.doc.as_deref(), r.source.as_deref())
        )),
        func: lower(&name),
        ty: c_type(l.width),
        params,
        read: reads(&r.access).then(|| Body {
            decl: String::new(),
            switch: false,
            elements: vec![(0, load)],
            result,
        }),
        write: writes(&r.access).then(|| Body {
            decl: String::new(),
            switch: false,
            elements: vec![(0, store)],
            result: String::new(),
        }),
        defines,
    }
}
