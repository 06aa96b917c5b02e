//! Constructs of CMSIS-SVD 1.3 in generated crates that run: values with don't-care bits,
//! the processor and interrupt constants, named array elements, field arrays and nested cluster arrays. The crates are generated
//! from `codegen/tests/svd/` (whose IR `codegen/tests/svd_constructs.rs` checks) outside the
//! repository, as a user would, and `tests/svd-constructs/consumer.rs` is built against them and
//! its tests run on the host.
use std::path::PathBuf;
use std::process::Command;

use integration_tests::{cargo_in, codegen_binary, root, scratch, target_subdir};

/// The constructs the consumer uses, each its own crate (named after the file).
const CONSTRUCTS: &[&str] = &["enum_dont_care", "metadata", "arrays", "nested_clusters"];

fn tree() -> PathBuf {
    scratch("svd-constructs")
}

#[test]
fn generated_crates_behave_as_the_constructs_say() {
    let tree = tree();
    let mut dependencies = String::new();
    for construct in CONSTRUCTS {
        let out = tree.join(construct);
        let run = Command::new(codegen_binary())
            .current_dir(root())
            .args([
                "generate",
                &format!("codegen/tests/svd/{construct}.svd"),
                "-o",
            ])
            .arg(&out)
            .args(["--name", construct, "--license", "MIT"])
            .output()
            .expect("the generator runs");
        assert!(
            run.status.success(),
            "generate {construct}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        dependencies.push_str(&format!("{construct} = {{ path = \"../{construct}\" }}\n"));
    }
    let app = tree.join("consumer");
    std::fs::create_dir_all(app.join("src")).unwrap();
    std::fs::write(
        app.join("Cargo.toml"),
        format!(
            "[package]\nname = \"consumer\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{dependencies}\n[workspace]\n"
        ),
    )
    .unwrap();
    std::fs::copy(
        root().join("tests/svd-constructs/consumer.rs"),
        app.join("src/lib.rs"),
    )
    .unwrap();
    let target = target_subdir("svd-constructs");
    let out = cargo_in(&app)
        .args(["test", "--quiet", "--offline"])
        .env("CARGO_TARGET_DIR", target)
        .env("RUSTFLAGS", "-D warnings")
        .output()
        .expect("cargo runs");
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the consumer's tests failed:\n{shown}"
    );
    assert!(
        shown.contains("5 passed"),
        "expected the consumer's five tests to run:\n{shown}"
    );
}
