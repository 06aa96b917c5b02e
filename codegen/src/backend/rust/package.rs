//! What makes a generated crate a package: its `Cargo.toml` (version, licence, metadata, the
//! dependencies by version and, where known, by path), its `README.md`, and the licence texts and
//! notice its inputs' licences ask for. The text files come from minijinja templates.
#[cfg(feature = "crates")]
use super::File;
#[cfg(feature = "crates")]
use crate::backend::GENERATOR;
#[cfg(feature = "crates")]
use crate::ir::Device;

/// The version of the generator, of `armreg-rt` and `pmu-macros` it was built with, and of the
/// crates of this repository's manifest: one version for everything published together.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The oldest Rust the generated code builds with.
#[cfg(feature = "crates")]
const RUST_VERSION: &str = "1.85";

/// How a generated crate depends on another crate: by version always (a package can only
/// depend by version), and by path too when the crate is at hand (a path wins while building
/// from a checkout; `cargo package` drops it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    /// The version requirement (`0.1.0`).
    pub version: String,
    /// The crate's folder relative to the generated crate's, with `/` separators.
    pub path: Option<String>,
}

impl Dependency {
    /// A dependency on a crate of this generator's version, at `path` when given.
    pub fn of_version(path: Option<String>) -> Self {
        Self {
            version: VERSION.to_string(),
            path,
        }
    }
}

/// How a crate is packaged: its version, where its dependencies are, where it is published.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packaging {
    /// The crate's own version.
    pub version: String,
    /// `armreg-rt`, which every generated crate uses.
    pub runtime: Dependency,
    /// `pmu-macros`, which a crate with events uses.
    pub macros: Dependency,
    /// Other generated crates the crate's code refers to, by crate name.
    pub depends: Vec<(String, Dependency)>,
    /// The `repository` URL, when there is one.
    pub repository: Option<String>,
}

impl Default for Packaging {
    /// Version-only dependencies of this generator's version: what builds against crates.io.
    fn default() -> Self {
        Self {
            version: VERSION.to_string(),
            runtime: Dependency::of_version(None),
            macros: Dependency::of_version(None),
            depends: Vec::new(),
            repository: None,
        }
    }
}

#[cfg(feature = "crates")]
const CARGO_TEMPLATE: &str = r#"# {{ banner }}
[package]
name = {{ name }}
version = {{ version }}
edition = "2021"
rust-version = {{ rust_version }}
description = {{ description }}
{%- if license %}
license = {{ license }}
{%- endif %}
{%- if repository %}
repository = {{ repository }}
{%- endif %}
readme = "README.md"
keywords = [{{ keywords | join(", ") }}]
categories = ["embedded", "hardware-support", "no-std"]
{%- if headers %}
# A package holds the Rust sources, the C headers, the README and the licence files{% if rt %}, and
# the build script and `device.x` of the `rt` feature{% endif %}.
include = ["/src", "/include", "/README.md", "/LICENSE-*", "/NOTICE"{% if rt %}, "/build.rs", "/device.x"{% endif %}]
{%- else %}
# A package holds the Rust sources, the README and the licence files{% if rt %}, and the build
# script and `device.x` of the `rt` feature{% endif %}.
include = ["/src", "/README.md", "/LICENSE-*", "/NOTICE"{% if rt %}, "/build.rs", "/device.x"{% endif %}]
{%- endif %}

[package.metadata.docs.rs]
# The API is the same on every target: one build of the docs is enough{% if blocks %}, with every
# block (the default features){% endif %}.
targets = ["x86_64-unknown-linux-gnu"]
{%- if docs_features %}
features = [{{ docs_features | join(", ") }}]
{%- endif %}

[dependencies]
armreg-rt = {{ runtime }}
{%- for dep in depends %}
{{ dep.0 }} = {{ dep.1 }}
{%- endfor %}
{%- if events %}
pmu-macros = {{ macros }}
{%- endif %}
{%- if rt %}
# Optional, for Cortex-M firmware: `InterruptNumber` for `device::Interrupt` (feature `cortex-m`);
# the vector table and `device.x` for cortex-m-rt (feature `rt`).
cortex-m = { version = "0.7.7", optional = true }
cortex-m-rt = { version = "0.7.5", optional = true }
{%- endif %}
{%- if blocks or families or features or models or values or peripherals or rt %}

[features]
{%- endif %}
{%- if blocks or families %}
# One feature per memory-mapped block{% if families %} and per family of system registers (named
# after the architecture feature that gates them: `pmuv3` for FEAT_PMUv3; `aarch32` for every
# AArch32 register; a register with no feature condition is always compiled){% endif %}: a build
# compiles only what it names, and the layouts used. `all` (the default) names every one; a
# firmware that uses a few turns the default off and names them.
default = ["all"]
all = [{{ all_blocks | join(", ") }}]
{%- for block in blocks %}
{{ block }} = []
{%- endfor %}
{%- for family in families %}
{{ family }} = []
{%- endfor %}
{%- if instances %}
# An instance of a block that another instance names: its own feature selects the block.
{%- for instance, block in instances %}
{{ instance }} = [{{ block }}]
{%- endfor %}
{%- endif %}
{%- endif %}

{%- if rt %}
# The interrupts' vector table (`device::__INTERRUPTS`) and `device.x` (a weak `DefaultHandler`
# for each interrupt) for cortex-m-rt, and its `#[interrupt]` at the root (`use <crate>::interrupt`).
rt = ["dep:cortex-m-rt", "cortex-m-rt/device"]
# `cortex_m::interrupt::InterruptNumber` for `device::Interrupt` (`NVIC::unmask(Interrupt::X)`).
cortex-m = ["dep:cortex-m"]
{%- endif %}
{%- if peripherals %}
# `Peripherals::take()` on Armv6-M (no atomic swap), in a `critical_section::with`; the firmware
# provides the implementation (for example `cortex-m`'s `critical-section-single-core`).
critical-section = ["armreg-rt/critical-section"]
{%- endif %}
{%- if models %}
# Behavioural models of the memory-mapped blocks (`model` module), for host tests; uses `std`.
model = ["armreg-rt/model"]
{%- endif %}
{%- if values %}
# `defmt::Format` for register values (field by field, enumerated values by name), for firmware
# that logs over defmt.
defmt = ["armreg-rt/defmt"]
{%- endif %}
{%- if features %}
# One feature per set of events, so that a build compiles only the sets it names; `all` names
# every one.
{%- for feature in features %}
{{ feature.0 }} = [{{ feature.1 | join(", ") }}]
{%- endfor %}
{%- endif %}


[lints.rust]
# Every unsafe operation of a generated `unsafe fn` is in an `unsafe` block with its SAFETY note.
unsafe_op_in_unsafe_fn = "deny"
"#;

/// What a crate holds besides what its device shows: its blocks' features and optional outputs,
/// a catalogue's modules behind features.
#[cfg(feature = "crates")]
#[derive(Clone, Debug, Default)]
pub struct Extra {
    /// Each memory-mapped block's feature, in the device's order.
    pub blocks: Vec<String>,
    /// The features of the system registers' families (`gates::family`).
    pub families: Vec<String>,
    /// Whether the crate has the blocks' behavioural models (feature `model`).
    pub models: bool,
    /// Whether the crate has C headers in `include/`.
    pub headers: bool,
    /// Cargo features: name, and the features it enables.
    pub features: Vec<(String, Vec<String>)>,
    /// README lines for what the features bring.
    pub contents: Vec<String>,
    /// Whether the crate has events (in its modules) though its device has none.
    pub events: bool,
    /// Whether the crate has the Cortex-M runtime items (features `rt` and `cortex-m`, `build.rs`
    /// and `device.x`).
    pub rt: bool,
}

#[cfg(feature = "crates")]
const README_TEMPLATE: &str = r#"<!-- {{ banner }} -->
# {{ name }}

{{ about }}

## What it contains

{% for item in contents -%}
- {{ item }}
{% endfor %}
## Use

```toml
[dependencies]
{{ name }} = "{{ version }}"
```

The API is described in the crate's documentation (`cargo doc --open`).
{%- if selection %}

## Selecting blocks

Each memory-mapped block is behind a cargo feature, and `all`, the default, names every one. A
firmware that uses a few blocks compiles only those, and only the layouts they use:

```toml
[dependencies]
{{ name }} = { version = "{{ version }}", default-features = false, features = [{{ example }}] }
```

| feature | block | instances |
|---|---|---|
{%- for row in selection %}
| {{ row[0] }} | {{ row[1] }} | {{ row[2] }} |
{%- endfor %}
{%- if instances %}

An instance whose name is not its block's has a feature of its own name, which selects its
block, and a type of its name (`mmio::{{ instances[0][2] }}`, the block's type):
{% for instance, block, ty in instances %}`{{ instance }}`{% if not loop.last %}, {% endif %}{% endfor %}.
{%- endif %}
{%- endif %}
{%- if families %}

## Selecting register families

A system register whose architecture condition names a feature is behind a cargo feature named
after it (`pmuv3` for FEAT_PMUv3), every AArch32 register behind `aarch32` (compiled on targets
other than AArch64); a register without a feature condition is always there, and `all`, the
default, names every family. A firmware names the families it uses:

```toml
[dependencies]
{{ name }} = { version = "{{ version }}", default-features = false, features = [{{ family_example }}] }
```

The families: {% for family in families %}`{{ family }}`{% if not loop.last %}, {% endif %}{% endfor %}.
{%- endif %}

## Source

{{ source }}

## Licence

{{ license }}
"#;

/// The `Cargo.toml`, `README.md`, licence texts and notice of the crate `crate_name`.
#[cfg(feature = "crates")]
pub fn files(
    device: &Device,
    crate_name: &str,
    banner: &str,
    packaging: &Packaging,
    extra: &Extra,
) -> Result<Vec<File>, String> {
    let mut files = vec![
        File {
            path: "Cargo.toml".to_string(),
            content: cargo_toml(device, crate_name, banner, packaging, extra)?,
        },
        File {
            path: "README.md".to_string(),
            content: readme(device, crate_name, banner, packaging, extra)?,
        },
    ];
    if let Some(license) = &device.license {
        for (path, text) in crate::license::files(license) {
            files.push(File {
                path: path.to_string(),
                content: text.to_string(),
            });
        }
    }
    if let Some(notice) = &device.notice {
        files.push(File {
            path: "NOTICE".to_string(),
            content: format!("{banner}\n\n{}\n", notice.trim_end()),
        });
    }
    Ok(files)
}

#[cfg(feature = "crates")]
fn render(template: &str, context: minijinja::Value) -> Result<String, String> {
    let mut env = minijinja::Environment::new();
    env.set_keep_trailing_newline(true);
    env.add_template("t", template).map_err(|e| e.to_string())?;
    env.get_template("t")
        .and_then(|t| t.render(context))
        .map_err(|e| e.to_string())
}

#[cfg(feature = "crates")]
fn cargo_toml(
    device: &Device,
    crate_name: &str,
    banner: &str,
    packaging: &Packaging,
    extra: &Extra,
) -> Result<String, String> {
    let depends: Vec<(String, String)> = packaging
        .depends
        .iter()
        .map(|(name, dep)| (name.clone(), dependency(dep)))
        .collect();
    let events = extra.events || !device.events.is_empty();
    let keywords: Vec<String> = keywords(device, events)
        .iter()
        .map(|k| toml_string(k))
        .collect();
    let features: Vec<(String, Vec<String>)> = extra
        .features
        .iter()
        .map(|(name, enables)| {
            (
                name.clone(),
                enables.iter().map(|e| toml_string(e)).collect(),
            )
        })
        .collect();
    let mut docs_features = Vec::new();
    if extra.models {
        docs_features.push(toml_string("model"));
    }
    if extra.features.iter().any(|(name, _)| name == "all") {
        docs_features.push(toml_string("all"));
    }
    render(
        CARGO_TEMPLATE,
        minijinja::context! {
            banner => banner,
            name => toml_string(crate_name),
            version => toml_string(&packaging.version),
            rust_version => toml_string(RUST_VERSION),
            description => toml_string(&description(device)),
            license => device.license.as_deref().map(toml_string),
            repository => packaging.repository.as_deref().map(toml_string),
            keywords => keywords,
            runtime => dependency(&packaging.runtime),
            macros => dependency(&packaging.macros),
            depends => depends,
            events => events,
            peripherals => !device.instances.is_empty(),
            rt => extra.rt,
            blocks => &extra.blocks,
            families => &extra.families,
            instances => super::gates::instance_features(device)
                .into_iter()
                .map(|(i, b)| (i, toml_string(&b)))
                .collect::<Vec<_>>(),
            all_blocks => extra
                .blocks
                .iter()
                .chain(&extra.families)
                .map(|b| toml_string(b))
                .collect::<Vec<_>>(),
            models => extra.models,
            headers => extra.headers,
            features => features,
            docs_features => docs_features,
            values => !device.layouts.is_empty(),
        },
    )
}

#[cfg(feature = "crates")]
fn readme(
    device: &Device,
    crate_name: &str,
    banner: &str,
    packaging: &Packaging,
    extra: &Extra,
) -> Result<String, String> {
    let about = device
        .doc
        .as_deref()
        .map_or_else(|| description(device), super::doc::escape);
    let source = match &device.source {
        Some(s) => format!(
            "{}\n\nGenerated by `{GENERATOR}`; do not edit: change the description and regenerate.",
            super::doc::escape(s)
        ),
        None => format!(
            "Generated by `{GENERATOR}`; do not edit: change the description and regenerate."
        ),
    };
    let license = match &device.license {
        Some(l) => {
            let mut text = format!("`{l}`, the licence of the descriptions it is generated from");
            let shipped: Vec<String> = crate::license::files(l)
                .iter()
                .map(|(f, _)| format!("`{f}`"))
                .collect();
            if !shipped.is_empty() {
                text.push_str(&format!(" ({})", shipped.join(", ")));
            }
            if device.notice.is_some() {
                text.push_str("; `NOTICE` says where they come from");
            }
            text.push('.');
            text
        }
        None => "The descriptions this crate is generated from state no licence.".to_string(),
    };
    render(
        README_TEMPLATE,
        minijinja::context! {
            banner => banner,
            name => crate_name,
            version => &packaging.version,
            about => about,
            contents => contents(device, crate_name, extra).into_iter().chain(extra.contents.iter().cloned()).collect::<Vec<_>>(),
            selection => selection(device, extra),
            families => &extra.families,
            family_example => extra
                .families
                .iter()
                .filter(|f| *f != "aarch32")
                .take(2)
                .map(|f| toml_string(f))
                .collect::<Vec<_>>()
                .join(", "),
            instances => super::gates::instance_features(device)
                .into_iter()
                .filter_map(|(feature, _)| {
                    device
                        .instances
                        .iter()
                        .find(|i| super::code::name(&i.name, crate::names::Case::Snake) == feature)
                        .map(|i| (feature, i.block.name.clone(), super::code::name(&i.name, crate::names::Case::Camel)))
                })
                .collect::<Vec<_>>(),
            example => extra.blocks.first().map(|b| toml_string(b)),
            source => source,
            license => license,
        },
    )
}

/// Per block, its feature, its name and its instances, for the README's table.
#[cfg(feature = "crates")]
fn selection(device: &Device, extra: &Extra) -> Vec<(String, String, String)> {
    let parents = device.block_parents();
    device
        .blocks
        .iter()
        .zip(&parents)
        .filter(|(_, parent)| parent.is_none())
        .map(|(b, _)| b)
        .zip(&extra.blocks)
        .map(|(b, feature)| {
            let instances: Vec<String> = device
                .instances
                .iter()
                .filter(|i| i.block.name == b.name)
                .map(|i| format!("`{}`", i.name))
                .collect();
            (
                format!("`{feature}`"),
                format!("`{}`", b.name),
                if instances.is_empty() {
                    "-".to_string()
                } else {
                    instances.join(", ")
                },
            )
        })
        .collect()
}

/// One line per kind of item the crate has.
#[cfg(feature = "crates")]
fn contents(device: &Device, crate_name: &str, extra: &Extra) -> Vec<String> {
    let count = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let mut items = Vec::new();
    if !device.layouts.is_empty() {
        items.push(format!(
            "{} at the crate root: a constant per field; a register's value is a `Value<Layout>`",
            count(device.layouts.len(), "register layout", "register layouts")
        ));
    }
    use super::naming::{state_of, State};
    for (state, module, what, instructions) in [
        (State::AArch64, "aarch64", "AArch64", "`MRS`/`MSR`"),
        (
            State::AArch32,
            "aarch32",
            "AArch32",
            "`MRC`/`MCR`, `MRRC`/`MCRR`",
        ),
    ] {
        let n = device
            .sysregs
            .iter()
            .filter(|s| state_of(s.path) == state)
            .count();
        if n > 0 {
            let one = format!("{what} system register");
            items.push(format!(
                "`{module}`: {} ({instructions})",
                count(n, &one, &format!("{one}s"))
            ));
        }
    }
    if !device.blocks.is_empty() {
        let mut line = format!(
            "`mmio`: {}",
            count(
                device
                    .block_parents()
                    .iter()
                    .filter(|p| p.is_none())
                    .count(),
                "memory-mapped block",
                "memory-mapped blocks"
            )
        );
        if !device.instances.is_empty() {
            line.push_str(&format!(
                " and {} at fixed addresses",
                count(device.instances.len(), "instance", "instances")
            ));
        }
        items.push(line);
        if !device.instances.is_empty() {
            items.push(
                "`Peripherals`: every instance as a field, handed out once by `Peripherals::take()`"
                    .to_string(),
            );
        }
        if extra.rt {
            items.push(
                "features `rt` and `cortex-m`, for Cortex-M firmware: the interrupts' vector table and `device.x` for cortex-m-rt (its `#[interrupt]` re-exported as `interrupt`), `InterruptNumber` for `device::Interrupt`; both off by default"
                    .to_string(),
            );
        }
        if extra.models {
            items.push(
                "`model` (feature `model`): behavioural models of the blocks, for host tests"
                    .to_string(),
            );
        }
    }
    if !device.events.is_empty() {
        items.push(format!(
            "`events`: {}, checked at compile time by `pmu-macros`",
            count(device.events.len(), "PMU event", "PMU events")
        ));
    }
    if !device.layouts.is_empty() {
        items.push(
            "feature `defmt`: register values as `defmt::Format`, field by field, for firmware that logs over defmt"
                .to_string(),
        );
    }
    if extra.headers && !device.layouts.is_empty() {
        items.push(format!(
            "`{}/`: C headers of the same registers",
            crate::backend::c::include_dir(crate_name)
        ));
    }
    items
}

/// The first line of the device's doc, or what the crate holds.
#[cfg(feature = "crates")]
fn description(device: &Device) -> String {
    device
        .doc
        .as_deref()
        .and_then(|d| d.lines().next())
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map_or_else(
            || format!("Register accessors for {}", device.name),
            str::to_string,
        )
}

/// crates.io keywords (at most five) for what the crate holds.
#[cfg(feature = "crates")]
fn keywords(device: &Device, events: bool) -> Vec<&'static str> {
    let mut k = vec!["arm"];
    if events {
        k.extend(["pmu", "performance"]);
    }
    if !device.layouts.is_empty() {
        k.push("registers");
    }
    k.push("no-std");
    k
}

/// `{ version = "..", path = ".." }`.
#[cfg(feature = "crates")]
fn dependency(dep: &Dependency) -> String {
    match &dep.path {
        Some(path) => format!(
            "{{ version = {}, path = {} }}",
            toml_string(&dep.version),
            toml_string(path)
        ),
        None => format!("{{ version = {} }}", toml_string(&dep.version)),
    }
}

/// A TOML basic string: quote, backslash and control characters escaped.
#[cfg(feature = "crates")]
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Pos;

    fn device() -> Device {
        Device {
            doc: Some("Demo \"registers\"\n\nMore.".to_string()),
            license: Some("MIT OR Apache-2.0".to_string()),
            ..Device::new("demo", Pos::default())
        }
    }

    #[test]
    fn manifest_depends_by_version_and_path() {
        let packaging = Packaging {
            runtime: Dependency::of_version(Some("../../runtime".into())),
            ..Packaging::default()
        };
        let files = files(
            &device(),
            "demo",
            "Generated.",
            &packaging,
            &Extra::default(),
        )
        .unwrap();
        let cargo = &files[0].content;
        assert!(
            cargo.contains(&format!(
                "armreg-rt = {{ version = \"{VERSION}\", path = \"../../runtime\" }}"
            )),
            "{cargo}"
        );
        assert!(
            cargo.contains("description = \"Demo \\\"registers\\\"\""),
            "{cargo}"
        );
        assert!(cargo.contains("license = \"MIT OR Apache-2.0\""), "{cargo}");
        assert!(!cargo.contains("pmu-macros"), "{cargo}");
        let parsed: toml::Table = toml::from_str(cargo).unwrap();
        assert_eq!(parsed["package"]["readme"].as_str(), Some("README.md"));
        let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            names,
            ["Cargo.toml", "README.md", "LICENSE-APACHE", "LICENSE-MIT"]
        );
    }

    #[test]
    fn version_only_without_a_path_and_no_licence_when_none_is_stated() {
        let d = Device {
            license: None,
            notice: Some("From somewhere.".into()),
            ..device()
        };
        let files = files(
            &d,
            "demo",
            "Generated.",
            &Packaging::default(),
            &Extra::default(),
        )
        .unwrap();
        let cargo = &files[0].content;
        assert!(cargo.contains(&format!("armreg-rt = {{ version = \"{VERSION}\" }}")));
        assert!(!cargo.contains("license ="), "{cargo}");
        let readme = &files[1].content;
        assert!(readme.contains("state no licence"), "{readme}");
        assert_eq!(files[2].path, "NOTICE");
        assert!(files[2].content.ends_with("From somewhere.\n"));
    }
}
