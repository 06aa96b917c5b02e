//! Behavioural models of memory-mapped blocks (the generated crate's `model` feature).
//!
//! For each block: its access rules as a table (`armreg_rt::model::BlockSpec`: per register its
//! offset, width, reset, whole-register access and one bit mask per kind of field access; the
//! shared states; the lock), and a `<Block>Model` type whose `block()` is the generated block on
//! the model. The rules are applied by one engine in the runtime, written and tested once; what a
//! crate adds is data read from the IR, so the model cannot drift from the description.
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::block::const_prefix;
use super::doc;
use super::tokens::{hex, ident, unsuffixed};
use crate::backend::reset;
use crate::ir::{
    bit_range_mask, Block, BlockRegister, Device, FieldAccess, Layout, ReadAction, RegAccess,
};
use crate::names::Case;

/// The model module's items for every block of `device` (empty when it has none).
pub fn models(device: &Device) -> TokenStream {
    device
        .blocks
        .iter()
        .map(|b| block_model(device, b))
        .collect()
}

/// What each bit of a register does, as the runtime's `Bits` holds it.
#[derive(Default)]
struct Masks {
    readable: u64,
    write: u64,
    once: u64,
    w1s: u64,
    w1c: u64,
    w1t: u64,
    w0s: u64,
    w0c: u64,
    w0t: u64,
    wset: u64,
    wclr: u64,
    action: u64,
    res1: u64,
    read_clear: u64,
    read_set: u64,
}

impl Masks {
    /// The masks of `layout` reached through `reg`. A layout without fields is one plain value;
    /// in a layout with fields, bits no field covers are reserved and do nothing.
    fn of(layout: &Layout, reg: &BlockRegister) -> Masks {
        let full = bit_range_mask(0, layout.width);
        let mut m = Masks::default();
        if layout.fields.is_empty() {
            m.readable = full;
            m.write = full;
        }
        for f in &layout.fields {
            let bits = f.mask() & full;
            let (readable, kind): (bool, Option<&mut u64>) = match f.access {
                FieldAccess::Rw => (true, Some(&mut m.write)),
                FieldAccess::Ro => (true, None),
                FieldAccess::Wo => (false, Some(&mut m.write)),
                FieldAccess::W1s => (true, Some(&mut m.w1s)),
                FieldAccess::W1c => (true, Some(&mut m.w1c)),
                FieldAccess::W1t => (true, Some(&mut m.w1t)),
                FieldAccess::W0s => (true, Some(&mut m.w0s)),
                FieldAccess::W0c => (true, Some(&mut m.w0c)),
                FieldAccess::W0t => (true, Some(&mut m.w0t)),
                FieldAccess::WSet => (true, Some(&mut m.wset)),
                FieldAccess::WClr => (true, Some(&mut m.wclr)),
                FieldAccess::RwOnce => (true, Some(&mut m.once)),
                FieldAccess::WoOnce => (false, Some(&mut m.once)),
                FieldAccess::W1Action => (false, Some(&mut m.action)),
                FieldAccess::Res1 => (false, Some(&mut m.res1)),
                FieldAccess::RazWi | FieldAccess::Res0 => (false, None),
            };
            if let Some(mask) = kind {
                *mask |= bits;
            }
            if readable {
                m.readable |= bits;
            }
            match f.read_action {
                Some(ReadAction::Clear) => m.read_clear |= bits,
                Some(ReadAction::Set) => m.read_set |= bits,
                // Effects outside the field's own bits are the hooks' to add.
                Some(ReadAction::Modify | ReadAction::ModifyExternal) | None => {}
            }
        }
        match reg.read_action {
            Some(ReadAction::Clear) => m.read_clear |= m.readable,
            Some(ReadAction::Set) => m.read_set |= m.readable,
            _ => {}
        }
        m
    }

    fn tokens(&self) -> TokenStream {
        let fields = [
            ("readable", self.readable),
            ("write", self.write),
            ("once", self.once),
            ("w1s", self.w1s),
            ("w1c", self.w1c),
            ("w1t", self.w1t),
            ("w0s", self.w0s),
            ("w0c", self.w0c),
            ("w0t", self.w0t),
            ("wset", self.wset),
            ("wclr", self.wclr),
            ("action", self.action),
            ("res1", self.res1),
            ("read_clear", self.read_clear),
            ("read_set", self.read_set),
        ];
        let set: Vec<TokenStream> = fields
            .iter()
            .filter(|(_, v)| *v != 0)
            .map(|(name, v)| {
                let name = format_ident!("{name}");
                let v = hex(*v);
                quote!(#name: #v)
            })
            .collect();
        if set.is_empty() {
            quote!(armreg_rt::model::Bits::NONE)
        } else {
            quote!(armreg_rt::model::Bits { #(#set,)* ..armreg_rt::model::Bits::NONE })
        }
    }
}

/// The registers a model holds: aliases reach the register they alias, so they are left out.
fn modelled<'d>(device: &'d Device, block: &'d Block) -> Vec<(&'d BlockRegister, &'d Layout)> {
    block
        .registers
        .iter()
        .filter(|r| r.alias_of.is_none())
        .filter_map(|r| device.layout(&r.layout.name).map(|l| (r, l)))
        .collect()
}

fn block_model(device: &Device, block: &Block) -> TokenStream {
    let block_ty = ident(&block.name, Case::Camel);
    let model_ty = format_ident!("{block_ty}Model");
    let spec = format_ident!("{}_SPEC", const_prefix(&block.name));
    let registers = modelled(device, block);
    let mut states: Vec<&str> = registers
        .iter()
        .filter_map(|(r, _)| match &r.access {
            RegAccess::Set { state } | RegAccess::Clear { state } => Some(state.as_str()),
            _ => None,
        })
        .collect();
    states.sort();
    states.dedup();
    let state_index = |s: &str| unsuffixed(states.iter().position(|x| *x == s).unwrap_or(0) as u64);
    let specs: Vec<TokenStream> = registers
        .iter()
        .map(|(r, l)| {
            let name = &r.name;
            let offset = hex(r.offset);
            let bytes = unsuffixed(u64::from(l.width / 8));
            let (count, stride) = match r.array {
                Some(a) => (unsuffixed(a.count.into()), hex(a.stride)),
                None => (unsuffixed(1), hex(0)),
            };
            let kind = match &r.access {
                RegAccess::Rw => quote!(armreg_rt::model::RegKind::Rw),
                RegAccess::Ro => quote!(armreg_rt::model::RegKind::Ro),
                RegAccess::Wo => quote!(armreg_rt::model::RegKind::Wo),
                RegAccess::Set { state } => {
                    let i = state_index(state);
                    quote!(armreg_rt::model::RegKind::Set(#i))
                }
                RegAccess::Clear { state } => {
                    let i = state_index(state);
                    quote!(armreg_rt::model::RegKind::Clear(#i))
                }
            };
            let masks = Masks::of(l, r);
            let reset = hex((reset::bits(l).value | masks.res1) & bit_range_mask(0, l.width));
            let bits = masks.tokens();
            quote! {
                armreg_rt::model::RegSpec {
                    name: #name,
                    offset: #offset,
                    bytes: #bytes,
                    count: #count,
                    stride: #stride,
                    kind: #kind,
                    reset: #reset,
                    bits: #bits,
                }
            }
        })
        .collect();
    let position = |name: &str| registers.iter().position(|(r, _)| r.name == name);
    let lock = block.lock.as_ref().and_then(|lock| {
        let access = unsuffixed(position(&lock.access.name)? as u64);
        let status_at = position(&lock.status.name)?;
        let field = registers[status_at]
            .1
            .fields
            .iter()
            .find(|f| f.name == lock.locked.name)?;
        let status = unsuffixed(status_at as u64);
        let key = hex(lock.key);
        let locked = hex(field.mask());
        Some(quote! {
            Some(armreg_rt::model::LockSpec { access: #access, status: #status, key: #key, locked: #locked })
        })
    });
    let lock = lock.unwrap_or_else(|| quote!(None));
    let name = &block.name;
    let size = hex(block.size);
    let bus_bytes = unsuffixed(u64::from(block.access_width / 8));
    let spec_doc = doc::paragraphs(&[Some(format!(
        "The access rules of {} as its description states them: the table [`{model_ty}`] applies.",
        doc::code(&block.name)
    ))]);
    let model_doc = doc::paragraphs(&[
        Some(format!(
            "A behavioural model of [`{block_ty}`](crate::mmio::{block_ty}): storage for every register at its described reset, applying the description's access rules (see `armreg_rt::model`); every access is logged, and hooks add what a description cannot state."
        )),
        rules_doc(block, &states),
    ]);
    quote! {
        #[doc = #spec_doc]
        pub static #spec: armreg_rt::model::BlockSpec = armreg_rt::model::BlockSpec {
            name: #name,
            size: #size,
            bus_bytes: #bus_bytes,
            registers: &[#(#specs),*],
            states: &[#(#states),*],
            lock: #lock,
        };

        #[doc = #model_doc]
        #[derive(Debug)]
        pub struct #model_ty(armreg_rt::model::Model);

        impl #model_ty {
            /// The block at reset, with no hooks.
            pub fn new() -> Self {
                Self(armreg_rt::model::Model::new(&#spec))
            }

            /// The block on this model, at offset 0: the type driver code uses on hardware,
            /// reaching the model instead of memory.
            pub fn block(&self) -> crate::mmio::#block_ty<&armreg_rt::model::Model> {
                crate::mmio::#block_ty::with_bus(&self.0, 0)
            }
        }

        impl Default for #model_ty {
            fn default() -> Self {
                Self::new()
            }
        }

        impl core::ops::Deref for #model_ty {
            type Target = armreg_rt::model::Model;
            fn deref(&self) -> &armreg_rt::model::Model {
                &self.0
            }
        }
    }
}

/// The block-specific rules, in words: the shared states and the lock.
fn rules_doc(block: &Block, states: &[&str]) -> Option<String> {
    let mut parts = Vec::new();
    for state in states {
        let views: Vec<String> = block
            .registers
            .iter()
            .filter(|r| {
                matches!(&r.access, RegAccess::Set { state: s } | RegAccess::Clear { state: s } if s == state)
            })
            .map(|r| doc::code(&r.name))
            .collect();
        parts.push(format!(
            "{} act on one state, {}.",
            views.join(" and "),
            doc::code(state)
        ));
    }
    if let Some(lock) = &block.lock {
        parts.push(format!(
            "While {} is 1, writes to every register but {} are ignored; writing {:#x} to {} unlocks, any other value locks.",
            doc::code(&format!("{}.{}", lock.status.name, lock.locked.name)),
            doc::code(&lock.access.name),
            lock.key,
            doc::code(&lock.access.name),
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}
