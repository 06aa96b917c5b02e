//! A user's crate outside the workspace, made both ways the README gives:
//! - the build-script route: `tests/build-script-user/` (the README's `Cargo.toml` and `build.rs`:
//!   `armreg-codegen` without default features as a build-dependency, `armreg-rt`, and a build
//!   script that allows a vendor's known defect) copied out of the repository with its two paths
//!   pointed at this checkout;
//! - the `generate` route: the same SVD made into a crate with `armreg-codegen generate`, and a
//!   firmware crate that depends on it by path, selecting a derived instance (`GPIOB`, whose block
//!   is `GPIOA`'s) by its own feature and naming its type by its own name.
//!
//! Each builds for the host and for `thumbv7em-none-eabihf` (`rustup target add
//! thumbv7em-none-eabihf`; `tests/run.sh` installs it), warnings denied, offline, resolved with the
//! workspace's lock file.
use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::{cargo_in, codegen_binary, root, scratch, target_subdir};

/// The Cortex-M target the README's firmware builds for.
const THUMB: &str = "thumbv7em-none-eabihf";

/// An empty folder `what` outside the repository.
fn fresh(what: &str) -> PathBuf {
    let dir = scratch(what);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear the previous copy");
    }
    std::fs::create_dir_all(&dir).expect("create the folder");
    dir
}

/// `cargo build --offline` in `dir` (for `target` when given), warnings denied; cargo's standard
/// error. Fails naming the command when the build fails.
fn build(dir: &Path, target: Option<&str>, target_dir: &Path) -> String {
    if let Some(t) = target {
        let installed = Command::new("rustup")
            .args(["target", "list", "--installed"])
            .output()
            .expect("rustup runs");
        assert!(
            String::from_utf8_lossy(&installed.stdout)
                .lines()
                .any(|l| l == t),
            "the {t} target is not installed: run `rustup target add {t}`"
        );
    }
    let mut cmd = cargo_in(dir);
    cmd.args(["build", "--offline"]);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    let out = cmd
        .env("CARGO_TARGET_DIR", target_dir)
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "`cargo build --offline{}` in {} failed:\n{stderr}",
        target.map(|t| format!(" --target {t}")).unwrap_or_default(),
        dir.display()
    );
    stderr
}

/// The build script's output (`target/<profile>/build/<package>-<hash>/output`) cargo wrote last.
fn build_script_output(target_dir: &Path, package: &str) -> String {
    let build = target_dir.join("debug/build");
    let newest = std::fs::read_dir(&build)
        .expect("a build folder")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{package}-"))
        })
        .map(|e| e.path().join("output"))
        .filter(|p| p.is_file())
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .unwrap_or_else(|| panic!("no build script output of {package} in {}", build.display()));
    std::fs::read_to_string(newest).expect("read the output")
}

#[test]
fn the_build_script_route_builds_as_the_readme_writes_it() {
    let repo = root();
    let from = repo.join("tests/build-script-user");
    let dir = fresh("build-script-user");
    for file in ["Cargo.toml", "build.rs", "src/lib.rs", "registers/soc.svd"] {
        std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
        std::fs::copy(from.join(file), dir.join(file)).expect("copy the crate");
    }
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let pointed = manifest
        .replace(
            "path = \"../../runtime\"",
            &format!("path = {:?}", repo.join("runtime")),
        )
        .replace(
            "path = \"../../codegen\"",
            &format!("path = {:?}", repo.join("codegen")),
        );
    assert!(
        !pointed.contains("\"../"),
        "a relative path is left:\n{pointed}"
    );
    // The library without the command: no clap, no templates, no site.
    assert!(pointed.contains("default-features = false"), "{pointed}");
    std::fs::write(dir.join("Cargo.toml"), pointed).unwrap();
    std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let target_dir = target_subdir("outside-crates");
    let stderr = build(&dir, None, &target_dir);
    // The allowed defect is not a cargo warning; its count is in the build script's output.
    assert!(!stderr.contains("warning"), "{stderr}");
    let output = build_script_output(&target_dir, "soc-regs");
    assert!(
        output.contains("armreg-codegen: 1 warning allowed: no_duplicate_names"),
        "{output}"
    );
    assert!(
        output.contains("cargo:rerun-if-changed=registers/soc.svd"),
        "{output}"
    );
    build(&dir, Some(THUMB), &target_dir);

    // The library's dependencies: none of what only the command needs.
    let tree = cargo_in(&dir)
        .args([
            "tree",
            "--offline",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ])
        .output()
        .expect("cargo tree runs");
    let tree = String::from_utf8_lossy(&tree.stdout);
    for left_out in ["clap ", "minijinja ", "mimalloc "] {
        assert!(!tree.contains(left_out), "{left_out}in the build:\n{tree}");
    }
}

#[test]
fn a_crate_made_by_generate_builds_in_a_users_crate() {
    let repo = root();
    let dir = fresh("generate-route");
    let pac = dir.join("soc-pac");
    let out = Command::new(codegen_binary())
        .arg("generate")
        .arg(repo.join("tests/build-script-user/registers/soc.svd"))
        .arg("-o")
        .arg(&pac)
        .args(["--license", "MIT", "--allow", "no_duplicate_names"])
        .output()
        .expect("armreg-codegen runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "generate failed:\n{stderr}");
    assert_eq!(
        stderr.trim(),
        "note: 1 warning allowed: no_duplicate_names",
        "the allowed warning is counted, not shown"
    );
    // The docs of a field array and of a layout read as English and link the field constants.
    let gpio = std::fs::read_to_string(pac.join("src/layouts/gpioa_layouts.rs")).unwrap();
    assert!(
        gpio.contains("16 fields of 1 bit, 1 bit apart from bit 0: `PIN0`, `PIN1`,"),
        "{gpio}"
    );
    assert!(gpio.contains("Reset: 0x0 each."), "{gpio}");
    let uart = std::fs::read_to_string(pac.join("src/layouts/uart0_layouts.rs")).unwrap();
    assert!(
        uart.contains("| \\[0\\] | [`EN`](Self::EN) | read/write | 0x0 | Enable |"),
        "{uart}"
    );
    assert!(uart.contains("an `enum` without variants"), "{uart}");
    let firmware = dir.join("firmware");
    std::fs::create_dir_all(firmware.join("src")).unwrap();
    std::fs::write(
        firmware.join("Cargo.toml"),
        "[package]\nname = \"firmware\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
         [dependencies]\nsoc-pac = { path = \"../soc-pac\", default-features = false, \
         features = [\"uart0\", \"gpiob\"] }\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        firmware.join("src/lib.rs"),
        "#![no_std]\n\
         /// Turns the UART on.\n\
         pub fn enable_uart() {\n    \
             // SAFETY: UART0 is at this address (soc.svd).\n    \
             let uart = unsafe { soc_pac::mmio::Uart0::new(0x4000_1000) };\n    \
             uart.ctrl().modify(|v| v.with(soc_pac::Uart0Ctrl::EN, true));\n\
         }\n\
         /// Port B, by its own name and feature (its block is GPIOA's).\n\
         pub fn port_b() -> soc_pac::mmio::Gpiob {\n    \
             // SAFETY: GPIOB is at this address (soc.svd).\n    \
             unsafe { soc_pac::mmio::gpiob() }\n\
         }\n",
    )
    .unwrap();
    std::fs::copy(repo.join("Cargo.lock"), firmware.join("Cargo.lock")).unwrap();
    let target_dir = target_subdir("outside-crates");
    build(&firmware, None, &target_dir);
    build(&firmware, Some(THUMB), &target_dir);
}
