//! The README's walk-through of adding a SoC description, done end to end in a scratch
//! repository: the description (`tests/docs/example/qemu-virt-pl011.toml`) and its manifest entry,
//! `codegen` to generate the crate (Rust, C headers and diagrams), then the crate used by a
//! small program (`tests/docs/example/app`) whose test runs on the host and which builds for
//! `aarch64-unknown-none`. The README quotes these files, so what it shows is what is tested.
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The manifest entry the README tells a newcomer to add.
const MANIFEST_ENTRY: &str = r#"[[crate]]
name = "qemu-virt-pl011"
inputs = ["qemu-virt-pl011.toml"]
c_headers = true
"#;

fn repo() -> PathBuf {
    fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap()
}

fn example() -> PathBuf {
    repo().join("tests/docs/example")
}

/// `cargo` for the example app, with nothing from the outer `cargo test` leaking in, building
/// into a target directory of its own that later runs reuse.
fn cargo(app: &Path, args: &[&str]) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(&cargo);
    cmd.current_dir(app)
        .args(args)
        .env("CARGO_TARGET_DIR", repo().join("target/readme-example"));
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
    ] {
        cmd.env_remove(var);
    }
    let out = cmd.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {} in {} failed:\n{}{}",
        args.join(" "),
        app.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::copy(from, to).unwrap_or_else(|e| panic!("{} → {}: {e}", from.display(), to.display()));
}

#[test]
fn adding_a_soc_description_end_to_end() {
    // The example builds for this target: without it, one line naming the command.
    let sysroot = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc runs");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    assert!(
        sysroot.join("lib/rustlib/aarch64-unknown-none/lib").is_dir(),
        "the Rust target `aarch64-unknown-none` is not installed: run `rustup target add aarch64-unknown-none`"
    );
    let scratch = tempfile::tempdir().unwrap();
    let root = scratch.path();
    // The repository's layout: descriptions/, generated/, and the runtime every crate uses.
    std::os::unix::fs::symlink(repo().join("runtime"), root.join("runtime")).unwrap();

    // 1. The description file. 2. Its manifest entry.
    copy(
        &example().join("qemu-virt-pl011.toml"),
        &root.join("descriptions/qemu-virt-pl011.toml"),
    );
    fs::write(root.join("descriptions/manifest.toml"), MANIFEST_ENTRY).unwrap();

    // 3. Regenerate (`cargo run -p codegen`), then check nothing drifts.
    for args in [&[][..], &["--check"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
            .current_dir(root)
            .args(args)
            .output()
            .expect("codegen runs");
        assert!(
            out.status.success(),
            "codegen {args:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let krate = root.join("generated/qemu-virt-pl011");
    for file in [
        "Cargo.toml",
        "src/lib.rs",
        "src/diagrams.rs",
        "src/layouts/mod.rs",
        "src/layouts/pl011_layouts.rs",
        "src/mmio/pl011.rs",
        "include/qemu_virt_pl011/layouts.h",
        "include/qemu_virt_pl011/pl011.h",
    ] {
        assert!(krate.join(file).is_file(), "the crate has no {file}");
    }
    let layouts = fs::read_to_string(krate.join("src/layouts/pl011_layouts.rs")).unwrap();
    assert!(layouts.contains("#[cfg_attr(doc, doc = diagram_Uartcr!())]"));
    let diagrams = fs::read_to_string(krate.join("src/diagrams.rs")).unwrap();
    assert!(diagrams.contains("aria-label=\"Bit fields of UARTCR\""));
    let header = fs::read_to_string(krate.join("include/qemu_virt_pl011/pl011.h")).unwrap();
    assert!(header.contains("#define QEMU_VIRT_PL011_UART0_BASE UINT32_C(0x9000000)"));

    // 4. Use the crate: the console runs on the host and builds for the board.
    let app = root.join("app");
    copy(&example().join("app/Cargo.toml"), &app.join("Cargo.toml"));
    copy(&example().join("app/src/lib.rs"), &app.join("src/lib.rs"));
    cargo(&app, &["test", "--offline"]);
    cargo(
        &app,
        &["build", "--offline", "--target", "aarch64-unknown-none"],
    );
}
