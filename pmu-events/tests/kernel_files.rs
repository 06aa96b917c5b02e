//! Reads Linux 6.12's own perf JSON for arm64: the files come from Debian's `linux-source-6.12`,
//! extracted into the repository's `target/linux-6.12/` by `tests/linux/extract.sh` (which
//! `tests/run.sh` runs first). They are GPL-2.0, so the repository does not carry them; without
//! them these tests fail, saying how to get them.
use std::path::{Path, PathBuf};

fn arm64() -> PathBuf {
    let linux = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/linux-6.12");
    assert!(
        linux.join(".complete").is_file(),
        "the Linux 6.12 files are missing: expected them in {} (run `bash tests/linux/extract.sh`)",
        linux.display()
    );
    linux.join("tools/perf/pmu-events/arch/arm64")
}

/// Entries counted independently of the crate: every object of every `*.json` in `path`.
fn count_entries(path: &Path) -> usize {
    let files: Vec<PathBuf> = if path.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    files
        .iter()
        .map(|f| {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            v.as_array().unwrap().len()
        })
        .sum()
}

#[test]
fn imports_generic_a53_and_a57_a72_with_every_entry() {
    let root = arm64();
    for rel in [
        "common-and-microarch.json",
        "recommended.json",
        "arm/cortex-a53",
        "arm/cortex-a57-a72",
    ] {
        let path = root.join(rel);
        let import = pmu_events::import(&path, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(import.events.len(), count_entries(&path), "{rel}");
        assert!(import.events.iter().all(|e| !e.name.is_empty()), "{rel}");
    }
}

/// The names of the arm64 standard metrics (`sbsa.json`), read independently of the crate.
fn standard_metrics(root: &Path) -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("sbsa.json")).unwrap()).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["MetricName"].as_str().map(str::to_ascii_lowercase))
        .collect()
}

/// Objects of a core folder that are the core's events: not metrics, not references to a
/// standard metric, not events of another PMU (`Unit`).
fn count_events(dir: &Path, metrics: &[String]) -> usize {
    let mut n = 0;
    for file in std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()) {
        if file.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        n += v
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| {
                o.get("MetricName").is_none()
                    && o.get("MetricExpr").is_none()
                    && o.get("Unit").is_none()
                    && !o["ArchStdEvent"]
                        .as_str()
                        .is_some_and(|r| metrics.contains(&r.to_ascii_lowercase()))
            })
            .count();
    }
    n
}

/// Every folder `mapfile.csv` names for a core imports, with every event: the Arm cores' folders
/// name the standard metrics of `sbsa.json` by `ArchStdEvent` too, and HiSilicon's hold uncore
/// events (`Unit`); neither is a core event.
#[test]
fn every_core_folder_of_the_mapfile_imports() {
    let root = arm64();
    let metrics = standard_metrics(&root);
    assert!(metrics.len() >= 4, "sbsa.json's metrics: {metrics:?}");
    let rows = pmu_events::read_mapfile(&root.join("mapfile.csv")).unwrap();
    let mut folders: Vec<&str> = rows
        .iter()
        .filter(|r| r.kind == "core")
        .map(|r| r.path.as_str())
        .collect();
    folders.sort_unstable();
    folders.dedup();
    assert!(folders.len() >= 20, "{folders:?}");
    let mut total = 0;
    for folder in &folders {
        let dir = root.join(folder);
        let import = pmu_events::import(&dir, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            import.events.len(),
            count_events(&dir, &metrics),
            "{folder}"
        );
        total += import.events.len();
    }
    println!("{} core folders, {total} events", folders.len());
}

#[test]
fn a53_references_resolve_to_the_architectural_events() {
    let import = pmu_events::import(&arm64().join("arm/cortex-a53"), None).unwrap();
    let by_name = |n: &str| import.events.iter().find(|e| e.name == n).unwrap();
    // bus.json references BUS_ACCESS_RD, defined at 0x60 in recommended.json.
    let rd = by_name("BUS_ACCESS_RD");
    assert_eq!(rd.code, 0x60);
    assert_eq!(rd.arch_std_event.as_deref(), Some("BUS_ACCESS_RD"));
    assert!(rd.position.file.ends_with("cortex-a53/bus.json"));
    assert_eq!(by_name("BR_COND").code, 0xC9);
    // The tables were read, so a build depending on the import tracks them.
    assert!(import
        .files
        .iter()
        .any(|f| f.ends_with("common-and-microarch.json")));
}

#[test]
fn mapfile_selects_the_core_folders() {
    let root = arm64();
    let rows = pmu_events::read_mapfile(&root.join("mapfile.csv")).unwrap();
    assert_eq!(
        pmu_events::lookup_midr(&rows, 0x410F_D034).unwrap().path,
        "arm/cortex-a53"
    );
    assert_eq!(
        pmu_events::lookup_midr(&rows, 0x410F_D083).unwrap().path,
        "arm/cortex-a57-a72"
    );
    assert_eq!(
        pmu_events::find_arch_root(&root.join("arm/cortex-a53")).as_deref(),
        Some(root.as_path())
    );
}
