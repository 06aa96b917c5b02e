//! The generated types carry the access rules: each case in `tests/access-rules/` breaks one rule
//! and must fail to compile with the error checked in beside it
//! (`TRYBUILD=overwrite cargo test -p integration-tests --test access_rules` to bless).
#[test]
fn access_rules_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("access-rules/*.rs");
}

/// An array index past the end is refused when the program is built: `at::<N>()` asserts
/// `N < COUNT` in a `const` block, which `cargo check` (and so trybuild) does not evaluate, so
/// each case in `tests/array-bounds/` is built for real. The same program with the last valid
/// index must build, so a case cannot pass by failing for another reason.
#[test]
fn array_indices_past_the_end_do_not_build() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = tests.parent().unwrap();
    let scratch = repo.join("target/array-bounds");
    for case in ["sysreg", "mmio"] {
        let source =
            std::fs::read_to_string(tests.join(format!("array-bounds/{case}.rs"))).unwrap();
        assert!(
            source.contains("at::<31>()"),
            "{case}: the case indexes element 31"
        );
        for (index, must_build) in [("31", false), ("30", true)] {
            let dir = scratch.join(format!("{case}-{index}"));
            std::fs::create_dir_all(dir.join("src")).unwrap();
            std::fs::write(
                dir.join("Cargo.toml"),
                format!(
                    "[package]\nname = \"bounds-{case}-{index}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
                     publish = false\n\n[dependencies]\narm-pmuv3 = {{ path = {:?} }}\n\n[workspace]\n",
                    repo.join("generated/arm-pmuv3")
                ),
            )
            .unwrap();
            let program = source.replace("at::<31>()", &format!("at::<{index}>()"));
            std::fs::write(dir.join("src/main.rs"), program).unwrap();
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let out = std::process::Command::new(cargo)
                .args(["build", "--offline", "--quiet"])
                .current_dir(&dir)
                .env("CARGO_TARGET_DIR", scratch.join("target"))
                .env_remove("RUSTFLAGS")
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if must_build {
                assert!(
                    out.status.success(),
                    "{case} with index {index} must build:\n{stderr}"
                );
            } else {
                assert!(
                    !out.status.success(),
                    "{case} with index {index} must not build"
                );
                assert!(
                    stderr.contains("register array index out of range"),
                    "{case}: the error must say why:\n{stderr}"
                );
                println!(
                    "{case}, index {index}: {}",
                    stderr
                        .lines()
                        .find(|l| l.contains("out of range"))
                        .unwrap_or("")
                );
            }
        }
    }
}
