//! Value types: one `Copy` newtype per layout, with getters, setters and builders per field, enums
//! for enumerated fields, and `RESET`/`RES0`/`RES1` constants.
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::doc;
use super::tokens::{hex, ident, uint_type, unsuffixed};
use crate::ir::{
    bit_range_mask, EnumUsage, EnumValue, Field, FieldAccess, Layout, WriteConstraint,
};
use crate::names::Case;

/// The Rust type name of a layout's value type.
pub fn type_name(layout: &Layout) -> Ident {
    ident(&layout.name, Case::Camel)
}

/// The module holding a layout's enums.
fn enum_module(layout: &Layout) -> Ident {
    ident(&layout.name, Case::Snake)
}

/// Tokens for every layout of a device.
pub fn layouts(layouts: &[Layout]) -> TokenStream {
    layouts.iter().map(layout).collect()
}

fn layout(layout: &Layout) -> TokenStream {
    let name = type_name(layout);
    let raw = uint_type(layout.width);
    let res0 = mask_of(layout, FieldAccess::Res0);
    let res1 = mask_of(layout, FieldAccess::Res1);
    let res0_lit = hex(res0);
    let res1_lit = hex(res1);
    let struct_doc = struct_doc(layout);
    let reset = reset_value(layout).map(|value| {
        let lit = hex(value);
        quote! {
            /// The value at reset.
            pub const RESET: Self = Self(#lit);
        }
    });
    let accessors: TokenStream = layout
        .fields
        .iter()
        .map(|f| field_accessors(layout, f))
        .collect();
    let debug_fields: TokenStream = layout
        .fields
        .iter()
        .filter(|f| f.access.readable())
        .map(|f| {
            let getter = ident(&f.name, Case::Snake);
            let label = getter.to_string();
            quote! { .field(#label, &self.#getter()) }
        })
        .collect();
    let debug_name = name.to_string();
    let enums = enums(layout);
    quote! {
        #[doc = #struct_doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(transparent)]
        pub struct #name(#raw);

        impl #name {
            /// Bits reserved as zero: constructors keep them clear.
            pub const RES0: #raw = #res0_lit;
            /// Bits reserved as one: constructors keep them set.
            pub const RES1: #raw = #res1_lit;
            /// Every field zero, reserved-one bits set.
            pub const DEFAULT: Self = Self(Self::RES1);
            #reset

            /// A value from raw bits, with reserved bits forced to their reserved values.
            #[inline(always)]
            pub const fn from_bits(bits: #raw) -> Self {
                Self((bits & !Self::RES0) | Self::RES1)
            }

            /// A value from raw bits, every bit kept (as read from hardware).
            #[inline(always)]
            pub const fn from_bits_retain(bits: #raw) -> Self {
                Self(bits)
            }

            /// The raw bits.
            #[inline(always)]
            pub const fn bits(self) -> #raw {
                self.0
            }

            #accessors
        }

        impl Default for #name {
            #[inline(always)]
            fn default() -> Self {
                Self::DEFAULT
            }
        }

        impl armreg_rt::RegisterValue for #name {
            type Raw = #raw;
            #[inline(always)]
            fn from_raw(raw: #raw) -> Self {
                Self(raw)
            }
            #[inline(always)]
            fn to_raw(self) -> #raw {
                self.0
            }
        }

        impl core::fmt::Debug for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(#debug_name) #debug_fields .finish()
            }
        }

        #enums
    }
}

fn mask_of(layout: &Layout, access: FieldAccess) -> u64 {
    crate::backend::reset::reserved(layout, access)
}

/// The layout's reset, when every bit of it is described (see `backend::reset`).
fn reset_value(layout: &Layout) -> Option<u64> {
    crate::backend::reset::value(layout)
}

fn struct_doc(layout: &Layout) -> String {
    let mut text = doc::paragraphs(&[
        layout.doc.as_deref().map(doc::escape),
        layout
            .reset_mask
            .filter(|m| *m != bit_range_mask(0, layout.width))
            .map(|m| {
                format!(
                "Reset value {:#x} with reset mask {m:#x}: the other bits are undefined at reset.",
                layout.reset.unwrap_or(0)
            )
            }),
        Some(format!(
            "Width: {} bits.{}",
            layout.width,
            layout
                .derive
                .as_ref()
                .map(|d| format!(" Derived from {}.", doc::code(&d.base.name)))
                .unwrap_or_default()
        )),
        layout
            .source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ]);
    // The diagram is raw HTML: a `<div>` at the start of a line opens an HTML block that markdown
    // passes through untouched up to the next blank line, and the SVG has none.
    text.push_str(&format!(
        "\n\n<div class=\"register-diagram\">\n{}\n</div>",
        crate::backend::diagram::svg(layout)
    ));
    if !layout.fields.is_empty() {
        text.push_str(
            "\n\n| Bits | Field | Access | Reset | Description |\n|---|---|---|---|---|\n",
        );
        for f in layout.fields.iter().rev() {
            text.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                doc::bits(f),
                if f.is_reserved() {
                    "-".to_string()
                } else {
                    doc::code(&f.name)
                },
                doc::access(f.access),
                f.reset.map_or("-".to_string(), |r| format!("{r:#x}")),
                doc::summary(f.doc.as_deref()),
            ));
        }
    }
    text
}

fn field_doc(layout: &Layout, f: &Field) -> String {
    doc::paragraphs(&[
        Some(format!(
            "{}: {}",
            doc::code(&f.name),
            f.doc.as_deref().map(doc::escape).unwrap_or_default()
        )),
        Some(format!(
            "Bits {} of {}, {}. Reset: {}.",
            doc::bits(f),
            doc::code(&layout.name),
            doc::access(f.access),
            f.reset
                .map_or("not described".to_string(), |r| format!("{r:#x}")),
        )),
        f.read_action
            .map(|a| format!("Reading has a side effect: {}.", doc::read_action(a))),
        f.write_constraint.map(|c| match c {
            WriteConstraint::Enumerated => "Only the enumerated values may be written.".to_string(),
            WriteConstraint::Range { min, max } => {
                format!("Only values from {min:#x} to {max:#x} may be written.")
            }
            WriteConstraint::LastRead => "Only the value last read may be written.".to_string(),
        }),
        f.enum_default
            .as_deref()
            .map(|d| format!("Values not listed are called {}.", doc::code(d))),
        f.source
            .as_deref()
            .map(|s| format!("Source: {}", doc::escape(s))),
    ])
}

/// The values a field's enum is made of, and whether the getter and the setter use it: values
/// that are only read, or only written (SVD `usage`), cannot serve both directions, and the other
/// direction then takes the plain integer.
fn enum_values(f: &Field) -> (Vec<&EnumValue>, bool, bool) {
    let read: Vec<&EnumValue> = f
        .enums
        .iter()
        .filter(|e| e.usage != EnumUsage::Write)
        .collect();
    if read.is_empty() {
        return (f.enums.iter().collect(), false, !f.enums.is_empty());
    }
    let both = f.enums.iter().all(|e| e.usage == EnumUsage::ReadWrite);
    (read, true, both)
}

/// The Rust type a field's value has, and whether it is an enum.
fn field_type(layout: &Layout, f: &Field, use_enum: bool) -> (TokenStream, FieldKind) {
    if use_enum {
        let module = enum_module(layout);
        let ty = ident(&f.name, Case::Camel);
        let kind = if exhaustive(f) {
            FieldKind::TotalEnum
        } else {
            FieldKind::PartialEnum
        };
        (quote!(#module::#ty), kind)
    } else if f.width == 1 {
        (quote!(bool), FieldKind::Bool)
    } else {
        (uint_type(f.width), FieldKind::Int)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FieldKind {
    Bool,
    Int,
    TotalEnum,
    PartialEnum,
}

fn exhaustive(f: &Field) -> bool {
    f.width < 16 && enum_values(f).0.len() as u64 == 1u64 << f.width
}

fn field_accessors(layout: &Layout, f: &Field) -> TokenStream {
    if !(f.access.readable() || f.access.writable()) {
        return TokenStream::new();
    }
    let raw = uint_type(layout.width);
    let field_raw = uint_type(f.width.max(2));
    let (_, enum_read, enum_write) = enum_values(f);
    let getter = ident(&f.name, Case::Snake);
    let doc = field_doc(layout, f);
    let lsb = f.lsb;
    let full = f.width == layout.width;
    let ones = hex(bit_range_mask(0, f.width));
    let mask_in_place = hex(f.mask());

    let lsb = unsuffixed(u64::from(lsb));
    // The field's bits moved down to bit 0, as the register's integer type. Each expression is
    // built without outer parentheses; operands get them where precedence needs them.
    let shifted = if f.lsb == 0 {
        quote!(self.0)
    } else {
        quote!(self.0 >> #lsb)
    };
    let extracted = if full {
        shifted
    } else {
        quote!((#shifted) & #ones)
    };
    let same_type = field_raw.to_string() == raw.to_string();
    // ... as the field's integer type.
    let as_field = if same_type {
        extracted.clone()
    } else {
        quote!((#extracted) as #field_raw)
    };

    let mut out = TokenStream::new();
    if f.access.readable() {
        let (ty, kind) = field_type(layout, f, enum_read);
        let body = match kind {
            FieldKind::Bool => quote!((#extracted) != 0),
            FieldKind::Int => as_field.clone(),
            FieldKind::TotalEnum => quote!(#ty::from_bits(#as_field)),
            FieldKind::PartialEnum => quote!(#ty::try_from_bits(#as_field)),
        };
        let ret = match kind {
            FieldKind::PartialEnum => quote!(Result<#ty, #field_raw>),
            _ => ty.clone(),
        };
        out.extend(quote! {
            #[doc = #doc]
            #[inline(always)]
            pub const fn #getter(self) -> #ret {
                #body
            }
        });
    }
    if f.access.writable() {
        let (ty, kind) = field_type(layout, f, enum_write);
        let setter = format_ident!("set_{}", getter.to_string().trim_start_matches("r#"));
        let builder = format_ident!("with_{}", getter.to_string().trim_start_matches("r#"));
        // The new value as the register's integer type, confined to the field's width.
        let value_raw = match kind {
            FieldKind::Bool => quote!(value as #raw),
            FieldKind::Int => {
                let widened = if same_type {
                    quote!(value)
                } else {
                    quote!(value as #raw)
                };
                if full {
                    widened
                } else {
                    quote!((#widened) & #ones)
                }
            }
            FieldKind::TotalEnum | FieldKind::PartialEnum => {
                if same_type {
                    quote!(value.bits())
                } else {
                    quote!(value.bits() as #raw)
                }
            }
        };
        let placed = if f.lsb == 0 {
            value_raw
        } else {
            quote!((#value_raw) << #lsb)
        };
        let assign = if full {
            quote!(self.0 = #placed;)
        } else {
            quote!(self.0 = (self.0 & !#mask_in_place) | (#placed);)
        };
        let truncation = match kind {
            FieldKind::Int if !full => " Bits of `value` above the field's width are ignored.",
            _ => "",
        };
        let set_doc = format!("Sets {}.{truncation}", doc::code(&f.name));
        let with_doc = format!(
            "Returns the value with {} set.{truncation}",
            doc::code(&f.name)
        );
        out.extend(quote! {
            #[doc = #set_doc]
            #[inline(always)]
            pub const fn #setter(&mut self, value: #ty) {
                #assign
            }

            #[doc = #with_doc]
            #[inline(always)]
            #[must_use]
            pub const fn #builder(mut self, value: #ty) -> Self {
                self.#setter(value);
                self
            }
        });
    }
    out
}

/// The enums of a layout's fields, in a module named after the layout.
fn enums(layout: &Layout) -> TokenStream {
    let defs: TokenStream = layout
        .fields
        .iter()
        .filter(|f| !f.enums.is_empty() && (f.access.readable() || f.access.writable()))
        .map(|f| field_enum(layout, f))
        .collect();
    if defs.is_empty() {
        return defs;
    }
    let module = enum_module(layout);
    let module_doc = format!("Enumerated field values of {}.", doc::code(&layout.name));
    quote! {
        #[doc = #module_doc]
        pub mod #module {
            #defs
        }
    }
}

fn field_enum(layout: &Layout, f: &Field) -> TokenStream {
    let name = ident(&f.name, Case::Camel);
    let repr = uint_type(f.width.max(2));
    let doc = format!(
        "Values of {} (bits {} of {}).",
        doc::code(&f.name),
        doc::bits(f),
        doc::code(&layout.name)
    );
    let mut variants = enum_values(f).0;
    variants.sort_by_key(|e| e.value);
    let defs: TokenStream = variants
        .iter()
        .map(|e| {
            let v = ident(&e.name, Case::Camel);
            let lit = hex(e.value);
            let d = doc::paragraphs(&[
                e.doc.as_deref().map(doc::escape),
                e.source
                    .as_deref()
                    .map(|s| format!("Source: {}", doc::escape(s))),
            ]);
            quote! { #[doc = #d] #v = #lit, }
        })
        .collect();
    let arms: Vec<TokenStream> = variants
        .iter()
        .map(|e| {
            let v = ident(&e.name, Case::Camel);
            let lit = hex(e.value);
            quote! { #lit => Self::#v, }
        })
        .collect();
    let conversion = if let (true, Some((_, rest)), Some(last)) =
        (exhaustive(f), arms.split_last(), variants.last())
    {
        // The last value takes the wildcard arm: the match is total without a panic path.
        let last_variant = ident(&last.name, Case::Camel);
        let field_mask = hex(bit_range_mask(0, f.width));
        quote! {
            /// The value for `bits` (only the field's width is looked at).
            #[inline(always)]
            pub const fn from_bits(bits: #repr) -> Self {
                match bits & #field_mask {
                    #(#rest)*
                    _ => Self::#last_variant,
                }
            }
        }
    } else {
        let ok_arms: TokenStream = variants
            .iter()
            .map(|e| {
                let v = ident(&e.name, Case::Camel);
                let lit = hex(e.value);
                quote! { #lit => Ok(Self::#v), }
            })
            .collect();
        quote! {
            /// The value for `bits`, or the bits themselves if no value has them.
            #[inline(always)]
            pub const fn try_from_bits(bits: #repr) -> Result<Self, #repr> {
                match bits {
                    #ok_arms
                    other => Err(other),
                }
            }
        }
    };
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(#repr)]
        pub enum #name {
            #defs
        }

        impl #name {
            #conversion

            /// The field bits of this value.
            #[inline(always)]
            pub const fn bits(self) -> #repr {
                self as #repr
            }
        }
    }
}
