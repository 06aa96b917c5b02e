//! The checks every event must pass: its name is an identifier, its code fits the PMU's event
//! field, and no name or code is declared twice. An event written in the macro for an
//! architected PMU (PMUv2, PMUv3) must also agree with the architecture's common events: a
//! common event's name with another number, or a common event's number under another name, is a
//! typo (`L1D_CACHE_REFILL = 0x04`, `INST_RETIERD = 0x08`).
use super::model::{Candidate, Docs, Origin};
use pmu_events::Pmu;
use proc_macro2::Ident;
use std::collections::HashMap;
use syn::ext::IdentExt;

/// An event that passed every check.
pub(crate) struct Checked {
    pub(crate) ident: Ident,
    pub(crate) name: String,
    pub(crate) code: u16,
    pub(crate) description: String,
    pub(crate) docs: Docs,
}

/// Checks the candidates in order (the first of two duplicates is the one kept); every failure
/// is pushed to `errors`, so that one compile shows them all.
pub(crate) fn check(
    candidates: Vec<Candidate>,
    pmu: Pmu,
    errors: &mut Vec<syn::Error>,
) -> Vec<Checked> {
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut codes: HashMap<u64, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        let mut ok = true;
        let mut fail = |span, message: String| {
            ok = false;
            errors.push(syn::Error::new(
                span,
                format!("{}{message}", c.origin.prefix()),
            ));
        };
        if let Err(why) = identifier(&c.name) {
            fail(
                c.origin.name_span(),
                format!("event name `{}` {why}", c.name),
            );
        }
        let fits = pmu.fits(c.code);
        if !fits {
            fail(c.origin.code_span(), too_wide(c, pmu));
        }
        // perf matches event names ignoring ASCII case, and so does `FromStr`: names that differ
        // only in case would be ambiguous.
        let first_named = names.get(&c.name.to_ascii_lowercase()).copied();
        match first_named {
            Some(first) => fail(c.origin.name_span(), duplicate_name(c, &candidates[first])),
            None => {
                names.insert(c.name.to_ascii_lowercase(), i);
            }
        }
        match codes.get(&c.code) {
            // The same event twice is one mistake: the name error says it all.
            Some(&first) if first_named == Some(first) => ok = false,
            Some(&first) => fail(c.origin.code_span(), duplicate_code(c, &candidates[first])),
            None => {
                codes.insert(c.code, i);
            }
        }
        // Against the architecture only once everything else holds: one error per mistake.
        if ok && fits {
            if let Some((span, message)) = architecture(c, pmu) {
                ok = false;
                errors.push(syn::Error::new(span, message));
            }
        }
        // `identifier` and `fits` passed, so the ident and the narrowing are valid.
        if let (true, Ok(code)) = (ok, u16::try_from(c.code)) {
            out.push(Checked {
                ident: Ident::new(&c.name, c.origin.name_span()),
                name: c.name.clone(),
                code,
                description: c.description.clone(),
                docs: c.docs.clone(),
            });
        }
    }
    out
}

/// What is wrong with a written event against the architecture's common events, if anything:
/// a common event's name with another number, or a common event's number under another name;
/// but for numbers in the PMU's implementation-defined range (0xC0–0xFF on PMUv3, 0x40–0xFF on
/// Armv7), where cores number events of their own. Events imported from files, and events of
/// the ARM11 and DSU PMUs (numbered their own way), are not checked.
fn architecture(c: &Candidate, pmu: Pmu) -> Option<(proc_macro2::Span, String)> {
    let code = u16::try_from(c.code).ok()?;
    if !matches!(c.origin, Origin::Written { .. }) || pmu.is_implementation_defined(code) {
        return None;
    }
    let by_name = pmu_events::common_event_code(&c.name);
    let by_code = pmu_events::common_event_name(code);
    match (by_name, by_code) {
        (Some(right), _) if right != code => {
            let other = by_code
                .map(|other| format!(" (0x{code:04X} is `{other}`)"))
                .unwrap_or_default();
            Some((
                c.origin.code_span(),
                format!(
                    "`{}` is the architecture's event 0x{right:04X}, not 0x{code:04X}{other}: \
                     write `{} = 0x{right:04X}`",
                    c.name, c.name
                ),
            ))
        }
        (None, Some(named)) => {
            let hint = armreg_rt::events::closest_name(
                &c.name,
                pmu_events::COMMON_EVENTS.iter().map(|&(_, n)| n),
            )
            .filter(|&n| n != named)
            .map(|n| {
                format!(
                    "; `{n}` is 0x{:04X}",
                    pmu_events::common_event_code(n).unwrap_or(0)
                )
            })
            .unwrap_or_default();
            Some((
                c.origin.name_span(),
                format!(
                    "event 0x{code:04X} is the architecture's `{named}`, not `{}`: did you mean \
                     `{named}`?{hint}",
                    c.name
                ),
            ))
        }
        _ => None,
    }
}

fn too_wide(c: &Candidate, pmu: Pmu) -> String {
    let hint = match pmu {
        Pmu::PmuV3 => "; if the PMU has PMUv3p1, say so with `pmu = pmuv3p1`",
        Pmu::Arm11 | Pmu::PmuV2 | Pmu::PmuV3p1 | Pmu::Dsu => "",
    };
    format!(
        "event code 0x{:X} (`{}`) does not fit the {}{hint}",
        c.code,
        c.name,
        pmu.event_field()
    )
}

fn duplicate_name(c: &Candidate, first: &Candidate) -> String {
    let (code, at) = (first.code, first.origin.suffix());
    if first.name == c.name {
        format!(
            "duplicate event name `{}`: already declared{at} with code 0x{code:04X}",
            c.name
        )
    } else {
        format!(
            "duplicate event name `{}`: `{}`{at} is already declared with code 0x{code:04X} \
             (names are matched ignoring ASCII case, as perf does)",
            c.name, first.name
        )
    }
}

fn duplicate_code(c: &Candidate, first: &Candidate) -> String {
    format!(
        "duplicate event code 0x{:04X} for `{}`: `{}`{} already has it",
        c.code,
        c.name,
        first.name,
        first.origin.suffix()
    )
}

/// Whether `name` can be an enum variant: an identifier that is not a keyword (`Err` says why).
pub(crate) fn identifier(name: &str) -> Result<(), &'static str> {
    let plain = syn::parse_str::<Ident>(name).is_ok() && !name.starts_with("r#");
    if plain {
        return Ok(());
    }
    let any = syn::parse::Parser::parse_str(Ident::parse_any, name).is_ok();
    if any && name != "_" && !name.starts_with("r#") {
        Err("is a Rust keyword, not usable as an identifier")
    } else {
        Err("is not a Rust identifier")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expand::model::Origin;
    use proc_macro2::Span;

    fn written(name: &str, code: u64) -> Candidate {
        Candidate {
            name: name.to_string(),
            code,
            description: String::new(),
            docs: Docs::Written(Vec::new()),
            origin: Origin::Written {
                name: Span::call_site(),
                code: Span::call_site(),
            },
        }
    }

    fn messages(candidates: Vec<Candidate>, pmu: Pmu) -> (usize, Vec<String>) {
        let mut errors = Vec::new();
        let ok = check(candidates, pmu, &mut errors).len();
        (ok, errors.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn identifiers() {
        assert_eq!(identifier("INST_RETIRED"), Ok(()));
        assert_eq!(identifier("cycles"), Ok(()));
        for bad in ["L1D-CACHE", "1ST", "", "A B", "\"", "_", "r#type"] {
            assert_eq!(identifier(bad), Err("is not a Rust identifier"), "{bad:?}");
        }
        for keyword in ["type", "Self", "match"] {
            assert_eq!(
                identifier(keyword),
                Err("is a Rust keyword, not usable as an identifier")
            );
        }
    }

    #[test]
    fn duplicates_keep_the_first_and_report_the_second() {
        let (ok, errors) = messages(
            vec![
                written("EXT_MEM_REQ", 0xC0),
                written("ext_mem_req", 0xC1),
                written("OTHER", 0xC0),
            ],
            Pmu::PmuV3,
        );
        assert_eq!(ok, 1);
        assert_eq!(
            errors,
            [
                "duplicate event name `ext_mem_req`: `EXT_MEM_REQ` is already declared with code \
                 0x00C0 (names are matched ignoring ASCII case, as perf does)",
                "duplicate event code 0x00C0 for `OTHER`: `EXT_MEM_REQ` already has it",
            ]
        );
    }

    #[test]
    fn written_events_agree_with_the_architecture() {
        let (ok, errors) = messages(
            vec![
                written("INST_RETIERD", 0x08),
                written("L1D_CACHE_REFILL", 0x04),
                written("L2D_CACHE_REFILL", 0x2F),
                // A core's own event under a common name, in the implementation-defined range.
                written("STALL_FRONTEND_TLB", 0xE2),
                written("EXT_MEM_REQ", 0xC0),
                // Names are matched ignoring ASCII case, as perf does.
                written("cpu_cycles", 0x11),
            ],
            Pmu::PmuV3,
        );
        assert_eq!(ok, 3);
        assert_eq!(
            errors,
            [
                "event 0x0008 is the architecture's `INST_RETIRED`, not `INST_RETIERD`: did you \
                 mean `INST_RETIRED`?",
                "`L1D_CACHE_REFILL` is the architecture's event 0x0003, not 0x0004 (0x0004 is \
                 `L1D_CACHE`): write `L1D_CACHE_REFILL = 0x0003`",
                "`L2D_CACHE_REFILL` is the architecture's event 0x0017, not 0x002F (0x002F is \
                 `L2D_TLB`): write `L2D_CACHE_REFILL = 0x0017`",
            ]
        );
        // The DSU numbers its events its own way, in lower case as Linux does.
        assert_eq!(messages(vec![written("cycles", 0x11)], Pmu::Dsu).0, 1);
    }

    #[test]
    fn codes_must_fit_the_pmu() {
        let (_, errors) = messages(vec![written("A", 0x400)], Pmu::PmuV3);
        assert_eq!(
            errors,
            ["event code 0x400 (`A`) does not fit the PMUv3 event field PMEVTYPER<n>.evtCount[9:0] \
              (bits [15:10] need PMUv3p1); if the PMU has PMUv3p1, say so with `pmu = pmuv3p1`"]
        );
        assert_eq!(
            messages(vec![written("SAMPLE_POP", 0x4000)], Pmu::PmuV3p1).0,
            1
        );
        assert_eq!(
            messages(vec![written("A", 0x1_0000)], Pmu::PmuV3p1).1.len(),
            1
        );
        assert_eq!(messages(vec![written("A", 0x1_0000)], Pmu::Dsu).1.len(), 1);
    }

    #[test]
    fn json_events_name_their_file_position() {
        let mut c = written("L1D-CACHE", 4);
        c.origin = Origin::Json {
            literal: Span::call_site(),
            at: "f.json:3:18".to_string(),
        };
        let (_, errors) = messages(vec![c], Pmu::PmuV3);
        assert_eq!(
            errors,
            ["f.json:3:18: event name `L1D-CACHE` is not a Rust identifier"]
        );
    }
}
