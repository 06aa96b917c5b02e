//! The `device` module: the processor a microcontroller's description names (SVD `<cpu>`) as
//! constants, and its interrupts, as numbers and, where the processor is known, as the
//! `Interrupt` enum a vector table or an NVIC driver takes.
//!
//! Written as formatted text (`code::Code`), like the blocks.
use std::collections::{BTreeMap, BTreeSet};

use super::code::{name, string, Code};
use super::doc;
use super::naming::const_prefix;
use crate::ir::{Device, Interrupt};
use crate::names::Case;

/// Where a crate's Cortex-M runtime items (the vector table for `cortex-m-rt`, `device.x`,
/// `InterruptNumber` for `cortex-m`) are compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rt {
    /// Behind the crate's `rt` and `cortex-m` features (a generated crate).
    Features,
    /// Always (a build script that asked for them).
    Always,
    /// Not at all.
    None,
}

/// Whether the processor the description names is a Cortex-M (or SecurCore, their
/// ancestor): CMSIS-SVD's `CM0`, `CM0PLUS`, `CM0+`, `CM1`, `CM3`, `CM4`, `CM7`, `CM23`, `CM33`,
/// `CM35P`, `CM55`, `CM85`, `SC000`, `SC300`, `ARMV8MML`, `ARMV8MBL`, `ARMV81MML` (CMSIS-SVD
/// schema, `cpuNameType`).
pub fn is_cortex_m(device: &Device) -> bool {
    device.cpu.as_ref().is_some_and(|cpu| {
        let name = cpu.name.to_ascii_uppercase();
        name.starts_with("CM")
            || name.starts_with("SC")
            || (name.starts_with("ARMV8") && name.contains('M'))
    })
}

/// The NVIC numbers at most 496 interrupts (Armv7-M and Armv8-M; Armv6-M 32).
const NVIC_LINES: u32 = 496;

/// Whether the crate has the Cortex-M runtime items: a Cortex-M with interrupts, every one a
/// line the NVIC can have.
pub fn has_rt(device: &Device) -> bool {
    is_cortex_m(device)
        && lines(device)
            .last()
            .is_some_and(|last| last.number < NVIC_LINES)
}

/// `device.x` for cortex-m-rt's `link.x`: every interrupt's handler is `DefaultHandler` unless
/// the program defines it (`PROVIDE`).
pub fn device_x(device: &Device, banner: &str) -> String {
    let mut out = format!("/* {banner} */\n/* Each interrupt's handler: `DefaultHandler` unless the program defines one (`#[interrupt]`). */\n");
    for line in lines(device) {
        out.push_str(&format!("PROVIDE({} = DefaultHandler);\n", line.name));
    }
    out
}

/// Whether `device` has anything for the module: a processor or an interrupt.
pub fn has_items(device: &Device) -> bool {
    device.cpu.is_some() || device.instances.iter().any(|i| !i.interrupts.is_empty())
}

/// One interrupt line: its number, the name it goes by, the other names it has and the
/// peripherals that raise it.
struct Line<'d> {
    number: u32,
    name: String,
    other_names: Vec<&'d str>,
    raised_by: Vec<&'d str>,
    doc: Option<&'d str>,
}

/// The device's interrupt lines by number. A line several peripherals share (derived
/// peripherals repeat their base's `<interrupt>`) is one line, named by its first name.
fn lines(device: &Device) -> Vec<Line<'_>> {
    let mut by_number: BTreeMap<u32, Line<'_>> = BTreeMap::new();
    for instance in &device.instances {
        for Interrupt {
            name, value, doc, ..
        } in &instance.interrupts
        {
            let line = by_number.entry(*value).or_insert_with(|| Line {
                number: *value,
                name: name.clone(),
                other_names: Vec::new(),
                raised_by: Vec::new(),
                doc: doc.as_deref(),
            });
            if line.name != *name && !line.other_names.contains(&name.as_str()) {
                line.other_names.push(name);
            }
            if !line.raised_by.contains(&instance.name.as_str()) {
                line.raised_by.push(&instance.name);
            }
            line.doc = line.doc.or(doc.as_deref());
        }
    }
    let mut lines: Vec<Line<'_>> = by_number.into_values().collect();
    // Two numbers under one name (a vendor slip) keep apart as `NAME`, `NAME_2`.
    let (mut constants, mut variants) = (BTreeSet::new(), BTreeSet::new());
    for line in &mut lines {
        let base = const_prefix(&line.name);
        let mut unique = base.clone();
        let mut suffix = 2;
        while constants.contains(&unique) || variants.contains(&name(&unique, Case::Camel)) {
            unique = format!("{base}_{suffix}");
            suffix += 1;
        }
        constants.insert(unique.clone());
        variants.insert(name(&unique, Case::Camel));
        line.name = unique;
    }
    lines
}

/// The constant for an optional part of the processor: `dspPresent` → `DSP_PRESENT`.
fn feature_constant(feature: &str) -> String {
    match feature {
        "fpuDP" => "FPU_DP".to_string(),
        _ => {
            let mut out = String::new();
            for c in feature.chars() {
                if c.is_ascii_uppercase() {
                    out.push('_');
                }
                out.push(c.to_ascii_uppercase());
            }
            out
        }
    }
}

fn feature_meaning(feature: &str) -> &'static str {
    match feature {
        "fpuDP" => "a double-precision floating-point unit",
        "dspPresent" => "the DSP extension",
        "icachePresent" => "an instruction cache",
        "dcachePresent" => "a data cache",
        "itcmPresent" => "an instruction tightly coupled memory",
        "dtcmPresent" => "a data tightly coupled memory",
        _ => "a vector table offset register",
    }
}

/// The type of every interrupt number of the crate (here and on each instance): `u16`, as the
/// NVIC numbers interrupts (below 496), unless a number needs more.
pub fn interrupt_type(device: &Device) -> &'static str {
    let widest = device
        .instances
        .iter()
        .flat_map(|i| &i.interrupts)
        .map(|irq| irq.value)
        .max()
        .unwrap_or(0);
    if widest <= u32::from(u16::MAX) {
        "u16"
    } else {
        "u32"
    }
}

/// The module's items; with `rt`, the vector table and `InterruptNumber` too.
pub fn device_items(device: &Device, rt: Rt) -> String {
    let mut c = Code::with_capacity(4096);
    if let Some(cpu) = &device.cpu {
        c.doc(&format!(
            "The processor: {} revision {}.",
            doc::code(&cpu.name),
            doc::code(&cpu.revision)
        ));
        c.fmt(format_args!("pub const CPU: &str = {};", string(&cpu.name)));
        c.line("/// The processor's revision.");
        c.fmt(format_args!(
            "pub const CPU_REVISION: &str = {};",
            string(&cpu.revision)
        ));
        c.line("/// The processor's byte order: `little`, `big`, `selectable` or `other`.");
        c.fmt(format_args!(
            "pub const ENDIAN: &str = {};",
            string(&cpu.endian)
        ));
        c.line("/// Whether the processor has a memory protection unit.");
        c.fmt(format_args!(
            "pub const MPU_PRESENT: bool = {};",
            cpu.mpu_present
        ));
        c.line("/// Whether the processor has a floating-point unit.");
        c.fmt(format_args!(
            "pub const FPU_PRESENT: bool = {};",
            cpu.fpu_present
        ));
        c.line("/// The bits of interrupt priority the NVIC implements.");
        c.fmt(format_args!(
            "pub const NVIC_PRIO_BITS: u8 = {};",
            cpu.nvic_prio_bits.min(8)
        ));
        c.line("/// Whether the vendor provides its own SysTick configuration.");
        c.fmt(format_args!(
            "pub const VENDOR_SYSTICK_CONFIG: bool = {};",
            cpu.vendor_systick_config
        ));
        for (feature, present) in &cpu.features {
            c.doc(&format!(
                "Whether the processor has {} (`{feature}`).",
                feature_meaning(feature)
            ));
            c.fmt(format_args!(
                "pub const {}: bool = {present};",
                feature_constant(feature)
            ));
        }
        if let Some(count) = cpu.interrupts {
            c.line("/// The number of interrupts the NVIC has.");
            c.fmt(format_args!(
                "pub const DEVICE_NUM_INTERRUPTS: u32 = {count};"
            ));
        }
        if let Some(count) = cpu.sau_regions {
            c.line("/// The number of regions of the security attribution unit.");
            c.fmt(format_args!("pub const SAU_NUM_REGIONS: u32 = {count};"));
        }
    }
    let lines = lines(device);
    let Some(last) = lines.last() else {
        return c.finish();
    };
    let ty = interrupt_type(device);
    debug_assert!(ty == "u32" || last.number <= u32::from(u16::MAX));
    c.line("/// The interrupt numbers, one constant per line.");
    c.open("pub mod interrupt");
    for line in &lines {
        c.doc(&line_doc(line));
        c.fmt(format_args!(
            "pub const {}: {ty} = {};",
            line.name, line.number
        ));
    }
    c.close("");
    if device.cpu.is_some() {
        interrupt_enum(&mut c, &lines, ty);
    }
    if rt != Rt::None && has_rt(device) {
        runtime_items(&mut c, &lines, rt);
    }
    c.finish()
}

fn line_doc(line: &Line<'_>) -> String {
    doc::paragraphs(&[
        Some(match line.doc {
            Some(text) => format!("Interrupt {}: {}", line.number, doc::escape(text)),
            None => format!("Interrupt {}.", line.number),
        }),
        Some(format!(
            "Raised by {}.",
            line.raised_by
                .iter()
                .map(|p| doc::code(p))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        (!line.other_names.is_empty()).then(|| {
            format!(
                "Also called {}.",
                line.other_names
                    .iter()
                    .map(|n| doc::code(n))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }),
    ])
}

/// `Interrupt`: one variant per line, numbered as the NVIC numbers them.
fn interrupt_enum(c: &mut Code, lines: &[Line<'_>], ty: &str) {
    c.line("/// The device's interrupts, numbered as the NVIC numbers them.");
    c.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]");
    c.fmt(format_args!("#[repr({ty})]"));
    c.open("pub enum Interrupt");
    for line in lines {
        c.doc(&line_doc(line));
        c.fmt(format_args!(
            "{} = {},",
            name(&line.name, Case::Camel),
            line.number
        ));
    }
    c.close("");
    c.open("impl Interrupt");
    c.line("/// The interrupt's number.");
    c.line("#[inline]");
    c.open(&format!("pub const fn number(self) -> {ty}"));
    c.fmt(format_args!("self as {ty}"));
    c.close("");
    c.line("/// The interrupt numbered `number`, if the device has one.");
    c.open(&format!(
        "pub const fn from_number(number: {ty}) -> Option<Self>"
    ));
    c.open("match number");
    for line in lines {
        c.fmt(format_args!(
            "{} => Some(Self::{}),",
            line.number,
            name(&line.name, Case::Camel)
        ));
    }
    c.line("_ => None,");
    c.close("");
    c.close("");
    c.close("");
}

/// The vector table's interrupt entries for cortex-m-rt, and `InterruptNumber` for cortex-m.
fn runtime_items(c: &mut Code, lines: &[Line<'_>], rt: Rt) {
    let (rt_cfg, cm_cfg) = match rt {
        Rt::Features => (
            Some("#[cfg(feature = \"rt\")]"),
            Some("#[cfg(feature = \"cortex-m\")]"),
        ),
        _ => (None, None),
    };
    let cfg = |c: &mut Code, attr: Option<&str>| {
        if let Some(a) = attr {
            c.line(a);
        }
    };
    let length = lines.last().map_or(0, |l| l.number + 1);
    c.line("// The interrupts' handlers: the program's `#[interrupt]` functions, or cortex-m-rt's");
    c.line("// `DefaultHandler` (`device.x`).");
    cfg(c, rt_cfg);
    // The `unsafe` forms (Rust 1.82) are what edition 2024 asks, and every edition accepts them:
    // a build script's modules compile in the user's crate, whatever its edition.
    c.open("unsafe extern \"C\"");
    for line in lines {
        c.fmt(format_args!("fn {}();", line.name));
    }
    c.close("");
    c.line(
        "/// An entry of the vector table: an interrupt's handler, or a reserved word where the",
    );
    c.line("/// device has no interrupt of that number.");
    cfg(c, rt_cfg);
    c.line("#[doc(hidden)]");
    c.open("pub union Vector");
    c.line("_handler: unsafe extern \"C\" fn(),");
    c.line("_reserved: usize,");
    c.close("");
    c.doc(&format!(
        "The vector table's interrupt entries, after the processor's exceptions: {length}, up to the highest interrupt number, with a reserved word for each number the device does not use. cortex-m-rt's `link.x` places it (`.vector_table.interrupts`)."
    ));
    cfg(c, rt_cfg);
    c.line("#[doc(hidden)]");
    c.line("#[unsafe(link_section = \".vector_table.interrupts\")]");
    c.line("#[unsafe(no_mangle)]");
    c.fmt(format_args!(
        "pub static __INTERRUPTS: [Vector; {length}] = ["
    ));
    c.deeper();
    let mut next = lines.iter().peekable();
    for n in 0..length {
        match next.next_if(|l| l.number == n) {
            Some(line) => c.fmt(format_args!("Vector {{ _handler: {} }},", line.name)),
            None => c.line("Vector { _reserved: 0 },"),
        }
    }
    c.shallower();
    c.line("];");
    c.line("/// The NVIC's number of each interrupt, for cortex-m's `NVIC::unmask`, `pend`, ...");
    cfg(c, cm_cfg);
    c.safety("every variant is an interrupt of the device, numbered as the NVIC numbers\nit (below 496), which is what `InterruptNumber` asks.");
    c.open("unsafe impl cortex_m::interrupt::InterruptNumber for Interrupt");
    c.line("#[inline(always)]");
    c.open("fn number(self) -> u16");
    c.line("self as u16");
    c.close("");
    c.close("");
}
