//! A catalogue crate: many sets of events (one per input: a core's, or an architecture's common
//! ones), each in a module behind a cargo feature named after its file, so that a build compiles
//! only the sets it names; and, always compiled, `CORES`, every core the inputs name with what is
//! known of its PMU, for a driver to look up the core it runs on.
use proc_macro2::TokenStream;
use quote::quote;

use super::package::{self, Extra, Packaging};
use super::{doc, events, format, header, File};
use crate::ir::{Core, Device};
use crate::names::Case;

/// One set of events of the catalogue.
pub struct CataloguePart<'a> {
    /// The cargo feature (the input's file stem, `cortex-a53`).
    pub feature: &'a str,
    /// The input, as the module's banner names it.
    pub shown: &'a str,
    pub device: &'a Device,
}

impl CataloguePart<'_> {
    /// The module's name (`cortex_a53`).
    fn module(&self) -> String {
        crate::names::ident(self.feature, Case::Snake)
            .unwrap_or_else(|_| self.feature.replace('-', "_"))
    }

    /// The constant naming its table (`CORTEX_A53`).
    fn constant(&self) -> String {
        self.module().to_ascii_uppercase()
    }
}

/// The crate `root.name` from `parts`; `inputs` are the manifest's inputs, as the crate's
/// banner names them.
pub fn generate(
    root: &Device,
    inputs: &[String],
    parts: &[CataloguePart<'_>],
    packaging: &Packaging,
) -> Result<Vec<File>, String> {
    let banner_text = super::super::banner(inputs);
    let banner = format!("// {banner_text}\n");
    let mut features: Vec<(String, Vec<String>)> = vec![(
        "all".to_string(),
        parts.iter().map(|p| p.feature.to_string()).collect(),
    )];
    features.extend(parts.iter().map(|p| (p.feature.to_string(), Vec::new())));
    let events: usize = parts.iter().map(|p| p.device.events.len()).sum();
    let cores = cores(root, parts);
    let extra = Extra {
        features,
        contents: vec![
            format!(
                "`CORES`: {} cores by MIDR implementer and part number, with their counters and, where the crate was built with it, their events; `core(implementer, part_number)` finds one",
                cores.len()
            ),
            format!(
                "{} sets of events ({events} events), each a module behind the feature of its name: `cortex_a53` behind `cortex-a53`, and so on; `all` enables every one",
                parts.len()
            ),
        ],
        events: true,
        ..Extra::default()
    };
    // The crate's description (Cargo.toml, README) is what the catalogue holds, not the doc of
    // the core list it was started from.
    let described = Device {
        doc: Some(summary(parts, &cores)),
        ..root.clone()
    };
    let mut files = package::files(&described, &root.name, &banner_text, packaging, &extra)?;
    for part in parts {
        let part_banner = format!("// {}\n", super::super::banner(&[part.shown.to_string()]));
        let doc = part
            .device
            .doc
            .as_deref()
            .and_then(|d| d.lines().next())
            .unwrap_or("PMU events.");
        let body = events::invocation(&format(events::events(part.device))?);
        let table = format(events::table(part.device))?;
        files.push(File {
            path: format!("src/{}.rs", part.module()),
            content: format!(
                "{part_banner}{}{body}{table}",
                header(doc, super::Holds::Events)
            ),
        });
    }
    files.push(File {
        path: "src/lib.rs".to_string(),
        content: format!(
            "{banner}{}",
            format(lib(&described, inputs, parts, &cores))?
        ),
    });
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// One line on what the catalogue holds: how many cores have their events, and how many sets
/// belong to no core (an architecture's common events).
fn summary(parts: &[CataloguePart<'_>], cores: &[(Core, Option<&CataloguePart<'_>>)]) -> String {
    let with_events = cores.iter().filter(|(_, p)| p.is_some()).count();
    let common = parts.iter().filter(|p| p.device.cores.is_empty()).count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match common {
        0 => format!("PMU events of {}", plural(with_events, "core", "cores")),
        _ => format!(
            "PMU events of {} and {}",
            plural(with_events, "core", "cores"),
            plural(common, "common set", "common sets")
        ),
    }
}

/// Every core of the crate (the loader merged the list's entries with the cores' own files), in
/// (implementer, part number) order, with the part that has its events.
fn cores<'a>(
    root: &Device,
    parts: &'a [CataloguePart<'a>],
) -> Vec<(Core, Option<&'a CataloguePart<'a>>)> {
    let mut cores: Vec<(Core, Option<&CataloguePart<'_>>)> =
        root.cores
            .iter()
            .map(|core| {
                let part = parts.iter().find(|p| {
                    p.device.cores.iter().any(|c| {
                        (c.implementer, c.part_number) == (core.implementer, core.part_number)
                    })
                });
                (core.clone(), part)
            })
            .collect();
    cores.sort_by_key(|(c, _)| (c.implementer, c.part_number));
    cores
}

fn lib(
    root: &Device,
    inputs: &[String],
    parts: &[CataloguePart<'_>],
    cores: &[(Core, Option<&CataloguePart<'_>>)],
) -> TokenStream {
    let crate_doc = doc::paragraphs(&[
        root.doc.as_ref().map(|d| format!("{}.", doc::escape(d))),
        root.source.as_deref().map(|s| format!("Source: {}", doc::escape(s))),
        Some(format!(
            "Generated by `{}` from {}; do not edit. Each set of events is a module behind the cargo feature of its name (`cortex_a53` behind `cortex-a53`; `all` enables every one): an enum `Event` checked at compile time by `pmu-macros`, and `TABLE`, the same events as data for lookups at run time. `CORES` lists every core by MIDR implementer and part number, with its event table when the crate was built with it.",
            super::super::GENERATOR,
            inputs.iter().map(|i| doc::code(i)).collect::<Vec<_>>().join(", ")
        )),
    ]);
    let modules: TokenStream = parts
        .iter()
        .map(|p| {
            let feature = p.feature;
            let module = syn::Ident::new(&p.module(), proc_macro2::Span::call_site());
            let constant = syn::Ident::new(&p.constant(), proc_macro2::Span::call_site());
            let doc = format!(
                "{} (feature `{feature}`).",
                p.device
                    .doc
                    .as_deref()
                    .and_then(|d| d.lines().next())
                    .unwrap_or("PMU events")
            );
            let table_doc = format!(
                "The events of [`{}`] as data, or `None` when the crate is built without feature `{feature}`.",
                p.module()
            );
            // Without the feature there is no module to link to.
            let absent_doc = format!(
                "The events of `{}` as data, or `None` when the crate is built without feature `{feature}`.",
                p.module()
            );
            quote! {
                #[doc = #doc]
                #[cfg(feature = #feature)]
                #[rustfmt::skip]
                pub mod #module;
                #[doc = #table_doc]
                #[cfg(feature = #feature)]
                pub const #constant: Option<&EventTable> = Some(&#module::TABLE);
                #[doc = #absent_doc]
                #[cfg(not(feature = #feature))]
                pub const #constant: Option<&EventTable> = None;
            }
        })
        .collect();
    let rows: TokenStream = cores
        .iter()
        .map(|(core, part)| {
            let name = &core.name;
            let implementer = proc_macro2::Literal::u8_unsuffixed(core.implementer);
            let part_number = super::tokens::hex(u64::from(core.part_number));
            let architecture = &core.architecture;
            let counters = match core.counters {
                Some(n) => {
                    let n = proc_macro2::Literal::u8_unsuffixed(n);
                    quote!(Some(#n))
                }
                None => quote!(None),
            };
            let events = match part {
                Some(p) => {
                    let constant = syn::Ident::new(&p.constant(), proc_macro2::Span::call_site());
                    quote!(#constant)
                }
                None => quote!(None),
            };
            quote! {
                CoreInfo {
                    name: #name,
                    implementer: #implementer,
                    part_number: #part_number,
                    architecture: #architecture,
                    counters: #counters,
                    events: #events,
                },
            }
        })
        .collect();
    let sets: TokenStream = parts
        .iter()
        .map(|p| {
            let feature = p.feature;
            let constant = syn::Ident::new(&p.constant(), proc_macro2::Span::call_site());
            quote!((#feature, #constant),)
        })
        .collect();
    let set_count = proc_macro2::Literal::usize_unsuffixed(parts.len());
    let count = proc_macro2::Literal::usize_unsuffixed(cores.len());
    let cores_doc = format!(
        "The {} cores of Arm's data, by MIDR implementer and part number: name, architecture, number of event counters where known, and the core's events where the crate was built with them.",
        cores.len()
    );
    quote! {
        #![doc = #crate_doc]
        #![no_std]

        pub use armreg_rt::events::{CoreInfo, EventInfo, EventTable, PmuEvent};

        #modules

        #[doc = #cores_doc]
        pub static CORES: [CoreInfo; #count] = [#rows];

        /// Every set of events by its feature's name (`"cortex-a53"`, `"common_armv8"`), with its
        /// table when the crate was built with that feature.
        pub static SETS: [(&str, Option<&EventTable>); #set_count] = [#sets];

        /// The core with MIDR implementer `implementer` and part number `part_number` (MIDR bits
        /// \[31:24\] and \[15:4\]), if Arm's data names it.
        pub fn core(implementer: u8, part_number: u16) -> Option<&'static CoreInfo> {
            armreg_rt::events::find_core(&CORES, implementer, part_number)
        }
    }
}
