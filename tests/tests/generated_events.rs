//! The generated event catalogue against Arm's data, read independently (serde_json) from the
//! vendored files (`descriptions/third-party/arm-data/`): every file is a set with every event
//! that has a code, under its name (or `EVENT_<code>` where the data gives none), its code and
//! description; every core of `cpus.json` and of the per-core files is in `CORES` with its counters
//! and its table; the typed enums agree with the tables; events convert into the generated
//! PMEVTYPER layout; the PMCEID check agrees with what QEMU 7.2 advertises (`tests/tests/qemu.rs`
//! reads the same values on the emulated cores).
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use arm_pmu_events::{common_armv8, cortex_a53, cortex_a7, cortex_a72, EventTable, CORES, SETS};

fn arm_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../descriptions/third-party/arm-data")
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `(code, name, description)` of every event with a code in one file of Arm's data, in code
/// order.
fn expected(file: &serde_json::Value) -> Vec<(u16, String, String)> {
    let mut events: Vec<(u16, String, String)> = file["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| {
            let code = u16::try_from(e["code"].as_u64()?).unwrap();
            let name = e["name"]
                .as_str()
                .map_or_else(|| format!("EVENT_{code:02X}"), str::to_string);
            Some((code, name, e["description"].as_str().unwrap().to_string()))
        })
        .collect();
    events.sort();
    events
}

fn rows(table: &EventTable) -> Vec<(u16, String, String)> {
    table
        .events()
        .iter()
        .map(|e| (e.code, e.name.to_string(), e.description.to_string()))
        .collect()
}

/// Every file of `pmu/`, by its stem.
fn files() -> BTreeMap<String, serde_json::Value> {
    std::fs::read_dir(arm_data().join("pmu"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                json(&p),
            )
        })
        .collect()
}

#[test]
fn every_file_is_a_set_with_every_event() {
    let files = files();
    let sets: BTreeMap<&str, Option<&EventTable>> = SETS.iter().copied().collect();
    assert_eq!(
        sets.keys().copied().collect::<Vec<_>>(),
        files.keys().map(String::as_str).collect::<Vec<_>>(),
        "one set per file"
    );
    let mut events = 0;
    for (stem, file) in &files {
        let table =
            sets[stem.as_str()].unwrap_or_else(|| panic!("{stem}: built without its table"));
        assert_eq!(rows(table), expected(file), "{stem}");
        events += table.len();
    }
    println!("{} sets, {events} events", files.len());
}

#[test]
fn every_core_is_listed_with_its_counters_and_table() {
    let cpus = json(&arm_data().join("cpus.json"));
    let mut ids: BTreeMap<(u8, u16), String> = BTreeMap::new();
    for cpu in cpus["cpus"].as_array().unwrap() {
        let id = u32::from_str_radix(cpu["cpuid"].as_str().unwrap().trim_start_matches("0x"), 16)
            .unwrap();
        ids.insert(
            ((id >> 12) as u8, (id & 0xFFF) as u16),
            cpu["name"].as_str().unwrap().into(),
        );
    }
    for (stem, file) in files() {
        let Some(cpuid) = file["cpuid"].as_str() else {
            continue; // a common set
        };
        let id = u32::from_str_radix(cpuid.trim_start_matches("0x"), 16).unwrap();
        let key = ((id >> 12) as u8, (id & 0xFFF) as u16);
        ids.entry(key)
            .or_insert_with(|| file["cpu"].as_str().unwrap().into());
        let core = arm_pmu_events::core(key.0, key.1).unwrap_or_else(|| panic!("{stem}: no core"));
        assert_eq!(
            core.counters,
            file["counters"].as_u64().map(|n| n as u8),
            "{stem}"
        );
        assert_eq!(
            core.architecture,
            file["architecture"].as_str().unwrap(),
            "{stem}"
        );
        let table = core.events.unwrap_or_else(|| panic!("{stem}: no table"));
        assert_eq!(rows(table), expected(&file), "{stem}");
    }
    let listed: Vec<((u8, u16), &str)> = CORES
        .iter()
        .map(|c| ((c.implementer, c.part_number), c.name))
        .collect();
    let wanted: Vec<((u8, u16), &str)> = ids.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(listed, wanted);
    // The cores QEMU 7.2 emulates, with the counters it gives them (PMCR.N).
    for (part, name, counters) in [
        (0xD03, "Cortex-A53", 6),
        (0xD08, "Cortex-A72", 6),
        (0xC0F, "Cortex-A15", 6),
        (0xC07, "Cortex-A7", 4),
    ] {
        let core = arm_pmu_events::core(0x41, part).unwrap();
        assert_eq!((core.name, core.counters), (name, Some(counters)));
    }
}

#[test]
fn typed_enums_agree_with_their_tables() {
    for e in cortex_a53::Event::ALL {
        let row = cortex_a53::TABLE.by_code(e.code()).unwrap();
        assert_eq!(row.name, e.name());
    }
    assert_eq!(cortex_a53::Event::ALL.len(), cortex_a53::TABLE.len());
    assert_eq!(cortex_a53::Event::EVENT_C0.code(), 0xc0);
    assert_eq!(
        cortex_a53::TABLE.by_name("event_c0").map(|e| e.description),
        Some("External memory request")
    );
    assert_eq!(cortex_a7::TABLE.event_bits, 8);
    assert_eq!(cortex_a53::TABLE.event_bits, 10);
    assert_eq!(common_armv8::TABLE.event_bits, 16);
    for (name, code) in [
        ("SW_INCR", 0x00),
        ("INST_RETIRED", 0x08),
        ("CPU_CYCLES", 0x11),
        ("BR_MIS_PRED", 0x10),
        ("L3D_CACHE_REFILL", 0x2a),
        ("STALL_SLOT", 0x3f),
    ] {
        let e: common_armv8::Event = name.parse().unwrap_or_else(|_| panic!("{name}"));
        assert_eq!(e.code(), code, "{name}");
    }
}

#[test]
fn events_convert_into_the_generated_pmevtyper() {
    let t = arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(common_armv8::Event::INST_RETIRED);
    assert_eq!(t.get(arm_pmuv3::Pmevtyper::EVTCOUNT), 0x08);
    assert_eq!(t.bits(), 0x08);
    let t = arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(cortex_a53::Event::EVENT_C0)
        .with(arm_pmuv3::Pmevtyper::U, true);
    assert_eq!(t.bits(), (1 << 30) | 0xc0);
}

#[test]
fn supported_agrees_with_qemu_pmceid() {
    // QEMU 7.2 with -icount advertises PMCEID0 = 0x20101, PMCEID1 = 0 on cortex-a53/a57/a72.
    let qemu = [0x20101, 0, 0, 0];
    use common_armv8::Event as Common;
    assert_eq!(Common::SW_INCR.supported(qemu), Some(true));
    assert_eq!(Common::INST_RETIRED.supported(qemu), Some(true));
    assert_eq!(Common::CPU_CYCLES.supported(qemu), Some(true));
    assert_eq!(Common::L1D_CACHE.supported(qemu), Some(false));
    assert_eq!(cortex_a72::Event::CPU_CYCLES.supported(qemu), Some(true));
    // Implementation-defined events are not advertised through PMCEID.
    assert_eq!(cortex_a53::Event::EVENT_C0.supported(qemu), None);
    // The DSU events Linux's drivers/perf/arm_dsu_pmu.c names.
    assert_eq!(arm_dsu_pmu_mmio::events::Event::ALL.len(), 8);
}
