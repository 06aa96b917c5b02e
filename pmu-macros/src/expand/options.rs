//! The settings of an event set: `pmu`, `evtype`, `evtype_field`, `json`, `arch`.
//!
//! Both macro forms spell them as `key = value`: as attributes on the enum (`#[pmu = pmuv3p1]`)
//! or, for the attribute form, also as its arguments (`#[event_enum(pmu = pmuv3p1)]`).
use pmu_events::Pmu;
use proc_macro2::Span;
use syn::{Expr, ExprLit, ExprPath, Ident, Lit, LitStr, MetaNameValue, Path};

/// The keys this macro understands; any other attribute on the enum is passed through.
pub(crate) const KEYS: [&str; 5] = ["pmu", "evtype", "evtype_field", "json", "arch"];

#[derive(Clone)]
pub(crate) struct Options {
    /// The PMU the events are for; PMUv3 (10-bit event field) unless given.
    pub(crate) pmu: Pmu,
    /// Whether `pmu` was given: a second one is rejected, and it overrides the PMU an imported
    /// file of Arm's PMU data says.
    pub(crate) pmu_given: bool,
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
                return Err(syn::Error::new_spanned(
                    &nv.path,
                    format!("unknown setting: expected one of {}", KEYS.join(", ")),
                ))
            }
        }
        Ok(())
    }
}

/// Whether an attribute path names one of the settings.
pub(crate) fn is_setting(path: &Path) -> bool {
    path.get_ident()
        .is_some_and(|i| KEYS.contains(&i.to_string().as_str()))
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
                "unknown setting: expected one of pmu, evtype, evtype_field, json, arch",
            ),
        ] {
            let err = apply_all(tokens).err().expect("should be rejected");
            assert_eq!(err.to_string(), message);
        }
    }
}
