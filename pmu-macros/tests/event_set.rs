//! The generated API, on hand-declared sets: names, codes, parsing, PMCEID decoding against the
//! values measured on QEMU 7.2 and those TI gives for AM62L, and the conversions to the generated
//! event-type layouts.
use std::str::FromStr;

pmu_macros::event_set! {
    /// Events a profiler counts on a PMUv3p1 core.
    #[pmu = pmuv3p1]
    #[evtype = arm_pmuv3::Pmevtyper]
    pub enum Core {
        /// Instruction architecturally executed, Condition code check pass, software increment
        SW_INCR = 0x00,
        /// Level 1 data cache access
        L1D_CACHE = 0x04,
        /// Instruction architecturally executed
        INST_RETIRED = 0x08,
        /// Cycle
        CPU_CYCLES = 0x11,
        /// No operation issued because of the frontend
        STALL_FRONTEND = 0x23,
        /// No operation issued due to the backend
        STALL_BACKEND = 0x24,
        /// No operation sent for execution
        STALL = 0x3C,
        /// Sample Population
        SAMPLE_POP = 0x4000,
        /// Constant frequency cycles
        CNT_CYCLES = 0x4004,
        /// External memory request (Cortex-A53, implementation defined)
        EXT_MEM_REQ = 0xC0,
    }
}

pmu_macros::event_set! {
    /// The DSU cluster events Linux's arm_dsu_pmu driver names (`drivers/perf/arm_dsu_pmu.c`).
    #[pmu = dsu]
    #[evtype = arm_dsu_pmu::Clusterpmxevtyper]
    pub enum Dsu {
        /// Cluster cycles
        cycles = 0x11,
        /// Bus access
        bus_access = 0x19,
        /// Memory error
        memory_error = 0x1A,
        /// Bus cycles
        bus_cycles = 0x1D,
        /// L3 data cache allocation without refill
        l3d_cache_allocate = 0x29,
        /// L3 data cache refill
        l3d_cache_refill = 0x2A,
        /// L3 data cache access
        l3d_cache = 0x2B,
        /// L3 data cache write-back
        l3d_cache_wb = 0x2C,
    }
}

/// The attribute form declares the same kind of set.
#[pmu_macros::event_enum(pmu = pmuv3, evtype = arm_pmuv3::Pmevtyper)]
pub enum Basic {
    /// Instruction architecturally executed
    INST_RETIRED = 0x08,
    /// Cycle
    CPU_CYCLES = 0x11,
}

pmu_macros::event_set! {
    /// Three events of the Cortex-A53, by name: the core's data numbers them.
    #[core = cortex_a53]
    #[counters = 6]
    #[evtype = arm_pmuv3::Pmevtyper]
    pub enum Mine {
        CPU_CYCLES,
        L1D_CACHE_REFILL,
        EVENT_C0,
    }
}

pmu_macros::event_set! {
    /// The feature's spelling works too; an Armv7 core.
    #[core = "cortex-a7"]
    pub enum OnA7 {
        INST_RETIRED,
    }
}

#[test]
fn a_set_of_a_cores_events_takes_their_numbers_and_names() {
    use arm_pmu_events::cortex_a53::Event as A53;
    assert_eq!(
        Mine::ALL,
        [Mine::CPU_CYCLES, Mine::L1D_CACHE_REFILL, Mine::EVENT_C0]
    );
    assert_eq!(Mine::L1D_CACHE_REFILL.code(), 0x03);
    assert_eq!(Mine::EVENT_C0.code(), 0xC0);
    assert_eq!(Mine::EVENT_C0.description(), A53::EVENT_C0.description());
    assert_eq!(Mine::L1D_CACHE_REFILL.event(), A53::L1D_CACHE_REFILL);
    assert_eq!(A53::from(Mine::CPU_CYCLES), A53::CPU_CYCLES);
    assert_eq!(Mine::from_code(0x11), Some(Mine::CPU_CYCLES));
    assert_eq!(Mine::from_code(0x08), None);
    assert_eq!("l1d_cache_refill".parse(), Ok(Mine::L1D_CACHE_REFILL));
    assert_eq!(Mine::CPU_CYCLES.to_string(), "CPU_CYCLES");
    assert_eq!(Mine::CPU_CYCLES.pmceid_bit(), Some((0, 17)));
    assert_eq!(u16::from(Mine::EVENT_C0), 0xC0);
    use arm_pmuv3::{Pmevtyper, Value};
    assert_eq!(
        Value::<Pmevtyper>::from(Mine::L1D_CACHE_REFILL).get(Pmevtyper::EVTCOUNT),
        0x03
    );
    // The driver's vocabulary: the name comes along.
    use arm_pmu_events::PmuEvent;
    assert_eq!(
        (Mine::EVENT_C0.code(), PmuEvent::name(Mine::EVENT_C0)),
        (0xC0, "EVENT_C0")
    );
    assert_eq!(OnA7::INST_RETIRED.code(), 0x08);
}

/// `core = ...` names one of the generated crate's sets: the macro's list of them is the crate's.
#[test]
fn the_cores_the_macro_knows_are_the_generated_crates_sets() {
    let sets: Vec<&str> = arm_pmu_events::SETS
        .iter()
        .map(|(feature, _)| *feature)
        .collect();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/expand/options.rs"),
    )
    .unwrap();
    let start = text.find("CORE_SETS: [&str; ").unwrap();
    let list = &text[start..text[start..].find("];").unwrap() + start];
    let known: Vec<String> = list
        .split('"')
        .skip(1)
        .step_by(2)
        .map(|s| s.replace('_', "-"))
        .collect();
    let features: Vec<String> = sets.iter().map(|s| s.replace('_', "-")).collect();
    assert_eq!(known, features);
}

/// The expansion names everything by absolute `::core` paths: it needs no prelude.
mod bare {
    #![no_implicit_prelude]
    ::pmu_macros::event_set! {
        pub enum Bare {
            /// Cycle
            CPU_CYCLES = 0x11,
        }
    }
}

#[test]
fn codes_names_descriptions_and_all() {
    assert_eq!(Core::CPU_CYCLES.code(), 0x11);
    assert_eq!(u16::from(Core::SAMPLE_POP), 0x4000);
    assert_eq!(Core::INST_RETIRED.name(), "INST_RETIRED");
    assert_eq!(Core::CPU_CYCLES.description(), "Cycle");
    assert_eq!(Core::ALL.len(), 10);
    assert_eq!(Core::ALL[0], Core::SW_INCR);
    assert_eq!(Core::from_code(0x08), Some(Core::INST_RETIRED));
    assert_eq!(Core::from_code(0x09), None);
    assert_eq!(Dsu::ALL.len(), 8);
    assert_eq!(Basic::ALL, [Basic::INST_RETIRED, Basic::CPU_CYCLES]);
    assert_eq!(bare::Bare::CPU_CYCLES.code(), 0x11);
}

#[test]
fn display_and_from_str_round_trip() {
    for &event in Core::ALL {
        assert_eq!(Core::from_str(&event.to_string()), Ok(event));
    }
    // perf matches event names ignoring ASCII case.
    assert_eq!("cpu_cycles".parse::<Core>(), Ok(Core::CPU_CYCLES));
    let err = "CPU_CYCLE".parse::<Core>().unwrap_err();
    assert_eq!(err, ParseCoreError);
    assert_eq!(err.to_string(), "not an event of Core");
    assert_eq!(Dsu::l3d_cache_wb.to_string(), "l3d_cache_wb");
}

#[test]
fn supported_agrees_with_qemu_pmceid_from_facts() {
    // QEMU 7.2 cortex-a53/a57/a72 with -icount: PMCEID0 = 0x20101, PMCEID1 = 0 (a53 and a72 as
    // measured by tests/tests/qemu.rs; QEMU 7.2 target/arm/helper.c builds PMCEID from the events
    // it implements, pmu_init).
    let qemu_a53 = [0x20101, 0, 0, 0];
    assert_eq!(Core::SW_INCR.supported(qemu_a53), Some(true));
    assert_eq!(Core::INST_RETIRED.supported(qemu_a53), Some(true));
    assert_eq!(Core::CPU_CYCLES.supported(qemu_a53), Some(true));
    assert_eq!(Core::L1D_CACHE.supported(qemu_a53), Some(false));
    assert_eq!(Core::STALL_FRONTEND.supported(qemu_a53), Some(false));
    // Implementation-defined events are not advertised by PMCEID: the answer is "unknown".
    assert_eq!(Core::EXT_MEM_REQ.supported(qemu_a53), None);
    assert_eq!(Core::EXT_MEM_REQ.pmceid_bit(), None);
    // cortex-a76 / neoverse-n1: PMCEID1 = 0x18 (STALL_FRONTEND, STALL_BACKEND); max adds STALL
    // (max as measured by tests/tests/qemu.rs; the others per QEMU 7.2 target/arm/helper.c).
    let qemu_a76 = [0x20101, 0x18, 0, 0];
    assert_eq!(Core::STALL_FRONTEND.supported(qemu_a76), Some(true));
    assert_eq!(Core::STALL_BACKEND.supported(qemu_a76), Some(true));
    assert_eq!(Core::STALL.supported(qemu_a76), Some(false));
    assert_eq!(
        Core::STALL.supported([0x20101, 0x1000_0018, 0, 0]),
        Some(true)
    );
    // 0x4000-range events are in PMCEID2/3 (the upper halves of the AArch64 registers).
    assert_eq!(Core::SAMPLE_POP.pmceid_bit(), Some((2, 0)));
    assert_eq!(Core::CNT_CYCLES.supported([0, 0, 1 << 4, 0]), Some(true));
    assert_eq!(Core::CNT_CYCLES.supported_el0(1 << 36, 0), Some(true));
    assert_eq!(Core::CPU_CYCLES.supported_el0(0x20101, 0), Some(true));
    assert_eq!(Core::SAMPLE_POP.supported_el0(0x20101, 0), Some(false));
}

#[test]
fn supported_agrees_with_the_am62l_pmceid0_from_facts() {
    // The AM62L's PMCEID0 resets to 0x67FFBFFF (TI's AM62L register description, as quoted in the
    // public article "ARM PMU性能监控单元原理与AM62L寄存器级实战指南", vendor-quoted): every event
    // 0x00-0x1F but 0x0E (BR_RETURN_RETIRED), 0x1B, 0x1C, 0x1F.
    let am62l = [0x67FF_BFFF, 0, 0, 0];
    assert_eq!(Core::SW_INCR.supported(am62l), Some(true));
    assert_eq!(Core::L1D_CACHE.supported(am62l), Some(true));
    assert_eq!(Core::CPU_CYCLES.supported(am62l), Some(true));
    assert_eq!(Core::STALL.supported(am62l), Some(false));
}

#[test]
fn dsu_pmceid_has_two_registers_and_only_common_events() {
    let pmceid = [1 << 0x11 | 1 << 0x19, 1 << (0x2B - 0x20)];
    assert_eq!(Dsu::cycles.supported(pmceid), Some(true));
    assert_eq!(Dsu::bus_access.supported(pmceid), Some(true));
    assert_eq!(Dsu::l3d_cache.supported(pmceid), Some(true));
    assert_eq!(Dsu::l3d_cache_wb.supported(pmceid), Some(false));
}

#[test]
fn converts_to_the_generated_event_type_layouts() {
    use arm_pmuv3::{Pmevtyper, Value};
    let evtyper = Value::<Pmevtyper>::from(Core::SAMPLE_POP);
    assert_eq!(evtyper.get(Pmevtyper::EVTCOUNT), 0x4000);
    assert_eq!(evtyper.bits(), 0x4000);
    // The filters are the layout's own fields.
    let filtered = Value::<Pmevtyper>::from(Core::CPU_CYCLES).with(Pmevtyper::U, true);
    assert_eq!(filtered.get(Pmevtyper::EVTCOUNT), 0x11);
    assert!(filtered.get(Pmevtyper::U));
    assert_eq!(
        Value::<Pmevtyper>::from(Basic::INST_RETIRED).get(Pmevtyper::EVTCOUNT),
        0x08
    );
    let dsu = arm_dsu_pmu::Value::<arm_dsu_pmu::Clusterpmxevtyper>::from(Dsu::l3d_cache_refill);
    assert_eq!(dsu.get(arm_dsu_pmu::Clusterpmxevtyper::VALUE), 0x2A);
}
