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

/// A `// SAFETY: text` comment before the statement that follows. `quote` and `prettyplease`
/// drop comments, so this is a marker statement that `format` turns into the comment after
/// formatting; it must be followed by the statement holding the `unsafe` block.
pub fn safety(text: &str) -> TokenStream {
    quote!(__safety!(#text);)
}

/// Replaces every marker statement `safety` emitted with its `// SAFETY:` comment lines, at the
/// statement's indentation.
pub fn safety_comments(formatted: &str) -> String {
    let mut out = String::with_capacity(formatted.len());
    let mut lines = formatted.lines();
    while let Some(line) = lines.next() {
        let code = line.trim_start();
        let Some(rest) = code.strip_prefix("__safety!(") else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        // prettyplease may break the call over lines: gather it up to its `);`.
        let mut call = rest.to_string();
        while !call.trim_end().ends_with(");") {
            match lines.next() {
                Some(next) => call.push_str(next.trim()),
                None => break,
            }
        }
        let lit = call.trim_end().trim_end_matches(");").trim();
        let indent = &line[..line.len() - code.len()];
        let text = syn::parse_str::<syn::LitStr>(lit)
            .map(|l| l.value())
            .unwrap_or_else(|_| lit.to_string());
        for (i, part) in text.lines().enumerate() {
            let lead = if i == 0 { "SAFETY: " } else { "" };
            out.push_str(&format!("{indent}// {lead}{}\n", part.trim()));
        }
    }
    out
}
