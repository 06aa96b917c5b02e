//! The patch layer end to end: `tests/patches/demo.svd` with `demo.toml`, every operation once,
//! gives exactly the IR in `demo.ir.json` and the explanation in `demo.explain`, and
//! `clusters.svd` with `clusters.toml`, the operations on clusters themselves, `clusters.ir.json`
//! and `clusters.explain` (`BLESS=1 cargo test -p armreg-codegen --test patches` rewrites them after a
//! deliberate change); a manifest's `patches` and repeated `--patch` apply in order.
use std::path::Path;
use std::process::Command;

fn codegen(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"));
    c.current_dir(dir);
    c
}

fn golden(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, actual).unwrap();
        return Ok(());
    }
    let expected = std::fs::read_to_string(path)
        .map_err(|_| format!("no {} (run with BLESS=1)", path.display()))?;
    if expected == actual {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(expected.as_str(), actual)
        .unified_diff()
        .header("expected", "actual")
        .to_string();
    Err(format!("{} differs:\n{diff}", path.display()))
}

/// `dump-ir` of `tests/patches/<case>.svd` patched with `<case>.toml`, against `<case>.ir.json`
/// and `<case>.explain`; the explanation's lines.
fn golden_case(case: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = codegen(dir)
        .args(["dump-ir", &format!("tests/patches/{case}.svd"), "--patch"])
        .arg(format!("tests/patches/{case}.toml"))
        .arg("--explain-patches")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ir = golden(&dir.join(format!("tests/patches/{case}.ir.json")), &stdout);
    let explain = golden(&dir.join(format!("tests/patches/{case}.explain")), &stderr);
    assert!(ir.is_ok() && explain.is_ok(), "{ir:?}\n{explain:?}");
    stderr.lines().map(str::to_string).collect()
}

#[test]
fn operations_on_clusters_give_the_expected_ir_and_explanation() {
    let explained = golden_case("clusters");
    assert!(explained
        .iter()
        .any(|l| l.ends_with("cluster DMA.CH<n> → CHANNEL<n>")));
}

#[test]
fn every_operation_gives_the_expected_ir_and_explanation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let explained = golden_case("demo");
    let out = codegen(dir)
        .args([
            "dump-ir",
            "tests/patches/demo.svd",
            "--patch",
            "tests/patches/demo.toml",
        ])
        .output()
        .unwrap();
    // Without --explain-patches nothing is said about the patches, and the IR is the same.
    assert!(!String::from_utf8_lossy(&out.stderr).contains("patch:"));
    let ir = std::fs::read_to_string(dir.join("tests/patches/demo.ir.json")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), ir);
    // `generate` explains the same changes.
    let tmp = tempfile::tempdir().unwrap();
    let generated = codegen(dir)
        .args([
            "generate",
            "tests/patches/demo.svd",
            "--patch",
            "tests/patches/demo.toml",
            "--explain-patches",
            "-o",
        ])
        .arg(tmp.path().join("demo"))
        .output()
        .unwrap();
    assert!(generated.status.success());
    let explained: Vec<&str> = explained
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("patch:"))
        .collect();
    let generate_stderr = String::from_utf8_lossy(&generated.stderr);
    let again: Vec<&str> = generate_stderr
        .lines()
        .filter(|l| l.starts_with("patch:"))
        .collect();
    assert_eq!(again, explained);
}

#[test]
fn patch_files_apply_in_turn() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    // The second file selects what the first made: the array `CH<n>_CR` of block `TIMER`.
    let second = tmp.path().join("second.toml");
    std::fs::write(
        &second,
        "[[rename]]\nblock = \"TIMER\"\nregister = \"CH<n>_CR\"\nto = \"CTRL<n>\"\n",
    )
    .unwrap();
    let out = codegen(dir)
        .args([
            "dump-ir",
            "tests/patches/demo.svd",
            "--patch",
            "tests/patches/demo.toml",
            "--patch",
        ])
        .arg(&second)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = ir["blocks"][0]["registers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["CTRL<n>", "STATUS"]);
    // In the other order the second file's selector matches nothing: an error at its key.
    let out = codegen(dir)
        .args(["dump-ir", "tests/patches/demo.svd", "--patch"])
        .arg(&second)
        .args(["--patch", "tests/patches/demo.toml"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error[patch_selectors_match]: `TIMER` matches no block"),
        "{stderr}"
    );
    assert!(stderr.contains("second.toml:2:9"), "{stderr}");
}

#[test]
fn a_manifest_entry_takes_patches() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = tempfile::tempdir().unwrap();
    let descriptions = root.path().join("descriptions");
    std::fs::create_dir_all(&descriptions).unwrap();
    for f in ["demo.svd", "demo.toml"] {
        std::fs::copy(dir.join("tests/patches").join(f), descriptions.join(f)).unwrap();
    }
    std::fs::write(
        descriptions.join("manifest.toml"),
        "[[crate]]\nname = \"demo\"\ninputs = [\"demo.svd\"]\npatches = [\"demo.toml\"]\n",
    )
    .unwrap();
    let out = codegen(root.path())
        .args(["--explain-patches", "--root"])
        .arg(root.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "patch: descriptions/demo.toml:34:1: [[array]] TIMER.CH0_CR..CH3_CR → TIMER.CH<n>_CR"
        ),
        "{stderr}"
    );
    let timer =
        std::fs::read_to_string(root.path().join("generated/demo/src/mmio/timer.rs")).unwrap();
    assert!(
        !timer.contains("ch1_cr"),
        "the array replaces the numbered registers"
    );
    assert!(
        timer.contains("pub fn ch_cr(&self)"),
        "the array's accessor"
    );
    // A catalogue takes no patches.
    std::fs::write(
        descriptions.join("manifest.toml"),
        "[[crate]]\nname = \"demo\"\ninputs = [\"demo.svd\"]\ncatalogue = true\npatches = [\"demo.toml\"]\n",
    )
    .unwrap();
    let out = codegen(root.path())
        .arg("--root")
        .arg(root.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error[manifest_syntax]") && stderr.contains("takes no `patches`"),
        "{stderr}"
    );
}

/// Every example of FORMAT.md's "Patch files" is a patch that applies to the vendored rp2040 SVD.
#[test]
fn the_format_examples_apply_to_rp2040() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let format = std::fs::read_to_string(dir.join("../descriptions/FORMAT.md")).unwrap();
    let section = &format[format.find("## Patch files").expect("the section exists")..];
    let examples: Vec<&str> = section
        .split("```toml\n")
        .skip(1)
        .map(|rest| &rest[..rest.find("```").unwrap()])
        .collect();
    assert!(examples.len() >= 7, "{} examples", examples.len());
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (i, example) in examples.iter().enumerate() {
        let patch = tmp.path().join(format!("example{i}.toml"));
        std::fs::write(&patch, example).unwrap();
        let out = codegen(dir)
            .args([
                "dump-ir",
                "../descriptions/third-party/cmsis-svd-data/RaspberryPi/rp2040.svd",
                "--patch",
            ])
            .arg(&patch)
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{example}\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
