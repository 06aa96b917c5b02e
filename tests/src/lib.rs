//! Host integration tests of the generated crates (see `tests/`): encodings and offsets against an
//! independent table typed in from the primary sources (Arm ARM DDI0487, Linux), host emulation of
//! system registers, and the zero-cost check of generated accessors disassembled for Arm targets.
//!
//! The library holds what several of those tests need to run cargo and the generator as a user
//! would.
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub mod disasm;

/// Fails the calling test, in one line naming the command that installs it, when the Rust target
/// `target` is not installed (its `core` would be missing from every build for it).
pub fn require_target(target: &str) {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc runs");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert!(
        sysroot
            .join("lib/rustlib")
            .join(target)
            .join("lib")
            .is_dir(),
        "the Rust target `{target}` is not installed: run `rustup target add {target}`"
    );
}

/// Fails the calling test, in one line naming `install`, when `program --version` does not run.
pub fn require_program(program: &str, install: &str) {
    let runs = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(runs, "`{program}` is not installed: run `{install}`");
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A folder in the system's temporary folder, outside any workspace as a user's crate would be,
/// named `armreg-<what>-<hash of the checkout's path>` so that two checkouts do not share it and a
/// second run of one reuses what the first generated.
pub fn scratch(what: &str) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    root().hash(&mut h);
    std::env::temp_dir().join(format!("armreg-{what}-{:016x}", h.finish()))
}

/// `target/<name>` of the checkout (or of `CARGO_TARGET_DIR`): a target folder the crates a test
/// generates share, so the runtime is built once.
pub fn target_subdir(name: &str) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root().join("target"), PathBuf::from)
        .join(name)
}

/// `cargo` run in `dir` with none of the outer build's settings (flags, target, target folder,
/// profile overrides), as a user would run it there.
pub fn cargo_in(dir: &Path) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(dir);
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "RUSTDOCFLAGS",
    ] {
        cmd.env_remove(var);
    }
    for (key, _) in std::env::vars_os() {
        let key_text = key.to_string_lossy();
        if key_text.starts_with("CARGO_PROFILE_")
            || (key_text.starts_with("CARGO_TARGET_") && key_text.ends_with("_RUSTFLAGS"))
        {
            cmd.env_remove(key);
        }
    }
    cmd
}

/// Runs `cargo <args>` in `dir` as [`cargo_in`] does, with `target` as its target folder and
/// warnings denied; the command, folder and cargo's error text when it fails.
pub fn cargo_denying_warnings(dir: &Path, target: &Path, args: &[&str]) -> Result<(), String> {
    let out = cargo_in(dir)
        .args(args)
        .env("CARGO_TARGET_DIR", target)
        .env("RUSTFLAGS", "-D warnings")
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("cargo runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`cargo {}` in {} failed:\n{}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Builds the generator's binary (`cargo test --workspace` has built it already, so this is
/// usually a no-op) and returns its path.
pub fn codegen_binary() -> PathBuf {
    let out = cargo_in(&root())
        .args([
            "build",
            "--offline",
            "-p",
            "armreg-codegen",
            "--bin",
            "armreg-codegen",
            "--message-format=json-render-diagnostics",
        ])
        .stderr(Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "building armreg-codegen failed");
    executable(&out.stdout, "armreg-codegen").expect("cargo names the armreg-codegen executable")
}

/// The executable cargo built for target `name`, from its `--message-format=json*` output.
pub fn executable(cargo_stdout: &[u8], name: &str) -> Option<PathBuf> {
    String::from_utf8_lossy(cargo_stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
}

/// What a program run with a deadline gave: its exit status (`None` when the deadline killed
/// it), and its standard output and error, in that order.
pub struct Finished {
    pub status: Option<i32>,
    pub output: String,
}

/// Runs `cmd` to its end or to `deadline`, when it is killed: a hung guest under QEMU cannot
/// hang the suite. Both pipes are drained while it runs, so a chatty program cannot block.
pub fn run_with_deadline(cmd: &mut Command, deadline: std::time::Duration) -> Finished {
    use std::io::Read;
    let start = std::time::Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {:?}: {e}", cmd.get_program()));
    let mut pipes: Vec<Box<dyn Read + Send>> = Vec::new();
    pipes.extend(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    pipes.extend(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let readers: Vec<_> = pipes
        .into_iter()
        .map(|mut p| {
            std::thread::spawn(move || {
                let mut s = String::new();
                let _ = p.read_to_string(&mut s);
                s
            })
        })
        .collect();
    let status = loop {
        match child.try_wait().expect("wait for the child") {
            Some(status) => break status.code(),
            None if start.elapsed() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(std::time::Duration::from_millis(2)),
        }
    };
    let output = readers
        .into_iter()
        .map(|r| r.join().unwrap_or_default())
        .collect();
    Finished { status, output }
}

/// The device of the manifest's crate `name`: its inputs, as the manifest lists them, read and
/// validated by the generator's own pipeline (what `cargo run -p codegen` generates it from).
pub fn manifest_device(name: &str) -> armreg_codegen::ir::Device {
    use armreg_codegen::pipeline::{self, Input, Options, Report};
    let descriptions = root().join("descriptions");
    let text = std::fs::read_to_string(descriptions.join("manifest.toml")).unwrap();
    let manifest = armreg_codegen::manifest::parse("manifest.toml", &text)
        .unwrap_or_else(|d| panic!("the manifest does not parse: {d:?}"));
    let entry = manifest
        .crates
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("the manifest has no crate `{name}`"));
    let inputs: Vec<Input> = entry
        .inputs
        .iter()
        .map(|i| Input {
            path: descriptions.join(i),
            shown: format!("descriptions/{i}"),
        })
        .collect();
    let mut report = Report::default();
    let device = pipeline::load(&inputs, &Options::default(), &mut report);
    device.unwrap_or_else(|| panic!("`{name}` does not load: {:?}", report.diagnostics))
}

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(
        expected = "the Rust target `no-such-target` is not installed: run `rustup target add no-such-target`"
    )]
    fn a_missing_target_is_one_line_naming_rustup() {
        super::require_target("no-such-target");
    }

    #[test]
    #[should_panic(
        expected = "`armreg-no-such-program` is not installed: run `bash tests/qemu/install.sh`"
    )]
    fn a_missing_program_is_one_line_naming_its_install() {
        super::require_program("armreg-no-such-program", "bash tests/qemu/install.sh");
    }

    #[test]
    fn an_installed_target_and_program_pass() {
        super::require_program("rustc", "rustup");
        let host = std::process::Command::new("rustc")
            .arg("-vV")
            .output()
            .expect("rustc runs");
        let host = String::from_utf8_lossy(&host.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
            .expect("rustc names its host");
        super::require_target(&host);
    }
}
