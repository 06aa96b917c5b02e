//! The memory-mapped back end on the generated model of the architectural EXT32 frame
//! (`arm_pmuv3::model::PmuExt32Model`): the architecture gives no reset for PMCFGR, PMCEID or
//! PMLSR, so the "hardware" sets what an implementation would (6 counters, QEMU's PMCEID0, the
//! lock set).
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::undocumented_unsafe_blocks
)]

mod pmu_hw;

use arm_pmuv3::model::PmuExt32Model;
use armreg_rt::model::{Op, Outcome};
use pmu_driver::{Event, External, Filter, Pmu, PmuVersion};
use pmu_hw::{count, pmuv3, SW_INCR};

/// An implementation of the frame: N = 6, PMCEID0 = 0x20101, locked at reset.
fn frame() -> PmuExt32Model {
    let model = PmuExt32Model::new();
    model.hardware(|hw| {
        hw.set("PMCFGR", 6);
        hw.set_n("PMCEID<n>", 0, 0x20101);
        // The lock is implemented (PMLSR.SLI) and set.
        hw.set("PMLSR", 0x1);
        hw.set_locked(true);
    });
    pmu_hw::attach(&model, pmuv3(6));
    model
}

#[test]
fn the_driver_on_the_architectural_frame() {
    let model = frame();
    assert_eq!(model.block().pmlsr().read().bits(), 0x3);
    let pmu = Pmu::new(External::unlocked(model.block()).with_version(PmuVersion::V3p1)).unwrap();
    let info = pmu.info();
    assert_eq!(info.counters, 6);
    assert_eq!(info.events.unwrap().pmceid(), [0x20101, 0, 0, 0]);

    let sw = pmu.allocate(Event::SW_INCR, Filter::EL0_EL1).unwrap();
    let inst = pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1).unwrap();
    pmu.enable(&sw);
    pmu.enable(&inst);
    pmu.start();
    for _ in 0..7 {
        pmu.software_increment(&sw).unwrap();
    }
    count(&model, pmuv3(6), 0x08, 99);
    count(&model, pmuv3(6), SW_INCR, 1000);
    assert_eq!((pmu.read(&sw), pmu.read(&inst)), (7, 99));

    // Counter 5 is the last the frame has: its registers are at 0x028 and 0x414.
    let last = pmu
        .allocate_at(5, Event::INST_RETIRED, Filter::EL0_EL1)
        .unwrap();
    pmu.enable(&last);
    count(&model, pmuv3(6), 0x08, 1);
    assert_eq!(pmu.read(&last), 1);
    let offsets: Vec<usize> = model
        .log()
        .iter()
        .filter(|a| a.index == Some(5) && a.op == Op::Write)
        .map(|a| a.offset)
        .collect();
    assert!(offsets.contains(&0x414) && offsets.contains(&0x028));

    pmu.registers().lock();
    assert!(model.locked());
    pmu.stop();
    assert_eq!(model.log().last().map(|a| a.outcome), Some(Outcome::Locked));
}
