//! The expansion, as plain functions over `proc_macro2` tokens (the `#[proc_macro]` layer in
//! `lib.rs` only converts tokens), so that it is unit-tested without a compiler.
//!
//! parse (`parse.rs`, `options.rs`) → candidates from the input and from perf JSON (`import.rs`)
//! → checks (`check.rs`) → code (`generate.rs`). Every problem becomes a `compile_error!` at the
//! offending token, and all of them are reported at once.
mod check;
mod generate;
mod import;
mod model;
mod options;
mod parse;

pub(crate) use model::Context;

use parse::EventSetInput;
use proc_macro2::TokenStream;
use syn::punctuated::Punctuated;
use syn::{MetaNameValue, Token};

/// `event_set! { ... }`: the whole input is the enum with its settings as attributes.
pub(crate) fn event_set(input: TokenStream, ctx: &Context) -> TokenStream {
    match syn::parse2::<EventSetInput>(input) {
        Ok(set) => expand(set, ctx),
        Err(e) => e.to_compile_error(),
    }
}

/// `#[event_enum(settings)] enum ... { ... }`: the settings come as arguments (and may also be
/// attributes on the enum, as in `event_set!`).
pub(crate) fn event_enum(args: TokenStream, item: TokenStream, ctx: &Context) -> TokenStream {
    let parsed = syn::parse::Parser::parse2(
        Punctuated::<MetaNameValue, Token![,]>::parse_terminated,
        args,
    )
    .and_then(|args| {
        let mut set = syn::parse2::<EventSetInput>(item)?;
        for nv in &args {
            set.options.apply(nv)?;
        }
        Ok(set)
    });
    match parsed {
        Ok(set) => expand(set, ctx),
        Err(e) => e.to_compile_error(),
    }
}

fn expand(mut set: EventSetInput, ctx: &Context) -> TokenStream {
    let mut errors = Vec::new();
    let imported = import::json(&set.options, ctx, &mut errors);
    // A file of Arm's PMU data says which PMU its events are for; `pmu = ...` overrides it.
    if let (false, Some((pmu, _))) = (set.options.pmu_given, imported.pmu) {
        set.options.pmu = pmu;
    }
    let pmu = set.options.pmu;
    let mut candidates = import::written(&set.events, pmu, &mut errors);
    candidates.extend(imported.events);
    let tracked = imported.files;
    let events = check::check(candidates, pmu, &mut errors);
    if events.is_empty() && errors.is_empty() {
        errors.push(syn::Error::new(
            set.name.span(),
            format!(
                "event set `{}` has no events: declare some, or import them with `json = \"...\"`",
                set.name
            ),
        ));
    }
    // Only the errors: a partial enum would add follow-on errors that hide the real ones.
    if let Some(combined) = errors.into_iter().reduce(|mut all, e| {
        all.combine(e);
        all
    }) {
        return combined.to_compile_error();
    }
    generate::generate(&generate::Output {
        attrs: &set.attrs,
        vis: &set.vis,
        name: &set.name,
        options: &set.options,
        events: &events,
        tracked: &tracked,
    })
}

#[cfg(test)]
mod tests;
