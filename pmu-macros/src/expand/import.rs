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
        let code = &event.code;
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

/// The events of every `json = "..."` import, and every file read for them (for rebuilds).
pub(crate) fn json(
    options: &Options,
    ctx: &Context,
    errors: &mut Vec<syn::Error>,
) -> (Vec<Candidate>, Vec<PathBuf>) {
    let arch_root = options.arch.as_ref().map(|a| ctx.resolve(&a.value()));
    let mut out = Vec::new();
    let mut files = Vec::new();
    for literal in &options.json {
        let path = ctx.resolve(&literal.value());
        let import = match pmu_events::import(&path, arch_root.as_deref()) {
            Ok(import) => import,
            Err(e) => {
                errors.push(syn::Error::new(literal.span(), ctx.render(&e)));
                continue;
            }
        };
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
    (out, files)
}
