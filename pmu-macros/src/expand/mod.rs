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
    if let Some(core) = set.options.core.clone() {
        return subset(&set, &core);
    }
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
    budget(&set, events.len(), &mut errors);
    if let Some(errors) = combined(errors) {
        return errors;
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

/// Only the errors, if there are any: a partial enum would add follow-on errors that hide the
/// real ones.
fn combined(errors: Vec<syn::Error>) -> Option<TokenStream> {
    errors
        .into_iter()
        .reduce(|mut all, e| {
            all.combine(e);
            all
        })
        .map(|e| e.to_compile_error())
}

/// `counters = N`: the set must fit N counters at once.
fn budget(set: &EventSetInput, events: usize, errors: &mut Vec<syn::Error>) {
    if let Some((counters, literal)) = &set.options.counters {
        if events > *counters {
            errors.push(syn::Error::new(
                literal.span(),
                format!(
                    "{events} events do not fit {counters} counters: a measurement counts a set \
                     at once only if each event has a counter (count more by multiplexing, \
                     `pmu_driver::mux`, or drop {} of them)",
                    events - counters
                ),
            ));
        }
    }
}

/// `#[core = cortex_a53] enum Mine { CPU_CYCLES, L1D_CACHE_REFILL }`: a core's events by name,
/// numbered by its data. The names are checked as identifiers and for duplicates here; whether
/// the core has them is the compiler's check at each name.
fn subset(set: &EventSetInput, core: &syn::Ident) -> TokenStream {
    let mut errors = Vec::new();
    let mut names: Vec<(syn::Ident, String)> = Vec::new();
    if let Some(json) = set.options.json.first() {
        errors.push(syn::Error::new(
            json.span(),
            "`json` and `core` do not mix: a set takes its events from one source",
        ));
    }
    for event in &set.events {
        if let Some(code) = &event.code {
            errors.push(syn::Error::new(
                code.span(),
                format!(
                    "`{}` has a code, but the core's data gives each code: write `{0}` alone \
                     with `core = {core}`",
                    event.name
                ),
            ));
            continue;
        }
        if let Err(why) = check::identifier(&event.name) {
            errors.push(syn::Error::new(
                event.name_span,
                format!("event name `{}` {why}", event.name),
            ));
            continue;
        }
        if let Some((_, first)) = names
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(&event.name))
        {
            errors.push(syn::Error::new(
                event.name_span,
                format!(
                    "duplicate event name `{}`: `{first}` is already in the set",
                    event.name
                ),
            ));
            continue;
        }
        names.push((
            syn::Ident::new(&event.name, event.name_span),
            event.name.clone(),
        ));
    }
    if set.events.is_empty() {
        errors.push(syn::Error::new(
            set.name.span(),
            format!(
                "event set `{}` has no events: name some of `{core}`",
                set.name
            ),
        ));
    }
    budget(set, set.events.len(), &mut errors);
    if let Some(errors) = combined(errors) {
        return errors;
    }
    generate::subset(
        &generate::Output {
            attrs: &set.attrs,
            vis: &set.vis,
            name: &set.name,
            options: &set.options,
            events: &[],
            tracked: &[],
        },
        core,
        &names,
    )
}

#[cfg(test)]
mod tests;
