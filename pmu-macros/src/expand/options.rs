//! The settings of an event set: `pmu`, `core`, `counters`, `evtype`, `evtype_field`, `json`,
//! `arch`.
//!
//! Both macro forms spell them as `key = value`: as attributes on the enum (`#[pmu = pmuv3p1]`)
//! or, for the attribute form, also as its arguments (`#[event_enum(pmu = pmuv3p1)]`).
use pmu_events::Pmu;
use proc_macro2::Span;
use syn::{Expr, ExprLit, ExprPath, Ident, Lit, LitInt, LitStr, MetaNameValue, Path};

/// The keys this macro understands.
pub(crate) const KEYS: [&str; 7] = [
    "pmu",
    "core",
    "counters",
    "evtype",
    "evtype_field",
    "json",
    "arch",
];

/// The name-value attributes Rust itself has for an enum: passed through. Any other
/// `#[name = value]` on the enum is a setting, so that a misspelt one is this macro's error.
const RUST_ATTRIBUTES: [&str; 3] = ["doc", "must_use", "deprecated"];

/// The sets of events of the generated `arm-pmu-events` crate, by module name: what
/// `core = ...` may name (checked against the crate by `tests/ui.rs`).
pub(crate) const CORE_SETS: [&str; 52] = [
    "arm1136jf_s",
    "arm1176jzf_s",
    "common_armv7",
    "common_armv8",
    "common_armv9",
    "cortex_a15",
    "cortex_a17",
    "cortex_a32",
    "cortex_a34",
    "cortex_a35",
    "cortex_a5",
    "cortex_a510",
    "cortex_a520",
    "cortex_a53",
    "cortex_a55",
    "cortex_a57",
    "cortex_a65",
    "cortex_a65ae",
    "cortex_a7",
    "cortex_a710",
    "cortex_a715",
    "cortex_a72",
    "cortex_a720",
    "cortex_a73",
    "cortex_a75",
    "cortex_a76",
    "cortex_a76ae",
    "cortex_a77",
    "cortex_a78",
    "cortex_a78c",
    "cortex_a8",
    "cortex_a9",
    "cortex_r4",
    "cortex_r5",
    "cortex_r52",
    "cortex_r7",
    "cortex_r8",
    "cortex_r82",
    "cortex_x1",
    "cortex_x1c",
    "cortex_x2",
    "cortex_x3",
    "cortex_x4",
    "neoverse_e1",
    "neoverse_n1",
    "neoverse_n2",
    "neoverse_n3",
    "neoverse_v1",
    "neoverse_v2",
    "neoverse_v3",
    "neoverse_v3ae",
    "rainier",
];

#[derive(Clone)]
pub(crate) struct Options {
    /// The PMU the events are for; PMUv3 (10-bit event field) unless given.
    pub(crate) pmu: Pmu,
    /// Whether `pmu` was given: a second one is rejected, and it overrides the PMU an imported
    /// file of Arm's PMU data says.
    pub(crate) pmu_given: bool,
    /// The core whose events these are (`cortex_a53`): a module of `arm-pmu-events`, whose
    /// events the set names without codes.
    pub(crate) core: Option<Ident>,
    /// The most events the set may have: the counters they must fit at once.
    pub(crate) counters: Option<(usize, LitInt)>,
    /// The event-type register layout to emit `From<Set>` for (e.g. `arm_pmuv3::Pmevtyper`).
    pub(crate) evtype: Option<Path>,
    /// The field constant of `evtype` that holds the event number.
    pub(crate) evtype_field: Option<Ident>,
    /// Files or core folders to import (perf JSON, Arm's PMU data), relative to the calling
    /// crate's manifest.
    pub(crate) json: Vec<LitStr>,
    /// The arch root to resolve `ArchStdEvent` in, instead of the one found above each import.
    pub(crate) arch: Option<LitStr>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            pmu: Pmu::PmuV3,
            pmu_given: false,
            core: None,
            counters: None,
            evtype: None,
            evtype_field: None,
            json: Vec::new(),
            arch: None,
        }
    }
}

impl Options {
    /// The field of `evtype` that holds the event number: `EVTCOUNT` for the core PMU's
    /// `Pmevtyper`, `VALUE` for the DSU's `Clusterpmxevtyper` (whose layout is one field).
    pub(crate) fn field(&self) -> Ident {
        self.evtype_field.clone().unwrap_or_else(|| {
            let name = match self.pmu {
                Pmu::Dsu => "VALUE",
                Pmu::Arm11 | Pmu::PmuV2 | Pmu::PmuV3 | Pmu::PmuV3p1 => "EVTCOUNT",
            };
            Ident::new(name, Span::call_site())
        })
    }

    /// Applies one `key = value`. The key must be one of [`KEYS`].
    pub(crate) fn apply(&mut self, nv: &MetaNameValue) -> syn::Result<()> {
        let key = nv
            .path
            .get_ident()
            .map(Ident::to_string)
            .unwrap_or_default();
        let twice =
            |what: &str| syn::Error::new_spanned(&nv.path, format!("`{what}` is given twice"));
        match key.as_str() {
            "pmu" => {
                if self.pmu_given {
                    return Err(twice("pmu"));
                }
                let ident = single_ident(&nv.value, "a PMU: arm11, pmuv2, pmuv3, pmuv3p1 or dsu")?;
                self.pmu = Pmu::from_keyword(&ident.to_string()).ok_or_else(|| {
                    syn::Error::new(
                        ident.span(),
                        format!(
                            "unknown PMU `{ident}`: expected arm11, pmuv2, pmuv3, pmuv3p1 or dsu"
                        ),
                    )
                })?;
                self.pmu_given = true;
            }
            "core" => {
                if self.core.is_some() {
                    return Err(twice("core"));
                }
                self.core = Some(core(&nv.value)?);
            }
            "counters" => {
                if self.counters.is_some() {
                    return Err(twice("counters"));
                }
                self.counters = Some(counters(&nv.value)?);
            }
            "evtype" => {
                if self.evtype.is_some() {
                    return Err(twice("evtype"));
                }
                self.evtype = Some(path(&nv.value)?);
            }
            "evtype_field" => {
                if self.evtype_field.is_some() {
                    return Err(twice("evtype_field"));
                }
                self.evtype_field = Some(single_ident(&nv.value, "a field constant's name")?);
            }
            "json" => self.json.push(string(&nv.value)?),
            "arch" => {
                if self.arch.is_some() {
                    return Err(twice("arch"));
                }
                self.arch = Some(string(&nv.value)?);
            }
            _ => {
                let hint = armreg_rt::events::closest_name(&key, KEYS)
                    .map(|k| format!(" (did you mean `{k}`?)"))
                    .unwrap_or_default();
                return Err(syn::Error::new_spanned(
                    &nv.path,
                    format!(
                        "unknown setting `{}`: expected one of {}{hint}",
                        path_text(&nv.path),
                        KEYS.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Whether an attribute is one of the settings (or a misspelt one): `#[name = value]` with a
/// single name that is not a name-value attribute of Rust's.
pub(crate) fn is_setting(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::NameValue(nv) => nv
            .path
            .get_ident()
            .is_some_and(|i| !RUST_ATTRIBUTES.contains(&i.to_string().as_str())),
        syn::Meta::Path(p) | syn::Meta::List(syn::MetaList { path: p, .. }) => p
            .get_ident()
            .is_some_and(|i| KEYS.contains(&i.to_string().as_str())),
    }
}

fn path_text(path: &Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    segments.join("::")
}

/// `core = cortex_a53` (or the feature's spelling, `core = "cortex-a53"`): one of [`CORE_SETS`].
fn core(value: &Expr) -> syn::Result<Ident> {
    let (name, span) = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => (s.value().replace('-', "_"), s.span()),
        other => {
            let ident = single_ident(other, "a core, e.g. `cortex_a53`")?;
            (ident.to_string(), ident.span())
        }
    };
    if CORE_SETS.contains(&name.as_str()) {
        return Ok(Ident::new(&name, span));
    }
    let hint = armreg_rt::events::closest_name(&name, CORE_SETS)
        .map(|c| format!("did you mean `{c}`? "))
        .unwrap_or_default();
    Err(syn::Error::new(
        span,
        format!(
            "unknown core `{name}`: {hint}`core` names a set of events of `arm-pmu-events` \
             (cortex_a53, neoverse_n1, common_armv8, ...)"
        ),
    ))
}

/// `counters = 6`: a positive number.
fn counters(value: &Expr) -> syn::Result<(usize, LitInt)> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(n), ..
        }) => match n.base10_parse::<usize>() {
            Ok(count) if count > 0 => Ok((count, n.clone())),
            _ => Err(syn::Error::new(
                n.span(),
                "expected a number of counters, 1 or more",
            )),
        },
        other => Err(syn::Error::new_spanned(
            other,
            "expected a number of counters, e.g. `counters = 6`",
        )),
    }
}

fn path(value: &Expr) -> syn::Result<Path> {
    match value {
        Expr::Path(ExprPath {
            qself: None, path, ..
        }) => Ok(path.clone()),
        other => Err(syn::Error::new_spanned(
            other,
            "expected a type path, e.g. `arm_pmuv3::Pmevtyper`",
        )),
    }
}

fn single_ident(value: &Expr, what: &str) -> syn::Result<Ident> {
    path(value)?
        .get_ident()
        .cloned()
        .ok_or_else(|| syn::Error::new_spanned(value, format!("expected {what}")))
}

fn string(value: &Expr) -> syn::Result<LitStr> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s.clone()),
        other => Err(syn::Error::new_spanned(
            other,
            "expected a string literal path",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn apply_all(tokens: proc_macro2::TokenStream) -> syn::Result<Options> {
        let parser = syn::punctuated::Punctuated::<MetaNameValue, syn::Token![,]>::parse_terminated;
        let mut options = Options::default();
        for nv in syn::parse::Parser::parse2(parser, tokens)? {
            options.apply(&nv)?;
        }
        Ok(options)
    }

    #[test]
    fn reads_every_setting() {
        let o = apply_all(quote!(
            pmu = dsu,
            evtype = a::B,
            json = "x",
            json = "y",
            arch = "z"
        ))
        .unwrap();
        assert_eq!(o.pmu, Pmu::Dsu);
        assert_eq!(o.field().to_string(), "VALUE");
        assert_eq!(o.json.len(), 2);
        assert_eq!(o.arch.unwrap().value(), "z");
        let o = apply_all(quote!(core = "cortex-a53", counters = 6)).unwrap();
        assert_eq!(o.core.unwrap().to_string(), "cortex_a53");
        assert_eq!(o.counters.unwrap().0, 6);
        let o = apply_all(quote!(evtype_field = EVENT)).unwrap();
        assert_eq!(o.pmu, Pmu::PmuV3);
        assert_eq!(o.field().to_string(), "EVENT");
    }

    #[test]
    fn rejects_bad_settings() {
        for (tokens, message) in [
            (
                quote!(pmu = v9),
                "unknown PMU `v9`: expected arm11, pmuv2, pmuv3, pmuv3p1 or dsu",
            ),
            (quote!(pmu = dsu, pmu = dsu), "`pmu` is given twice"),
            (quote!(json = a::b), "expected a string literal path"),
            (
                quote!(evtype = "x"),
                "expected a type path, e.g. `arm_pmuv3::Pmevtyper`",
            ),
            (
                quote!(colour = "red"),
                "unknown setting `colour`: expected one of pmu, core, counters, evtype, \
                 evtype_field, json, arch",
            ),
            (
                quote!(cores = cortex_a53),
                "unknown setting `cores`: expected one of pmu, core, counters, evtype, \
                 evtype_field, json, arch (did you mean `core`?)",
            ),
            (
                quote!(core = cortex_a35x),
                "unknown core `cortex_a35x`: did you mean `cortex_a35`? `core` names a set of \
                 events of `arm-pmu-events` (cortex_a53, neoverse_n1, common_armv8, ...)",
            ),
            (
                quote!(counters = 0),
                "expected a number of counters, 1 or more",
            ),
        ] {
            let err = apply_all(tokens).err().expect("should be rejected");
            assert_eq!(err.to_string(), message);
        }
    }
}
