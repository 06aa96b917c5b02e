//! Memory-mapped blocks: a type built from a base address (the one `unsafe` step) whose methods
//! hand out `armreg_rt::mmio::Reg` handles that carry each register's access rules.
//!
//! A block is generic over its bus (`armreg_rt::mmio::Bus`), `Mmio` by default: on the target the
//! bus is a zero-sized type and every accessor compiles to one volatile access; on the host the
//! same driver code runs against a behavioural model (`model.rs`). Offsets and array shapes are
//! constants of the `Mmio` block, where they are reached without naming a bus.
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::doc;
use super::layout::type_name;
use super::tokens::{hex, ident, unsuffixed};
use crate::ir::{Block, BlockRegister, Device, Instance, RegAccess};
use crate::names::Case;

pub fn blocks(device: &Device) -> TokenStream {
    let blocks: TokenStream = device.blocks.iter().map(|b| block(device, b)).collect();
    let instances: TokenStream = device.instances.iter().map(instance).collect();
    quote!(#blocks #instances)
}

/// A block at its address: the base as a constant and an `unsafe` constructor. A base above
/// 4 GiB exists only where pointers are 64 bits wide.
fn instance(inst: &Instance) -> TokenStream {
    let block = ident(&inst.block.name, Case::Camel);
    let upper = const_prefix(&inst.name);
    let base_const = format_ident!("{upper}_BASE");
    let ctor = ident(&inst.name, Case::Snake);
    let base = hex(inst.base);
    let cfg =
        (inst.base > u64::from(u32::MAX)).then(|| quote!(#[cfg(target_pointer_width = "64")]));
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
    let base_doc = format!("Base address of {}.", doc::code(&inst.name));
    let ctor_doc = format!("{text}\n\n# Safety\nThe block must be mapped at this address as device memory, and no other code may use it in a way that conflicts with the returned value.");
    let irqs: TokenStream = inst
        .interrupts
        .iter()
        .map(|irq| {
            let name = format_ident!(
                "{}_IRQ_{}",
                upper,
                ident(&irq.name, Case::Verbatim)
                    .to_string()
                    .to_ascii_uppercase()
                    .trim_start_matches('_')
            );
            let value = unsuffixed(u64::from(irq.value));
            let d = format!(
                "Interrupt {} of {}. {}",
                doc::code(&irq.name),
                doc::code(&inst.name),
                irq.doc.as_deref().map(doc::escape).unwrap_or_default()
            );
            quote!(#[doc = #d] pub const #name: u32 = #value;)
        })
        .collect();
    quote! {
        #[doc = #base_doc]
        #cfg
        pub const #base_const: usize = #base;

        #[doc = #ctor_doc]
        #cfg
        #[inline(always)]
        pub const unsafe fn #ctor() -> #block {
            __safety!("the caller upholds `new`'s contract for this address.");
            unsafe { #block::new(#base_const) }
        }

        #irqs
    }
}

/// The upper-case start of the constants named after `name`: leading `_` dropped, except the one
/// sanitising puts before a leading digit (`32K_FOUT` → `_32K_FOUT_OFFSET`).
pub(super) fn const_prefix(name: &str) -> String {
    let upper = ident(name, Case::Verbatim).to_string().to_ascii_uppercase();
    let trimmed = upper.trim_start_matches('_');
    if trimmed.is_empty() || trimmed.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{trimmed}")
    } else {
        trimmed.to_string()
    }
}

fn access_marker(access: &RegAccess) -> TokenStream {
    match access {
        RegAccess::Rw => quote!(armreg_rt::mmio::Rw),
        RegAccess::Ro => quote!(armreg_rt::mmio::Ro),
        RegAccess::Wo => quote!(armreg_rt::mmio::Wo),
        RegAccess::Set { .. } => quote!(armreg_rt::mmio::SetView),
        RegAccess::Clear { .. } => quote!(armreg_rt::mmio::ClearView),
    }
}

fn block(device: &Device, block: &Block) -> TokenStream {
    let name = ident(&block.name, Case::Camel);
    let size = hex(block.size);
    let block_doc = doc::paragraphs(&[
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
    ]);
    let (consts, methods): (TokenStream, TokenStream) = block
        .registers
        .iter()
        .filter_map(|r| device.layout(&r.layout.name).map(|l| (r, l)))
        .map(|(r, l)| register(block, r, l))
        .unzip();
    // A block without registers (an SVD peripheral that describes none) never reads its bus.
    let unread = methods.is_empty().then(|| quote!(#[allow(dead_code)]));
    quote! {
        #[doc = #block_doc]
        #[derive(Debug)]
        pub struct #name<B = armreg_rt::mmio::Mmio> {
            #unread
            bus: B,
            base: usize,
        }

        impl #name {
            /// The block's size in bytes.
            pub const SIZE: usize = #size;

            #consts

            /// The block at `base` in memory.
            ///
            /// # Safety
            /// `base` must be the address of this block, mapped as device memory, for as long as
            /// the value and the register handles it gives are used, and no other code may use
            /// the block in a way that conflicts with them.
            #[inline(always)]
            pub const unsafe fn new(base: usize) -> Self {
                Self { bus: armreg_rt::mmio::Mmio, base }
            }
        }

        impl<B: armreg_rt::mmio::Bus> #name<B> {
            /// The block at `base` on `bus`.
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

            #methods
        }
    }
}

/// A register's constants (for the `Mmio` block) and its accessor methods (for every bus).
fn register(
    block: &Block,
    reg: &BlockRegister,
    layout: &crate::ir::Layout,
) -> (TokenStream, TokenStream) {
    let block_name = ident(&block.name, Case::Camel);
    let method = ident(&reg.name, Case::Snake);
    let upper = const_prefix(&reg.name);
    let offset_const = format_ident!("{upper}_OFFSET");
    let offset = hex(reg.offset);
    let value = type_name(layout);
    let access = access_marker(&reg.access);
    let bus_bytes = unsuffixed((block.access_width / 8).into());
    let access_doc = match &reg.access {
        RegAccess::Rw => "read/write".to_string(),
        RegAccess::Ro => "read-only".to_string(),
        RegAccess::Wo => "write-only".to_string(),
        RegAccess::Set { state } => format!("write-1-to-set view of {}", doc::code(state)),
        RegAccess::Clear { state } => format!("write-1-to-clear view of {}", doc::code(state)),
    };
    let where_doc = match reg.array {
        Some(a) => format!(
            "Offset {:#x} + n × {:#x}, n < {}; {access_doc}, value type [`{value}`](crate::{value}).",
            reg.offset, a.stride, a.count
        ),
        None => format!(
            "Offset {:#x}; {access_doc}, value type [`{value}`](crate::{value}).",
            reg.offset
        ),
    };
    let alias = reg
        .alias_of
        .as_ref()
        .map(|a| format!("The same register as {}.", doc::code(&a.name)));
    let read_action = reg
        .read_action
        .map(|a| format!("Reading has a side effect: {}.", doc::read_action(a)));
    let text = doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&reg.name),
            reg.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(where_doc),
        alias,
        read_action,
        reg.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ]);
    let offset_doc = format!("Offset of {} in the block.", doc::code(&reg.name));
    let handle = quote!(armreg_rt::mmio::Reg<crate::#value, #access, B>);
    match reg.array {
        None => (
            quote! {
                #[doc = #offset_doc]
                pub const #offset_const: usize = #offset;
            },
            quote! {
                #[doc = #text]
                #[inline(always)]
                pub fn #method(&self) -> #handle {
                    __safety!("the constructor's contract covers every register inside the block.");
                    unsafe { armreg_rt::mmio::Reg::on(self.bus, self.base + #block_name::#offset_const, #bus_bytes) }
                }
            },
        ),
        Some(array) => {
            let stride_const = format_ident!("{upper}_STRIDE");
            let count_const = format_ident!("{upper}_COUNT");
            let stride = hex(array.stride);
            let count = unsuffixed(array.count.into());
            let const_method = format_ident!(
                "{}_n",
                method
                    .to_string()
                    .trim_start_matches("r#")
                    .trim_end_matches('_')
            );
            let consts = quote! {
                #[doc = #offset_doc]
                pub const #offset_const: usize = #offset;
                /// Bytes between two elements.
                pub const #stride_const: usize = #stride;
                /// The number of elements.
                pub const #count_const: usize = #count;
            };
            let methods = quote! {
                #[doc = #text]
                #[inline(always)]
                pub fn #method(&self, n: usize) -> Result<#handle, armreg_rt::IndexOutOfRange> {
                    if n >= #block_name::#count_const {
                        return Err(armreg_rt::IndexOutOfRange { index: n, count: #block_name::#count_const });
                    }
                    __safety!("the constructor's contract covers every register inside the block,\nand element n < COUNT lies inside it (checked by the generator).");
                    Ok(unsafe { armreg_rt::mmio::Reg::on(self.bus, self.base + #block_name::#offset_const + n * #block_name::#stride_const, #bus_bytes) })
                }

                #[doc = #text]
                ///
                /// The index is checked when the program is compiled.
                #[inline(always)]
                pub fn #const_method<const N: usize>(&self) -> #handle {
                    const { assert!(N < #block_name::#count_const, "register array index out of range") };
                    __safety!("as for the checked accessor; N < COUNT is checked at compile time.");
                    unsafe { armreg_rt::mmio::Reg::on(self.bus, self.base + #block_name::#offset_const + N * #block_name::#stride_const, #bus_bytes) }
                }
            };
            (consts, methods)
        }
    }
}
