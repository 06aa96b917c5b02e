//! Per-block selection, as a firmware uses it: the crates generated from the vendored rp2040 and
//! nrf52840 SVDs are built with their default features off.
//!
//! - The firmware of `tests/consumers/<soc>.rs` names three blocks (its `features:` line) and must
//!   pass `cargo clippy -- -D warnings` for `thumbv7em-none-eabihf` with only those compiled.
//! - Every block must compile alone (`cargo check --no-default-features --features <block>`, with
//!   warnings denied), and so must the crate with no block at all: a layout a block needs but
//!   its feature does not compile, or an item left outside every feature, fails here. Each is
//!   documented alone too (`cargo doc`, rustdoc's warnings denied): a layout's page links only the
//!   registers of the blocks the build selects.
//!
//! The crates are generated outside the repository, as a user would, into
//! `armreg-consumers-<hash of the checkout's path>/`, and share the target directory
//! `target/consumers`, so the runtime is built once.
use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::{codegen_binary, root, scratch, target_subdir};

/// (SVD under the repository, generated crate's name, consumer source under `tests/consumers/`)
const SOCS: &[(&str, &str, &str)] = &[
    (
        "descriptions/third-party/cmsis-svd-data/RaspberryPi/rp2040.svd",
        "rp2040-pac",
        "rp2040.rs",
    ),
    (
        "descriptions/third-party/cmsis-svd-data/Nordic/nrf52840.svd",
        "nrf52840-pac",
        "nrf52840.rs",
    ),
];

fn tree() -> PathBuf {
    scratch("consumers")
}

fn target_dir() -> PathBuf {
    target_subdir("consumers")
}

/// Runs cargo in `dir` with `args`, warnings denied, in this test's target folder.
fn cargo(dir: &Path, args: &[&str]) -> Result<(), String> {
    integration_tests::cargo_denying_warnings(dir, &target_dir(), args)
}

/// Generates the crate `name` from `svd` into the tree once (both tests use it); returns its
/// folder.
fn generate(svd: &str, name: &str) -> PathBuf {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = LOCK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let out = tree().join(name);
    let run = Command::new(codegen_binary())
        .current_dir(root())
        .args(["generate", svd, "-o"])
        .arg(&out)
        .args(["--name", name])
        .output()
        .expect("the generator runs");
    assert!(
        run.status.success(),
        "generate {svd}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

/// The `all` feature's list in a generated `Cargo.toml`: every block's feature.
fn block_features(krate: &Path) -> Vec<String> {
    let manifest: toml::Table = std::fs::read_to_string(krate.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    manifest["features"]["all"]
        .as_array()
        .expect("`all` lists the blocks")
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

/// The features a consumer source names on its `//! features:` line.
fn consumer_features(source: &str) -> Vec<String> {
    source
        .lines()
        .find_map(|l| l.strip_prefix("//! features:"))
        .expect("the consumer names its features")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_firmware_compiles_only_the_blocks_it_names() {
    integration_tests::require_target("thumbv7em-none-eabihf");
    let mut failures = Vec::new();
    for &(svd, name, consumer) in SOCS {
        let krate = generate(svd, name);
        let source =
            std::fs::read_to_string(root().join("tests/consumers").join(consumer)).unwrap();
        let features = consumer_features(&source);
        let all = block_features(&krate);
        for f in &features {
            assert!(all.contains(f), "{consumer}: {name} has no feature `{f}`");
        }
        let app = tree().join(format!("{name}-consumer"));
        std::fs::create_dir_all(app.join("src")).unwrap();
        std::fs::write(
            app.join("Cargo.toml"),
            format!(
                "[package]\nname = \"{name}-consumer\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
                 [dependencies]\n{name} = {{ path = \"../{name}\", default-features = false, features = {features:?} }}\n\n\
                 [workspace]\n"
            ),
        )
        .unwrap();
        std::fs::write(app.join("src/lib.rs"), &source).unwrap();
        failures.extend(
            cargo(
                &app,
                &[
                    "clippy",
                    "--quiet",
                    "--offline",
                    "--target",
                    "thumbv7em-none-eabihf",
                ],
            )
            .err(),
        );
        // The selection is real: a block left out is not there to use.
        let unselected = all.iter().find(|f| !features.contains(f)).unwrap();
        let probe = format!(
            "{source}\npub use {}::mmio::{};\n",
            name.replace('-', "_"),
            // The block's type is its feature in CamelCase, as the generator names it.
            armreg_codegen::names::ident(unselected, armreg_codegen::names::Case::Camel).unwrap(),
        );
        std::fs::write(app.join("src/lib.rs"), probe).unwrap();
        assert!(
            cargo(&app, &["check", "--quiet", "--offline"]).is_err(),
            "{name}: block `{unselected}` compiled though the firmware did not select it"
        );
        // ...and the same line compiles once the block is selected, so the path it names is right.
        let with_it = format!("{name}/{unselected}");
        if let Err(e) = cargo(
            &app,
            &["check", "--quiet", "--offline", "--features", &with_it],
        ) {
            failures.push(format!("selecting `{unselected}` does not bring it:\n{e}"));
        }
        std::fs::write(app.join("src/lib.rs"), &source).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_block_compiles_alone() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for &(svd, name, _) in SOCS {
        let krate = generate(svd, name);
        // Each check changes only the features: the runtime stays built.
        failures.extend(
            cargo(
                &krate,
                &["check", "--quiet", "--offline", "--no-default-features"],
            )
            .err(),
        );
        for feature in block_features(&krate) {
            let only = [
                "--quiet",
                "--offline",
                "--no-default-features",
                "--features",
                feature.as_str(),
            ];
            failures.extend(cargo(&krate, &[&["check"][..], &only].concat()).err());
            // Documented alone too: its layouts' pages link no register of a block left out.
            failures.extend(cargo(&krate, &[&["doc", "--no-deps"][..], &only].concat()).err());
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} blocks");
    println!("{checked} blocks compile and document alone");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
