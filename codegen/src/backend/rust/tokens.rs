//! Small token builders shared by the Rust backend's modules.
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::names::{self, Case};

/// The identifier for `name` (names were checked by `names_are_identifiers` before any backend
/// runs, so the fallback is never expected to be seen).
pub fn ident(name: &str, case: Case) -> Ident {
    let text = names::ident(name, case).unwrap_or_else(|_| "__invalid_name".to_string());
    Ident::new(&text, Span::call_site())
}

/// The smallest unsigned integer type holding `bits` bits.
pub fn uint_type(bits: u32) -> TokenStream {
    match bits {
        0..=8 => quote!(u8),
        9..=16 => quote!(u16),
        17..=32 => quote!(u32),
        _ => quote!(u64),
    }
}

/// A hexadecimal literal, grouped in fours past 16 bits for readability.
pub fn hex(value: u64) -> syn::LitInt {
    let digits = format!("{value:x}");
    let text = if digits.len() > 4 {
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 4 == 0 {
                grouped.push('_');
            }
            grouped.push(c);
        }
        format!("0x{grouped}")
    } else {
        format!("0x{digits}")
    };
    syn::LitInt::new(&text, Span::call_site())
}

/// An integer literal without a type suffix.
pub fn unsuffixed(value: u64) -> proc_macro2::Literal {
    proc_macro2::Literal::u64_unsuffixed(value)
}
