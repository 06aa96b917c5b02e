//! The public methods of a system register that is not an array, built from one table: which
//! operations the register's access and side effects allow (`backend::side_effects`). (An
//! array's elements get theirs from `armreg_rt::array`, by its access marker.)
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::naming::type_name;
use crate::backend::side_effects::{write_kind, Reach, WriteEffects};
use crate::ir::{Layout, SysReg};

#[derive(Clone, Copy)]
enum Op {
    Read,
    ReadWithSideEffects,
    Write,
    Modify,
    ModifyWithSideEffects,
    Set,
    Clear,
}

fn ops(reach: Reach) -> &'static [Op] {
    match reach {
        Reach::Rw => &[Op::Read, Op::Write, Op::Modify],
        Reach::Ro => &[Op::Read],
        Reach::Wo => &[Op::Write],
        Reach::SetView => &[Op::Read, Op::Set],
        Reach::ClearView => &[Op::Read, Op::Clear],
        Reach::RwWriteActs => &[Op::Read, Op::Write, Op::ModifyWithSideEffects],
        Reach::RoReadActs => &[Op::ReadWithSideEffects],
        Reach::RwReadActs => &[
            Op::ReadWithSideEffects,
            Op::Write,
            Op::ModifyWithSideEffects,
        ],
    }
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::ReadWithSideEffects => "read_with_side_effects",
            Op::Write => "write",
            Op::Modify => "modify",
            Op::ModifyWithSideEffects => "modify_with_side_effects",
            Op::Set => "set",
            Op::Clear => "clear",
        }
    }

    fn doc(self) -> &'static str {
        match self {
            Op::Read => "Reads the register",
            Op::ReadWithSideEffects => "Reads the register, with the side effect its description gives the read",
            Op::Write => "Writes the register: exactly `value`, a `Value` or what becomes one (fields combined with `|`, each other field at its `DEFAULT`, whose write triggers nothing; for an integer register, an integer)",
            Op::Modify => "Reads the register, changes the value with `f` and writes it back; `f` gets the value read with every side-effect field neutral (`Value::neutral`), so only what `f` sets acts",
            Op::ModifyWithSideEffects => "Reads the register, changes the value with `f` and writes it back, where the read or any write has a side effect (see the register's documentation)",
            Op::Set => "Sets the state bits that are 1 in `mask`; the others keep their state",
            Op::Clear => "Clears the state bits that are 1 in `mask`; the others keep their state",
        }
    }

    /// The operation's own parameter (after any index) and the argument passing it on.
    fn param(self, value: &TokenStream) -> Option<(TokenStream, TokenStream)> {
        match self {
            Op::Read | Op::ReadWithSideEffects => None,
            Op::Write => Some((quote!(value: impl Into<#value>), quote!(value))),
            Op::Modify | Op::ModifyWithSideEffects => {
                Some((quote!(f: impl FnOnce(#value) -> #value), quote!(f)))
            }
            Op::Set | Op::Clear => Some((quote!(mask: impl Into<#value>), quote!(mask))),
        }
    }
}

/// The methods `reg` gets. Each is `track_caller` on the host, so that a missing emulation
/// handler's panic names the caller's line, not the crate's.
/// How a method reaches the register: the call that reads it (a `u64`), the function that
/// writes it, and the register's name, which the write takes before the `u64`.
pub struct Instr {
    pub read: TokenStream,
    pub write: TokenStream,
    pub name: String,
}

pub fn methods(reg: &SysReg, layout: &Layout, arch: &str, instr: &Instr) -> TokenStream {
    let name = type_name(layout);
    let value = quote!(armreg_rt::Value<crate::#name>);
    let reach = Reach::of(&reg.access, None, layout);
    let mut methods: TokenStream = ops(reach)
        .iter()
        .map(|&op| method(op, &value, layout, arch, instr))
        .collect();
    // svd2rust's `write(|w| ..)` starts from the reset value; here that is one explicit call,
    // on the registers whose layout has one.
    if reach.writes() && crate::backend::reset::value(layout).is_some() {
        methods.extend(quote! {
            /// Writes `f(RESET)`: the fields `f` sets, every other field at its reset value (what
            /// svd2rust's `write` does; `write` writes exactly the value it is given).
            #[inline(always)]
            #[cfg_attr(not(target_arch = #arch), track_caller)]
            pub fn write_from_reset(f: impl FnOnce(#value) -> #value) {
                Self::write(f(<crate::#name as armreg_rt::Reset>::RESET.neutral()));
            }
        });
    }
    if reach == Reach::Rw {
        methods.extend(flag_methods(layout, &name, arch));
    }
    methods
}

/// `clear_flag`, `set_flag`, `toggle_flag` and `trigger`, for the kinds of side-effect field
/// the layout has: each writes the one field's acting value, every other side-effect field
/// neutral and the stored fields as read (nothing is read where the layout stores none).
fn flag_methods(layout: &Layout, name: &proc_macro2::Ident, arch: &str) -> TokenStream {
    let kinds: Vec<&str> = layout
        .fields
        .iter()
        .filter_map(|f| write_kind(f.access))
        .collect();
    let base = if WriteEffects::of(layout).stored == 0 {
        quote!(<crate::#name as armreg_rt::Layout>::DEFAULT)
    } else {
        quote!(Self::read())
    };
    let helpers: [(&str, &str, &[&str], &str); 4] = [
        ("clear_flag", "ClearsFlag", &["W1c", "W0c"], "Clears a write-1-to-clear (or write-0-to-clear) field, acknowledging that flag: the other flags stay pending and the ordinary fields keep their values."),
        ("set_flag", "SetsFlag", &["W1s", "W0s"], "Sets a write-1-to-set (or write-0-to-set) field; nothing else changes."),
        ("toggle_flag", "TogglesFlag", &["W1t", "W0t"], "Toggles a write-1-to-toggle (or write-0-to-toggle) field; nothing else changes."),
        ("trigger", "Triggers", &["W1Action"], "Triggers a write-1 action; nothing else changes."),
    ];
    helpers
        .iter()
        .filter(|(_, _, of, _)| kinds.iter().any(|k| of.contains(k)))
        .map(|(method, bound, _, doc)| {
            let method = format_ident!("{method}");
            let bound = format_ident!("{bound}");
            quote! {
                #[doc = #doc]
                #[inline(always)]
                #[cfg_attr(not(target_arch = #arch), track_caller)]
                pub fn #method<R, W, K: armreg_rt::field::#bound>(
                    field: armreg_rt::Field<crate::#name, R, W, K>,
                ) {
                    Self::write(#base.acting_on(field));
                }
            }
        })
        .collect()
}

fn method(op: Op, value: &TokenStream, layout: &Layout, arch: &str, instr: &Instr) -> TokenStream {
    let base = format_ident!("{}", op.name());
    let (param, _) = op.param(value).unzip();
    let ret = match op {
        Op::Read | Op::ReadWithSideEffects => Some(value.clone()),
        _ => None,
    };
    let body = core_body(op, layout, instr);
    let doc = format!("{}.", op.doc());
    let ret = ret.map(|r| quote!(-> #r));
    quote! {
        #[doc = #doc]
        #[inline(always)]
        #[cfg_attr(not(target_arch = #arch), track_caller)]
        pub fn #base(#param) #ret {
            #body
        }
    }
}

/// The body of an operation over the register's one read and one write instruction.
fn core_body(op: Op, layout: &Layout, instr: &Instr) -> TokenStream {
    let (from_raw, to_raw) = conversions(layout);
    let Instr { read, write, name } = instr;
    match op {
        Op::Read | Op::ReadWithSideEffects => quote! {
            let raw = #read;
            #from_raw
        },
        Op::Write => quote! {
            let value = value.into();
            #write(#name, #to_raw);
        },
        Op::Modify | Op::ModifyWithSideEffects => quote! {
            let raw = #read;
            let value = f(#from_raw.neutral());
            Self::write(value);
        },
        Op::Set | Op::Clear => quote! {
            let value = mask.into();
            #write(#name, #to_raw);
        },
    }
}

/// The conversions between the value and the `u64` the instruction moves.
pub(super) fn conversions(layout: &Layout) -> (TokenStream, TokenStream) {
    let value = type_name(layout);
    if layout.width == 64 {
        (
            quote!(armreg_rt::Value::<crate::#value>::from_bits_retain(raw)),
            quote!(value.bits()),
        )
    } else {
        let raw_ty = super::tokens::uint_type(layout.width);
        (
            // The upper bits of the transfer are outside the layout (RES0 for it).
            quote!(armreg_rt::Value::<crate::#value>::from_bits_retain(raw as #raw_ty)),
            quote!(u64::from(value.bits())),
        )
    }
}
