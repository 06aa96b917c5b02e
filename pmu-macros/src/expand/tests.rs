//! Expansion tests on tokens: what is generated, and which errors come out. Spans (the tokens the
//! errors point at) are checked by the trybuild cases in `tests/ui/`.
use super::*;
use quote::quote;
use std::path::PathBuf;

fn ctx() -> Context {
    Context {
        manifest_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    }
}

/// The expansion parsed back as a file, so that tests look at items rather than token text.
fn expand_ok(input: TokenStream) -> syn::File {
    let out = event_set(input, &ctx());
    let text = out.to_string();
    assert!(!text.contains("compile_error"), "unexpected errors: {text}");
    syn::parse2(out).expect("the expansion parses as items")
}

/// The messages of the `compile_error!`s in an expansion.
fn errors(out: TokenStream) -> Vec<String> {
    let file: syn::File = syn::parse2(out).expect("errors parse as items");
    file.items
        .iter()
        .map(|item| match item {
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                let lit: syn::LitStr = m.mac.parse_body().expect("a string");
                lit.value()
            }
            other => panic!("not an error: {}", quote!(#other)),
        })
        .collect()
}

fn set_errors(input: TokenStream) -> Vec<String> {
    errors(event_set(input, &ctx()))
}

fn item_enum(file: &syn::File) -> &syn::ItemEnum {
    file.items
        .iter()
        .find_map(|i| match i {
            syn::Item::Enum(e) => Some(e),
            _ => None,
        })
        .expect("an enum")
}

fn methods(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Impl(imp) if imp.trait_.is_none() => Some(imp),
            _ => None,
        })
        .flat_map(|imp| &imp.items)
        .map(|item| match item {
            syn::ImplItem::Fn(f) => f.sig.ident.to_string(),
            syn::ImplItem::Const(c) => c.ident.to_string(),
            other => quote!(#other).to_string(),
        })
        .collect()
}

#[test]
fn generates_the_enum_and_its_api() {
    let file = expand_ok(quote! {
        /// Mine.
        #[pmu = pmuv3p1]
        pub enum Mine {
            /// Cycle
            CPU_CYCLES = 0x11,
            STALL_BACKEND_MEM = 0x4005,
        }
    });
    let e = item_enum(&file);
    assert_eq!(e.ident, "Mine");
    let variants: Vec<String> = e
        .variants
        .iter()
        .map(|v| {
            let (_, code) = v.discriminant.as_ref().expect("a discriminant");
            format!("{} = {}", v.ident, quote!(#code))
        })
        .collect();
    assert_eq!(
        variants,
        ["CPU_CYCLES = 0x0011", "STALL_BACKEND_MEM = 0x4005"]
    );
    assert_eq!(
        methods(&file),
        [
            "ALL",
            "code",
            "name",
            "description",
            "from_code",
            "from_name",
            "pmceid_bit",
            "supported",
            "supported_el0"
        ]
    );
    let traits: Vec<String> = file
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Impl(imp) => imp.trait_.as_ref().map(|(_, p, _)| {
                let ty = &imp.self_ty;
                format!("{} for {}", quote!(#p), quote!(#ty))
            }),
            _ => None,
        })
        .collect();
    assert_eq!(
        traits,
        [
            ":: core :: fmt :: Display for Mine",
            ":: core :: fmt :: Display for ParseMineError",
            ":: core :: error :: Error for ParseMineError",
            ":: core :: str :: FromStr for Mine",
            ":: core :: convert :: From < Mine > for u16",
        ]
    );
}

#[test]
fn output_names_only_core() {
    let out = event_set(
        quote! { #[json = "tests/fixtures/arm64/vendor/core"] enum E { X = 0xC1 } },
        &ctx(),
    )
    .to_string();
    assert!(!out.contains("std"), "{out}");
    assert!(!out.contains("compile_error"), "{out}");
}

#[test]
fn pmceid_bits_come_from_pmu_events() {
    let file = expand_ok(quote! {
        #[pmu = pmuv3p1]
        enum E { SW_INCR = 0x00, CPU_CYCLES = 0x11, STALL = 0x3C, IMPDEF = 0xC0, SAMPLE_POP = 0x4000 }
    });
    let text = quote!(#file).to_string();
    let arms: Vec<&str> = ["(0 , 0)", "(0 , 17)", "(1 , 28)", "None", "(2 , 0)"].to_vec();
    let body = text
        .split("fn pmceid_bit")
        .nth(1)
        .and_then(|s| s.split("fn supported").next())
        .expect("pmceid_bit body");
    let mut rest = body;
    for arm in arms {
        let at = rest
            .find(arm)
            .unwrap_or_else(|| panic!("{arm} in order in {body}"));
        rest = &rest[at + arm.len()..];
    }
}

#[test]
fn dsu_sets_take_two_registers_and_the_value_field() {
    let file = expand_ok(quote! {
        #[pmu = dsu]
        #[evtype = arm_dsu_pmu::Clusterpmxevtyper]
        enum Dsu { cycles = 0x11, l3d_cache = 0x2B }
    });
    let text = quote!(#file).to_string();
    assert!(text.contains("pmceid : [u32 ; 2]"), "{text}");
    assert!(!text.contains("supported_el0"));
    let from = file
        .items
        .iter()
        .find_map(|i| match i {
            syn::Item::Impl(imp) if quote!(#imp).to_string().contains("for arm_dsu_pmu") => {
                Some(imp)
            }
            _ => None,
        })
        .expect("the From impl");
    let expected: syn::ItemImpl = syn::parse_quote! {
        /// The event-type register value that counts this event: every other field at its
        /// default (filters off), so chain `with` on the layout's fields to filter.
        #[automatically_derived]
        impl ::core::convert::From<Dsu> for arm_dsu_pmu::Value<arm_dsu_pmu::Clusterpmxevtyper> {
            #[inline]
            fn from(event: Dsu) -> Self {
                <arm_dsu_pmu::Clusterpmxevtyper>::VALUE.with(<arm_dsu_pmu::Value<arm_dsu_pmu::Clusterpmxevtyper> as ::core::default::Default>::default(), ::core::convert::From::from(event.code()))
            }
        }
    };
    assert_eq!(quote!(#from).to_string(), quote!(#expected).to_string());
}

#[test]
fn attribute_form_takes_settings_as_arguments() {
    let out = event_enum(
        quote!(pmu = pmuv3p1, evtype = arm_pmuv3::Pmevtyper),
        quote! { pub enum A { /// Cycle
        CPU_CYCLES = 0x11 } },
        &ctx(),
    );
    let file: syn::File = syn::parse2(out).unwrap();
    assert_eq!(item_enum(&file).variants.len(), 1);
    assert!(quote!(#file).to_string().contains("EVTCOUNT . with"));
    let out = event_enum(
        quote!(pmu = nope),
        quote!(
            enum A {
                X = 1,
            }
        ),
        &ctx(),
    );
    assert_eq!(
        errors(out),
        ["unknown PMU `nope`: expected arm11, pmuv2, pmuv3, pmuv3p1 or dsu"]
    );
}

#[test]
fn imports_a_core_folder_resolving_arch_std_events() {
    let file = expand_ok(quote! {
        #[json = "tests/fixtures/arm64/vendor/core"]
        pub enum Core {}
    });
    let e = item_enum(&file);
    let names: Vec<String> = e.variants.iter().map(|v| v.ident.to_string()).collect();
    // instruction.json then memory.json (file-name order), entries in file order.
    assert_eq!(
        names,
        ["SW_INCR", "INST_RETIRED", "CPU_CYCLES", "EXT_MEM_REQ"]
    );
    let text = quote!(#file).to_string();
    // The override beside the reference wins over the architectural description.
    assert!(text.contains("\"Core clock cycle\""));
    // The public description is the long one.
    assert!(text.contains("counted when the instruction retires"));
    // Every file read is tracked, the architectural table included.
    for f in ["instruction.json", "memory.json", "common.json"] {
        assert!(text.contains(f), "{f} tracked");
    }
}

#[test]
fn an_explicit_arch_root_replaces_the_search() {
    let file = expand_ok(quote! {
        #[json = "tests/fixtures/arm64/vendor/core"]
        #[arch = "tests/fixtures/arm64"]
        enum Core {}
    });
    assert_eq!(item_enum(&file).variants.len(), 4);
    // A folder without the architectural tables cannot resolve the references.
    let messages = set_errors(quote! {
        #[json = "tests/fixtures/arm64/vendor/core"]
        #[arch = "tests/fixtures/arm64/vendor"]
        enum Core {}
    });
    assert_eq!(
        messages,
        ["tests/fixtures/arm64/vendor: folder holds no `*.json` event file"]
    );
}

#[test]
fn reports_every_error_at_once() {
    let messages = set_errors(quote! {
        enum E {
            A = 0xC8,
            "B-1" = 0xC9,
            type = 0xCA,
            A = 0xCB,
            C = 0xC8,
            D = 0x400,
            F = 0x08u8,
            INST_RETIERD = 0x08,
        }
    });
    assert_eq!(
        messages,
        [
            "an event code is an unsuffixed integer (or `u16`)",
            "event name `B-1` is not a Rust identifier",
            "event name `type` is a Rust keyword, not usable as an identifier",
            "duplicate event name `A`: already declared with code 0x00C8",
            "duplicate event code 0x00C8 for `C`: `A` already has it",
            "event code 0x400 (`D`) does not fit the PMUv3 event field PMEVTYPER<n>.evtCount[9:0] \
             (bits [15:10] need PMUv3p1); if the PMU has PMUv3p1, say so with `pmu = pmuv3p1`",
            "event 0x0008 is the architecture's `INST_RETIRED`, not `INST_RETIERD`: did you mean \
             `INST_RETIRED`?",
        ]
    );
}

#[test]
fn json_errors_name_the_file_and_its_line_and_column() {
    let cases = [
        (
            quote!(#[json = "tests/fixtures/missing.json"] enum E {}),
            "tests/fixtures/missing.json: cannot read: No such file or directory (os error 2)",
        ),
        (
            quote!(#[json = "tests/fixtures/malformed.json"] enum E {}),
            "tests/fixtures/malformed.json:5:9: expected `,` or `}`",
        ),
        (
            quote!(#[json = "tests/fixtures/bad-event-code.json"] enum E {}),
            "tests/fixtures/bad-event-code.json:3:22: `EventCode` \"0x1G\" is not a number \
             (expected hexadecimal `0x..` or decimal)",
        ),
        (
            quote!(#[json = "tests/fixtures/arm64/vendor/unknown-arch-std"] enum E {}),
            "tests/fixtures/arm64/vendor/unknown-arch-std/events.json:6:25: unknown `ArchStdEvent` \
             \"L9D_CACHE_REFILL\": no event of that name in the architectural tables",
        ),
        (
            quote!(#[json = "tests/fixtures/bad-name.json"] enum E {}),
            "tests/fixtures/bad-name.json:4:22: event name `EXT-MEM-REQ` is not a Rust identifier",
        ),
        (
            quote!(#[json = "tests/fixtures/cycles.json"] enum E { CPU_CYCLES = 0x11 }),
            "tests/fixtures/cycles.json:4:22: duplicate event name `CPU_CYCLES`: already declared \
             with code 0x0011",
        ),
    ];
    for (input, message) in cases {
        let got = set_errors(input);
        assert_eq!(got.first().map(String::as_str), Some(message));
    }
}

#[test]
fn an_empty_set_is_an_error() {
    assert_eq!(
        set_errors(quote!(
            pub enum Nothing {}
        )),
        ["event set `Nothing` has no events: declare some, or import them with `json = \"...\"`"]
    );
}
