//! Golden IR of the AARCHMRS frontend, one case per group of constructs
//! (`tests/aarchmrs/README.md`): every register, layout, field, condition and position the
//! frontend makes of each case, and its warnings. `BLESS=1` rewrites the expected files.
use std::path::Path;

use armreg_codegen::diagnostic::Sources;
use armreg_codegen::frontend::aarchmrs;

fn render(case: &Path) -> String {
    let text = std::fs::read_to_string(case).unwrap();
    let shown = format!(
        "tests/aarchmrs/{}",
        case.file_name().unwrap().to_string_lossy()
    );
    let mut sources = Sources::default();
    sources.insert(&shown, text.clone());
    match aarchmrs::parse_json(&shown, &text) {
        Ok((mut device, warnings)) => {
            device.canonicalize();
            let mut out = serde_json::to_string_pretty(&device).unwrap();
            out.push('\n');
            for w in warnings {
                out.push_str(&w.render(&sources));
                out.push('\n');
            }
            out
        }
        Err(errors) => errors.iter().map(|e| e.render(&sources) + "\n").collect(),
    }
}

#[test]
fn every_case_gives_its_golden_ir() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/aarchmrs");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json") && !p.to_string_lossy().ends_with(".ir.json")
        })
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 6, "the six cases of the README");
    let bless = std::env::var_os("BLESS").is_some();
    let mut failed = Vec::new();
    for case in cases {
        let got = render(&case);
        let golden = case.with_extension("ir.json");
        if bless {
            std::fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            let diff = similar::TextDiff::from_lines(&want, &got)
                .unified_diff()
                .header("expected", "got")
                .to_string();
            failed.push(format!(
                "{}:\n{}",
                case.display(),
                &diff[..diff.len().min(4000)]
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
