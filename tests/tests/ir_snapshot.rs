//! Snapshots of the validated IR of every crate in the manifest: a change to a description or to
//! the frontend/passes shows up as a reviewable JSON diff (`cargo insta review`). A catalogue
//! (one module per input) is snapshot as its crate device, the cores its inputs name; its sets of
//! events are checked against the data by `generated_events.rs`.
use std::path::Path;

use armreg_codegen::pipeline::{self, Report};

#[test]
fn ir_of_every_manifest_description() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut report = Report::default();
    let loaded =
        pipeline::load_manifest(&root.join("descriptions/manifest.toml"), false, &mut report)
            .unwrap_or_else(|| panic!("the manifest is invalid:\n{}", report.render()));
    assert!(
        loaded.len() >= 3,
        "manifest lists the PMUv3, timer and DSU crates"
    );
    // Only vendored third-party files may have defects the frontend repairs (with a warning);
    // the project's own descriptions have none.
    for d in &report.diagnostics {
        assert!(
            !d.is_error() && d.pos.file.starts_with("descriptions/third-party/"),
            "{}",
            report.render()
        );
    }
    for l in loaded {
        insta::assert_json_snapshot!(l.entry.name.clone(), l.device);
    }
}
