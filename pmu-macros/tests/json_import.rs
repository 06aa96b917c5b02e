//! Importing Linux 6.12's own perf event sets for arm64. The files come from Debian's
//! `linux-source-6.12`, extracted into the repository's `target/linux-6.12/` by
//! `tests/linux/extract.sh` (which `tests/run.sh` runs first); they are GPL-2.0, so the repository
//! does not carry them. The build script sets `cfg(linux_perf_json)` when they are there; without
//! them the one test here fails, naming the command that extracts them (the invocations below
//! would not compile without the files). The expected counts are taken from the files
//! independently, with serde_json.

#[cfg(not(linux_perf_json))]
#[test]
fn linux_perf_json_is_extracted() {
    panic!(
        "Linux 6.12's perf JSON is not in target/linux-6.12/: run `bash tests/linux/extract.sh`"
    );
}

#[cfg(linux_perf_json)]
mod imports {
    use std::path::{Path, PathBuf};

    pmu_macros::event_set! {
        /// The architected and common microarchitectural events (the generic set).
        #[pmu = pmuv3p1]
        #[json = "../target/linux-6.12/tools/perf/pmu-events/arch/arm64/common-and-microarch.json"]
        pub enum Generic {}
    }

    pmu_macros::event_set! {
        /// Arm's recommended implementation-defined events.
        #[json = "../target/linux-6.12/tools/perf/pmu-events/arch/arm64/recommended.json"]
        pub enum Recommended {}
    }

    pmu_macros::event_set! {
        /// The Cortex-A53 events, in one line.
        #[json = "../target/linux-6.12/tools/perf/pmu-events/arch/arm64/arm/cortex-a53"]
        pub enum CortexA53 {}
    }

    pmu_macros::event_set! {
        /// The Cortex-A57/A72 events.
        #[evtype = arm_pmuv3::Pmevtyper]
        #[json = "../target/linux-6.12/tools/perf/pmu-events/arch/arm64/arm/cortex-a57-a72"]
        pub enum CortexA57A72 {}
    }

    fn arm64() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../target/linux-6.12/tools/perf/pmu-events/arch/arm64")
    }

    /// The number of event objects in a JSON file, or in every `*.json` of a folder.
    fn count_events(path: &Path) -> usize {
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
                let text = std::fs::read_to_string(f).unwrap();
                let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                value.as_array().expect("an array of events").len()
            })
            .sum()
    }

    #[test]
    fn every_event_of_each_file_is_imported() {
        let root = arm64();
        assert_eq!(
            Generic::ALL.len(),
            count_events(&root.join("common-and-microarch.json"))
        );
        assert_eq!(
            Recommended::ALL.len(),
            count_events(&root.join("recommended.json"))
        );
        assert_eq!(
            CortexA53::ALL.len(),
            count_events(&root.join("arm/cortex-a53"))
        );
        assert_eq!(
            CortexA57A72::ALL.len(),
            count_events(&root.join("arm/cortex-a57-a72"))
        );
    }

    #[test]
    fn references_resolve_to_the_architectural_codes() {
        assert_eq!(Generic::L3D_CACHE_REFILL.code(), 0x2A);
        assert_eq!(Generic::CNT_CYCLES.code(), 0x4004);
        // Cortex-A53 bus.json says {"ArchStdEvent": "BUS_ACCESS_RD"}, defined in recommended.json.
        assert_eq!(CortexA53::BUS_ACCESS_RD.code(), 0x60);
        assert_eq!(CortexA53::BR_COND.code(), 0xC9);
        assert_eq!(CortexA57A72::CPU_CYCLES.code(), 0x11);
        assert_eq!(CortexA57A72::CPU_CYCLES.description(), "Cycle");
        assert_eq!(
            arm_pmuv3::Value::<arm_pmuv3::Pmevtyper>::from(CortexA57A72::INST_RETIRED)
                .get(arm_pmuv3::Pmevtyper::EVTCOUNT),
            0x08
        );
    }

    #[test]
    fn generic_set_supported_agrees_with_qemu_pmceid_from_facts() {
        // QEMU 7.2 with -icount reports PMCEID0 = 0x20101 (tests/tests/qemu.rs reads it).
        let qemu = [0x20101, 0, 0, 0];
        assert_eq!(Generic::SW_INCR.supported(qemu), Some(true));
        assert_eq!(Generic::INST_RETIRED.supported(qemu), Some(true));
        assert_eq!(Generic::CPU_CYCLES.supported(qemu), Some(true));
        assert_eq!(Generic::L1D_CACHE.supported(qemu), Some(false));
        // The Cortex-A53's implementation-defined events are not in PMCEID.
        assert_eq!(CortexA53::EXT_MEM_REQ.supported(qemu), None);
        let advertised = Generic::ALL
            .iter()
            .filter(|e| e.supported(qemu) == Some(true));
        let names: Vec<&str> = advertised.map(|e| e.name()).collect();
        assert_eq!(names, ["SW_INCR", "INST_RETIRED", "CPU_CYCLES"]);
    }
}
