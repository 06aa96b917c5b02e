//! The memory-mapped back end on the generated model of TI AM62L's per-CPU PMU frame
//! (`ti_am62l_pmu::model::PmuModel`): the XML's registers and resets, with the set/clear views and
//! the software lock the native overlay states. `pmu_hw` adds what no description states
//! (counting, PMCR.P/C resetting counters).
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::undocumented_unsafe_blocks
)]

mod pmu_hw;

use armreg_rt::Layout;
use std::sync::atomic::Ordering::SeqCst;

use armreg_rt::model::{Op, Outcome, System};
use pmu_driver::{Error, Event, External, Filter, Pmu, PmuVersion, Registers, SampleRing};
use pmu_hw::{count, AM62L, CPU_CYCLES};
use ti_am62l_pmu::mmio::{self, Pmu as Frame};
use ti_am62l_pmu::model::PmuModel;
use ti_am62l_pmu::{Pmcntenclr, Pmcntenset, Pmcr, Pmlar, Pmovsclr, Pmovsset};

const KEY: u32 = 0xC5AC_CE55;
const INST_RETIRED: u16 = 0x08;
const L1D_CACHE: u16 = 0x04;

/// A model with the PMU's behaviour attached.
fn am62l() -> PmuModel {
    let model = PmuModel::new();
    pmu_hw::attach(&model, AM62L);
    model
}

fn unlock<B: armreg_rt::mmio::Bus>(frame: &Frame<B>) {
    frame.pmlar().write(Pmlar::from_bits_retain(KEY));
}

#[test]
fn per_cpu_handles_are_at_the_right_addresses() {
    // The vendor-quoted address of CPU1's PMCR (TI's AM62L register description, as quoted in the
    // public article "ARM PMU性能监控单元原理与AM62L寄存器级实战指南"), and CPU0's frame 1 MiB below (inferred,
    // see descriptions/am62l/am62l-pmu.xml).
    // SAFETY: the constructors' contract (the frame mapped as device memory at its base, no
    // conflicting use) governs accesses through the handles; none is made here: `addr()` only
    // computes base + offset, and the handles are dropped unused.
    let (cpu0, cpu1) = unsafe { (mmio::pmu_cpu0(), mmio::pmu_cpu1()) };
    assert_eq!(cpu1.pmcr().addr(), 0x0007_3013_0E04);
    assert_eq!(cpu0.pmcr().addr(), 0x0007_3003_0E04);
    assert_eq!(cpu1.pmlar().addr(), 0x0007_3013_0FB0);

    // The same instances on a memory map of two models: each handle reaches its own CPU's frame.
    let (m0, m1) = (am62l(), am62l());
    let soc = System::new()
        .map(mmio::PMU_CPU0_BASE, &m0)
        .map(mmio::PMU_CPU1_BASE, &m1);
    let cpu1 = Frame::with_bus(&soc, mmio::PMU_CPU1_BASE);
    unlock(&cpu1);
    cpu1.pmcntenset().set(
        Pmcntenset::DEFAULT
            .with(Pmcntenset::P1, true)
            .with(Pmcntenset::C, true),
    );
    assert_eq!(m1.hardware(|hw| hw.get("PMCNTENSET")), 0x8000_0002);
    assert_eq!(m0.hardware(|hw| hw.get("PMCNTENSET")), 0);
    assert!(m0.log().is_empty(), "nothing reached CPU0's frame");
    let offsets: Vec<usize> = m1.log().iter().map(|a| a.offset).collect();
    assert_eq!(offsets, [0xFB0, 0xC00]);
}

#[test]
fn writes_are_ignored_until_unlocked() {
    let model = am62l();
    let pmu = model.block();
    // PMLSR resets to 0x3 on AM62L: lock implemented and set.
    assert!(
        pmu.pmlsr().read().get(ti_am62l_pmu::Pmlsr::SLI)
            && pmu.pmlsr().read().get(ti_am62l_pmu::Pmlsr::SLK)
    );
    pmu.pmcr().write(Pmcr::DEFAULT.with(Pmcr::E, true));
    pmu.pmcntenset()
        .set(Pmcntenset::DEFAULT.with(Pmcntenset::P0, true));
    assert!(!pmu.pmcr().read().get(Pmcr::E));
    assert_eq!(pmu.pmcntenset().read().bits(), 0);

    unlock(&pmu);
    assert!(!pmu.pmlsr().read().get(ti_am62l_pmu::Pmlsr::SLK));
    pmu.pmcr().write(Pmcr::DEFAULT.with(Pmcr::E, true));
    assert!(pmu.pmcr().read().get(Pmcr::E));

    // Any value but the key locks again.
    pmu.pmlar().write(Pmlar::from_bits_retain(0));
    assert!(pmu.pmlsr().read().get(ti_am62l_pmu::Pmlsr::SLK));
    pmu.pmcr().write(Pmcr::DEFAULT);
    assert!(
        pmu.pmcr().read().get(Pmcr::E),
        "locked: the write was ignored"
    );

    let writes: Vec<(&str, Outcome)> = model
        .log()
        .iter()
        .filter(|a| a.op == Op::Write)
        .map(|a| (a.register, a.outcome))
        .collect();
    assert_eq!(
        writes,
        [
            ("PMCR", Outcome::Locked),
            ("PMCNTENSET", Outcome::Locked),
            ("PMLAR", Outcome::Done),
            ("PMCR", Outcome::Done),
            ("PMLAR", Outcome::Done),
            ("PMCR", Outcome::Locked),
        ]
    );
}

#[test]
fn pmceid0_reads_the_am62l_value() {
    let model = am62l();
    let pmu = model.block();
    // Reads need no unlock.
    assert_eq!(
        pmu.pmceid0().read().get(ti_am62l_pmu::Pmceid0::ID),
        0x67FF_BFFF
    );
    assert_eq!(pmu.pmceid1().read().get(ti_am62l_pmu::Pmceid1::ID), 0);
    assert_eq!(pmu.pmcfgr().read().get(ti_am62l_pmu::Pmcfgr::N), 6);
    // What the driver discovers from them.
    let driver = Pmu::new(External::unlocked(model.block())).unwrap();
    let info = driver.info();
    assert_eq!(info.counters, 6);
    assert_eq!(info.version, PmuVersion::V3);
    assert_eq!(info.cycle_counter_bits, 64);
    assert_eq!(info.events.unwrap().pmceid(), [0x67FF_BFFF, 0, 0, 0]);
    assert!(driver.check_event(Event::L1D_CACHE).is_ok());
    // PMCEID0 bit 14 is clear: AM62L does not count event 0x0E.
    assert_eq!(
        driver.check_event(Event::new(0x0E)),
        Err(Error::UnsupportedEvent(Event::new(0x0E)))
    );
}

#[test]
fn counter_enables_are_one_state_set_and_cleared_through_two_views() {
    let model = am62l();
    let pmu = model.block();
    unlock(&pmu);
    pmu.pmcntenset()
        .set(Pmcntenset::from_bits_retain(0xFFFF_FFFF));
    // Counters 6..30 do not exist on AM62L: their bits are RAZ/WI.
    assert_eq!(pmu.pmcntenset().read().bits(), 0x8000_003F);
    pmu.pmcntenclr().clear(
        Pmcntenclr::DEFAULT
            .with(Pmcntenclr::P2, true)
            .with(Pmcntenclr::C, true),
    );
    assert_eq!(pmu.pmcntenset().read().bits(), 0x3B);
    assert_eq!(
        pmu.pmcntenclr().read().bits(),
        0x3B,
        "both views read the one state"
    );
    // Writing 0s changes nothing through either view.
    pmu.pmcntenset().set(Pmcntenset::DEFAULT);
    pmu.pmcntenclr().clear(Pmcntenclr::DEFAULT);
    assert_eq!(model.hardware(|hw| hw.get("PMCNTENCLR")), 0x3B);
    // The interrupt enables are a state of their own.
    assert_eq!(pmu.pmintenset().read().bits(), 0);

    // Through the driver's back end.
    let regs = External::unlocked(model.block());
    regs.disable_counters(arm_pmuv3::PmCounterMask::from_bits_retain(0x8000_0001));
    assert_eq!(regs.enabled_counters().bits(), 0x3A);
}

#[test]
fn overflow_flags_clear_only_through_pmovsclr() {
    let model = am62l();
    let pmu = model.block();
    unlock(&pmu);
    model.hardware(|hw| hw.set("PMOVSSET", 0x8000_0005));
    // Neither a 0 through the set view, nor PMCR.P/C, nor the enable views clear a flag.
    pmu.pmovsset().set(Pmovsset::DEFAULT);
    pmu.pmcr()
        .write(Pmcr::DEFAULT.with(Pmcr::P, true).with(Pmcr::C, true));
    pmu.pmcntenclr()
        .clear(Pmcntenclr::from_bits_retain(0xFFFF_FFFF));
    pmu.pmintenclr()
        .clear(ti_am62l_pmu::Pmintenclr::from_bits_retain(0xFFFF_FFFF));
    assert_eq!(pmu.pmovsset().read().bits(), 0x8000_0005);
    pmu.pmovsclr()
        .clear(Pmovsclr::DEFAULT.with(Pmovsclr::P0, true));
    assert_eq!(pmu.pmovsset().read().bits(), 0x8000_0004);
    assert_eq!(pmu.pmovsclr().read().bits(), 0x8000_0004);
    // The set view sets (for testing an overflow handler).
    pmu.pmovsset()
        .set(Pmovsset::DEFAULT.with(Pmovsset::P1, true));
    assert_eq!(pmu.pmovsset().read().bits(), 0x8000_0006);
}

#[test]
fn pmcr_p_and_c_reset_the_counters_through_the_hook_and_read_back_0() {
    let model = am62l();
    let pmu = model.block();
    unlock(&pmu);
    model.hardware(|hw| {
        for n in 0..6u64 {
            hw.set(&format!("PMEVCNTR{n}"), 1000 + n);
        }
        hw.set("PMCCNTR", 0x1_0000_0000);
    });
    // P alone: event counters only.
    pmu.pmcr()
        .write(Pmcr::DEFAULT.with(Pmcr::E, true).with(Pmcr::P, true));
    assert_eq!(pmu.pmevcntr3().read().bits(), 0);
    assert_eq!(pmu.pmccntr().read().bits(), 0x1_0000_0000);
    // C: the cycle counter.
    pmu.pmcr()
        .write(Pmcr::DEFAULT.with(Pmcr::E, true).with(Pmcr::C, true));
    assert_eq!(pmu.pmccntr().read().bits(), 0);
    // P and C read as 0; E was written and reads back.
    assert_eq!(pmu.pmcr().read().bits(), 0x1);
}

#[test]
fn the_complete_measure_flow() {
    let model = am62l();
    // Unlock, discover N from PMCFGR, put the PMU in a known state.
    let pmu = Pmu::new(External::unlocked(model.block())).unwrap();
    assert_eq!(pmu.registers().is_locked(), Some(false));
    assert_eq!(pmu.info().counters, 6);

    // Configure: cycles, INST_RETIRED and L1D_CACHE.
    let m = pmu.measurer([Event::L1D_CACHE], Filter::EL0_EL1).unwrap();
    model.hardware(|hw| {
        assert_eq!(hw.get("PMEVTYPER0") & 0xFFFF, u64::from(INST_RETIRED));
        assert_eq!(hw.get("PMEVTYPER1") & 0xFFFF, u64::from(L1D_CACHE));
    });
    pmu.start();

    // Count: the "work" is the hardware counting events while the counters run.
    let (out, counts) = pmu.measure(&m, || {
        count(&model, AM62L, INST_RETIRED, 1000);
        count(&model, AM62L, CPU_CYCLES, 1500);
        count(&model, AM62L, L1D_CACHE, 42);
        7
    });
    assert_eq!(out, 7);
    assert_eq!(
        (counts.instructions, counts.cycles, counts.events),
        (1000, 1500, [42])
    );
    // Outside the window nothing counts: the counters were stopped with one PMCNTENCLR write.
    count(&model, AM62L, INST_RETIRED, 5);
    assert_eq!(model.hardware(|hw| hw.get("PMEVCNTR0")), 1000);
    pmu.release_measurer(m);

    // Overflow: a counter preset just below the wrap; the flag, then the 64-bit total.
    let c = pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1).unwrap();
    pmu.preset(&c, 0xFFFF_FFF0);
    pmu.enable(&c);
    count(&model, AM62L, INST_RETIRED, 0x20);
    assert_eq!(pmu.registers().overflow_flags().bits(), 1 << c.index());
    assert_eq!(pmu.read(&c), 0xFFFF_FFF0 + 0x20);
    // The interrupt handler clears the flag, through PMOVSCLR, and keeps the total.
    model.take_log();
    let ring = SampleRing::<4>::new();
    assert_eq!(pmu.on_overflow(0, &ring).bits(), 1 << c.index());
    assert_eq!(pmu.registers().overflow_flags().bits(), 0);
    let clears: Vec<(&str, u64)> = model
        .log()
        .iter()
        .filter(|a| a.op == Op::Write)
        .map(|a| (a.register, a.value))
        .collect();
    assert_eq!(clears, [("PMOVSCLR", 1 << c.index())]);
    assert_eq!(pmu.read(&c), 0xFFFF_FFF0 + 0x20);

    // Lock again: later writes are ignored.
    pmu.registers().lock();
    assert_eq!(pmu.registers().is_locked(), Some(true));
    pmu.stop();
    assert!(pmu.is_started(), "locked: PMCR.E = 0 was not written");

    // Every write before the lock took effect; the one after it did not.
    let writes: Vec<_> = model
        .log()
        .into_iter()
        .filter(|a| a.op == Op::Write)
        .collect();
    let (last, before) = writes.split_last().unwrap();
    assert_eq!((last.register, last.outcome), ("PMCR", Outcome::Locked));
    let (lock, before) = before.split_last().unwrap();
    assert_eq!(lock.register, "PMLAR");
    assert_ne!(lock.value, u64::from(KEY));
    assert!(before.iter().all(|a| a.outcome == Outcome::Done));
}

#[test]
fn the_first_access_of_the_driver_is_the_unlock() {
    let model = am62l();
    let _pmu = Pmu::new(External::unlocked(model.block())).unwrap();
    let log = model.log();
    assert_eq!((log[0].register, log[0].value), ("PMLAR", u64::from(KEY)));
    assert!(log.iter().all(|a| a.outcome == Outcome::Done));
}

#[test]
fn a_cycle_counter_read_is_retaken_across_a_carry_between_its_halves() {
    let model = am62l();
    let regs = External::unlocked(model.block());
    model.hardware(|hw| hw.set("PMCCNTR", 0x1_FFFF_FFFF));
    // The counter carries into its high word right after the first read of its low word.
    let carried = std::sync::atomic::AtomicBool::new(false);
    let carried = std::sync::Arc::new(carried);
    let c = carried.clone();
    model.on_read(move |hw, r| {
        if r.register == "PMCCNTR" && r.lane == 0xFFFF_FFFF && !c.swap(true, SeqCst) {
            hw.set("PMCCNTR", 0x2_0000_0003);
        }
    });
    // One plain 64-bit read is torn: the old low word with the new high word.
    assert_eq!(model.block().pmccntr().read().bits(), 0x2_FFFF_FFFF);
    // The back end's read is not.
    model.hardware(|hw| hw.set("PMCCNTR", 0x1_FFFF_FFFF));
    carried.store(false, SeqCst);
    assert_eq!(regs.cycle_count(), 0x2_0000_0003);
    assert!(carried.load(SeqCst));
}
