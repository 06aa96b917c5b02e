//! Cross-checks of the PMU event sources, against a reviewed allowlist
//! (`tests/cross-check/events.toml`, every entry with its reason):
//!
//! - Linux 6.12's perf JSON against Arm's PMU data, for the cores both describe (Cortex-A53,
//!   Cortex-A57, Cortex-A72). The kernel files come from Debian's `linux-source-6.12`
//!   (`tests/linux/extract.sh`, into `target/linux-6.12/`), read through `pmu_events::import` with
//!   `ArchStdEvent` resolved as Linux resolves it; Arm's data from the vendored files, as the
//!   generated crate has it (`arm_pmu_events`).
//! - Within Arm's data: every event a core's file marks architectural is an event of its
//!   architecture's common set, with the same code (and the same name, where the core names it).
//!
//! Every difference is listed; one the allowlist does not explain fails the test, and so does an
//! allowlist entry that explains nothing any more.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allowlist {
    allow: Vec<Allow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allow {
    core: String,
    kind: String,
    codes: Vec<String>,
    reason: String,
}

/// One difference: (core, kind, code), and what it is.
type Difference = ((String, &'static str, Option<u16>), String);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether `code` is one of `codes` (`"0x1E"`, `"0x00-0x1A"`, `"none"`).
fn covers(codes: &[String], code: Option<u16>) -> bool {
    let parse = |s: &str| u16::from_str_radix(s.trim().trim_start_matches("0x"), 16).unwrap();
    codes.iter().any(|c| match (c.split_once('-'), code) {
        _ if c == "none" => code.is_none(),
        (Some((lo, hi)), Some(code)) => (parse(lo)..=parse(hi)).contains(&code),
        (None, Some(code)) => parse(c) == code,
        (_, None) => false,
    })
}

/// `code → name` of Linux's perf JSON for a core folder.
fn linux(folder: &str) -> BTreeMap<u16, String> {
    let linux = root().join("target/linux-6.12");
    assert!(
        linux.join(".complete").is_file(),
        "the Linux 6.12 files are missing: expected them in {} (run tests/linux/extract.sh)",
        linux.display()
    );
    let path = linux.join("tools/perf/pmu-events/arch/arm64").join(folder);
    let import = pmu_events::import(&path, None).unwrap_or_else(|e| panic!("{e}"));
    import
        .events
        .into_iter()
        .map(|e| (e.code, e.name))
        .collect()
}

/// `code → name` of a set of the generated catalogue (Arm's data).
fn arm(feature: &str) -> BTreeMap<u16, String> {
    let table = arm_pmu_events::SETS
        .iter()
        .find(|(name, _)| *name == feature)
        .and_then(|(_, t)| *t)
        .unwrap_or_else(|| panic!("no set {feature} in arm-pmu-events"));
    table
        .events()
        .iter()
        .map(|e| (e.code, e.name.to_string()))
        .collect()
}

fn linux_against_arm(out: &mut Vec<Difference>) {
    for (core, folder) in [
        ("cortex-a53", "arm/cortex-a53"),
        ("cortex-a57", "arm/cortex-a57-a72"),
        ("cortex-a72", "arm/cortex-a57-a72"),
    ] {
        let (l, a) = (linux(folder), arm(core));
        for (code, name) in &l {
            match a.get(code) {
                None => out.push((
                    (core.into(), "only-linux", Some(*code)),
                    format!("{name} ({code:#x}) is in Linux's {folder}, not in Arm's {core}"),
                )),
                Some(other) if other != name => out.push((
                    (core.into(), "name", Some(*code)),
                    format!("{code:#x} is {name} in Linux, {other} in Arm's data"),
                )),
                Some(_) => {}
            }
        }
        for (code, name) in &a {
            if !l.contains_key(code) {
                out.push((
                    (core.into(), "only-arm", Some(*code)),
                    format!("{name} ({code:#x}) is in Arm's {core}, not in Linux's {folder}"),
                ));
            }
        }
    }
}

fn architectural_against_common(out: &mut Vec<Difference>) -> usize {
    let dir = root().join("descriptions/third-party/arm-data/pmu");
    let read = |path: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let common: BTreeMap<u8, BTreeMap<u64, Option<String>>> = [7u8, 8, 9]
        .into_iter()
        .map(|v| {
            let file = read(&dir.join(format!("common_armv{v}.json")));
            let events = file["events"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|e| Some((e["code"].as_u64()?, e["name"].as_str().map(str::to_string))))
                .collect();
            (v, events)
        })
        .collect();
    let mut checked = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if stem.starts_with("common_") {
            continue;
        }
        let file = read(&path);
        let architecture = file["architecture"].as_str().unwrap();
        let version = if architecture.starts_with("armv9") {
            9
        } else if architecture.starts_with("armv8") {
            8
        } else {
            7
        };
        for e in file["events"].as_array().unwrap() {
            if e["architectural"] != true {
                continue;
            }
            checked += 1;
            let code = e["code"].as_u64();
            let name = e["name"].as_str();
            let known = code.and_then(|c| common[&version].get(&c));
            let fits = match (known, name) {
                (Some(_), None) => true,
                (Some(common_name), Some(name)) => common_name.as_deref() == Some(name),
                (None, _) => false,
            };
            if !fits {
                out.push((
                    (stem.clone(), "architectural", code.map(|c| c as u16)),
                    format!(
                        "{} ({}) is architectural in {stem}.json; common_armv{version}.json has {}",
                        name.unwrap_or("unnamed"),
                        code.map_or("no code".into(), |c| format!("{c:#x}")),
                        known.map_or("no such code".into(), |n| format!("{n:?}"))
                    ),
                ));
            }
        }
    }
    checked
}

#[test]
fn event_sources_agree_but_for_the_reviewed_differences() {
    let text = std::fs::read_to_string(root().join("tests/cross-check/events.toml")).unwrap();
    let allowlist: Allowlist = toml::from_str(&text).unwrap();
    for a in &allowlist.allow {
        assert!(
            a.reason.trim().len() > 20,
            "allowlist entry {} {}: a reason is required",
            a.core,
            a.kind
        );
    }
    let mut differences = Vec::new();
    linux_against_arm(&mut differences);
    let architectural = architectural_against_common(&mut differences);
    let mut report = String::new();
    let mut used = vec![false; allowlist.allow.len()];
    let mut unexplained = Vec::new();
    for ((core, kind, code), what) in &differences {
        let matching = allowlist
            .allow
            .iter()
            .position(|a| a.core == *core && a.kind == *kind && covers(&a.codes, *code));
        match matching {
            Some(i) => {
                used[i] = true;
                let _ = writeln!(report, "  allowed  {core:<12} {kind:<13} {what}");
            }
            None => {
                let _ = writeln!(report, "  NOT      {core:<12} {kind:<13} {what}");
                unexplained.push(what.clone());
            }
        }
    }
    println!(
        "{} differences ({} architectural events checked):\n{report}",
        differences.len(),
        architectural
    );
    let stale: Vec<String> = allowlist
        .allow
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|(a, _)| format!("{} {} {:?}", a.core, a.kind, a.codes))
        .collect();
    assert!(
        unexplained.is_empty(),
        "differences the allowlist does not explain:\n  {}",
        unexplained.join("\n  ")
    );
    assert!(
        stale.is_empty(),
        "allowlist entries that explain no difference any more:\n  {}",
        stale.join("\n  ")
    );
    // Every code of an entry's ranges must be a difference, so a range cannot hide a new one.
    for (a, _) in allowlist.allow.iter().zip(&used) {
        for c in &a.codes {
            if let Some((lo, hi)) = c.split_once('-') {
                let parse = |s: &str| u16::from_str_radix(s.trim_start_matches("0x"), 16).unwrap();
                for code in parse(lo)..=parse(hi) {
                    assert!(
                        differences
                            .iter()
                            .any(|((core, kind, c), _)| *core == a.core
                                && *kind == a.kind
                                && *c == Some(code)),
                        "allowlist {} {} covers {code:#x}, which is no difference",
                        a.core,
                        a.kind
                    );
                }
            }
        }
    }
}
