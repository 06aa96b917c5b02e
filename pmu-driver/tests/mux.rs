//! Multiplexing on the behavioural PMU model: more events than counters rotate through them, each
//! event's count, enabled and running time are kept as perf keeps them, the estimates of a steady
//! workload are the true rates, unsupported events report no number, and the report table.
mod model;

use pmu_driver::mux::{Counted, Session, Tracked};
use pmu_driver::{Aarch64, Event, Filter, Pmu};

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

/// One tick of a steady workload: 1000 cycles, and per event `rate` occurrences (event number,
/// rate).
fn tick(rates: &[(u16, u64)]) {
    model::with(|m| {
        m.cycles(1000);
        for &(event, rate) in rates {
            m.event(event, rate);
        }
    });
}

const RATES: [(u16, u64); 8] = [
    (0x08, 700),  // INST_RETIRED
    (0x11, 1000), // CPU_CYCLES
    (0x00, 3),    // SW_INCR
    (0x12, 90),   // BR_PRED
    (0x10, 7),    // BR_MIS_PRED
    (0x13, 210),  // MEM_ACCESS
    (0x1B, 300),  // INST_SPEC
    (0x1D, 500),  // BUS_CYCLES
];

/// The events of [`RATES`], by number: the report names them from the architecture's events.
fn events() -> Vec<Tracked> {
    RATES
        .iter()
        .map(|&(code, _)| Tracked::new(Event::new(code)))
        .collect()
}

/// The model's cortex-a53 with every common event advertised.
fn install_all_events() -> std::sync::MutexGuard<'static, ()> {
    let mut m = model::cortex_a53();
    m.pmceid = [u32::MAX, u32::MAX, 0, 0];
    model::install(m)
}

#[test]
fn eight_events_on_six_counters_estimate_a_steady_workload() {
    let _guard = install_all_events();
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let mut tracked = events();
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    assert_eq!(s.counters(), 6);
    s.start();
    let ticks = 96u64;
    for _ in 0..ticks {
        tick(&RATES);
        s.rotate();
    }
    s.stop();
    assert_eq!(s.rotations(), ticks);
    assert_eq!(s.cycles(), 1000 * ticks);
    for (r, &(code, rate)) in s.readings().zip(&RATES) {
        // Each event was on a counter 6 ticks of every 8, and counted exactly then.
        let Counted::Scaled { count, estimate } = r.counted else {
            panic!("{}: {:?}", r.label(), r.counted);
        };
        assert_eq!(r.enabled, 1000 * ticks, "{}", r.label());
        assert_eq!(r.running, 1000 * ticks * 6 / 8, "{}", r.label());
        assert_eq!(r.permille(), 750);
        assert_eq!(count, rate * ticks * 6 / 8, "{code:#x}");
        assert_eq!(estimate, rate * ticks, "{}", r.label());
    }
    let table = s.report().to_string();
    assert!(
        table.contains("INST_RETIRED             scaled (75.0% counted)"),
        "{table}"
    );
    assert!(
        table.contains("8 events on 6 counters, 96 rotations"),
        "{table}"
    );
    s.finish();
    // The counters are the PMU's again.
    assert!(pmu.allocate_cycles(Filter::EL0_EL1).is_ok());
}

#[test]
fn as_many_events_as_counters_stay_exact() {
    let _guard = install_all_events();
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let mut tracked = events();
    tracked.truncate(6);
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    s.start();
    for _ in 0..10 {
        tick(&RATES);
        s.rotate();
    }
    s.stop();
    assert_eq!(s.rotations(), 0);
    for (r, &(_, rate)) in s.readings().zip(&RATES) {
        assert_eq!(r.counted, Counted::Exact(rate * 10), "{}", r.label());
        assert_eq!(r.permille(), 1000);
    }
}

#[test]
fn events_the_pmu_does_not_count_report_no_number() {
    // QEMU's cortex-a53: PMCEID0 = 0x20101 (SW_INCR, INST_RETIRED, CPU_CYCLES).
    let _guard = model::install(model::cortex_a53());
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let mut tracked = events();
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    s.start();
    for _ in 0..4 {
        tick(&RATES);
        s.rotate();
    }
    s.stop();
    let readings: Vec<_> = s.readings().collect();
    // The three it counts fit the counters: exact, and no rotation.
    assert_eq!(readings[0].counted, Counted::Exact(700 * 4));
    assert_eq!(readings[1].counted, Counted::Exact(1000 * 4));
    assert_eq!(readings[2].counted, Counted::Exact(3 * 4));
    for r in &readings[3..] {
        assert_eq!(r.counted, Counted::NotSupported, "{}", r.label());
        assert_eq!((r.enabled, r.running), (0, 0));
    }
    let table = s.report().to_string();
    assert!(
        table.contains(
            "<not supported>  BR_PRED                  (not counted by this PMU: PMCEID0 bit 18 is clear)"
        ),
        "{table}"
    );
}

#[test]
fn an_event_never_scheduled_is_not_counted() {
    let _guard = install_all_events();
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let mut tracked = events();
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    s.start();
    tick(&RATES);
    s.stop();
    let readings: Vec<_> = s.readings().collect();
    // The first group ran the whole (short) session: exact.
    assert_eq!(readings[0].counted, Counted::Exact(700));
    assert_eq!(readings[6].counted, Counted::NotCounted);
    assert_eq!(readings[7].counted, Counted::NotCounted);
    assert!(s.report().to_string().contains("<not counted>  INST_SPEC"));
}

#[test]
fn without_pmceid_an_event_that_counted_nothing_gives_no_number() {
    // QEMU's cortex-a7: an Armv7 PMU with 4 counters and no PMCEID.
    let _guard = model::install(model::cortex_a7());
    let pmu = leak(Pmu::new(pmu_driver::Aarch32::new()).unwrap());
    let mut tracked = vec![
        Tracked::new(Event::INST_RETIRED),
        // Counted at EL0 only: its PMXEVTYPER has P set.
        Tracked::new(Event::INST_RETIRED).with_filter(Filter::EL0),
        Tracked::new(Event::new(0x13)),
    ];
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    assert_eq!(s.counters(), 4);
    s.start();
    // Only the all-levels INST_RETIRED counter sees the work (the model ignores filters).
    model::with(|m| {
        m.cycles(100);
        m.add(0, 70);
    });
    s.stop();
    let readings: Vec<_> = s.readings().collect();
    assert_eq!(readings[0].counted, Counted::Exact(70));
    assert_eq!(readings[1].counted, Counted::NoneSeen);
    assert_eq!(readings[2].counted, Counted::NoneSeen);
    let p = model::with(|m| m.evtyper[1]);
    assert_eq!(
        (p >> 31, p & 0xFF),
        (1, 0x08),
        "PMXEVTYPER of counter 1: {p:#x}"
    );
    let table = s.report().to_string();
    assert!(table.contains("<none seen>  MEM_ACCESS"), "{table}");
    // The filtered row says where it counted, as perf does.
    assert!(
        table.contains("<none seen>  INST_RETIRED:u           (100.0% counted; no PMCEID bit"),
        "{table}"
    );
}

#[test]
fn a_name_the_core_does_not_have_is_refused_with_a_suggestion() {
    let _guard = model::install(model::cortex_a53());
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let info = pmu.info();
    // An unknown core on this PMU: the common Armv8 events PMCEID advertises.
    let core = pmu_driver::cpu::identify(
        pmu_driver::cpu::CpuId {
            implementer: 0,
            variant: 0,
            architecture: 0xF,
            part_number: 0x51,
            revision: 0,
        },
        info,
    );
    let mut tracked =
        ["INST_RETIRED", "L1D_CACHE", "L1D_CACHE_REFIL"].map(|n| core.events.tracked(n));
    assert_eq!(tracked[0].event, Event::INST_RETIRED);
    let err = Session::new(pmu, &mut tracked, Filter::EL0_EL1).err();
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some("unknown event name `L1D_CACHE_REFIL`; did you mean `L1D_CACHE_REFILL`?")
    );
    // Nothing was taken: without the typo, the session runs, and the event the PMU does not
    // count is reported as such, with the PMCEID bit that says so.
    let mut tracked = ["INST_RETIRED", "L1D_CACHE"].map(|n| core.events.tracked(n));
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    s.start();
    tick(&RATES);
    s.stop();
    let readings: Vec<_> = s.readings().collect();
    assert_eq!(readings[0].counted, Counted::Exact(700));
    assert_eq!(readings[1].counted, Counted::NotSupported);
    assert!(s
        .report()
        .to_string()
        .contains("L1D_CACHE                (not counted by this PMU: PMCEID0 bit 4 is clear)"));
}

#[test]
fn typed_events_of_a_core_keep_their_names() {
    use arm_pmu_events::cortex_a53::Event as A53;
    let _guard = install_all_events();
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    // An implementation-defined event keeps the name its set gives it.
    let mut tracked = pmu_driver::mux::track([A53::INST_RETIRED, A53::EVENT_C0]);
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    s.start();
    tick(&RATES);
    s.stop();
    let table = s.report().to_string();
    assert!(table.contains("700  INST_RETIRED "), "{table}");
    assert!(table.contains("<none seen>  EVENT_C0 "), "{table}");
}

#[test]
fn increments_without_the_session_count_only_where_sw_incr_is_on_a_counter() {
    let _guard = install_all_events();
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let mut tracked = events();
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    let inc = s.increments();
    s.start();
    // Eight events on six counters; SW_INCR (the third) is on a counter in some rounds only, as
    // its running time tells.
    let mut on_counter = 0;
    for _ in 0..8 {
        model::with(|m| m.cycles(1000));
        for _ in 0..5 {
            inc.increment();
        }
        let before = s.readings().nth(2).unwrap().running;
        s.rotate();
        on_counter += u64::from(s.readings().nth(2).unwrap().running > before);
    }
    s.stop();
    assert_eq!(on_counter, 6, "SW_INCR is on a counter 6 rounds of 8");
    let readings: Vec<_> = s.readings().collect();
    // Five increments in each round it was on a counter, none otherwise: the write to every
    // held counter reached the SW_INCR one only, once.
    assert!(
        matches!(readings[2].counted, Counted::Scaled { count, .. } if count == 5 * on_counter),
        "{:?}",
        readings[2].counted
    );
    // The counters of the other events ignored the writes.
    for r in readings.iter().filter(|r| r.event != Event::SW_INCR) {
        assert!(
            matches!(r.counted, Counted::Scaled { count: 0, .. }),
            "{}: {:?}",
            r.label(),
            r.counted
        );
    }
}

/// Counters are not zeroed between events: each count is the difference from where the counter
/// stood when the event got it, across a wrap of the 32-bit counter (its overflow flag, taken
/// and cleared by the session), and the next event on that counter starts from there.
#[test]
fn a_counter_that_wraps_while_it_counts_is_counted_across_the_wrap() {
    let _guard = install_all_events();
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let mut tracked = events();
    let mut s = Session::new(pmu, &mut tracked, Filter::EL0_EL1).unwrap();
    // Counter 0 (INST_RETIRED's, first in the ring) stands just below the wrap.
    model::with(|m| m.evcntr[0] = 0xFFFF_FFF0);
    s.start();
    model::with(|m| {
        m.cycles(1000);
        m.event(0x08, 0x30);
    });
    assert_ne!(model::with(|m| m.ovs) & 1, 0, "the counter wrapped");
    // INST_RETIRED gives its counter to the seventh event (INST_SPEC, 0x1B).
    s.rotate();
    assert_eq!(model::with(|m| m.ovs) & 1, 0, "the session took the wrap");
    model::with(|m| {
        m.cycles(1000);
        m.event(0x1B, 5);
    });
    s.stop();
    let readings: Vec<_> = s.readings().collect();
    assert!(
        matches!(readings[0].counted, Counted::Scaled { count: 0x30, .. }),
        "{:?}",
        readings[0].counted
    );
    assert!(
        matches!(readings[6].counted, Counted::Scaled { count: 5, .. }),
        "{:?}",
        readings[6].counted
    );
}
