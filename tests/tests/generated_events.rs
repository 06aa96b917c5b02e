//! The generated event crates: every event of each perf JSON set is there (counted independently
//! from the corpus files), events convert into the generated PMEVTYPER layout, and the PMCEID
//! check agrees with QEMU's values from FACTS.md §5.
use std::path::{Path, PathBuf};

use arm_cortex_a53_events::events::Event as A53;
use arm_cortex_a57_a72_events::events::Event as A57;
use arm_pmu_events::events::Event as Generic;

fn arm64() -> PathBuf {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    assert!(
        corpus.is_dir(),
        "the shared corpus is missing: expected it at {} (the repository's ../shared/corpus)",
        corpus.display()
    );
    corpus.join("linux/tools/perf/pmu-events/arch/arm64")
}

/// Event objects in a JSON file, or in every `*.json` of a folder.
fn count(path: &Path) -> usize {
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
            v.as_array().expect("an array of events").len()
        })
        .sum()
}

#[test]
fn every_event_of_each_set_is_generated() {
    let arm64 = arm64();
    assert_eq!(
        Generic::ALL.len(),
        count(&arm64.join("common-and-microarch.json"))
    );
    assert_eq!(A53::ALL.len(), count(&arm64.join("arm/cortex-a53")));
    assert_eq!(A57::ALL.len(), count(&arm64.join("arm/cortex-a57-a72")));
    assert_eq!(
        arm_dsu_pmu_mmio::events::Event::ALL.len(),
        8,
        "FACTS.md §4 lists 8 DSU events"
    );
}

#[test]
fn events_have_their_architectural_codes() {
    for (name, code) in [
        ("SW_INCR", 0x00),
        ("INST_RETIRED", 0x08),
        ("CPU_CYCLES", 0x11),
        ("BR_MIS_PRED", 0x10),
        ("L3D_CACHE_REFILL", 0x2a),
        ("STALL_SLOT", 0x3f),
    ] {
        let e: Generic = name
            .parse()
            .unwrap_or_else(|_| panic!("{name} is generated"));
        assert_eq!(e.code(), code, "{name}");
    }
    assert_eq!(A53::EXT_MEM_REQ.code(), 0xc0);
}

#[test]
fn events_convert_into_the_generated_pmevtyper() {
    let t = arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(Generic::INST_RETIRED);
    assert_eq!(t.get(arm_pmuv3::Pmevtyper::EVTCOUNT), 0x08);
    assert_eq!(t.bits(), 0x08);
    let t = arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(A53::EXT_MEM_REQ)
        .with(arm_pmuv3::Pmevtyper::U, true);
    assert_eq!(t.bits(), (1 << 30) | 0xc0);
}

#[test]
fn supported_agrees_with_qemu_pmceid() {
    // FACTS.md §5: QEMU with -icount advertises PMCEID0 = 0x20101, PMCEID1 = 0.
    let qemu = [0x20101, 0, 0, 0];
    assert_eq!(Generic::SW_INCR.supported(qemu), Some(true));
    assert_eq!(Generic::INST_RETIRED.supported(qemu), Some(true));
    assert_eq!(Generic::CPU_CYCLES.supported(qemu), Some(true));
    assert_eq!(Generic::L1D_CACHE.supported(qemu), Some(false));
    // Implementation-defined events are not advertised through PMCEID.
    assert_eq!(A53::EXT_MEM_REQ.supported(qemu), None);
}
