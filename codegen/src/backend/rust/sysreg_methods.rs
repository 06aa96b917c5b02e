//! The public methods of a system-register type, built from one table: which operations the
//! register's access allows, in which flavour (a single register, an array element by a private
//! bare index, by a compile-time index, or by a checked run-time index).
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::layout::type_name;
use super::sysreg::conversions;
use crate::ir::{Layout, RegAccess, SysReg};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// `read()`: a register that is not an array.
    Single,
    /// `read(n)`: private; the index is trusted (checked by the two flavours below).
    Element,
    /// `read_n::<N>()`: the index is checked when the program is compiled; one instruction.
    ConstIndex,
    /// `try_read(n)`: the index is checked at run time and an error returned.
    Checked,
}

#[derive(Clone, Copy)]
enum Op {
    Read,
    Write,
    Modify,
    Set,
    Clear,
}

fn ops(access: &RegAccess) -> &'static [Op] {
    match access {
        RegAccess::Rw => &[Op::Read, Op::Write, Op::Modify],
        RegAccess::Ro => &[Op::Read],
        RegAccess::Wo => &[Op::Write],
        RegAccess::Set { .. } => &[Op::Read, Op::Set],
        RegAccess::Clear { .. } => &[Op::Read, Op::Clear],
    }
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::Write => "write",
            Op::Modify => "modify",
            Op::Set => "set",
            Op::Clear => "clear",
        }
    }

    fn doc(self) -> &'static str {
        match self {
            Op::Read => "Reads the register",
            Op::Write => "Writes the register",
            Op::Modify => "Reads the register, changes the value with `f` and writes it back",
            Op::Set => "Sets the state bits that are 1 in `mask`; the others keep their state",
            Op::Clear => "Clears the state bits that are 1 in `mask`; the others keep their state",
        }
    }

    /// The operation's own parameter (after any index) and the argument passing it on.
    fn param(self, value: &TokenStream) -> Option<(TokenStream, TokenStream)> {
        match self {
            Op::Read => None,
            Op::Write => Some((quote!(value: #value), quote!(value))),
            Op::Modify => Some((quote!(f: impl FnOnce(#value) -> #value), quote!(f))),
            Op::Set | Op::Clear => Some((quote!(mask: #value), quote!(mask))),
        }
    }
}

/// The methods `reg` gets in `flavor`.
pub fn methods(reg: &SysReg, layout: &Layout, flavor: Flavor) -> TokenStream {
    let name = type_name(layout);
    let value = quote!(armreg_rt::Value<crate::#name>);
    ops(&reg.access)
        .iter()
        .map(|&op| method(op, flavor, &value, layout))
        .collect()
}

fn method(op: Op, flavor: Flavor, value: &TokenStream, layout: &Layout) -> TokenStream {
    let base = format_ident!("{}", op.name());
    let (param, arg) = op.param(value).unzip();
    let ret = match op {
        Op::Read => Some(value.clone()),
        _ => None,
    };
    match flavor {
        Flavor::Single | Flavor::Element => {
            let (vis, index_param, index) = match flavor {
                Flavor::Single => (quote!(pub), None, None),
                _ => (quote!(), Some(quote!(n: usize,)), Some(quote!(n,))),
            };
            let body = core_body(op, index.as_ref(), layout);
            let doc = format!("{}.", op.doc());
            let ret = ret.map(|r| quote!(-> #r));
            quote! {
                #[doc = #doc]
                #[inline(always)]
                #vis fn #base(#index_param #param) #ret {
                    #body
                }
            }
        }
        Flavor::ConstIndex => {
            let method = format_ident!("{}_n", op.name());
            let doc = format!(
                "{} (element `N`, checked when the program is compiled).",
                op.doc()
            );
            // A call returning `()` is a statement.
            let call = match ret {
                Some(_) => quote!(Self::#base(N, #arg)),
                None => quote!(Self::#base(N, #arg);),
            };
            let ret = ret.map(|r| quote!(-> #r));
            quote! {
                #[doc = #doc]
                #[inline(always)]
                pub fn #method<const N: usize>(#param) #ret {
                    const { assert!(N < Self::COUNT, "register array index out of range") };
                    #call
                }
            }
        }
        Flavor::Checked => {
            let method: Ident = format_ident!("try_{}", op.name());
            let doc = format!("{} (element `n`, or an error if there is none).", op.doc());
            let (ok, call) = match ret {
                Some(r) => (r, quote!(Ok(Self::#base(n, #arg)))),
                None => (quote!(()), quote!(Self::#base(n, #arg); Ok(()))),
            };
            quote! {
                #[doc = #doc]
                #[inline(always)]
                pub fn #method(n: usize, #param) -> Result<#ok, armreg_rt::IndexOutOfRange> {
                    if n >= Self::COUNT {
                        return Err(armreg_rt::IndexOutOfRange { index: n, count: Self::COUNT });
                    }
                    #call
                }
            }
        }
    }
}

/// The body of an operation over `read_raw`/`write_raw`.
fn core_body(op: Op, index: Option<&TokenStream>, layout: &Layout) -> TokenStream {
    let (from_raw, to_raw) = conversions(layout);
    match op {
        Op::Read => quote! {
            let raw = Self::read_raw(#index);
            #from_raw
        },
        Op::Write => quote!(Self::write_raw(#index #to_raw);),
        Op::Modify => quote! {
            let value = f(Self::read(#index));
            Self::write(#index value);
        },
        Op::Set | Op::Clear => quote! {
            let value = mask;
            Self::write_raw(#index #to_raw);
        },
    }
}
