//! The generated types carry the access rules: each case in `tests/access-rules/` breaks one rule
//! and must fail to compile with the error checked in beside it
//! (`TRYBUILD=overwrite cargo test -p integration-tests --test access_rules` to bless).
#[test]
fn access_rules_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("access-rules/*.rs");
}

/// What is refused when the program is built, not when it is checked: an array index past the
/// end (`at::<N>()` asserts `N < COUNT` in a `const` block) and a constant too wide for its
/// field (`Const::<V>` asserts it fits), which `cargo check` (and so trybuild) does not
/// evaluate, so each case in `tests/build-checks/` is built for real. The same program with the
/// last valid value must build, so a case cannot pass by failing for another reason.
#[test]
fn build_time_checks_refuse_what_does_not_fit() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = tests.parent().unwrap();
    let scratch = repo.join("target/build-checks");
    let cases = [
        (
            "sysreg",
            "at::<31>()",
            "at::<30>()",
            "register array index out of range",
        ),
        (
            "mmio",
            "at::<31>()",
            "at::<30>()",
            "register array index out of range",
        ),
        (
            "const_width",
            "Const::<32>",
            "Const::<31>",
            "the constant is wider than its field",
        ),
    ];
    for (case, bad, good, reason) in cases {
        let source =
            std::fs::read_to_string(tests.join(format!("build-checks/{case}.rs"))).unwrap();
        assert!(source.contains(bad), "{case}: the case uses `{bad}`");
        for (value, must_build) in [(bad, false), (good, true)] {
            let dir = scratch.join(format!("{case}-{}", must_build as u8));
            std::fs::create_dir_all(dir.join("src")).unwrap();
            std::fs::write(
                dir.join("Cargo.toml"),
                format!(
                    "[package]\nname = \"build-check-{}-{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
                     publish = false\n\n[dependencies]\narm-pmuv3 = {{ path = {:?} }}\narmreg-rt = {{ path = {:?} }}\n\n[workspace]\n",
                    case.replace('_', "-"),
                    must_build as u8,
                    repo.join("generated/arm-pmuv3"),
                    repo.join("runtime"),
                ),
            )
            .unwrap();
            std::fs::write(dir.join("src/main.rs"), source.replace(bad, value)).unwrap();
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
                    "{case} with `{value}` must build:\n{stderr}"
                );
            } else {
                assert!(
                    !out.status.success(),
                    "{case} with `{value}` must not build"
                );
                assert!(
                    stderr.contains(reason),
                    "{case}: the error must say why:\n{stderr}"
                );
                println!(
                    "{case}, `{value}`: {}",
                    stderr.lines().find(|l| l.contains(reason)).unwrap_or("")
                );
            }
        }
    }
}
