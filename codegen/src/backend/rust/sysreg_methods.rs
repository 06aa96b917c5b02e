//! The public methods of a system register that is not an array, built from one table: which
//! operations the register's access allows. (An array's elements get theirs from
//! `armreg_rt::array`.)
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::layout::type_name;
use super::sysreg::conversions;
use crate::ir::{Layout, RegAccess, SysReg};

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

/// The methods `reg` gets. Each is `track_caller` on the host, so that a missing emulation
/// handler's panic names the caller's line, not the crate's.
pub fn methods(reg: &SysReg, layout: &Layout, arch: &str) -> TokenStream {
    let name = type_name(layout);
    let value = quote!(armreg_rt::Value<crate::#name>);
    let mut methods: TokenStream = ops(&reg.access)
        .iter()
        .map(|&op| method(op, &value, layout, arch))
        .collect();
    // svd2rust's `write(|w| ..)` starts from the reset value; here that is one explicit call,
    // on the registers whose layout has one.
    let plain_write = matches!(reg.access, RegAccess::Rw | RegAccess::Wo);
    if plain_write && crate::backend::reset::value(layout).is_some() {
        methods.extend(quote! {
            /// Writes `f(RESET)`: the fields `f` sets, every other field at its reset value (what
            /// svd2rust's `write` does; `write` writes exactly the value it is given).
            #[inline(always)]
            #[cfg_attr(not(target_arch = #arch), track_caller)]
            pub fn write_from_reset(f: impl FnOnce(#value) -> #value) {
                Self::write(f(<crate::#name as armreg_rt::Reset>::RESET));
            }
        });
    }
    methods
}

fn method(op: Op, value: &TokenStream, layout: &Layout, arch: &str) -> TokenStream {
    let base = format_ident!("{}", op.name());
    let (param, _) = op.param(value).unzip();
    let ret = match op {
        Op::Read => Some(value.clone()),
        _ => None,
    };
    let body = core_body(op, layout);
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

/// The body of an operation over `read_raw`/`write_raw`.
fn core_body(op: Op, layout: &Layout) -> TokenStream {
    let (from_raw, to_raw) = conversions(layout);
    match op {
        Op::Read => quote! {
            let raw = Self::read_raw();
            #from_raw
        },
        Op::Write => quote!(Self::write_raw(#to_raw);),
        Op::Modify => quote! {
            let value = f(Self::read());
            Self::write(value);
        },
        Op::Set | Op::Clear => quote! {
            let value = mask;
            Self::write_raw(#to_raw);
        },
    }
}
