//! Importing Arm's machine-readable PMU data (the files the repository vendors in
//! `descriptions/third-party/arm-data/`): the file says which PMU its events are for, so an
//! Armv7 core's events are PMUv2 sets (8-bit numbers, PMCEID0/1) without `pmu = ...`.
use std::path::Path;

pmu_macros::event_set! {
    /// The Cortex-A7's events.
    #[evtype = arm_pmuv3::Pmevtyper]
    #[json = "../descriptions/third-party/arm-data/pmu/cortex-a7.json"]
    pub enum CortexA7 {}
}

pmu_macros::event_set! {
    /// The Cortex-A53's events.
    #[json = "../descriptions/third-party/arm-data/pmu/cortex-a53.json"]
    pub enum CortexA53 {}
}

/// Events with a code in the file, read with serde_json.
fn count(file: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../descriptions/third-party/arm-data/pmu")
        .join(file);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e.get("code").is_some())
        .count()
}

#[test]
fn every_event_with_a_code_is_imported() {
    assert_eq!(CortexA7::ALL.len(), count("cortex-a7.json"));
    assert_eq!(CortexA53::ALL.len(), count("cortex-a53.json"));
}

#[test]
fn the_file_chooses_the_pmu() {
    // PMUv2: supported() reads PMCEID0/1 only.
    assert_eq!(CortexA7::CPU_CYCLES.supported([1 << 17, 0]), Some(true));
    assert_eq!(
        CortexA53::CPU_CYCLES.supported([1 << 17, 0, 0, 0]),
        Some(true)
    );
    // Unnamed events are named after their code, as in the generated crates.
    assert_eq!(CortexA53::EVENT_C0.code(), 0xC0);
    assert_eq!(
        arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(CortexA7::INST_RETIRED)
            .get(arm_pmuv3::Pmevtyper::EVTCOUNT),
        0x08
    );
}
