//! Golden diagnostics: every `tests/ui/<case>.toml` is an invalid description; running
//! `codegen dump-ir` on it must fail with exactly the diagnostics in `tests/ui/<case>.stderr`
//! (rule, file, line, column and snippet). `BLESS=1 cargo test -p codegen --test ui` rewrites the
//! expected files after a deliberate change.
use std::path::Path;
use std::process::Command;

/// The rule each case is written to break (cases named after their rule need no entry).
const RULE_OF: &[(&str, &str)] = &[
    ("unknown_key", "toml_syntax"),
    ("names_collide", "names_are_identifiers"),
    ("block_array_in_range", "arrays_in_range"),
];

fn rule_of(case: &str) -> &str {
    RULE_OF
        .iter()
        .find(|(c, _)| *c == case)
        .map_or(case, |(_, r)| r)
}

#[test]
fn every_invalid_description_gets_its_exact_diagnostic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("tests/ui"))
        .expect("tests/ui exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 19,
        "expected the whole set of cases, found {}",
        cases.len()
    );
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let stem = case.file_stem().unwrap().to_string_lossy().into_owned();
        let shown = format!("tests/ui/{stem}.toml");
        let out = Command::new(env!("CARGO_BIN_EXE_codegen"))
            .current_dir(dir)
            .args(["dump-ir", &shown])
            .output()
            .expect("codegen runs");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.code() != Some(1) || !out.stdout.is_empty() {
            failures.push(format!(
                "{stem}: expected exit 1 and no output, got {:?}\n{stderr}",
                out.status.code()
            ));
            continue;
        }
        let rule = rule_of(&stem);
        if !stderr.starts_with(&format!("error[{rule}]: ")) {
            failures.push(format!(
                "{stem}: expected rule `{rule}` first, got:\n{stderr}"
            ));
        }
        if !stderr.contains(&format!("--> {shown}:")) {
            failures.push(format!("{stem}: no `--> {shown}:line:col` in:\n{stderr}"));
        }
        let expected_path = case.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &stderr).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == stderr => {}
            Ok(expected) => failures.push(format!(
                "{stem}: diagnostics differ\n--- expected\n{expected}\n--- actual\n{stderr}"
            )),
            Err(_) => failures.push(format!(
                "{stem}: no {} (run with BLESS=1)",
                expected_path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_pass_has_a_case() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut rules: Vec<&str> = codegen::passes::CHECKS.iter().map(|c| c.name).collect();
    rules.push("derived_layouts_resolve");
    for rule in rules {
        let covered =
            dir.join(format!("{rule}.toml")).exists() || RULE_OF.iter().any(|(_, r)| *r == rule);
        assert!(covered, "no tests/ui case breaks rule `{rule}`");
    }
}
