//! The crates package like real Rust crates, and a user could take them from a registry.
//!
//! 1. `cargo package` (verified: each package builds from its own tarball) of the runtime, the
//!    event and macro crates, the driver and every crate of `generated/`; their versions agree.
//! 2. A local registry (a cargo "directory source") of those packages and of the crates.io
//!    packages they depend on, taken from cargo's own download cache: nothing is fetched.
//! 3. A crate freshly generated from the vendored `rp2040.svd` into a folder outside the
//!    repository, packaged and verified against that registry, and added to it.
//! 4. A scratch crate outside the repository that depends **by version only** on `arm-pmuv3`,
//!    `pmu-driver` and the generated crate, with crates.io replaced by that registry, builds for
//!    `aarch64-unknown-none` offline, and every one of those three came from the registry.
//!
//! The sizes `cargo package` reports are printed (`-- --nocapture`).
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cargo(dir: &Path) -> Command {
    integration_tests::cargo_in(dir)
}

fn run(cmd: &mut Command, what: &str) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The packages of the workspace that are published: every member without `publish = false`.
fn publishable(root: &Path) -> Vec<(String, String, PathBuf)> {
    let out = run(
        cargo(root).args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ]),
        "cargo metadata",
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["version"].as_str().unwrap().to_string(),
                PathBuf::from(p["manifest_path"].as_str().unwrap()),
            )
        })
        .collect()
}

/// `name version` → "Packaged N files, X (Y compressed)", from `cargo package`'s output.
fn sizes(stderr: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current = None;
    for line in stderr.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Packaging ") {
            current = rest.split(" (").next().map(str::to_string);
        } else if let (Some(rest), Some(name)) = (line.strip_prefix("Packaged "), &current) {
            out.push((name.clone(), rest.to_string()));
        }
    }
    out
}

fn sha256(path: &Path) -> String {
    let out = run(Command::new("sha256sum").arg(path), "sha256sum");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// Unpacks a `.crate` into the directory source `registry`, with the checksum file cargo wants.
fn add_to_registry(registry: &Path, krate: &Path) {
    run(
        Command::new("tar")
            .args(["-xzf"])
            .arg(krate)
            .arg("-C")
            .arg(registry),
        "tar",
    );
    let stem = krate.file_stem().unwrap().to_string_lossy().into_owned();
    let checksum = format!("{{\"files\":{{}},\"package\":\"{}\"}}", sha256(krate));
    std::fs::write(registry.join(stem).join(".cargo-checksum.json"), checksum).unwrap();
}

/// The crates.io packages of the workspace's lock file (`name-version`). Cargo resolves a lock
/// file for every target and needs optional dependencies to be resolvable too, so the registry
/// holds the whole set rather than what one build compiles.
fn locked_crates_io_packages(root: &Path) -> Vec<String> {
    let lock: toml::Table = std::fs::read_to_string(root.join("Cargo.lock"))
        .unwrap()
        .parse()
        .unwrap();
    lock["package"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| {
            p.get("source")
                .and_then(toml::Value::as_str)
                .is_some_and(|s| {
                    s.starts_with("registry+https://github.com/rust-lang/crates.io-index")
                })
        })
        .map(|p| {
            format!(
                "{}-{}",
                p["name"].as_str().unwrap(),
                p["version"].as_str().unwrap()
            )
        })
        .collect()
}

/// `cargo package` verifies each package against the others through a local registry, and cargo
/// unpacks a local registry's packages into `$CARGO_HOME/registry/src/-<hash of its path>/` once
/// and never again: a later run with the same registry path would build an earlier run's
/// packages, and every run would leave a copy behind. Those unpacked copies of this workspace's
/// packages (names no crates.io package has; local registries only, whose folders start with
/// `-`) are removed before and after the test, and a folder left empty with them.
fn forget_unpacked_packages(crates: &[(String, String, PathBuf)]) {
    let src = cargo_home().join("registry/src");
    for registry in std::fs::read_dir(&src).into_iter().flatten().flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for (name, version, _) in crates {
            let _ = std::fs::remove_dir_all(registry.path().join(format!("{name}-{version}")));
        }
        // Fails, as it should, while anything else is in it.
        let _ = std::fs::remove_dir(registry.path());
    }
}

fn cargo_home() -> PathBuf {
    std::env::var_os("CARGO_HOME").map_or_else(
        || PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cargo"),
        PathBuf::from,
    )
}

/// Where cargo keeps the `.crate` files it downloaded from crates.io.
fn download_cache() -> Vec<PathBuf> {
    std::fs::read_dir(cargo_home().join("registry/cache"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

#[test]
fn crates_package_and_build_from_a_registry_by_version() {
    integration_tests::require_target("aarch64-unknown-none");
    let root = integration_tests::root();
    let scratch = tempfile::tempdir().unwrap();
    let mut report = String::new();

    // 1. Every publishable crate of the workspace, one version for all.
    let crates = publishable(&root);
    let versions: BTreeMap<&str, Vec<&str>> =
        crates.iter().fold(BTreeMap::new(), |mut m, (n, v, _)| {
            m.entry(v.as_str()).or_default().push(n.as_str());
            m
        });
    assert_eq!(
        versions.len(),
        1,
        "the published crates' versions differ: {versions:?}"
    );
    let version = versions.keys().next().unwrap().to_string();
    for expected in [
        "armreg-rt",
        "pmu-events",
        "pmu-macros",
        "pmu-driver",
        "arm-pmuv3",
    ] {
        assert!(
            crates.iter().any(|(n, _, _)| n == expected),
            "{expected} is not published"
        );
    }
    let generated = std::fs::read_dir(root.join("generated")).unwrap().count();
    assert_eq!(
        crates
            .iter()
            .filter(|(_, _, m)| m.starts_with(root.join("generated")))
            .count(),
        generated,
        "every crate of generated/ is published"
    );
    forget_unpacked_packages(&crates);
    // A fresh target directory: cargo treats a registry package of a given name and version as
    // immutable, so artifacts compiled from an earlier run's tarballs would be reused.
    let package_target = scratch.path().join("target");
    let mut package = cargo(&root);
    package
        .args(["package", "--offline", "--allow-dirty", "--target-dir"])
        .arg(&package_target);
    for (name, _, _) in &crates {
        package.args(["-p", name]);
    }
    let out = run(&mut package, "cargo package (the workspace's crates)");
    let mut packaged = sizes(&String::from_utf8_lossy(&out.stderr));

    // 2. The registry: our packages and the crates.io packages they need.
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    let ours = package_target.join("package");
    for (name, v, _) in &crates {
        add_to_registry(&registry, &ours.join(format!("{name}-{v}.crate")));
    }
    // Packages for other platforms were never downloaded; none of them is needed here (a build
    // that needed one would fail, naming it).
    let caches = download_cache();
    let mut needed = Vec::new();
    for package in locked_crates_io_packages(&root) {
        let file = caches
            .iter()
            .map(|c| c.join(format!("{package}.crate")))
            .find(|f| f.is_file());
        if let Some(file) = file {
            add_to_registry(&registry, &file);
            needed.push(package);
        }
    }
    // Cargo settings that take every crates.io package from the registry.
    let from_registry = [
        "--config".to_string(),
        "source.crates-io.replace-with=\"armreg-local\"".to_string(),
        "--config".to_string(),
        format!("source.armreg-local.directory=\"{}\"", registry.display()),
    ];

    // 3. A crate generated from a vendor SVD outside the repository, packaged and verified
    //    against the registry (its armreg-rt is the packaged one), then added to it.
    let pac = scratch.path().join("rp2040-pac");
    let svd = root.join("descriptions/third-party/cmsis-svd-data/RaspberryPi/rp2040.svd");
    let codegen = integration_tests::codegen_binary();
    run(
        Command::new(&codegen)
            .arg("generate")
            .arg(&svd)
            .arg("-o")
            .arg(&pac),
        "armreg-codegen generate rp2040.svd",
    );
    let out = run(
        cargo(&pac)
            .args(["package", "--offline", "--allow-dirty"])
            .args(&from_registry)
            .arg("--target-dir")
            .arg(scratch.path().join("pac-target")),
        "cargo package (the generated crate)",
    );
    packaged.extend(sizes(&String::from_utf8_lossy(&out.stderr)));
    add_to_registry(
        &registry,
        &scratch
            .path()
            .join("pac-target/package/rp2040-pac-0.1.0.crate"),
    );

    // 4. A user's crate, by version only.
    let user = scratch.path().join("firmware");
    std::fs::create_dir_all(user.join("src")).unwrap();
    std::fs::create_dir_all(user.join(".cargo")).unwrap();
    std::fs::write(
        user.join("Cargo.toml"),
        format!(
            "[package]\nname = \"firmware\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
             [dependencies]\narm-pmuv3 = \"{version}\"\npmu-driver = \"{version}\"\n\
             rp2040-pac = \"0.1.0\"\n"
        ),
    )
    .unwrap();
    // As a user would configure a mirror: crates.io replaced by the registry.
    std::fs::write(
        user.join(".cargo/config.toml"),
        format!(
            "[source.crates-io]\nreplace-with = \"armreg-local\"\n\n\
             [source.armreg-local]\ndirectory = \"{}\"\n",
            registry.display()
        ),
    )
    .unwrap();
    std::fs::write(user.join("src/lib.rs"), FIRMWARE).unwrap();
    let target_dir = scratch.path().join("user-target");
    let out = run(
        cargo(&user)
            .args([
                "build",
                "--offline",
                "--release",
                "--target",
                "aarch64-unknown-none",
                "--target-dir",
            ])
            .arg(&target_dir),
        "the user's crate from the registry",
    );
    let built = String::from_utf8_lossy(&out.stderr);
    let meta = run(
        cargo(&user).args(["metadata", "--format-version", "1", "--offline"]),
        "cargo metadata (the user's crate)",
    );
    let meta: serde_json::Value = serde_json::from_slice(&meta.stdout).unwrap();
    for name in ["arm-pmuv3", "pmu-driver", "rp2040-pac", "armreg-rt"] {
        let p = meta["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} is not in the user's build"));
        let manifest = PathBuf::from(p["manifest_path"].as_str().unwrap());
        assert!(
            manifest.starts_with(&registry),
            "{name} came from {} instead of the registry",
            manifest.display()
        );
    }

    let _ = writeln!(report, "\npackages (`cargo package`):");
    for (name, size) in &packaged {
        let _ = writeln!(report, "  {name:<32} {size}");
    }
    let _ = writeln!(
        report,
        "registry: {} packages of ours, {} from crates.io; the user's crate: {}",
        crates.len() + 1,
        needed.len(),
        built.lines().last().unwrap_or("").trim()
    );
    println!("{report}");
    forget_unpacked_packages(&crates);
}

/// The user's firmware: a PMU through the driver, a register of arm-pmuv3 by hand, and a block of
/// the generated SoC crate.
const FIRMWARE: &str = r#"#![no_std]
use arm_pmuv3::aarch64::PMCR_EL0;
use arm_pmuv3::Pmcr;
use pmu_driver::{Aarch64, Event, Filter, Pmu};

/// Counts cycles and L1D accesses over `work`.
pub fn profile(work: fn() -> u32) -> Result<(u64, u64), pmu_driver::Error> {
    PMCR_EL0::modify(|v| v.with(Pmcr::LC, true));
    let pmu = Pmu::new(Aarch64)?;
    let m = pmu.measurer([Event::L1D_CACHE], Filter::EL0_EL1)?;
    pmu.start();
    let (_, counts) = pmu.measure(&m, || work());
    Ok((counts.cycles, counts.events[0]))
}

/// The RP2040's watchdog block at its address.
pub fn watchdog() -> rp2040_pac::mmio::Watchdog {
    // SAFETY: the RP2040's WATCHDOG block is at this address (the vendor's SVD).
    unsafe { rp2040_pac::mmio::Watchdog::new(0x4005_8000) }
}
"#;
