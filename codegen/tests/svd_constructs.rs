//! Golden IR for the constructs of CMSIS-SVD 1.3 that real vendor files use: every
//! `tests/svd/<construct>.svd` (its first comment says what it shows) must give exactly the IR in
//! `<construct>.json` (`codegen dump-ir`) and the warnings in `<construct>.stderr`, and succeed.
//!
//! `BLESS=1 cargo test -p armreg-codegen --test svd_constructs` rewrites the expected files after a
//! deliberate change; review the diff.
use std::path::Path;
use std::process::Command;

#[test]
fn every_construct_gives_its_golden_ir() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("tests/svd"))
        .expect("tests/svd exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "svd"))
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 9,
        "expected every construct, found {}",
        cases.len()
    );
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let shown = format!("tests/svd/{name}");
        let out = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
            .current_dir(dir)
            .args(["dump-ir", &shown])
            .output()
            .expect("codegen runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            failures.push(format!("{name}: failed\n{stderr}"));
            continue;
        }
        for (extension, actual) in [("json", &stdout), ("stderr", &stderr)] {
            let expected_path = case.with_extension(extension);
            if bless {
                std::fs::write(&expected_path, actual).expect("expected file is writable");
                continue;
            }
            let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
            if expected != *actual {
                failures.push(format!(
                    "{name}: the {extension} differs from {}\n--- expected\n{expected}\n--- actual\n{actual}",
                    expected_path.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(BLESS=1 rewrites the expected files)",
        failures.join("\n")
    );
}
