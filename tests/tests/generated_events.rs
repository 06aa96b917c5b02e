//! The generated event crates: every event of each of Arm's PMU data files is there (counted
//! independently from the vendored files, `descriptions/third-party/arm-data/`), with its code,
//! events convert into the generated PMEVTYPER layout, and the PMCEID check agrees with what
//! QEMU 7.2 advertises (`tests/tests/qemu.rs` reads the same values on the emulated cores).
use std::path::{Path, PathBuf};

use arm_cortex_a53_events::events::Event as A53;
use arm_cortex_a57_events::events::Event as A57;
use arm_cortex_a72_events::events::Event as A72;
use arm_pmu_events::events::Event as Generic;

fn arm_data(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../descriptions/third-party/arm-data/pmu")
        .join(file)
}

/// `(code, name)` of every event with a code in one file of Arm's data, read with serde_json; an
/// event without a name is expected under the name the generator gives it (`EVENT_C0`).
fn expected(file: &str) -> Vec<(u16, String)> {
    let text = std::fs::read_to_string(arm_data(file)).unwrap();
    let root: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut events: Vec<(u16, String)> = root["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| {
            let code = u16::try_from(e["code"].as_u64()?).unwrap();
            let name = e["name"]
                .as_str()
                .map_or_else(|| format!("EVENT_{code:02X}"), str::to_string);
            Some((code, name))
        })
        .collect();
    events.sort();
    events
}

/// `(code, name)` of a generated set, in code order.
fn generated<E: Copy>(
    all: &[E],
    code: impl Fn(E) -> u16,
    name: impl Fn(E) -> &'static str,
) -> Vec<(u16, String)> {
    let mut events: Vec<(u16, String)> = all
        .iter()
        .map(|&e| (code(e), name(e).to_string()))
        .collect();
    events.sort();
    events
}

#[test]
fn every_event_of_each_file_is_generated_with_its_code() {
    assert_eq!(
        generated(Generic::ALL, Generic::code, Generic::name),
        expected("common_armv8.json")
    );
    assert_eq!(
        generated(A53::ALL, A53::code, A53::name),
        expected("cortex-a53.json")
    );
    assert_eq!(
        generated(A57::ALL, A57::code, A57::name),
        expected("cortex-a57.json")
    );
    assert_eq!(
        generated(A72::ALL, A72::code, A72::name),
        expected("cortex-a72.json")
    );
    // The DSU events Linux's drivers/perf/arm_dsu_pmu.c names.
    assert_eq!(arm_dsu_pmu_mmio::events::Event::ALL.len(), 8);
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
    // An implementation-defined event Arm's data gives no name: named after its code.
    assert_eq!(A53::EVENT_C0.code(), 0xc0);
    assert_eq!(A53::EVENT_C0.description(), "External memory request");
}

#[test]
fn events_convert_into_the_generated_pmevtyper() {
    let t = arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(Generic::INST_RETIRED);
    assert_eq!(t.get(arm_pmuv3::Pmevtyper::EVTCOUNT), 0x08);
    assert_eq!(t.bits(), 0x08);
    let t = arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(A53::EVENT_C0)
        .with(arm_pmuv3::Pmevtyper::U, true);
    assert_eq!(t.bits(), (1 << 30) | 0xc0);
}

#[test]
fn supported_agrees_with_qemu_pmceid() {
    // QEMU 7.2 with -icount advertises PMCEID0 = 0x20101, PMCEID1 = 0 on cortex-a53/a57/a72
    // (tests/tests/qemu.rs reads them on the emulated cores).
    let qemu = [0x20101, 0, 0, 0];
    assert_eq!(Generic::SW_INCR.supported(qemu), Some(true));
    assert_eq!(Generic::INST_RETIRED.supported(qemu), Some(true));
    assert_eq!(Generic::CPU_CYCLES.supported(qemu), Some(true));
    assert_eq!(Generic::L1D_CACHE.supported(qemu), Some(false));
    assert_eq!(A72::CPU_CYCLES.supported(qemu), Some(true));
    // Implementation-defined events are not advertised through PMCEID.
    assert_eq!(A53::EVENT_C0.supported(qemu), None);
}
