//! Cross-checks of the PMU event sources, against a reviewed allowlist
//! (`tests/cross-check/events.toml`, every entry with its reason):
//!
//! - Linux 6.12's perf JSON against Arm's PMU data, for every core both describe: each core row
//!   of Linux's `mapfile.csv` whose MIDR is a core of Arm's data (Cortex-A53, A57 and A72 among
//!   them), each core against the folder Linux gives it. The kernel files come from Debian's `linux-source-6.12`
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
    cores: Vec<String>,
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

/// Linux 6.12's `tools/perf/pmu-events/arch/arm64`.
fn linux_arm64() -> PathBuf {
    let linux = root().join("target/linux-6.12");
    assert!(
        linux.join(".complete").is_file(),
        "the Linux 6.12 files are missing: expected them in {} (run `bash tests/linux/extract.sh`)",
        linux.display()
    );
    linux.join("tools/perf/pmu-events/arch/arm64")
}

/// `code → name` of Linux's perf JSON for a core folder.
fn linux(folder: &str) -> BTreeMap<u16, String> {
    let path = linux_arm64().join(folder);
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

/// The pairs to compare: every core row of Linux's `mapfile.csv` whose MIDR is a core of Arm's
/// data with a set of events, as (set, Linux folder). Linux shares one folder between cores with
/// the same events (`cortex-a57-a72`, `neoverse-n2-v2`); each core is compared on its own.
fn pairs() -> Vec<(String, String)> {
    let arm64 = linux_arm64();
    let rows =
        pmu_events::read_mapfile(&arm64.join("mapfile.csv")).unwrap_or_else(|e| panic!("{e}"));
    let mut pairs = Vec::new();
    for row in rows.iter().filter(|r| r.kind == "core") {
        let implementer = ((row.midr >> 24) & 0xFF) as u8;
        let part_number = ((row.midr >> 4) & 0xFFF) as u16;
        let Some(table) = arm_pmu_events::core(implementer, part_number).and_then(|c| c.events)
        else {
            continue;
        };
        let set = arm_pmu_events::SETS
            .iter()
            .find(|(_, t)| t.is_some_and(|t| std::ptr::eq(t, table)))
            .map(|(name, _)| name.to_string())
            .expect("every core's table is one of SETS");
        pairs.push((set, row.path.clone()));
    }
    pairs.sort();
    pairs.dedup();
    pairs
}

fn linux_against_arm(out: &mut Vec<Difference>) -> Vec<(String, String)> {
    let pairs = pairs();
    for (core, folder) in &pairs {
        let (l, a) = (linux(folder), arm(core));
        for (code, name) in &l {
            match a.get(code) {
                None => out.push((
                    (core.clone(), "only-linux", Some(*code)),
                    format!("{name} ({code:#x}) is in Linux's {folder}, not in Arm's {core}"),
                )),
                Some(other) if other != name => out.push((
                    (core.clone(), "name", Some(*code)),
                    format!("{code:#x} is {name} in Linux, {other} in Arm's data"),
                )),
                Some(_) => {}
            }
        }
        for (code, name) in &a {
            if !l.contains_key(code) {
                out.push((
                    (core.clone(), "only-arm", Some(*code)),
                    format!("{name} ({code:#x}) is in Arm's {core}, not in Linux's {folder}"),
                ));
            }
        }
    }
    pairs
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
            "allowlist entry {:?} {}: a reason is required",
            a.cores,
            a.kind
        );
    }
    let mut differences = Vec::new();
    let pairs = linux_against_arm(&mut differences);
    // Linux 6.12 describes these and Arm's data has them: the comparison must not go quiet.
    for core in ["cortex-a53", "cortex-a57", "cortex-a72"] {
        assert!(
            pairs.iter().any(|(c, _)| c == core),
            "{core} is not compared: {pairs:?}"
        );
    }
    let architectural = architectural_against_common(&mut differences);
    let mut report = String::new();
    let mut unexplained = Vec::new();
    for ((core, kind, code), what) in &differences {
        let reasons = allowlist
            .allow
            .iter()
            .filter(|a| a.cores.contains(core) && a.kind == *kind && covers(&a.codes, *code))
            .count();
        let verdict = if reasons == 0 { "NOT" } else { "allowed" };
        let _ = writeln!(report, "  {verdict:<8} {core:<12} {kind:<13} {what}");
        match reasons {
            0 => unexplained.push(what.clone()),
            1 => {}
            // One reason per difference, so that entries cannot overlap.
            n => unexplained.push(format!("{what} (explained by {n} entries)")),
        }
    }
    println!(
        "{} cores compared with Linux's perf JSON ({}); {} differences ({} architectural events \
         checked):\n{report}",
        pairs.len(),
        pairs
            .iter()
            .map(|(c, f)| format!("{c} ~ {f}"))
            .collect::<Vec<_>>()
            .join(", "),
        differences.len(),
        architectural
    );
    // Every code of every entry, for every core it names, must be a difference: an entry cannot
    // hide a new one behind a range, nor outlive what it explains.
    let parse = |s: &str| u16::from_str_radix(s.trim().trim_start_matches("0x"), 16).unwrap();
    let mut stale = Vec::new();
    for a in &allowlist.allow {
        for core in &a.cores {
            for c in &a.codes {
                let codes: Vec<Option<u16>> = match c.split_once('-') {
                    _ if c == "none" => vec![None],
                    Some((lo, hi)) => (parse(lo)..=parse(hi)).map(Some).collect(),
                    None => vec![Some(parse(c))],
                };
                for code in codes {
                    let found = differences.iter().any(|((d_core, d_kind, d_code), _)| {
                        d_core == core && *d_kind == a.kind && *d_code == code
                    });
                    if !found {
                        let code = code.map_or("none".to_string(), |c| format!("{c:#x}"));
                        stale.push(format!("{core} {} {code}", a.kind));
                    }
                }
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "differences the allowlist does not explain:\n  {}",
        unexplained.join("\n  ")
    );
    assert!(
        stale.is_empty(),
        "allowlist entries that explain no difference (core, kind, code):\n  {}",
        stale.join("\n  ")
    );
}

/// The architecture's common events `pmu-macros` checks hand-written sets against
/// (`pmu_events::COMMON_EVENTS`) are exactly the named events of Arm's common Armv7, Armv8 and
/// Armv9 sets, which agree with each other wherever they overlap.
#[test]
fn the_macros_common_events_are_arms_common_sets() {
    let mut union: BTreeMap<u16, String> = BTreeMap::new();
    for set in ["common_armv7", "common_armv8", "common_armv9"] {
        for (code, name) in arm(set) {
            if let Some(other) = union.insert(code, name.clone()) {
                assert_eq!(other, name, "{set}: 0x{code:04X} named two ways");
            }
        }
    }
    let table: BTreeMap<u16, String> = pmu_events::COMMON_EVENTS
        .iter()
        .map(|&(code, name)| (code, name.to_string()))
        .collect();
    assert_eq!(
        table.len(),
        pmu_events::COMMON_EVENTS.len(),
        "a number twice"
    );
    assert_eq!(table, union);
}
