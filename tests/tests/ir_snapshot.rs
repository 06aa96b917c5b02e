//! Snapshots of the validated IR of every description in the manifest: a change to a description
//! or to the frontend/passes shows up as a reviewable JSON diff (`cargo insta review`).
use std::path::Path;

use codegen::pipeline::{self, Input, Report};

#[test]
fn ir_of_every_manifest_description() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = std::fs::read_to_string(root.join("descriptions/manifest.toml")).unwrap();
    let entries = codegen::manifest::parse("descriptions/manifest.toml", &manifest)
        .unwrap()
        .crates;
    assert!(
        entries.len() >= 3,
        "manifest lists the PMUv3, timer and DSU crates"
    );
    for entry in entries {
        let inputs: Vec<Input> = entry
            .inputs
            .iter()
            .map(|i| Input {
                path: root.join("descriptions").join(i),
                shown: format!("descriptions/{i}"),
            })
            .collect();
        let mut report = Report::default();
        let device = pipeline::load(
            &inputs,
            &pipeline::Options {
                format: entry.format,
                strict: entry.strict,
                ..Default::default()
            },
            &mut report,
        )
        .unwrap_or_else(|| panic!("{} is invalid:\n{}", entry.name, report.render()));
        // Only vendored third-party files may have defects the frontend repairs (with a warning);
        // the project's own descriptions have none.
        let vendored = entry.inputs.iter().all(|i| i.starts_with("third-party/"));
        assert!(
            report.diagnostics.iter().all(|d| vendored && !d.is_error()),
            "{}",
            report.render()
        );
        insta::assert_json_snapshot!(entry.name.clone(), device);
    }
}
