//! System registers: one zero-sized type per register whose accessors compile to one `mrs`/`msr`
//! (`mrc`/`mcr`, `mrrc`/`mcrr`) on the target that has the instruction, and call the
//! `armreg_rt::host` hook everywhere else.
use proc_macro2::TokenStream;
use quote::quote;

use super::doc;
use super::naming::{state_of, type_name, State};
use super::sysreg_methods::{self, conversions};
use super::tokens::{ident, unsuffixed};
use crate::ir::{Device, Layout, RegAccess, SysReg, SysRegPath};
use crate::names::Case;

/// Tokens for every system register of `device` in `state`; `cfg` gives the condition the
/// register of that index is compiled under (its family's feature), if any.
pub fn sysregs(
    device: &Device,
    state: State,
    cfg: &dyn Fn(usize) -> Option<(String, String)>,
) -> TokenStream {
    device
        .sysregs
        .iter()
        .enumerate()
        .filter(|(_, r)| state_of(r.path) == state)
        .filter_map(|(i, r)| {
            let layout = device.layout(&r.layout.name)?;
            let tokens = sysreg(r, layout);
            Some(match cfg(i) {
                Some((condition, feature)) => gated(tokens, &condition, &feature),
                None => tokens,
            })
        })
        .collect()
}

/// Every item of `tokens` under `#[cfg(condition)]`, the first (the register's type) saying so
/// in its documentation.
fn gated(tokens: TokenStream, condition: &str, feature: &str) -> TokenStream {
    let Ok(mut file) = syn::parse2::<syn::File>(tokens.clone()) else {
        return tokens;
    };
    let Ok(cfg) = syn::parse_str::<TokenStream>(condition) else {
        return tokens;
    };
    let note = if condition.contains("target_arch") {
        format!(
            " Compiled with the cargo feature `{feature}` (in `all`, the default), on targets other than AArch64, where the instruction does not exist."
        )
    } else {
        format!(" Compiled with the cargo feature `{feature}` (in `all`, the default).")
    };
    for (i, item) in file.items.iter_mut().enumerate() {
        let attrs = match item {
            syn::Item::Struct(s) => &mut s.attrs,
            syn::Item::Impl(x) => &mut x.attrs,
            syn::Item::Const(x) => &mut x.attrs,
            syn::Item::Type(x) => &mut x.attrs,
            syn::Item::Fn(x) => &mut x.attrs,
            syn::Item::Mod(x) => &mut x.attrs,
            syn::Item::Use(x) => &mut x.attrs,
            syn::Item::Enum(x) => &mut x.attrs,
            syn::Item::Trait(x) => &mut x.attrs,
            syn::Item::Static(x) => &mut x.attrs,
            _ => continue,
        };
        attrs.insert(0, syn::parse_quote!(#[cfg(#cfg)]));
        if i == 0 {
            attrs.push(syn::parse_quote!(#[doc = ""]));
            attrs.push(syn::parse_quote!(#[doc = #note]));
        }
    }
    quote!(#file)
}

fn target_arch(path: SysRegPath) -> &'static str {
    match state_of(path) {
        State::AArch64 => "aarch64",
        State::AArch32 => "arm",
    }
}

/// The path as a `armreg_rt::SysRegPath` constant expression.
fn path_tokens(path: SysRegPath) -> TokenStream {
    match path {
        SysRegPath::A64 {
            op0,
            op1,
            crn,
            crm,
            op2,
        } => {
            let [op0, op1, crn, crm, op2] = [op0, op1, crn, crm, op2].map(|v| unsuffixed(v.into()));
            quote!(armreg_rt::SysRegPath::A64 { op0: #op0, op1: #op1, crn: #crn, crm: #crm, op2: #op2 })
        }
        SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm,
            opc2,
        } => {
            let [coproc, opc1, crn, crm, opc2] =
                [coproc, opc1, crn, crm, opc2].map(|v| unsuffixed(v.into()));
            quote!(armreg_rt::SysRegPath::A32 { coproc: #coproc, opc1: #opc1, crn: #crn, crm: #crm, opc2: #opc2 })
        }
        SysRegPath::A32Wide { coproc, opc1, crm } => {
            let [coproc, opc1, crm] = [coproc, opc1, crm].map(|v| unsuffixed(v.into()));
            quote!(armreg_rt::SysRegPath::A32Wide { coproc: #coproc, opc1: #opc1, crm: #crm })
        }
    }
}

fn instruction_doc(path: SysRegPath) -> String {
    match path {
        SysRegPath::A64 { .. } => format!("`MRS`/`MSR` `{path}`"),
        SysRegPath::A32 { .. } => format!("`MRC`/`MCR` `{path}`"),
        SysRegPath::A32Wide { .. } => format!("`MRRC`/`MCRR` `{path}`"),
    }
}

fn register_doc(reg: &SysReg, layout: &Layout) -> String {
    let access = match &reg.access {
        RegAccess::Rw => "read/write".to_string(),
        RegAccess::Ro => "read-only".to_string(),
        RegAccess::Wo => "write-only".to_string(),
        RegAccess::Set { state } => format!("write-1-to-set view of {}", doc::code(state)),
        RegAccess::Clear { state } => format!("write-1-to-clear view of {}", doc::code(state)),
    };
    let array = reg.count.map(|c| {
        let index_part = match reg.path {
            SysRegPath::A32Wide { .. } => "CRm",
            _ => "CRm:op2",
        };
        format!(
            "An array of {c} registers: `{0}.at::<N>()` is element N, checked when the program is compiled (one instruction); `{0}.try_at(n)` is element n, or an error past the end. Element n adds n to the {index_part} part of element 0's encoding.",
            ident(&reg.name, Case::Verbatim)
        )
    });
    doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&reg.name),
            reg.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(format!(
            "{}, {access}, layout [`{}`](crate::{}).",
            instruction_doc(reg.path),
            type_name(layout),
            type_name(layout)
        )),
        array,
        reg.condition
            .as_ref()
            .map(|c| format!("Implemented when {}.", doc::code(&c.to_string()))),
        crate::backend::side_effects::register_note(
            crate::backend::side_effects::Reach::of(&reg.access, None, layout),
            layout,
            "modify",
        ),
        // The register it is a view of is in the same module (the same encoding, so the same
        // state): a plain intra-doc link.
        reg.view.as_ref().map(|view| {
            format!(
                "A view of [`{}`]: the same encoding, with the layout that applies when {}.",
                ident(&view.of.name, Case::Verbatim),
                doc::escape(&view.when)
            )
        }),
        reg.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ])
}

fn sysreg(reg: &SysReg, layout: &Layout) -> TokenStream {
    match reg.count {
        Some(count) => array(reg, layout, count),
        None => single(reg, layout),
    }
}

fn reads(reg: &SysReg) -> bool {
    !matches!(reg.access, RegAccess::Wo)
}

fn single(reg: &SysReg, layout: &Layout) -> TokenStream {
    let name = ident(&reg.name, Case::Verbatim);
    let reg_name = &reg.name;
    let doc = register_doc(reg, layout);
    let arch = target_arch(reg.path);
    let path = path_tokens(reg.path);
    let instr = instructions(reg.path, reg_name);
    let methods = sysreg_methods::methods(reg, layout, arch, &instr);
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        pub struct #name;

        impl #name {
            /// The register's encoding.
            pub const PATH: armreg_rt::SysRegPath = #path;

            #methods
        }
    }
}

/// The runtime's read and write of `path` (`armreg_rt::sysreg`, generic over the encoding):
/// a register holds no instruction of its own.
fn instructions(path: SysRegPath, name: &str) -> sysreg_methods::Instr {
    let n = |v: u8| unsuffixed(v.into());
    let (read, write) = match path {
        SysRegPath::A64 {
            op0,
            op1,
            crn,
            crm,
            op2,
        } => {
            let g = [op0, op1, crn, crm, op2].map(n);
            let [a, b, c, d, e] = &g;
            (
                quote!(armreg_rt::sysreg::a64_read::<#a, #b, #c, #d, #e>),
                quote!(armreg_rt::sysreg::a64_write::<#a, #b, #c, #d, #e>),
            )
        }
        SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm,
            opc2,
        } => {
            let g = [coproc, opc1, crn, crm, opc2].map(n);
            let [a, b, c, d, e] = &g;
            (
                quote!(armreg_rt::sysreg::a32_read::<#a, #b, #c, #d, #e>),
                quote!(armreg_rt::sysreg::a32_write::<#a, #b, #c, #d, #e>),
            )
        }
        SysRegPath::A32Wide { coproc, opc1, crm } => {
            let g = [coproc, opc1, crm].map(n);
            let [a, b, c] = &g;
            (
                quote!(armreg_rt::sysreg::a32_wide_read::<#a, #b, #c>),
                quote!(armreg_rt::sysreg::a32_wide_write::<#a, #b, #c>),
            )
        }
    };
    sysreg_methods::Instr {
        read: quote!(#read(#name)),
        write,
        name: name.to_string(),
    }
}

/// An array: a unit value whose `at::<N>()` and `try_at(n)` give its elements, and the
/// `armreg_rt::array` traits those elements use. Element `N` is one instruction whose index part
/// (CRm:op2, or CRm for `MRRC`/`MCRR`) the assembler gets as a constant, so the array is written
/// once, not once per element; `read_index`/`write_index` choose among the elements with one
/// `match` arm each.
fn array(reg: &SysReg, layout: &Layout, count: u32) -> TokenStream {
    let name = ident(&reg.name, Case::Verbatim);
    let arch = target_arch(reg.path);
    let doc = register_doc(reg, layout);
    let count_lit = unsuffixed(count.into());
    let layout_ty = type_name(layout);
    let access = quote::format_ident!(
        "{}",
        crate::backend::side_effects::Reach::of(&reg.access, None, layout).marker()
    );
    let value = quote!(armreg_rt::Value<crate::#layout_ty>);
    let reg_name = &reg.name;
    let element = ElementAsm::of(reg.path);
    let path = element.path;
    let (from_raw, to_raw) = conversions(layout);
    let indices: Vec<proc_macro2::Literal> = (0..count).map(|n| unsuffixed(n.into())).collect();
    let dispatch = |call: TokenStream, arg: Option<TokenStream>| -> TokenStream {
        let arms = indices
            .iter()
            .map(|n| quote!(#n => Self::#call::<#n>(#arg),));
        quote! {
            match n {
                #(#arms)*
                _ => armreg_rt::array::out_of_range(#reg_name, n, #count_lit),
            }
        }
    };
    let read_asm = &element.read;
    let write_asm = &element.write;
    let read_at = quote! {
        #[inline(always)]
        #[cfg_attr(not(target_arch = #arch), track_caller)]
        fn read_at<const N: usize>() -> #value {
            #[cfg(target_arch = #arch)]
            let raw = #read_asm;
            #[cfg(not(target_arch = #arch))]
            let raw = armreg_rt::host::read(#reg_name, Self::element_path(N));
            #from_raw
        }
    };
    let write_at = |method: TokenStream, param: TokenStream| {
        // The conversion reads `value`; a write-1 view's parameter is `mask`.
        let rebind = (param.to_string() != "value").then(|| quote!(let value = #param;));
        quote! {
            #[inline(always)]
            #[cfg_attr(not(target_arch = #arch), track_caller)]
            fn #method<const N: usize>(#param: #value) {
                #rebind
                let raw = #to_raw;
                #[cfg(target_arch = #arch)]
                {
                    #write_asm
                }
                #[cfg(not(target_arch = #arch))]
                armreg_rt::host::write(#reg_name, Self::element_path(N), raw);
            }
        }
    };
    let read_index = dispatch(quote!(read_at), None);
    let readable = reads(reg).then(|| {
        quote! {
            impl armreg_rt::array::ReadElement for #name {
                #read_at
                #[inline(always)]
                #[cfg_attr(not(target_arch = #arch), track_caller)]
                fn read_index(n: usize) -> #value {
                    #read_index
                }
            }
        }
    });
    let writer = |trait_name: TokenStream, at: &str, index: &str, param: &str| {
        let at = quote::format_ident!("{at}");
        let index = quote::format_ident!("{index}");
        let param = quote::format_ident!("{param}");
        let method = write_at(quote!(#at), quote!(#param));
        let body = dispatch(quote!(#at), Some(quote!(#param)));
        quote! {
            impl armreg_rt::array::#trait_name for #name {
                #method
                #[inline(always)]
                #[cfg_attr(not(target_arch = #arch), track_caller)]
                fn #index(n: usize, #param: #value) {
                    #body
                }
            }
        }
    };
    let writable = match &reg.access {
        RegAccess::Rw | RegAccess::Wo => Some(writer(
            quote!(WriteElement),
            "write_at",
            "write_index",
            "value",
        )),
        RegAccess::Set { .. } => Some(writer(quote!(SetElement), "set_at", "set_index", "mask")),
        RegAccess::Clear { .. } => Some(writer(
            quote!(ClearElement),
            "clear_at",
            "clear_index",
            "mask",
        )),
        RegAccess::Ro => None,
    };
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        pub struct #name;

        impl #name {
            /// The number of registers in the array.
            pub const COUNT: usize = #count_lit;

            /// The encoding of element `n`, if there is one.
            pub const fn path(n: usize) -> Option<armreg_rt::SysRegPath> {
                if n < Self::COUNT {
                    Some(Self::element_path(n))
                } else {
                    None
                }
            }

            /// The encoding of element `n` (`n < COUNT`).
            #[allow(dead_code, reason = "only the host's accessors use it")]
            const fn element_path(n: usize) -> armreg_rt::SysRegPath {
                #path
            }

            /// Element `N`, checked when the program is compiled: one instruction.
            #[inline(always)]
            pub const fn at<const N: usize>(self) -> armreg_rt::array::Element<Self, N> {
                armreg_rt::array::Element::new(self)
            }

            /// Element `n`, or an error if there is none.
            #[inline(always)]
            pub const fn try_at(
                self,
                n: usize,
            ) -> Result<armreg_rt::array::Indexed<Self>, armreg_rt::IndexOutOfRange> {
                armreg_rt::array::Indexed::new(self, n)
            }
        }

        impl armreg_rt::array::SysRegArray for #name {
            type Layout = crate::#layout_ty;
            type Access = armreg_rt::access::#access;
            const COUNT: usize = #count_lit;
            const NAME: &'static str = #reg_name;
        }

        #readable
        #writable
    }
}

/// The parts of an array's element access that depend on its encoding: the element's path as a
/// `const fn` body over `n`, and the instructions for element `N` with its index part as
/// assembler constants.
struct ElementAsm {
    path: TokenStream,
    read: TokenStream,
    write: TokenStream,
}

impl ElementAsm {
    fn of(path: SysRegPath) -> Self {
        let opts = quote!(options(nostack, preserves_flags));
        let safety_read = super::tokens::safety(
            "this reads one system register, element N < COUNT of the array (checked where the\n\
             element was made), into a register operand: it touches no memory and no stack\n\
             (`nostack`) and leaves the flags alone (`preserves_flags`).",
        );
        let safety_write = super::tokens::safety(
            "this writes one system register, element N < COUNT of the array, from a register\n\
             operand: it touches no memory and no stack and leaves the flags alone; its effects\n\
             are the architectural ones this register's documentation states.",
        );
        match path {
            SysRegPath::A64 {
                op0,
                op1,
                crn,
                crm,
                op2,
            } => {
                let key = (u64::from(crm) << 3) | u64::from(op2);
                let (index_n, index_const) = indexed(key);
                let read = format!("mrs {{raw}}, S{op0}_{op1}_C{crn}_C{{crm}}_{{op2}}");
                let write = format!("msr S{op0}_{op1}_C{crn}_C{{crm}}_{{op2}}, {{raw}}");
                let [op0, op1, crn] = [op0, op1, crn].map(|v| unsuffixed(v.into()));
                let index = quote!(crm = const #index_const >> 3, op2 = const #index_const & 7);
                let path = quote! {
                    armreg_rt::SysRegPath::A64 {
                        op0: #op0, op1: #op1, crn: #crn,
                        crm: (#index_n >> 3) as u8, op2: (#index_n & 7) as u8,
                    }
                };
                one_word(
                    path,
                    [&read, &write],
                    &index,
                    quote!(u64),
                    [safety_read, safety_write],
                )
            }
            SysRegPath::A32 {
                coproc,
                opc1,
                crn,
                crm,
                opc2,
            } => {
                let key = (u64::from(crm) << 3) | u64::from(opc2);
                let (index_n, index_const) = indexed(key);
                let read = format!("mrc p{coproc}, {opc1}, {{raw}}, c{crn}, c{{crm}}, {{opc2}}");
                let write = format!("mcr p{coproc}, {opc1}, {{raw}}, c{crn}, c{{crm}}, {{opc2}}");
                let [coproc, opc1, crn] = [coproc, opc1, crn].map(|v| unsuffixed(v.into()));
                let index = quote!(crm = const #index_const >> 3, opc2 = const #index_const & 7);
                let path = quote! {
                    armreg_rt::SysRegPath::A32 {
                        coproc: #coproc, opc1: #opc1, crn: #crn,
                        crm: (#index_n >> 3) as u8, opc2: (#index_n & 7) as u8,
                    }
                };
                one_word(
                    path,
                    [&read, &write],
                    &index,
                    quote!(u32),
                    [safety_read, safety_write],
                )
            }
            SysRegPath::A32Wide { coproc, opc1, crm } => {
                let read = format!("mrrc p{coproc}, {opc1}, {{lo}}, {{hi}}, c{{crm}}");
                let write = format!("mcrr p{coproc}, {opc1}, {{lo}}, {{hi}}, c{{crm}}");
                let [coproc, opc1, crm] = [coproc, opc1, crm].map(|v| unsuffixed(v.into()));
                let index = quote!(crm = const #crm + N);
                ElementAsm {
                    path: quote! {
                        armreg_rt::SysRegPath::A32Wide {
                            coproc: #coproc, opc1: #opc1, crm: (#crm + n) as u8,
                        }
                    },
                    read: quote! {{
                        let (lo, hi): (u32, u32);
                        #safety_read
                        unsafe { core::arch::asm!(#read, lo = out(reg) lo, hi = out(reg) hi, #index, #opts); }
                        (u64::from(hi) << 32) | u64::from(lo)
                    }},
                    write: quote! {
                        #safety_write
                        unsafe {
                            core::arch::asm!(#write, lo = in(reg) raw as u32, hi = in(reg) (raw >> 32) as u32, #index, #opts);
                        }
                    },
                }
            }
        }
    }
}

/// An element accessed through one register operand (`mrs`/`msr`, `mrc`/`mcr`) of type `word`:
/// its instructions with the index operands, the read widened to `u64`, the write narrowed.
fn one_word(
    path: TokenStream,
    [read, write]: [&String; 2],
    index: &TokenStream,
    word: TokenStream,
    [safety_read, safety_write]: [TokenStream; 2],
) -> ElementAsm {
    let opts = quote!(options(nostack, preserves_flags));
    // A 32-bit transfer widens and narrows; a 64-bit one is the value itself (clippy would call
    // `u64::from(u64)` useless).
    let (widened, narrowed) = if word.to_string() == "u64" {
        (quote!(raw), quote!(raw))
    } else {
        (quote!(u64::from(raw)), quote!(raw as #word))
    };
    ElementAsm {
        path,
        read: quote! {{
            let raw: #word;
            #safety_read
            unsafe { core::arch::asm!(#read, raw = out(reg) raw, #index, #opts); }
            #widened
        }},
        write: quote! {
            #safety_write
            unsafe { core::arch::asm!(#write, raw = in(reg) #narrowed, #index, #opts); }
        },
    }
}

/// The CRm:op2 value of element `n` (`N` as a const generic) of an array whose element 0 is at
/// `key`: `(key + n)`, or `n` alone for an array at 0 (clippy's `identity_op`).
fn indexed(key: u64) -> (proc_macro2::TokenStream, proc_macro2::TokenStream) {
    if key == 0 {
        (quote!(n), quote!(N))
    } else {
        let key = unsuffixed(key);
        (quote!((#key + n)), quote!((#key + N)))
    }
}
