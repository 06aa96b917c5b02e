//! System registers: one zero-sized type per register whose accessors compile to one `mrs`/`msr`
//! (`mrc`/`mcr`, `mrrc`/`mcrr`) on the target that has the instruction, and call the
//! `armreg_rt::host` hook everywhere else.
use proc_macro2::TokenStream;
use quote::quote;

use super::doc;
use super::layout::type_name;
use super::sysreg_methods;
use super::tokens::{ident, unsuffixed};
use crate::ir::{Device, Layout, PathExt, RegAccess, SysReg, SysRegPath};
use crate::names::Case;

/// Which module a system register goes to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum State {
    AArch64,
    AArch32,
}

pub fn state_of(path: SysRegPath) -> State {
    match path {
        SysRegPath::A64 { .. } => State::AArch64,
        SysRegPath::A32 { .. } | SysRegPath::A32Wide { .. } => State::AArch32,
    }
}

/// Tokens for every system register of `device` in `state`.
pub fn sysregs(device: &Device, state: State) -> TokenStream {
    device
        .sysregs
        .iter()
        .filter(|r| state_of(r.path) == state)
        .filter_map(|r| device.layout(&r.layout.name).map(|l| sysreg(r, l)))
        .collect()
}

/// The instruction text and operands that read or write one encoding.
struct Asm {
    read: TokenStream,
    write: TokenStream,
}

/// Inline assembly reading into / writing from a `u64` named `raw`.
fn asm(path: SysRegPath) -> Asm {
    let opts = quote!(options(nostack, preserves_flags));
    let safety_read = super::tokens::safety(
        "this reads one system register into a register operand: it touches no memory and no\n\
         stack (`nostack`) and leaves the flags alone (`preserves_flags`); the instruction is only\n\
         compiled for the target state that has it, and the description says the register exists\n\
         wherever this crate applies (a register the current exception level may not read traps,\n\
         which is not undefined behaviour).",
    );
    let safety_write = super::tokens::safety(
        "this writes one system register from a register operand: it touches no memory and no\n\
         stack and leaves the flags alone; its effects are the architectural ones this register's\n\
         documentation states, none of which change memory the compiler knows about.",
    );
    match path {
        SysRegPath::A64 { .. } => {
            let read = format!("mrs {{}}, {path}");
            let write = format!("msr {path}, {{}}");
            Asm {
                read: quote! {{
                    let raw: u64;
                    #safety_read
                    unsafe { core::arch::asm!(#read, out(reg) raw, #opts) };
                    raw
                }},
                write: quote! {
                    #safety_write
                    unsafe { core::arch::asm!(#write, in(reg) raw, #opts) };
                },
            }
        }
        SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm,
            opc2,
        } => {
            let read = format!("mrc p{coproc}, {opc1}, {{}}, c{crn}, c{crm}, {opc2}");
            let write = format!("mcr p{coproc}, {opc1}, {{}}, c{crn}, c{crm}, {opc2}");
            Asm {
                read: quote! {{
                    let raw: u32;
                    #safety_read
                    unsafe { core::arch::asm!(#read, out(reg) raw, #opts) };
                    u64::from(raw)
                }},
                write: quote! {
                    #safety_write
                    unsafe { core::arch::asm!(#write, in(reg) raw as u32, #opts) };
                },
            }
        }
        SysRegPath::A32Wide { coproc, opc1, crm } => {
            let read = format!("mrrc p{coproc}, {opc1}, {{}}, {{}}, c{crm}");
            let write = format!("mcrr p{coproc}, {opc1}, {{}}, {{}}, c{crm}");
            Asm {
                read: quote! {{
                    let (lo, hi): (u32, u32);
                    #safety_read
                    unsafe { core::arch::asm!(#read, out(reg) lo, out(reg) hi, #opts) };
                    (u64::from(hi) << 32) | u64::from(lo)
                }},
                write: quote! {
                    #safety_write
                    unsafe { core::arch::asm!(#write, in(reg) raw as u32, in(reg) (raw >> 32) as u32, #opts) };
                },
            }
        }
    }
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
        format!(
            "An array of {c} registers; element n adds n to the CRm:op2 part of the encoding of element 0."
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
        reg.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ])
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

fn sysreg(reg: &SysReg, layout: &Layout) -> TokenStream {
    match reg.count {
        Some(count) => array(reg, layout, count),
        None => single(reg, layout),
    }
}

fn reads(reg: &SysReg) -> bool {
    !matches!(reg.access, RegAccess::Wo)
}

fn writes(reg: &SysReg) -> bool {
    !matches!(reg.access, RegAccess::Ro)
}

fn single(reg: &SysReg, layout: &Layout) -> TokenStream {
    let name = ident(&reg.name, Case::Verbatim);
    let doc = register_doc(reg, layout);
    let arch = target_arch(reg.path);
    let path = path_tokens(reg.path);
    let Asm { read, write } = asm(reg.path);
    let read_raw = reads(reg).then(|| {
        quote! {
            #[inline(always)]
            fn read_raw() -> u64 {
                #[cfg(target_arch = #arch)]
                #read
                #[cfg(not(target_arch = #arch))]
                {
                    armreg_rt::host::read(Self::PATH)
                }
            }
        }
    });
    let write_raw = writes(reg).then(|| {
        quote! {
            #[inline(always)]
            fn write_raw(raw: u64) {
                #[cfg(target_arch = #arch)]
                {
                    #write
                }
                #[cfg(not(target_arch = #arch))]
                {
                    armreg_rt::host::write(Self::PATH, raw);
                }
            }
        }
    });
    let methods = sysreg_methods::methods(reg, layout, sysreg_methods::Flavor::Single);
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct #name;

        impl #name {
            /// The register's encoding.
            pub const PATH: armreg_rt::SysRegPath = #path;

            #read_raw
            #write_raw
            #methods
        }
    }
}

fn array(reg: &SysReg, layout: &Layout, count: u32) -> TokenStream {
    let name = ident(&reg.name, Case::Verbatim);
    let doc = register_doc(reg, layout);
    let arch = target_arch(reg.path);
    let count_lit = unsuffixed(count.into());
    let elements: Vec<(proc_macro2::Literal, SysRegPath)> = (0..count)
        .filter_map(|n| reg.path.element(n).map(|p| (unsuffixed(n.into()), p)))
        .collect();
    let path_arms: TokenStream = elements
        .iter()
        .map(|(n, p)| {
            let t = path_tokens(*p);
            quote!(#n => Some(#t),)
        })
        .collect();
    let read_arms: TokenStream = elements
        .iter()
        .map(|(n, p)| {
            let r = asm(*p).read;
            quote!(#n => #r,)
        })
        .collect();
    let write_arms: TokenStream = elements
        .iter()
        .map(|(n, p)| {
            let w = asm(*p).write;
            quote!(#n => { #w })
        })
        .collect();
    // Out-of-range indices never reach these functions (the public methods check first, the
    // const-index ones at compile time), so their fallback arms are dead code.
    let read_raw = reads(reg).then(|| {
        quote! {
            #[inline(always)]
            fn read_raw(n: usize) -> u64 {
                #[cfg(target_arch = #arch)]
                {
                    match n {
                        #read_arms
                        _ => 0,
                    }
                }
                #[cfg(not(target_arch = #arch))]
                {
                    match Self::path(n) {
                        Some(path) => armreg_rt::host::read(path),
                        None => 0,
                    }
                }
            }
        }
    });
    let write_raw = writes(reg).then(|| {
        quote! {
            #[inline(always)]
            fn write_raw(n: usize, raw: u64) {
                #[cfg(target_arch = #arch)]
                {
                    match n {
                        #write_arms
                        _ => {}
                    }
                }
                #[cfg(not(target_arch = #arch))]
                {
                    if let Some(path) = Self::path(n) {
                        armreg_rt::host::write(path, raw);
                    }
                }
            }
        }
    });
    let element_methods = sysreg_methods::methods(reg, layout, sysreg_methods::Flavor::Element);
    let checked = sysreg_methods::methods(reg, layout, sysreg_methods::Flavor::Checked);
    let const_methods = sysreg_methods::methods(reg, layout, sysreg_methods::Flavor::ConstIndex);
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct #name;

        impl #name {
            /// The number of registers in the array.
            pub const COUNT: usize = #count_lit;

            /// The encoding of element `n`, if there is one.
            pub const fn path(n: usize) -> Option<armreg_rt::SysRegPath> {
                match n {
                    #path_arms
                    _ => None,
                }
            }

            #read_raw
            #write_raw
        }

        /// Element access with the index checked at compile time: one instruction each.
        impl #name {
            #const_methods
        }

        /// Element access with the index checked at run time.
        impl #name {
            #checked
        }

        impl #name {
            #element_methods
        }
    }
}
