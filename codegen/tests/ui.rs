//! Golden diagnostics. Every entry `tests/ui/<rule>[__<what>][.<ext>]` breaks `<rule>`, a rule of
//! the registry (`armreg_codegen::rules::ALL`), and every rule has at least one. An entry is
//! - an input (any format, a perf core folder included): `codegen dump-ir` on it (with the extra
//!   arguments in `<case>.args`, if that file exists) must give exactly the exit status and
//!   diagnostics in `<case>.stderr`: rule, file, line, column and snippet. A failing case must also
//!   leave an existing output crate untouched;
//!   A case's patch file (`<case-stem>.patch.toml`, passed with `--patch` in its `.args`) is no case
//!   of its own, and the diagnostics may point into it rather than into the input;
//! - a folder holding `descriptions/manifest.toml`: a repository root, checked with
//!   `codegen --check --root <case>`, whose diagnostics name `descriptions/manifest.toml`;
//!   regenerating a copy of it must write nothing.
//!
//! `BLESS=1 cargo test -p armreg-codegen --test ui` rewrites the expected files after a deliberate change.
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/ui exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.extension().is_some_and(|e| e == "stderr" || e == "args"))
        .filter(|p| !is_patch(p))
        .collect();
    cases.sort();
    cases
}

/// A patch file a case applies (`--patch` in its `.args`), not a case.
fn is_patch(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(".patch.toml"))
}

/// The rule a case exercises: its name up to `__`.
fn rule_of(case: &Path) -> String {
    let stem = case.file_stem().unwrap().to_string_lossy();
    stem.split("__").next().unwrap().to_string()
}

fn args_of(case: &Path) -> Vec<String> {
    let mut path = case.as_os_str().to_owned();
    path.push(".args");
    std::fs::read_to_string(PathBuf::from(path))
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// A case that is a repository root, for the rules of the manifest.
fn is_repository(case: &Path) -> bool {
    case.join("descriptions/manifest.toml").is_file()
}

#[test]
fn every_case_gets_its_exact_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = cases(&dir.join("tests/ui"));
    assert!(
        cases.len() >= 19,
        "expected the whole set of cases, found {}",
        cases.len()
    );
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let shown = format!("tests/ui/{name}");
        let args = args_of(case);
        let repository = is_repository(case);
        let mut command = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"));
        command.current_dir(dir);
        if repository {
            command.args(["--check", "--root", &shown]);
        } else {
            command.args(["dump-ir", &shown]);
        }
        let out = command.args(&args).output().expect("codegen runs");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let code = out.status.code();
        let rule = rule_of(case);
        let first = stderr.lines().next().unwrap_or("");
        if !(first.starts_with(&format!("error[{rule}]: "))
            || first.starts_with(&format!("warning[{rule}]: ")))
        {
            failures.push(format!(
                "{name}: expected rule `{rule}` first, got:\n{stderr}"
            ));
        }
        let position = if repository {
            "--> descriptions/manifest.toml:".to_string()
        } else {
            format!("--> {shown}:")
        };
        // A patch case's diagnostics point into its patch file.
        let patches: Vec<String> = args
            .iter()
            .filter(|a| is_patch(Path::new(a)))
            .map(|a| format!("--> {a}:"))
            .collect();
        if !stderr.contains(&position) && !patches.iter().any(|p| stderr.contains(p)) {
            failures.push(format!("{name}: no `{position}line:col` in:\n{stderr}"));
        }
        match code {
            Some(1) => {
                if !out.stdout.is_empty() {
                    failures.push(format!("{name}: failed but printed to standard output"));
                }
                let written = if repository {
                    regenerate_writes_nothing(case)
                } else {
                    generate_writes_nothing(case, &args)
                };
                if let Err(e) = written {
                    failures.push(format!("{name}: {e}"));
                }
            }
            Some(0) => {
                if first.starts_with("error") {
                    failures.push(format!("{name}: an error, yet exit 0"));
                }
            }
            other => failures.push(format!("{name}: exit {other:?}")),
        }
        let actual = format!("exit: {}\n{stderr}", code.unwrap_or(-1));
        let expected_path = case.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{name}: diagnostics differ\n--- expected\n{expected}\n--- actual\n{actual}"
            )),
            Err(_) => failures.push(format!(
                "{name}: no {} (run with BLESS=1)",
                expected_path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_rule_has_a_case() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let covered: Vec<String> = cases(&dir).iter().map(|c| rule_of(c)).collect();
    let missing: Vec<&str> = armreg_codegen::rules::ALL
        .iter()
        .map(|rule| rule.name)
        .filter(|rule| !covered.iter().any(|c| c == rule))
        .collect();
    assert!(
        missing.is_empty(),
        "no tests/ui case breaks these rules of the registry: {missing:?}"
    );
}

#[test]
fn every_case_breaks_a_rule_of_the_registry() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    for case in cases(&dir) {
        let rule = rule_of(&case);
        assert!(
            armreg_codegen::rules::find(&rule).is_some(),
            "{}: `{rule}` is no rule of the registry",
            case.display()
        );
    }
}

/// `codegen generate` on the failing `case` fails and leaves an existing crate directory exactly
/// as it was.
fn generate_writes_nothing(case: &Path, args: &[String]) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = dir.path().join("regs");
    std::fs::create_dir_all(out.join("src")).unwrap();
    let before = [
        ("Cargo.toml", "# Generated by codegen from an earlier run\n"),
        ("src/lib.rs", "// the earlier output\n"),
    ];
    for (path, text) in before {
        std::fs::write(out.join(path), text).unwrap();
    }
    let run = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
        .arg("generate")
        .arg(case)
        .arg("-o")
        .arg(&out)
        .args(args)
        .output()
        .expect("codegen runs");
    if run.status.code() != Some(1) {
        return Err(format!("`generate` exited with {:?}", run.status.code()));
    }
    let mut found: Vec<_> = std::fs::read_dir(out.join("src"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    if found != ["lib.rs"] || std::fs::read_dir(&out).unwrap().count() != 2 {
        return Err(format!(
            "`generate` changed the output directory: src/ holds {found:?}"
        ));
    }
    for (path, text) in before {
        if std::fs::read_to_string(out.join(path)).unwrap() != text {
            return Err(format!("`generate` rewrote {path}"));
        }
    }
    Ok(())
}

/// Regenerating a copy of the failing repository `case` fails and writes no `generated/`.
fn regenerate_writes_nothing(case: &Path) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    copy_folder(case, dir.path()).map_err(|e| e.to_string())?;
    let run = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
        .arg("--root")
        .arg(dir.path())
        .output()
        .expect("codegen runs");
    if run.status.code() != Some(1) {
        return Err(format!("regenerating exited with {:?}", run.status.code()));
    }
    if dir.path().join("generated").exists() {
        return Err("regenerating wrote generated/".to_string());
    }
    Ok(())
}

fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_folder(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
