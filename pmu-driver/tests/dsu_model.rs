//! The DynamIQ cluster PMU: the driver logic of a core's PMU, over the cluster PMU's
//! memory-mapped block (the generated model of `arm-dsu-pmu-mmio`, an UNCONFIRMED map) and over
//! its CLUSTERPM* system registers (`Dsu`, behind the host hook's model).
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::undocumented_unsafe_blocks
)]

mod model;
mod pmu_hw;

use arm_dsu_pmu_mmio::model::DsuPmuMmioModel;
use armreg_rt::model::{Op, Outcome};
use pmu_driver::{Dsu, Error, Event, External, Filter, Pmu, PmuVersion, Registers, SampleRing};
use pmu_hw::{count, DSU};

/// L3D_CACHE, a DSU event (Linux `drivers/perf/arm_dsu_pmu.c`).
const L3D_CACHE: u16 = 0x2B;
const BUS_ACCESS: u16 = 0x19;

/// The block's model with six counters (its PMCFGR has no described reset: the hardware sets N)
/// and the PMU's behaviour.
fn cluster() -> DsuPmuMmioModel {
    let model = DsuPmuMmioModel::new();
    model.hardware(|hw| hw.set("PMCFGR", 6));
    pmu_hw::attach(&model, DSU);
    model
}

#[test]
fn the_driver_over_the_memory_mapped_cluster_pmu() {
    let model = cluster();
    let pmu = Pmu::new(External::unlocked(model.block())).unwrap();
    let info = pmu.info();
    assert_eq!(info.counters, 6);
    assert_eq!(info.version, PmuVersion::V3);
    assert_eq!(
        info.events, None,
        "no PMCEID in this map: every event is accepted"
    );
    assert_eq!(info.cycle_counter_bits, 0, "no cycle counter in this map");
    assert_eq!(
        pmu.registers().is_locked(),
        None,
        "no software lock in this map"
    );
    assert!(
        model.log().iter().all(|a| a.register != "PMLAR"),
        "nothing written where there is no lock"
    );

    // The cycle counter cannot be had, so neither can a full measurer; event counters can.
    assert_eq!(
        pmu.allocate_cycles(Filter::EL0_EL1),
        Err(Error::NoCycleCounter)
    );
    assert_eq!(
        pmu.measurer([], Filter::EL0_EL1).err(),
        Some(Error::NoCycleCounter)
    );
    let l3 = pmu
        .allocate(Event::new(L3D_CACHE), Filter::EL0_EL1)
        .unwrap();
    let bus = pmu
        .allocate(Event::new(BUS_ACCESS), Filter::EL0_ONLY)
        .unwrap();
    // Cluster events have no exception-level filter: only the event number is written.
    model.hardware(|hw| {
        assert_eq!(
            hw.get_n("PMEVTYPER<n>", l3.index().into()),
            u64::from(L3D_CACHE)
        );
        assert_eq!(
            hw.get_n("PMEVTYPER<n>", bus.index().into()),
            u64::from(BUS_ACCESS)
        );
    });
    pmu.enable(&l3);
    pmu.enable(&bus);
    count(&model, DSU, L3D_CACHE, 500);
    assert_eq!(pmu.read(&l3), 0, "PMCR.E = 0: nothing counts");
    pmu.start();
    count(&model, DSU, L3D_CACHE, 500);
    count(&model, DSU, BUS_ACCESS, 3);
    assert_eq!((pmu.read(&l3), pmu.read(&bus)), (500, 3));
    pmu.disable(&bus);
    count(&model, DSU, BUS_ACCESS, 3);
    assert_eq!(pmu.read(&bus), 3);

    // Overflow: flag, exact total, cleared through PMOVSCLR by the handler.
    pmu.preset(&l3, 0xFFFF_FF00);
    count(&model, DSU, L3D_CACHE, 0x200);
    assert_eq!(pmu.registers().overflow_flags().bits(), 1 << l3.index());
    assert_eq!(pmu.read(&l3), 0xFFFF_FF00 + 0x200);
    model.take_log();
    let ring = SampleRing::<2>::new();
    assert_eq!(pmu.on_overflow(0, &ring).bits(), 1 << l3.index());
    let writes: Vec<_> = model
        .log()
        .into_iter()
        .filter(|a| a.op == Op::Write)
        .map(|a| (a.register, a.outcome))
        .collect();
    assert_eq!(writes, [("PMOVSCLR", Outcome::Done)]);
    assert_eq!(pmu.read(&l3), 0xFFFF_FF00 + 0x200);

    // PMCR.P resets the event counters through the hook; P and C read as 0.
    pmu.stop();
    pmu.registers()
        .set_control(pmu.registers().control().with(arm_pmuv3::Pmcr::P, true));
    assert_eq!(
        model.hardware(|hw| hw.get_n("PMEVCNTR<n>", l3.index().into())),
        0
    );
    assert_eq!(model.block().pmcr().read().bits(), 0);
}

#[test]
fn the_cluster_system_registers_through_the_same_driver() {
    // The CLUSTERPM* registers behind the host hook: the PMUv3 model with its PMSELR
    // indirection, N = 6 and events 0x11, 0x19, 0x2B counted (PMCEID0/1 as the DSU reports them).
    let mut m = model::cortex_a53();
    m.pmceid = [1 << 0x11 | 1 << 0x19, 1 << (0x2B - 0x20), 0, 0];
    let _g = model::install(m);
    let pmu = Pmu::new(Dsu).unwrap();
    let info = pmu.info();
    assert_eq!((info.counters, info.cycle_counter_bits), (6, 64));
    assert_eq!(
        info.events
            .unwrap()
            .iter()
            .map(|e| e.number())
            .collect::<Vec<_>>(),
        [0x11, 0x19, 0x2B]
    );
    assert_eq!(
        pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1),
        Err(Error::UnsupportedEvent(Event::INST_RETIRED))
    );
    let l3 = pmu
        .allocate(Event::new(L3D_CACHE), Filter::EL0_EL1)
        .unwrap();
    let cycles = pmu.allocate_cycles(Filter::EL0_EL1).unwrap();
    model::with(|m| {
        // Programmed through CLUSTERPMSELR + CLUSTERPMXEVTYPER: the event number alone.
        assert_eq!(m.evtyper[usize::from(l3.index())], u32::from(L3D_CACHE));
        // The selection the driver found is restored.
        assert_eq!(m.selr, 0);
    });
    pmu.enable(&l3);
    pmu.enable(&cycles);
    pmu.start();
    model::with(|m| {
        m.event(L3D_CACHE, 1234);
        m.cycles(5000);
    });
    assert_eq!((pmu.read(&l3), pmu.read(&cycles)), (1234, 5000));
    assert!(model::undefined().is_empty(), "{:?}", model::undefined());
}
