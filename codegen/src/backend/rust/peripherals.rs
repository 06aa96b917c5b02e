//! `Peripherals`: every memory-mapped instance of the device as a field, handed out once by
//! `take()` (or `steal()`, unchecked), as svd2rust's crates hand theirs out.
//!
//! The blocks stay what they are: a handle built from a constant address (zero-sized bus and a
//! `usize` the compiler folds), so a field costs nothing; `take()` is one atomic swap of a flag
//! (`armreg_rt::mmio::Taken`). A field is compiled with its block's feature, and an instance
//! above 4 GiB only where pointers are 64 bits wide, as its constructor in `mmio` is.
//!
//! Written as formatted text (`code::Code`), like the blocks.
use super::code::{hex, name, Code};
use super::doc;
use super::gates::{Gates, Gating};
use crate::ir::Device;
use crate::names::Case;

/// Whether the crate has a `Peripherals`: it has instances at fixed addresses.
pub fn has_items(device: &Device) -> bool {
    !device.instances.is_empty()
}

/// The struct's documentation: what it is and why `take` is how a program gets it.
const DOC: &str = "Every memory-mapped block of the device at its address, each a field named after its instance (`p.uart0`), handed out once.

`Peripherals::take()` gives them the first time it is called and `None` after; `steal()` gives them again, unchecked. A block's handle is its base address (a constant the compiler folds into each access) on a zero-sized bus, so the struct costs nothing, and `take()` is one atomic swap of a flag. Taking the blocks once and passing them to the code that owns them (by value, or as `&mut`) is what makes exclusive access to a block something the type system sees: two drivers cannot both own the UART, and a driver that needs a block says so in its signature. Handles are values with the block's address, not references to the registers: a `&` to memory that the hardware changes and that reads change is not what Rust's references promise (rust-embedded/wg#791), so no reference to the registers is ever made; each access is a volatile load or store through the address.

The constructors in `mmio` (`unsafe { mmio::<instance>() }`) stay for code that cannot be handed the struct (an interrupt handler that owns its block by design, a bootloader).";

/// `src/peripherals.rs`'s items: the flag, the struct and its `take`/`steal`.
pub fn items(device: &Device, gates: &Gates) -> String {
    let mut c = Code::with_capacity(2048 + device.instances.len() * 300);
    c.line("/// Set once the blocks were handed out, by `take` or `steal`.");
    c.line("static TAKEN: armreg_rt::mmio::Taken = armreg_rt::mmio::Taken::new();");
    let features = gates.gating == Gating::Features;
    let take_where = if features {
        "\n\nWhere the target has an atomic swap (every Arm target but Armv6-M), `take()` is one swap and needs nothing else. Armv6-M (`thumbv6m-none-eabi`: Cortex-M0, M0+, M1) has no atomic read-modify-write: there `take()` exists with the crate's `critical-section` feature, which takes the flag inside `critical_section::with` (a firmware on `cortex-m` enables its `critical-section-single-core` feature to provide one). A critical section rather than a plain load and store, since an interrupt between the two could take the blocks a second time; behind a feature so that a crate that does not call `take()` on Armv6-M depends on nothing. Without it, `steal()` is there."
    } else {
        "\n\nWhere the target has an atomic swap (every Arm target but Armv6-M), `take()` is one swap. Armv6-M has no atomic read-modify-write: there `take()` exists when `armreg-rt`'s `critical-section` feature is on, and takes the flag inside `critical_section::with`; without it, `steal()` is there."
    };
    c.doc(&format!("{DOC}{take_where}"));
    c.line("#[derive(Debug)]");
    c.open("pub struct Peripherals");
    let block_index = |block: &str| device.blocks.iter().position(|b| b.name == block);
    let cfgs: Vec<String> = device
        .instances
        .iter()
        .map(|i| {
            let mut cfg = block_index(&i.block.name)
                .map(|b| gates.cfg(&[gates.tops[b]]))
                .unwrap_or_default();
            if i.base > u64::from(u32::MAX) {
                cfg.push_str("#[cfg(target_pointer_width = \"64\")]\n");
            }
            cfg
        })
        .collect();
    for (i, cfg) in device.instances.iter().zip(&cfgs) {
        c.doc(&format!(
            "{}: {} at {:#x}.",
            doc::code(&i.name),
            doc::code(&i.block.name),
            i.base
        ));
        for line in cfg.lines() {
            c.line(line);
        }
        c.fmt(format_args!(
            "pub {}: crate::mmio::{},",
            name(&i.name, Case::Snake),
            name(&i.block.name, Case::Camel)
        ));
    }
    c.close("");
    c.open("impl Peripherals");
    // `take` exists where the runtime's flag can be taken (an atomic swap, or its
    // `critical-section` feature): the runtime's macro decides, with the runtime's features.
    c.open("armreg_rt::__where_taken!");
    c.line("/// The device's blocks, the first time this is called; `None` after it (or after a");
    c.line("/// `steal`).");
    c.line("#[inline]");
    c.open("pub fn take() -> Option<Self>");
    c.open("if TAKEN.take()");
    c.safety("the flag was clear: no other `Peripherals` was handed out, and this one\nis the only one `take` will ever give.");
    c.line("Some(unsafe { Self::blocks() })");
    c.shallower();
    c.line("} else {");
    c.deeper();
    c.line("None");
    c.close("");
    c.close("");
    c.close("");
    c.line("/// The device's blocks, whether or not they were handed out before; a later `take`");
    c.line("/// gives `None`.");
    c.line("///");
    c.line("/// # Safety");
    c.line("/// The blocks must be at their addresses, mapped as device memory, and no other code");
    c.line("/// may use a block (through another `Peripherals` or an `mmio` constructor) in a way");
    c.line("/// that conflicts with the returned handles.");
    c.line("#[inline]");
    c.line("#[must_use]");
    c.open("pub unsafe fn steal() -> Self");
    c.line("TAKEN.set();");
    c.safety("the caller upholds `blocks`' contract.");
    c.line("unsafe { Self::blocks() }");
    c.close("");
    // `take` builds the struct without `steal`'s store: the flag is already set inside its swap
    // or critical section, and a second store would be an instruction the anchor does not have.
    c.line("/// The blocks, without touching the flag.");
    c.line("///");
    c.line("/// # Safety");
    c.line("/// As `steal`.");
    c.line("#[inline(always)]");
    c.line(
        "#[allow(unused_unsafe, reason = \"no block is compiled when no feature selects one\")]",
    );
    c.open("unsafe fn blocks() -> Self");
    c.safety("the caller upholds `new`'s contract for every block at its address.");
    c.open("unsafe");
    c.open("Self");
    for (i, cfg) in device.instances.iter().zip(&cfgs) {
        for line in cfg.lines() {
            c.line(line);
        }
        c.fmt(format_args!(
            "{}: crate::mmio::{}::new({}),",
            name(&i.name, Case::Snake),
            name(&i.block.name, Case::Camel),
            hex(i.base)
        ));
    }
    c.close("");
    c.close("");
    c.close("");
    c.close("");
    c.finish()
}
