//! Replays the fuzz seeds on stable, as an ordinary test: every seed `fuzz/seed.sh` copies into the
//! fuzz corpora goes through the fuzz targets' own code (`fuzz/fuzz_targets/common.rs`, included
//! below): format detection, frontend, passes, and the Rust and C backends. No input may panic.
//!
//! The corpora themselves (`fuzz/corpus`, `fuzz/artifacts`) are not checked in, so the seeds are
//! taken where `seed.sh` takes them: the descriptions, the docs example and the codegen UI and perf
//! fixtures (plus the UI perf JSON fixtures, which `seed.sh` leaves out). Each seed runs as its own
//! target (the format `seed.sh` files it under) and as the `pipeline` target (format detected from
//! the content). Crash, timeout and slow-unit files a local fuzzing run left in `fuzz/artifacts`
//! are replayed too, as the target that found them.
//!
//! Every input is run, whatever its size; one that panics fails the test, named by path.
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use armreg_codegen::frontend::Format;

#[path = "../../fuzz/fuzz_targets/common.rs"]
mod common;

/// A fuzz target: its name (the corpus and artifacts folder) and what its `fuzz_target!` body does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// One of the per-format targets (`native.rs`, `svd.rs`, ...).
    Format(Format),
    /// `pipeline.rs`: the format detected from the content.
    Pipeline,
}

impl Target {
    const ALL: [Target; 9] = [
        Target::Format(Format::Native),
        Target::Format(Format::Svd),
        Target::Format(Format::TiXml),
        Target::Format(Format::LinuxSysreg),
        Target::Format(Format::PerfJson),
        Target::Format(Format::ArmPmuData),
        Target::Format(Format::ArmCpus),
        Target::Format(Format::Aarchmrs),
        Target::Pipeline,
    ];

    fn name(self) -> &'static str {
        match self {
            Target::Format(Format::Native) => "native",
            Target::Format(Format::Svd) => "svd",
            Target::Format(Format::TiXml) => "ti_xml",
            Target::Format(Format::LinuxSysreg) => "linux_sysreg",
            Target::Format(Format::PerfJson) => "perf_json",
            Target::Format(Format::ArmPmuData) => "arm_pmu_data",
            Target::Format(Format::ArmCpus) => "arm_cpus",
            Target::Format(Format::Aarchmrs) => "aarchmrs",
            Target::Pipeline => "pipeline",
        }
    }

    /// The body of the target's `fuzz_target!` (`fuzz/fuzz_targets/<name>.rs`). Returns whether
    /// the input reached the code under test (the targets drop non-UTF-8 input).
    fn run(self, data: &[u8]) -> bool {
        let Ok(text) = std::str::from_utf8(data) else {
            return false;
        };
        let format = match self {
            Target::Format(format) => format,
            Target::Pipeline => Format::detect(Path::new("fuzz"), text).unwrap_or(Format::Native),
        };
        common::run(format, text, true);
        true
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen sits in the repository root")
        .to_path_buf()
}

/// The files directly in `dir` whose names end in `.{ext}`, sorted. A missing folder is an error:
/// a seed source that moved must not turn into an empty one.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("seed folder {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

/// The `.{ext}` files anywhere under `dir` (`find dir -name '*.ext'`), sorted.
fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = files(dir, ext);
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        out.extend(files_under(&sub, ext));
    }
    out
}

/// Each per-format target's seeds, as `fuzz/seed.sh` collects them.
fn seeds(root: &Path) -> Vec<(Target, Vec<PathBuf>)> {
    let ui = root.join("codegen/tests/ui");
    let mut native = files(&root.join("descriptions"), "toml");
    native.extend(files(&ui, "toml"));
    native.extend(files(&root.join("tests/docs/example"), "toml"));
    let svd = files(&ui, "svd");
    let mut ti_xml = files(&ui, "xml");
    ti_xml.extend(files_under(&root.join("descriptions"), "xml"));
    let linux_sysreg = files(&ui, "sysreg");
    let mut perf_json = files_under(&root.join("codegen/tests/perf"), "json");
    let ends = |p: &PathBuf, suffix: &str| p.to_string_lossy().ends_with(suffix);
    let ui_json = files(&ui, "json");
    perf_json.extend(
        ui_json
            .iter()
            .filter(|p| !ends(p, ".arm.json") && !ends(p, ".cpus.json"))
            .cloned(),
    );
    let mut arm_pmu_data = files(&root.join("descriptions/third-party/arm-data/pmu"), "json");
    arm_pmu_data.extend(ui_json.iter().filter(|p| ends(p, ".arm.json")).cloned());
    let mut arm_cpus = vec![root.join("descriptions/third-party/arm-data/cpus.json")];
    arm_cpus.extend(ui_json.iter().filter(|p| ends(p, ".cpus.json")).cloned());
    let mut aarchmrs: Vec<PathBuf> = files(&root.join("codegen/tests/aarchmrs"), "json")
        .into_iter()
        .filter(|p| !ends(p, ".ir.json"))
        .collect();
    aarchmrs.extend(
        ui_json
            .iter()
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("aarchmrs_"))
            })
            .cloned(),
    );
    vec![
        (Target::Format(Format::Native), native),
        (Target::Format(Format::Svd), svd),
        (Target::Format(Format::TiXml), ti_xml),
        (Target::Format(Format::LinuxSysreg), linux_sysreg),
        (Target::Format(Format::PerfJson), perf_json),
        (Target::Format(Format::ArmPmuData), arm_pmu_data),
        (Target::Format(Format::ArmCpus), arm_cpus),
        (Target::Format(Format::Aarchmrs), aarchmrs),
    ]
}

/// What a local fuzzing run left in `fuzz/artifacts/<target>/` (crash-, timeout-, slow-unit-,
/// oom- files). The folder is not checked in: where it is absent there is nothing to replay.
fn artifacts(root: &Path) -> Vec<(Target, Vec<PathBuf>)> {
    let dir = root.join("fuzz/artifacts");
    Target::ALL
        .iter()
        .filter_map(|&t| {
            let sub = dir.join(t.name());
            let mut found: Vec<PathBuf> = std::fs::read_dir(&sub)
                .ok()?
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_file())
                .collect();
            found.sort();
            (!found.is_empty()).then_some((t, found))
        })
        .collect()
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a non-string panic payload)".to_string()
    }
}

#[test]
fn every_fuzz_seed_and_artifact_runs_without_panicking() {
    let root = root();
    let seeds = seeds(&root);
    for (target, files) in &seeds {
        assert!(
            !files.is_empty(),
            "no seeds found for the {} target",
            target.name()
        );
    }
    // The pipeline target's corpus is every other target's seeds.
    let all: Vec<PathBuf> = seeds.iter().flat_map(|(_, f)| f.iter().cloned()).collect();
    let mut runs: Vec<(Target, Vec<PathBuf>)> = seeds;
    runs.push((Target::Pipeline, all));
    let artifacts = artifacts(&root);
    let artifact_count: usize = artifacts.iter().map(|(_, f)| f.len()).sum();
    runs.extend(artifacts);

    let started = Instant::now();
    let mut panicked = Vec::new();
    let mut not_utf8 = Vec::new();
    let mut slowest: Vec<(Duration, &'static str, PathBuf)> = Vec::new();
    let mut count = 0;
    for (target, files) in &runs {
        for path in files {
            let data = std::fs::read(path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let t = Instant::now();
            match panic::catch_unwind(AssertUnwindSafe(|| target.run(&data))) {
                Ok(true) => {}
                Ok(false) => not_utf8.push(format!("{} ({})", path.display(), target.name())),
                Err(payload) => panicked.push(format!(
                    "{} (target {}): {}",
                    path.display(),
                    target.name(),
                    panic_message(payload.as_ref())
                )),
            }
            slowest.push((t.elapsed(), target.name(), path.clone()));
            count += 1;
        }
    }
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    eprintln!(
        "replayed {count} runs ({artifact_count} of them fuzz artifacts) in {:.2?}; slowest:",
        started.elapsed()
    );
    for (d, target, path) in slowest.iter().take(5) {
        eprintln!("  {d:>10.2?}  {target:<12} {}", path.display());
    }
    if !not_utf8.is_empty() {
        eprintln!(
            "not UTF-8, dropped by the target as the fuzzer drops it: {}",
            not_utf8.join(", ")
        );
    }
    assert!(
        panicked.is_empty(),
        "{} of {count} runs panicked:\n{}",
        panicked.len(),
        panicked.join("\n")
    );
}
