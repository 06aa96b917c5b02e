//! Parsing the macro input: an enum-like item whose variants are `NAME = CODE` with doc comments.
//!
//! ```text
//! #[pmu = pmuv3p1]                   // settings (see options.rs); other attributes pass through
//! pub enum Name {
//!     /// Description
//!     INST_RETIRED = 0x08,
//!     "NOT-AN-IDENT" = 0x09,         // a string name (function-like form only), checked later
//! }
//! ```
use super::options::{is_setting, Options};
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{braced, Attribute, Expr, ExprLit, Ident, Lit, LitInt, LitStr, Meta, Token, Visibility};

/// The parsed input of either macro form.
pub(crate) struct EventSetInput {
    /// Attributes to put on the generated enum (everything but the settings).
    pub(crate) attrs: Vec<Attribute>,
    pub(crate) vis: Visibility,
    pub(crate) name: Ident,
    pub(crate) options: Options,
    pub(crate) events: Vec<Declared>,
}

/// One event written in the macro input.
pub(crate) struct Declared {
    /// The name as written (an identifier's text, or a string literal's value).
    pub(crate) name: String,
    pub(crate) name_span: Span,
    /// `None` in a set of a core's events (`core = ...`), whose data gives the codes.
    pub(crate) code: Option<LitInt>,
    /// The doc comments, re-emitted on the variant.
    pub(crate) docs: Vec<Attribute>,
}

impl Declared {
    /// The doc comment text: lines trimmed, joined with newlines.
    pub(crate) fn description(&self) -> String {
        let lines: Vec<String> = self.docs.iter().filter_map(doc_text).collect();
        lines
            .iter()
            .map(|l| l.trim())
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string()
    }
}

fn doc_text(attr: &Attribute) -> Option<String> {
    match &attr.meta {
        Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

impl Parse for EventSetInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let all_attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        input.parse::<Token![enum]>()?;
        let name: Ident = input.parse()?;
        let body;
        braced!(body in input);
        let mut events = Vec::new();
        while !body.is_empty() {
            events.push(body.parse()?);
            if body.is_empty() {
                break;
            }
            body.parse::<Token![,]>()?;
        }
        let mut options = Options::default();
        let mut attrs = Vec::new();
        for attr in all_attrs {
            if !is_setting(&attr.meta) {
                attrs.push(attr);
                continue;
            }
            match &attr.meta {
                Meta::NameValue(nv) => options.apply(nv)?,
                other => {
                    return Err(syn::Error::new_spanned(
                        other,
                        "expected `#[key = value]`, e.g. `#[pmu = pmuv3p1]`",
                    ))
                }
            }
        }
        Ok(Self {
            attrs,
            vis,
            name,
            options,
            events,
        })
    }
}

impl Parse for Declared {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let docs = input.call(Attribute::parse_outer)?;
        if let Some(other) = docs.iter().find(|a| doc_text(a).is_none()) {
            return Err(syn::Error::new_spanned(
                other,
                "only doc comments (the event's description) may be put on an event",
            ));
        }
        // Keywords are accepted here so that the name check can say what is wrong with them.
        let (name, name_span) = if input.peek(LitStr) {
            let s: LitStr = input.parse()?;
            (s.value(), s.span())
        } else {
            let ident = input.call(Ident::parse_any)?;
            (ident.to_string(), ident.span())
        };
        let code = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse::<LitInt>()?)
        } else {
            None
        };
        Ok(Self {
            name,
            name_span,
            code,
            docs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn splits_settings_from_attributes_and_reads_events() {
        let input: EventSetInput = syn::parse2(quote! {
            /// The set.
            #[pmu = pmuv3p1]
            #[json = "a.json"]
            #[derive(Default)]
            pub(crate) enum Set {
                /// Instruction
                ///   architecturally executed
                INST_RETIRED = 0x08,
                "L1D-CACHE" = 4,
                type = 0x11
            }
        })
        .unwrap();
        assert_eq!(input.attrs.len(), 2);
        assert_eq!(input.name, "Set");
        assert_eq!(input.options.pmu, pmu_events::Pmu::PmuV3p1);
        assert_eq!(input.options.json.len(), 1);
        let names: Vec<_> = input.events.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["INST_RETIRED", "L1D-CACHE", "type"]);
        assert_eq!(
            input.events[0].description(),
            "Instruction\narchitecturally executed"
        );
        assert_eq!(input.events[1].description(), "");
    }

    #[test]
    fn rejects_malformed_input() {
        for (tokens, message) in [
            (
                quote!(
                    enum E {
                        #[cfg(x)]
                        A = 1,
                    }
                ),
                "only doc comments (the event's description) may be put on an event",
            ),
            (
                quote!(
                    enum E {
                        A = "1",
                    }
                ),
                "expected integer literal",
            ),
            (quote!(enum E { A = 1 B = 2 }), "expected `,`"),
            (
                quote!(
                    #[pmu(dsu)]
                    enum E {
                        A = 1,
                    }
                ),
                "expected `#[key = value]`, e.g. `#[pmu = pmuv3p1]`",
            ),
            (
                quote!(
                    struct E;
                ),
                "expected `enum`",
            ),
        ] {
            let err = syn::parse2::<EventSetInput>(tokens)
                .err()
                .expect("should be rejected");
            assert_eq!(err.to_string(), message);
        }
    }
}
