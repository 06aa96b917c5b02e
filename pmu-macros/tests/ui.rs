//! Every compile error the macros give, as trybuild cases in `tests/ui/` with the expected
//! compiler output checked in beside each (`TRYBUILD=overwrite cargo test -p pmu-macros --test ui`
//! to bless).
use std::path::{Path, PathBuf};

#[test]
fn compile_errors() {
    provide_fixtures();
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

/// trybuild builds the cases as a crate of its own in `<target>/tests/trybuild/pmu-macros/`, so
/// `json = "tests/fixtures/..."` (relative to the calling crate's manifest, as for any user) is
/// resolved there. Copying the fixtures beside that manifest lets the cases use the same paths as
/// the expansion tests, and keeps messages free of machine-specific absolute paths.
fn provide_fixtures() {
    // CARGO_TARGET_TMPDIR is `<target>/tmp`: its parent is the target directory trybuild uses.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let project = target.join("tests/trybuild/pmu-macros");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    copy_dir(&source, &project.join("tests/fixtures"));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("creating {}: {e}", to.display()));
    let entries =
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("reading {}: {e}", from.display()));
    for entry in entries {
        let path: PathBuf = entry.expect("a fixture entry").path();
        let dest = to.join(path.file_name().expect("a file name"));
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            std::fs::copy(&path, &dest)
                .unwrap_or_else(|e| panic!("copying {}: {e}", path.display()));
        }
    }
}
