//! `aarch64-sysregs` selected family by family, as a firmware selects it: the crate with no
//! family at all, and every family alone (`--no-default-features --features <family>`), must
//! compile with warnings denied, for AArch64 (and the `aarch32` family for Armv7-A, the target
//! it is compiled for). A layout a family needs that its feature does not compile, or an alias of
//! a layout left out, fails here.
//!
//! The checks share two target directories under `target/sysreg-families`, two at a time (the
//! runtime is built once in each).
use std::path::PathBuf;

use integration_tests::{cargo_denying_warnings, root, target_subdir};

fn families() -> Vec<String> {
    let manifest: toml::Table =
        std::fs::read_to_string(root().join("generated/aarch64-sysregs/Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
    manifest["features"]["all"]
        .as_array()
        .expect("`all` lists the families")
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

/// `cargo check` of the crate with `features` alone, for `target`, in target directory `slot`.
fn check(features: &str, target: &str, slot: usize) -> Result<(), String> {
    let krate: PathBuf = root().join("generated/aarch64-sysregs");
    let dir = target_subdir(&format!("sysreg-families/{slot}"));
    let mut args = vec![
        "check",
        "--quiet",
        "--offline",
        "--target",
        target,
        "--no-default-features",
    ];
    if !features.is_empty() {
        args.extend(["--features", features]);
    }
    cargo_denying_warnings(&krate, &dir, &args)
}

#[test]
fn every_family_compiles_alone() {
    let families = families();
    assert!(families.len() > 50, "only {} families", families.len());
    let mut jobs: Vec<(String, &str)> = vec![(String::new(), "aarch64-unknown-none")];
    for f in &families {
        let target = if f == "aarch32" {
            "armv7a-none-eabi"
        } else {
            "aarch64-unknown-none"
        };
        jobs.push((f.clone(), target));
    }
    let failures: Vec<String> = std::thread::scope(|scope| {
        let halves: Vec<_> = (0..2)
            .map(|slot| {
                let mine: Vec<_> = jobs.iter().skip(slot).step_by(2).cloned().collect();
                scope.spawn(move || {
                    mine.iter()
                        .filter_map(|(f, t)| check(f, t, slot).err())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    println!(
        "aarch64-sysregs: {} families and the crate without any compile alone",
        families.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
