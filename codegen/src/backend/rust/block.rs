//! Memory-mapped blocks: a type built from a base address (the one `unsafe` step) whose methods
//! hand out `armreg_rt::mmio::Reg` handles that carry each register's access rules.
//!
//! A block is generic over its bus (`armreg_rt::mmio::Bus`), `Mmio` by default: on the target the
//! bus is a zero-sized type and every accessor compiles to one volatile access; on the host the
//! same driver code runs against a behavioural model (`model.rs`). Offsets and array shapes are
//! constants of the `Mmio` block, where they are reached without naming a bus.
//!
//! Written as formatted text (`code::Code`), like the layouts.
use super::code::{hex, name, Code};
use super::doc;
use super::naming::{const_prefix, type_text};
use crate::backend::side_effects::{self, Reach};
use crate::ir::{
    Block, BlockArray, BlockRegister, Cluster, Device, IndexName, Instance, RegAccess,
};
use crate::names::Case;

/// The items of one block's file: the block, the blocks its clusters place (at any depth), and
/// its instances with their addresses.
pub fn block_items(device: &Device, b: &Block) -> String {
    let mut c = Code::with_capacity(b.registers.len() * 1000 + 2000);
    block(&mut c, device, b, false);
    let tops = device.block_tops();
    let top = device.blocks.iter().position(|other| other.name == b.name);
    for (n, nested) in device.blocks.iter().enumerate() {
        if Some(tops[n]) == top && Some(n) != top {
            block(&mut c, device, nested, true);
            let in_array = device
                .blocks
                .iter()
                .flat_map(|parent| &parent.clusters)
                .any(|cl| cl.block.name == nested.name && cl.array.is_some());
            if in_array {
                on_bus(&mut c, nested);
            }
        }
    }
    let irq_type = super::device::interrupt_type(device);
    for i in device.instances.iter().filter(|i| i.block.name == b.name) {
        instance(&mut c, i, irq_type);
        instance_type(&mut c, device, i);
    }
    c.finish()
}

/// `OnBus` for a block a cluster array places: how the array makes its elements.
fn on_bus(c: &mut Code, block: &Block) {
    let ty = name(&block.name, Case::Camel);
    c.open(&format!(
        "impl<B: armreg_rt::mmio::Bus> armreg_rt::array::OnBus<B> for {ty}<B>"
    ));
    c.line("#[inline(always)]");
    c.open("unsafe fn on_bus_at(bus: B, base: usize) -> Self");
    c.safety("the caller upholds `on_bus`'s contract, which `on_bus_at` restates.");
    c.line("unsafe { Self::on_bus(bus, base) }");
    c.close("");
    c.close("");
}

/// The accessor of a cluster: the block it places, or the array of them.
fn cluster_method(c: &mut Code, block: &Block, cluster: &Cluster) {
    let block_ty = name(&block.name, Case::Camel);
    let method = name(&cluster.name, Case::Snake);
    let upper = const_prefix(&cluster.name);
    let placed = name(&cluster.block.name, Case::Camel);
    let at = if cluster.offset == 0 {
        "self.base".to_string()
    } else {
        format!("self.base + {}", hex(cluster.offset))
    };
    let place = match cluster.array {
        Some(a) => format!(
            "Offset {:#x} + n × {:#x}, n < {}: block [`{placed}`].",
            cluster.offset, a.stride, a.count
        ),
        None => format!("Offset {:#x}: block [`{placed}`].", cluster.offset),
    };
    let text = doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&cluster.name),
            cluster.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(place),
        cluster.alias_of.as_ref().map(|a| {
            format!(
                "The same storage as {}, described another way.",
                doc::code(&a.name)
            )
        }),
    ]);
    match cluster.array {
        None => {
            c.doc(&text);
            c.line("#[inline(always)]");
            c.open(&format!("pub fn {method}(&self) -> {placed}<B>"));
            c.safety("the constructor's contract covers every register inside the block, and\nthe generator checked that the cluster lies inside it.");
            c.fmt(format_args!(
                "unsafe {{ {placed}::on_bus(self.bus, {at}) }}"
            ));
            c.close("");
        }
        Some(_) => {
            c.doc(&format!(
                "{text}\n\nAn array: `.at::<N>()` is block N, checked when the program is compiled; `.try_at(n)` is block n, or an error past the end."
            ));
            c.line("#[inline(always)]");
            c.open(&format!(
                "pub fn {method}(&self) -> armreg_rt::array::BlockArray<{placed}<B>, {{ {block_ty}::{upper}_COUNT }}, B>"
            ));
            c.safety("the constructor's contract covers every register inside the block, and\nthe generator checked that all COUNT elements lie inside it.");
            c.fmt(format_args!(
                "unsafe {{ armreg_rt::array::BlockArray::on(self.bus, {at}, {block_ty}::{upper}_STRIDE) }}"
            ));
            c.close("");
        }
    }
}

/// The instance's name for its block's type, where it is not the block's own (`Gpiob` for `GPIOB`,
/// an instance of `GPIOA`) and no block's type has it: each instance is reachable by its name.
fn instance_type(c: &mut Code, device: &Device, inst: &Instance) {
    let block = name(&inst.block.name, Case::Camel);
    let alias = name(&inst.name, Case::Camel);
    if alias == block
        || device
            .blocks
            .iter()
            .any(|b| name(&b.name, Case::Camel) == alias)
    {
        return;
    }
    c.doc(&format!(
        "The block type of {}: [`{block}`], whose registers it has.",
        doc::code(&inst.name)
    ));
    c.fmt(format_args!(
        "pub type {alias}<B = armreg_rt::mmio::Mmio> = {block}<B>;"
    ));
}

/// A block at its address: the base as a constant and an `unsafe` constructor. A base above
/// 4 GiB exists only where pointers are 64 bits wide.
fn instance(c: &mut Code, inst: &Instance, irq_type: &str) {
    let block = name(&inst.block.name, Case::Camel);
    let upper = const_prefix(&inst.name);
    let ctor = name(&inst.name, Case::Snake);
    let cfg = inst.base > u64::from(u32::MAX);
    let text = doc::paragraphs(&[
        Some(format!(
            "{}: {} at {:#x}. {}",
            doc::code(&inst.name),
            doc::code(&inst.block.name),
            inst.base,
            inst.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        inst.alias_of
            .as_ref()
            .map(|a| format!("Shares its addresses with {}.", doc::code(&a.name))),
        inst.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ]);
    c.doc(&format!("Base address of {}.", doc::code(&inst.name)));
    if cfg {
        c.line("#[cfg(target_pointer_width = \"64\")]");
    }
    c.fmt(format_args!(
        "pub const {upper}_BASE: usize = {};",
        hex(inst.base)
    ));
    c.doc(&format!("{text}\n\n# Safety\nThe block must be mapped at this address as device memory, and no other code may use it in a way that conflicts with the returned value."));
    if cfg {
        c.line("#[cfg(target_pointer_width = \"64\")]");
    }
    c.line("#[inline(always)]");
    c.open(&format!("pub const unsafe fn {ctor}() -> {block}"));
    c.safety("the caller upholds `new`'s contract for this address.");
    c.fmt(format_args!("unsafe {{ {block}::new({upper}_BASE) }}"));
    c.close("");
    // One constant per name: a description that lists an interrupt twice (which the SVD
    // frontend reports) must not make two.
    let mut seen = std::collections::BTreeSet::new();
    for irq in &inst.interrupts {
        let irq_name = name(&irq.name, Case::Verbatim).to_ascii_uppercase();
        if !seen.insert(irq_name.clone()) {
            continue;
        }
        c.doc(&format!(
            "Interrupt {} of {}. {}",
            doc::code(&irq.name),
            doc::code(&inst.name),
            irq.doc.as_deref().map(doc::escape).unwrap_or_default()
        ));
        c.fmt(format_args!(
            "pub const {upper}_IRQ_{}: {irq_type} = {};",
            irq_name.trim_start_matches('_'),
            irq.value
        ));
    }
}

/// The handle's access marker: the register's access, with its side effects counted
/// (`backend::side_effects`).
fn access_marker(reg: &BlockRegister, layout: &crate::ir::Layout) -> String {
    let reach = Reach::of(&reg.access, reg.read_action, layout);
    format!("armreg_rt::access::{}", reach.marker())
}

/// A block's type, its constants and its accessors. A block a cluster places (`nested`) is built
/// by its parent's accessor, so it has `on_bus` and `base` but no constructor of its own.
fn block(c: &mut Code, device: &Device, block: &Block, nested: bool) {
    let ty = name(&block.name, Case::Camel);
    c.doc(&doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&block.name),
            block.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(format!(
            "{:#x} bytes, reached with {}-bit accesses; registers wider than that are accessed in parts, lowest address first.",
            block.size, block.access_width
        )),
        block.lock.as_ref().map(|l| format!(
            "Software lock: while {} reads 1, writes to the block are ignored; write {:#x} to {} to unlock it, any other value to lock it.",
            doc::code(&format!("{}.{}", l.status.name, l.locked.name)),
            l.key,
            doc::code(&l.access.name)
        )),
        block.source.as_deref().map(|s| format!("Source: {}", doc::escape(s))),
    ]));
    let registers: Vec<(&BlockRegister, &crate::ir::Layout)> = block
        .registers
        .iter()
        .filter_map(|r| device.layout(&r.layout.name).map(|l| (r, l)))
        .collect();
    c.line("#[derive(Debug)]");
    c.open(&format!("pub struct {ty}<B = armreg_rt::mmio::Mmio>"));
    // A block without registers (an SVD peripheral that describes none) never reads its bus.
    if registers.is_empty() && block.clusters.is_empty() {
        c.line("#[allow(dead_code)]");
    }
    c.line("bus: B,");
    c.line("base: usize,");
    c.close("");

    c.open(&format!("impl {ty}"));
    c.line("/// The block's size in bytes.");
    c.fmt(format_args!("pub const SIZE: usize = {};", hex(block.size)));
    for (r, _) in &registers {
        array_consts(c, &r.name, r.array, &r.index_names);
    }
    for cluster in &block.clusters {
        array_consts(c, &cluster.name, cluster.array, &cluster.index_names);
    }
    if !nested {
        c.raw(NEW);
    }
    c.close("");

    c.open(&format!("impl<B: armreg_rt::mmio::Bus> {ty}<B>"));
    if nested {
        c.raw(NESTED_BUS_METHODS);
    } else {
        c.raw(BUS_METHODS);
    }
    for (r, l) in &registers {
        register_methods(c, block, r, l);
    }
    for cluster in &block.clusters {
        cluster_method(c, block, cluster);
    }
    c.close("");
}

/// The `Mmio` block's constructor, at one level of indentation.
const NEW: &str = r"    /// The block at `base` in memory.
    ///
    /// # Safety
    /// `base` must be the address of this block, mapped as device memory, for as long as
    /// the value and the register handles it gives are used, and no other code may use
    /// the block in a way that conflicts with them.
    #[inline(always)]
    pub const unsafe fn new(base: usize) -> Self {
        Self {
            bus: armreg_rt::mmio::Mmio,
            base,
        }
    }
";

/// The methods of a block on any bus, at one level of indentation.
const BUS_METHODS: &str = r"    /// The block at `base` on `bus`.
    ///
    /// # Safety
    /// The bus's contract must hold for every register of the block at `base`, for as
    /// long as the value and the register handles it gives are used (for `Mmio`, what
    /// `new` asks).
    #[inline(always)]
    pub const unsafe fn on_bus(bus: B, base: usize) -> Self {
        Self { bus, base }
    }
    /// The block at `base` on a bus where every access is safe (a behavioural model).
    #[inline(always)]
    pub const fn with_bus(bus: B, base: usize) -> Self
    where
        B: armreg_rt::mmio::SafeBus,
    {
        Self { bus, base }
    }
    /// The block's base address.
    #[inline(always)]
    pub const fn base(&self) -> usize {
        self.base
    }
";

/// The bus methods of a block a cluster places: made by its parent's accessor (or an array's
/// `OnBus`), on the parent's bus.
const NESTED_BUS_METHODS: &str = r"    /// The block at `base` on `bus`.
    ///
    /// # Safety
    /// The bus's contract must hold for every register of the block at `base`, for as
    /// long as the value and the register handles it gives are used: the parent block's
    /// accessor, which places it inside the parent, is the way to get one.
    #[inline(always)]
    pub const unsafe fn on_bus(bus: B, base: usize) -> Self {
        Self { bus, base }
    }
    /// The block's base address.
    #[inline(always)]
    pub const fn base(&self) -> usize {
        self.base
    }
";

/// An array's constants, for the `Mmio` block: stride, count and element names, for register
/// arrays and cluster arrays alike. No per-register offset constant: the accessor's
/// documentation and the handle's `addr()` give it, and a thousand constants were a twentieth of
/// a large crate's build memory.
fn array_consts(c: &mut Code, name: &str, array: Option<BlockArray>, index_names: &[IndexName]) {
    let Some(array) = array else {
        return;
    };
    let upper = const_prefix(name);
    c.line("/// Bytes between two elements.");
    c.fmt(format_args!(
        "pub const {upper}_STRIDE: usize = {};",
        hex(array.stride)
    ));
    c.line("/// The number of elements.");
    c.fmt(format_args!(
        "pub const {upper}_COUNT: usize = {};",
        array.count
    ));
    index_consts(c, &upper, name, index_names);
}

/// The names of an array's elements as index constants (SVD `dimArrayIndex`).
fn index_consts(c: &mut Code, upper: &str, array: &str, names: &[IndexName]) {
    for element in names {
        c.doc(&doc::paragraphs(&[
            Some(format!(
                "The index of element {} of {}: `.at::<{{ Self::{upper}_{} }}>()`.",
                doc::code(&element.name),
                doc::code(array),
                const_prefix(&element.name)
            )),
            element.doc.as_deref().map(doc::escape),
        ]));
        c.fmt(format_args!(
            "pub const {upper}_{}: usize = {};",
            const_prefix(&element.name),
            element.index
        ));
    }
}

/// A register's accessor methods, for every bus.
fn register_methods(c: &mut Code, block: &Block, reg: &BlockRegister, layout: &crate::ir::Layout) {
    let block_ty = name(&block.name, Case::Camel);
    let method = name(&reg.name, Case::Snake);
    let upper = const_prefix(&reg.name);
    let value = type_text(layout);
    let access = access_marker(reg, layout);
    let bus_bytes = block.access_width / 8;
    let access_doc = match &reg.access {
        RegAccess::Rw => "read/write".to_string(),
        RegAccess::Ro => "read-only".to_string(),
        RegAccess::Wo => "write-only".to_string(),
        RegAccess::Set { state } => format!("write-1-to-set view of {}", doc::code(state)),
        RegAccess::Clear { state } => format!("write-1-to-clear view of {}", doc::code(state)),
    };
    // The layout is in the signature, which rustdoc links: a link here too cost rp2040's crate
    // 0.5 MB of build memory.
    let where_doc = match reg.array {
        Some(a) => format!(
            "Offset {:#x} + n × {:#x}, n < {}; {access_doc}.",
            reg.offset, a.stride, a.count
        ),
        None => format!("Offset {:#x}; {access_doc}.", reg.offset),
    };
    let text = doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&reg.name),
            reg.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(where_doc),
        reg.alias_of
            .as_ref()
            .map(|a| format!("The same register as {}.", doc::code(&a.name))),
        reg.read_action
            .map(|a| format!("Reading has a side effect: {}.", doc::read_action(a))),
        side_effects::register_note(
            Reach::of(&reg.access, reg.read_action, layout),
            layout,
            "modify",
        ),
        reg.protection.map(|p| p.describe().to_string()),
        reg.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ]);
    let handle = format!("armreg_rt::mmio::Reg<crate::{value}, {access}, B>");
    // `self.base + 0x0` would be an identity operation to clippy.
    let at = if reg.offset == 0 {
        "self.base".to_string()
    } else {
        format!("self.base + {}", hex(reg.offset))
    };
    match reg.array {
        None => {
            c.doc(&text);
            c.line("#[inline(always)]");
            c.open(&format!("pub fn {method}(&self) -> {handle}"));
            c.safety("the constructor's contract covers every register inside the block.");
            reg_on(c, "unsafe {", &at, bus_bytes, "}");
            c.close("");
        }
        Some(_) => {
            // The array, whose `at::<N>()` and `try_at(n)` give the registers: the same
            // vocabulary as a system-register array's.
            let count = format!("{{ {block_ty}::{upper}_COUNT }}");
            let stride = format!("{block_ty}::{upper}_STRIDE");
            let array = format!("armreg_rt::array::RegArray<crate::{value}, {access}, {count}, B>");
            c.doc(&format!(
                "{text}\n\nAn array: `.at::<N>()` is register N, checked when the program is compiled; `.try_at(n)` is register n, or an error past the end."
            ));
            c.line("#[inline(always)]");
            c.open(&format!("pub fn {method}(&self) -> {array}"));
            c.safety("the constructor's contract covers every register inside the block, and\nthe generator checked that all COUNT elements lie inside it.");
            c.line("unsafe {");
            c.line("    armreg_rt::array::RegArray::on(");
            c.line("        self.bus,");
            c.fmt(format_args!("        {at},"));
            c.fmt(format_args!("        {stride},"));
            c.fmt(format_args!("        {bus_bytes},"));
            c.line("    )");
            c.line("}");
            c.close("");
        }
    }
}

/// `open armreg_rt::mmio::Reg::on(self.bus, address, bytes) close`, over lines as rustfmt puts it.
fn reg_on(c: &mut Code, open: &str, address: &str, bytes: u32, close: &str) {
    c.line(open);
    c.line("    armreg_rt::mmio::Reg::on(");
    c.line("        self.bus,");
    c.fmt(format_args!("        {address},"));
    c.fmt(format_args!("        {bytes},"));
    c.line("    )");
    c.line(close);
}
