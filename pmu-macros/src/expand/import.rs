//! Turning the written events and the `json = "..."` imports into [`Candidate`]s.
use super::model::{Candidate, Context, Docs, Origin};
use super::options::Options;
use super::parse::Declared;
use pmu_events::Pmu;
use std::path::PathBuf;

/// The candidates from the macro input, and errors for codes that are not plain integers.
pub(crate) fn written(
    events: &[Declared],
    pmu: Pmu,
    errors: &mut Vec<syn::Error>,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for event in events {
        let Some(code) = &event.code else {
            errors.push(syn::Error::new(
                event.name_span,
                format!(
                    "event `{}` has no code: give it one (`{0} = 0x11`), or name the core whose \
                     events these are (`#[core = cortex_a53]`)",
                    event.name
                ),
            ));
            continue;
        };
        if !matches!(code.suffix(), "" | "u16") {
            errors.push(syn::Error::new(
                code.span(),
                "an event code is an unsuffixed integer (or `u16`)",
            ));
            continue;
        }
        // A literal beyond u64 cannot fit any event field: report it as such, with its text.
        let Ok(value) = code.base10_parse::<u64>() else {
            errors.push(syn::Error::new(
                code.span(),
                format!("event code {code} does not fit the {}", pmu.event_field()),
            ));
            continue;
        };
        out.push(Candidate {
            name: event.name.clone(),
            code: value,
            description: event.description(),
            docs: Docs::Written(event.docs.clone()),
            origin: Origin::Written {
                name: event.name_span,
                code: code.span(),
            },
        });
    }
    out
}

/// What the `json = "..."` imports gave: their events, every file read for them (for rebuilds),
/// and the PMU the files say they are for (Arm's PMU data says it; perf JSON does not), with the
/// literal that said it.
pub(crate) struct Imported {
    pub(crate) events: Vec<Candidate>,
    pub(crate) files: Vec<PathBuf>,
    pub(crate) pmu: Option<(Pmu, proc_macro2::Span)>,
}

/// The events of every `json = "..."` import: Linux perf pmu-events JSON (a file or a core
/// folder) or a file of Arm's PMU data, told apart by content. Imports that say different PMUs
/// are an error unless `pmu = ...` settles it.
pub(crate) fn json(options: &Options, ctx: &Context, errors: &mut Vec<syn::Error>) -> Imported {
    let arch_root = options.arch.as_ref().map(|a| ctx.resolve(&a.value()));
    let mut out = Vec::new();
    let mut files = Vec::new();
    let mut pmu: Option<(Pmu, proc_macro2::Span)> = None;
    for literal in &options.json {
        let path = ctx.resolve(&literal.value());
        let import = match pmu_events::import(&path, arch_root.as_deref()) {
            Ok(import) => import,
            Err(e) => {
                errors.push(syn::Error::new(literal.span(), ctx.render(&e)));
                continue;
            }
        };
        if let Some(said) = import.pmu {
            match pmu {
                Some((first, _)) if first != said && !options.pmu_given => {
                    errors.push(syn::Error::new(
                        literal.span(),
                        format!(
                            "this file's events are for {}, an earlier import's for {}: say which PMU with `pmu = ...`",
                            said.keyword(),
                            first.keyword()
                        ),
                    ));
                }
                Some(_) => {}
                None => pmu = Some((said, literal.span())),
            }
        }
        out.extend(import.events.into_iter().map(|event| Candidate {
            description: event.description().to_string(),
            name: event.name,
            code: u64::from(event.code),
            origin: Origin::Json {
                literal: literal.span(),
                at: ctx.position(&event.position),
            },
            docs: Docs::Json {
                brief: event.brief_description,
                public: event.public_description,
                arch_std_event: event.arch_std_event,
            },
        }));
        files.extend(import.files);
    }
    files.sort();
    files.dedup();
    Imported {
        events: out,
        files,
        pmu,
    }
}
