//! Small token builders shared by the Rust backend's modules.
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::code;
use crate::names::Case;

/// The identifier for `name` (see `code::name`).
pub fn ident(name: &str, case: Case) -> Ident {
    Ident::new(&code::name(name, case), Span::call_site())
}

/// The smallest unsigned integer type holding `bits` bits.
pub fn uint_type(bits: u32) -> TokenStream {
    let ty = Ident::new(code::uint(bits), Span::call_site());
    quote!(#ty)
}

/// A hexadecimal literal, grouped in fours past 16 bits (see `code::hex`).
pub fn hex(value: u64) -> syn::LitInt {
    syn::LitInt::new(&code::hex(value), Span::call_site())
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
