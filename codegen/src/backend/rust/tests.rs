//! Expected output of the Rust emitters, one small case each, to be read as documentation of the
//! cases that are easy to get wrong (RES1 bits, field accesses, aliases, enums, arrays, set/clear
//! views).
//!
//! Every `tests/<case>.toml` is a native description whose first line, `# ...`, says what the case
//! shows. It is parsed and validated as `codegen` does (strictly: any diagnostic fails the case),
//! and the emitter its name starts with writes it: `layout_` the layouts (`src/layouts.rs`),
//! `sysreg_` the system registers (`src/aarch64.rs`, `src/aarch32.rs`), `block_` each block's
//! `mmio` file. `tests/<case>.rs.expected` is that first line as a `//` comment, then each file
//! after a `// ==== <file> ====` line, exactly, but for the layouts' bitfield diagrams: their SVG
//! is `backend::diagram`'s (tested there) and is shown as `<svg>…</svg>`.
//!
//! `BLESS=1 cargo test -p armreg-codegen --lib backend::rust::tests` rewrites the expected files after a
//! deliberate change; review their diff.
use std::path::{Path, PathBuf};

use super::naming::State;
use super::sysreg;
use super::{block, format, layout};
use crate::diagnostic::Sources;
use crate::ir::Device;
use crate::passes::{self, Mode};

/// One `#[test]` per case, so that a failure names it, and the list the folder is checked against.
macro_rules! cases {
    ($($case:ident),* $(,)?) => {
        const CASES: &[&str] = &[$(stringify!($case)),*];
        $(
            #[test]
            fn $case() {
                check(stringify!($case));
            }
        )*
    };
}

cases! {
    layout_res1,
    layout_field_access,
    layout_alias,
    layout_enum,
    sysreg_access,
    sysreg_array_a64,
    sysreg_array_a32,
    sysreg_array_ro,
    sysreg_set_clear,
    block_array,
    block_views,
}

/// The cases' folder, beside this file.
fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/backend/rust/tests")
}

/// The description `text` of `file`, parsed and through every pass, as `codegen` reads a native
/// description.
fn device(file: &str, text: &str) -> Device {
    let mut sources = Sources::default();
    sources.insert(file, text.to_string());
    let render = |diagnostics: &[crate::diagnostic::Diagnostic]| -> String {
        diagnostics
            .iter()
            .map(|d| d.render(&sources))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut device = crate::frontend::native::parse(file, text)
        .unwrap_or_else(|errors| panic!("{file} does not parse:\n{}", render(&errors)));
    let diagnostics = passes::run(&mut device, Mode::Strict);
    assert!(
        diagnostics.is_empty(),
        "{file} does not validate:\n{}",
        render(&diagnostics)
    );
    device
}

/// What the emitter `case` is named after writes for `device`, file by file.
fn emit(case: &str, device: &Device) -> String {
    let mut out = String::new();
    let mut file = |name: &str, text: &str| {
        out.push_str(&format!("// ==== {name} ====\n{text}"));
    };
    if case.starts_with("layout_") {
        let krate = device.name.replace('-', "_");
        let reexports = super::runtime_reexports(device);
        let plan = layout::Plan::new(&device.layouts).with_pages(device, Some(&krate), &reexports);
        file("src/layouts.rs", &layout::layouts("", &plan));
        file("src/diagrams.rs", &elide_diagrams(&plan.diagrams("")));
    } else if case.starts_with("sysreg_") {
        for (state, name) in [
            (State::AArch64, "src/aarch64.rs"),
            (State::AArch32, "src/aarch32.rs"),
        ] {
            let tokens = sysreg::sysregs(device, state, &|_: usize| None);
            if !tokens.is_empty() {
                file(name, &format(tokens).expect("the system registers format"));
            }
        }
    } else if case.starts_with("block_") {
        for b in &device.blocks {
            file(
                &format!("mmio: block {}", b.name),
                &block::block_items(device, b),
            );
        }
    } else {
        panic!("case `{case}` names no emitter (layout_, sysreg_ or block_)");
    }
    out
}

/// `text` with each diagram's SVG, the lines between `<div class="register-diagram">` and
/// `</div>`, as `<svg>…</svg>`.
fn elide_diagrams(text: &str) -> String {
    const OPEN: &str = "<div class=\"register-diagram\">\n";
    const CLOSE: &str = "\n</div>";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let body = start + OPEN.len();
        let len = rest[body..].find(CLOSE).expect("every diagram is closed");
        let svg = &rest[body..body + len];
        assert!(
            svg.starts_with("<svg ") && svg.ends_with("</svg>"),
            "a diagram is one SVG:\n{svg}"
        );
        out.push_str(&rest[..body]);
        out.push_str("<svg>…</svg>");
        rest = &rest[body + len..];
    }
    out.push_str(rest);
    out
}

/// Emits `case` and compares with its expected file (or writes it, with `BLESS`).
fn check(case: &str) {
    let file = format!("{case}.toml");
    let text = std::fs::read_to_string(dir().join(&file)).expect("the case's description exists");
    let what = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# "))
        .unwrap_or_else(|| panic!("{file} does not start with `# <what the case shows>`"));
    let actual = format!("// {what}\n{}", emit(case, &device(&file, &text)));
    let expected_path = dir().join(format!("{case}.rs.expected"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &actual).expect("the expected file is written");
        return;
    }
    let expected = std::fs::read_to_string(&expected_path)
        .unwrap_or_else(|_| panic!("no {case}.rs.expected (run with BLESS=1)"));
    if expected != actual {
        let diff = similar::TextDiff::from_lines(&expected, &actual)
            .unified_diff()
            .header(&format!("{case}.rs.expected"), "actual")
            .to_string();
        panic!("{case}: the output differs from {case}.rs.expected (BLESS=1 to accept):\n{diff}");
    }
}

/// Every description in the folder is a case above, and every expected file has its description.
#[test]
fn every_file_is_a_case() {
    let mut descriptions = Vec::new();
    for entry in std::fs::read_dir(dir()).expect("the cases' folder exists") {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(case) = name.strip_suffix(".toml") {
            descriptions.push(case.to_string());
        } else if let Some(case) = name.strip_suffix(".rs.expected") {
            assert!(
                dir().join(format!("{case}.toml")).exists(),
                "{name} has no {case}.toml"
            );
        } else {
            panic!("{name} is neither a case's description nor its expected output");
        }
    }
    descriptions.sort();
    let mut cases: Vec<&str> = CASES.to_vec();
    cases.sort_unstable();
    assert_eq!(
        descriptions, cases,
        "the folder's cases and `cases!` differ"
    );
}
