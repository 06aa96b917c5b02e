//! Bitfield diagrams in the generated crates' rustdoc: every layout of every manifest crate has
//! an inline SVG in its layout type's documentation, well-formed XML naming the layout and every
//! field, both in the generated source and in the HTML `cargo doc` makes of it.
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use armreg_codegen::ir::Layout;
use armreg_codegen::names::{ident, Case};
use armreg_codegen::pipeline::{self, Loaded, Report};
use quick_xml::events::Event;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn manifest() -> Vec<Loaded> {
    let mut report = Report::default();
    pipeline::load_manifest(
        &root().join("descriptions/manifest.toml"),
        false,
        &mut report,
    )
    .unwrap_or_else(|| panic!("the manifest does not load:\n{}", report.render()))
}

/// What a diagram says about itself.
struct Diagram {
    label: String,
    /// The tooltips of the boxes (each starts with the field's full name and bits).
    titles: Vec<String>,
}

/// Parses `svg` as XML (failing the test if it is not well-formed) and reads its label and
/// tooltips.
fn parse(svg: &str, context: &str) -> Diagram {
    let mut reader = quick_xml::Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let mut label = None;
    let mut titles = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    let mut text = String::new();
    loop {
        match reader.read_event() {
            Err(e) => panic!("{context}: the SVG is not well-formed XML: {e}\n{svg}"),
            Ok(Event::Start(e)) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                if stack.is_empty() {
                    assert_eq!(name, "svg", "{context}: the root element is <{name}>");
                    for a in e.attributes() {
                        let a = a.unwrap();
                        if a.key.as_ref() == b"aria-label" {
                            label = Some(a.unescape_value().unwrap().into_owned());
                        }
                    }
                }
                stack.push(name);
                text.clear();
            }
            Ok(Event::Text(t)) => text.push_str(&t.decode().unwrap()),
            Ok(Event::GeneralRef(r)) => {
                let name = r.decode().unwrap();
                text.push_str(match name.as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "#39" => "'",
                    other => panic!("{context}: unexpected entity &{other};"),
                });
            }
            Ok(Event::End(_)) => {
                if stack.pop().as_deref() == Some("title") && stack.len() > 1 {
                    titles.push(text.clone());
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
        }
    }
    assert!(stack.is_empty(), "{context}: unclosed elements {stack:?}");
    Diagram {
        label: label.unwrap_or_else(|| panic!("{context}: the SVG has no aria-label")),
        titles,
    }
}

/// Checks `d` is the diagram of `layout`: labelled with `drawn_as` (the layout's name, or the
/// one of the layout it is an alias of), with a box for every field.
fn check_layout(d: &Diagram, layout: &Layout, drawn_as: &str, context: &str) {
    assert_eq!(d.label, format!("Bit fields of {drawn_as}"), "{context}");
    for f in &layout.fields {
        let bits = if f.width == 1 {
            format!("[{}]", f.lsb)
        } else {
            format!("[{}:{}]", f.msb(), f.lsb)
        };
        let head = format!("{} {bits}", f.name);
        assert!(
            d.titles.iter().any(|t| t.starts_with(&head)),
            "{context}: no box for field {head} among {:?}",
            d.titles
        );
    }
}

/// Every `<svg>…</svg>` in `text`.
fn svgs(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..]
            .find("</svg>")
            .expect("an <svg> without </svg>")
            + start
            + "</svg>".len();
        out.push(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}

#[test]
fn every_layout_has_a_well_formed_diagram_in_its_value_type_doc() {
    let mut diagrams = 0;
    for l in manifest() {
        let layouts = &l.device.layouts;
        if layouts.is_empty() {
            continue;
        }
        // `src/layouts.rs`, or in a crate with blocks every file of `src/layouts/`.
        let krate = root().join(format!("generated/{}/src", l.entry.name));
        let (path, source) = if krate.join("layouts.rs").is_file() {
            let path = krate.join("layouts.rs");
            let source = fs::read_to_string(&path).unwrap();
            (path, source)
        } else {
            let dir = krate.join("layouts");
            let mut files: Vec<PathBuf> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            let source = files
                .iter()
                .map(|f| fs::read_to_string(f).unwrap())
                .collect();
            (dir, source)
        };
        // Each diagram is a raw string in a macro of `src/diagrams.rs`, which the layout's
        // `#[cfg_attr(doc, doc = diagram_<Layout>!())]` expands and rustdoc reads as it is written.
        let diagrams_path = krate.join("diagrams.rs");
        let doc: String = fs::read_to_string(&diagrams_path)
            .unwrap_or_else(|e| panic!("{}: {e}", diagrams_path.display()))
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .map(|line| format!("{line}\n"))
            .collect();
        let found: Vec<Diagram> = svgs(&doc)
            .into_iter()
            .map(|s| parse(s, &diagrams_path.display().to_string()))
            .collect();
        let labels: BTreeSet<&str> = found.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(
            labels.len(),
            found.len(),
            "{}: a layout drawn twice",
            l.entry.name
        );
        // A layout the same as an earlier one is a type alias drawn by the original's diagram:
        // that diagram must show this layout's fields too.
        let camel = |name: &str| ident(name, Case::Camel).unwrap();
        let mut aliases = 0;
        for layout in layouts {
            let context = format!("{} {}", l.entry.name, layout.name);
            let alias = format!("pub type {} = crate::", camel(&layout.name));
            let drawn_as = match source.lines().find_map(|line| line.strip_prefix(&alias)) {
                Some(other) => {
                    aliases += 1;
                    let other = other.trim_end_matches(';');
                    layouts
                        .iter()
                        .find(|o| camel(&o.name) == other)
                        .unwrap_or_else(|| panic!("{context}: alias of unknown {other}"))
                }
                None => {
                    let ty = camel(&layout.name);
                    assert!(
                        source.contains(&format!("#[cfg_attr(doc, doc = diagram_{ty}!())]")),
                        "{context}: the type's doc does not expand its diagram in {}",
                        path.display()
                    );
                    assert!(
                        doc.contains(&format!("macro_rules! diagram_{ty} {{")),
                        "{context}: no diagram macro in {}",
                        diagrams_path.display()
                    );
                    layout
                }
            };
            let d = found
                .iter()
                .find(|d| d.label == format!("Bit fields of {}", drawn_as.name))
                .unwrap_or_else(|| panic!("{context}: no diagram in {}", path.display()));
            check_layout(d, layout, &drawn_as.name, &context);
            diagrams += 1;
        }
        assert_eq!(
            found.len() + aliases,
            layouts.len(),
            "{}: diagrams of unknown layouts",
            l.entry.name
        );
    }
    assert!(diagrams > 80, "only {diagrams} diagrams");
    println!("{diagrams} diagrams checked");
}

/// `cargo doc` of the crates with layouts, into a target directory of its own (the outer `cargo
/// test` may hold the workspace's), with rustdoc warnings denied as `tests/run.sh` does.
fn cargo_doc(crates: &[String]) -> PathBuf {
    let target = root().join("target/diagram-docs");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root())
        .args(["doc", "--no-deps", "--offline", "--locked"])
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTDOCFLAGS", "-D warnings")
        .env_remove("CARGO_BUILD_TARGET");
    for c in crates {
        cmd.args(["-p", c]);
    }
    let out = cmd.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo doc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    target.join("doc")
}

#[test]
fn cargo_doc_shows_every_diagram() {
    let loaded: Vec<Loaded> = manifest()
        .into_iter()
        .filter(|l| !l.device.layouts.is_empty())
        .collect();
    let crates: Vec<String> = loaded.iter().map(|l| l.entry.name.clone()).collect();
    let doc = cargo_doc(&crates);
    let mut pages = 0;
    for l in &loaded {
        let dir = doc.join(l.entry.name.replace('-', "_"));
        for layout in &l.device.layouts {
            let ty = ident(&layout.name, Case::Camel).unwrap();
            // A layout is an uninhabited enum; one the same as an earlier one is a type alias of
            // it, with its own page, which links to the original's diagram.
            let alias = dir.join(format!("type.{ty}.html"));
            if alias.is_file() {
                let html = fs::read_to_string(&alias).unwrap();
                assert!(
                    svgs(&html).is_empty() && html.contains("href=\"enum."),
                    "{}: an alias links to its original's diagram and draws none",
                    alias.display()
                );
                continue;
            }
            let page = dir.join(format!("enum.{ty}.html"));
            let html =
                fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
            let found = svgs(&html);
            assert_eq!(found.len(), 1, "{}: expected one diagram", page.display());
            let d = parse(found[0], &page.display().to_string());
            check_layout(&d, layout, &layout.name, &page.display().to_string());
            pages += 1;
        }
    }
    println!("{pages} rustdoc pages show their diagram");
}
