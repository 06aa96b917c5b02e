//! rp2040 patched: `tests/patches/rp2040.toml` on the vendored rp2040 SVD makes register arrays of
//! numbered registers, a cluster array of the DMA channels, identifiers of value names and one
//! type of each set of equal enums. The patched crate must be smaller than the unpatched one,
//! build, and serve the firmware of `tests/consumers/rp2040_patched.rs` (`pads.gpio().at::<3>()`,
//! `dma.ch().at::<3>().read_addr()`, `try_at(n)`), while an index past an array's end must not
//! compile.
//!
//! The crates are generated outside the repository into `armreg-patched-<hash of the checkout's
//! path>/` and share the target directory `target/consumers` with `consumers.rs`.
use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::{codegen_binary, root, scratch, target_subdir};

const SVD: &str = "descriptions/third-party/cmsis-svd-data/RaspberryPi/rp2040.svd";
const PATCH: &str = "tests/patches/rp2040.toml";
const NAME: &str = "rp2040-pac";

fn tree() -> PathBuf {
    scratch("patched")
}

fn target_dir() -> PathBuf {
    target_subdir("consumers")
}

/// Generates rp2040's crate into `<tree>/<folder>/`, with the patch or without.
fn generate(folder: &str, patched: bool) -> PathBuf {
    let out = tree().join(folder);
    let mut run = Command::new(codegen_binary());
    run.current_dir(root())
        .args(["generate", SVD, "-o"])
        .arg(&out)
        .args(["--name", NAME, "--force"]);
    if patched {
        run.args(["--patch", PATCH]);
    }
    let run = run.output().expect("the generator runs");
    assert!(
        run.status.success(),
        "generate: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

/// (Rust files, lines) of a crate's sources.
fn size(dir: &Path) -> (usize, usize) {
    let mut files = 0;
    let mut lines = 0;
    let mut stack = vec![dir.join("src")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files += 1;
                lines += std::fs::read_to_string(&p).unwrap().lines().count();
            }
        }
    }
    (files, lines)
}

/// Runs cargo in `dir` with `args`, warnings denied, in this test's target folder.
fn cargo(dir: &Path, args: &[&str]) -> Result<(), String> {
    integration_tests::cargo_denying_warnings(dir, &target_dir(), args)
}

#[test]
fn the_patched_crate_is_smaller_and_serves_arrays() {
    let plain = generate("plain", false);
    let patched = generate(NAME, true);
    let (plain_files, plain_lines) = size(&plain);
    let (files, lines) = size(&patched);
    println!("rp2040: {plain_files} files, {plain_lines} lines unpatched; {files} files, {lines} lines patched");
    // 30 GPIO pads, 30 GPIO status and control registers, 8 PWM slices ... are one each.
    assert!(
        lines * 10 < plain_lines * 9,
        "the patched crate has {lines} lines, the unpatched {plain_lines}: less than 10% saved"
    );
    let pads = std::fs::read_to_string(patched.join("src/mmio/pads_bank0.rs")).unwrap();
    assert!(pads.contains("pub fn gpio(&self)") && !pads.contains("pub fn gpio3(&self)"));
    // The 12 DMA channels' 192 registers are one block of 16, placed 12 times.
    let dma = std::fs::read_to_string(patched.join("src/mmio/dma.rs")).unwrap();
    assert!(
        dma.contains("pub fn ch(&self)")
            && dma.contains("pub fn read_addr(&self)")
            && !dma.contains("pub fn ch3_read_addr(&self)"),
        "DMA's channels are not one cluster array"
    );

    let source = std::fs::read_to_string(root().join("tests/consumers/rp2040_patched.rs")).unwrap();
    let features: Vec<&str> = source
        .lines()
        .find_map(|l| l.strip_prefix("//! features:"))
        .expect("the consumer names its features")
        .split_whitespace()
        .collect();
    let app = tree().join("consumer");
    std::fs::create_dir_all(app.join("src")).unwrap();
    std::fs::write(
        app.join("Cargo.toml"),
        format!(
            "[package]\nname = \"rp2040-patched-consumer\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\n{NAME} = {{ path = \"../{NAME}\", default-features = false, features = {features:?} }}\n\n\
             [workspace]\n"
        ),
    )
    .unwrap();
    std::fs::write(app.join("src/lib.rs"), &source).unwrap();
    if let Err(e) = cargo(&app, &["build", "--quiet", "--offline"]) {
        panic!("the firmware does not build on the patched crate:\n{e}");
    }
    // The arrays' bounds are the patch's counts: pad 30 and DMA channel 12 do not exist.
    for (access, why) in [
        (
            "mmio::pads_bank0() }.gpio().at::<30>().read()",
            "gpio().at::<30>() compiled, but rp2040 has 30 pads",
        ),
        (
            "mmio::dma() }.ch().at::<12>().read_addr().read()",
            "ch().at::<12>() compiled, but rp2040 has 12 DMA channels",
        ),
    ] {
        let past = format!(
            "{source}\npub fn past_the_end() {{\n    // SAFETY: never called.\n    let _ = unsafe {{ {access};\n}}\n"
        );
        std::fs::write(app.join("src/lib.rs"), past).unwrap();
        let error = cargo(&app, &["build", "--quiet", "--offline"]).expect_err(why);
        std::fs::write(app.join("src/lib.rs"), &source).unwrap();
        assert!(
            error.contains("register array index out of range"),
            "{error}"
        );
    }
    // The whole crate builds, every block at once.
    if let Err(e) = cargo(&patched, &["build", "--quiet", "--offline"]) {
        panic!("the patched crate does not build:\n{e}");
    }
}
