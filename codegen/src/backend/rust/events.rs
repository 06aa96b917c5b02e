//! PMU events: one `pmu_macros::event_set!` invocation, so events declared by hand and events
//! generated from descriptions go through the same compile-time checks and the same code.
use proc_macro2::TokenStream;
use quote::quote;

use super::doc;
use super::tokens::{hex, ident};
use crate::ir::{Device, EventPmu};
use crate::names::Case;

/// The event set of `device`, or nothing when it has no events.
pub fn events(device: &Device) -> TokenStream {
    if device.events.is_empty() {
        return TokenStream::new();
    }
    let pmu = syn::Ident::new(
        device.event_pmu.unwrap_or(EventPmu::Pmuv3p1).keyword(),
        proc_macro2::Span::call_site(),
    );
    let evtype = device
        .event_type
        .as_deref()
        .and_then(|p| syn::parse_str::<syn::Path>(p).ok())
        .map(|p| quote!(#[evtype = #p]));
    let set_doc = format!(
        "The PMU events of {} ({} events).",
        doc::code(&device.name),
        device.events.len()
    );
    let variants: TokenStream = device
        .events
        .iter()
        .map(|e| {
            let name = ident(&e.name, Case::Verbatim);
            let code = hex(u64::from(e.code));
            let text = doc::paragraphs(&[
                e.doc.as_deref().map(doc::escape),
                e.source
                    .as_deref()
                    .map(|s| format!("Source: {}", doc::escape(s))),
            ]);
            quote! {
                #[doc = #text]
                #name = #code,
            }
        })
        .collect();
    quote! {
        #[doc = #set_doc]
        #[pmu = #pmu]
        #evtype
        pub enum Event {
            #variants
        }
    }
}

/// The events of `device` as data for lookups at run time: `TABLE`, an
/// `armreg_rt::events::EventTable` in code order, beside the compile-time checked enum; and the
/// enum's `armreg_rt::events::PmuEvent` impl, through which a driver takes its events.
pub fn table(device: &Device) -> TokenStream {
    if device.events.is_empty() {
        return TokenStream::new();
    }
    let owner = device
        .cores
        .first()
        .map_or(device.name.as_str(), |c| c.name.as_str());
    let bits = match device.event_pmu.unwrap_or(EventPmu::Pmuv3p1) {
        EventPmu::Arm11 | EventPmu::Pmuv2 => 8u8,
        EventPmu::Pmuv3 => 10,
        EventPmu::Pmuv3p1 | EventPmu::Dsu => 16,
    };
    let len = device.events.len();
    let mut events = device.events.clone();
    events.sort_by_key(|e| e.code);
    let rows: TokenStream = events
        .iter()
        .map(|e| {
            let code = hex(u64::from(e.code));
            let name = &e.name;
            let description = e.doc.as_deref().unwrap_or("");
            quote!(armreg_rt::events::EventInfo::new(#code, #name, #description),)
        })
        .collect();
    let doc = format!(
        "The {len} events of [`Event`] as data, in code order: look one up by name or by code at run time (`TABLE.by_name(\"CPU_CYCLES\")`)."
    );
    quote! {
        /// The set's number and name for a driver: `pmu_driver::Event::from(Event::CPU_CYCLES)`.
        impl armreg_rt::events::PmuEvent for Event {
            fn code(self) -> u16 {
                Event::code(self)
            }
            fn name(self) -> &'static str {
                Event::name(self)
            }
        }

        #[doc = #doc]
        pub static TABLE: armreg_rt::events::EventTable =
            armreg_rt::events::EventTable::new(#owner, #bits, &EVENTS);
        static EVENTS: [armreg_rt::events::EventInfo; #len] = [#rows];
    }
}

/// Wraps the formatted enum of [`events`] in the macro invocation. The enum is formatted as an
/// item first because a formatter leaves macro bodies as they are.
pub fn invocation(formatted_enum: &str) -> String {
    let mut out = String::from("pmu_macros::event_set! {\n");
    for line in formatted_enum.lines() {
        if !line.is_empty() {
            out.push_str("    ");
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str("}\n");
    out
}
