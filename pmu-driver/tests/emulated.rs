//! The driver against the behavioural model in `model/`: discovery, allocation and its errors,
//! filters, 64-bit totals across overflows (including overflows landing inside a read), sampling,
//! chained counters, `measure`, the AArch32 paths (PMSELR on Armv7, 32-bit cycle counter) and the
//! timer.
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::undocumented_unsafe_blocks
)]

mod model;

use std::sync::atomic::{AtomicU32, Ordering};

use model::{Access, Reg, E, LC, LP};
use pmu_driver::timer::{Aarch32Timer, Aarch64Timer, Timer};
use pmu_driver::{
    Aarch32, Aarch64, CounterKind, Error, Event, EventSet, Filter, Pmu, PmuVersion, SampleRing,
    Support, UserAccess,
};

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

// ---------------------------------------------------------------------------------------------
// Discovery
// ---------------------------------------------------------------------------------------------

#[test]
fn discovery_on_an_aarch64_pmuv3_and_the_state_it_leaves() {
    let mut m = model::cortex_a53();
    // Leftovers from an earlier user: running, counting, flags set.
    m.pmcr |= E;
    m.cnten = 0x8000_0003;
    m.inten = 0x8000_0001;
    m.ovs = 0x8000_0002;
    m.evcntr[2] = 77;
    m.ccntr = 1234;
    let _g = model::install(m);

    let pmu = Pmu::new(Aarch64).unwrap();
    let info = pmu.info();
    assert_eq!(info.version, PmuVersion::V3);
    assert_eq!(info.counters, 6);
    assert_eq!(info.cycle_counter_bits, 64);
    let events = info.events.unwrap();
    assert_eq!(events.pmceid(), [0x20101, 0, 0, 0]);
    assert_eq!(
        events.iter().collect::<Vec<_>>(),
        [Event::SW_INCR, Event::INST_RETIRED, Event::CPU_CYCLES]
    );

    model::with(|m| {
        assert_eq!(
            m.pmcr & (E | LC | LP),
            LC,
            "stopped, 64-bit cycle counter, LP clear"
        );
        assert_eq!((m.cnten, m.inten, m.ovs), (0, 0, 0));
        assert_eq!(
            (m.evcntr[2], m.ccntr),
            (0, 0),
            "PMCR.P and PMCR.C reset the counters"
        );
    });
    assert!(model::undefined().is_empty());
}

#[test]
fn discovery_on_an_armv7_pmu_reads_no_pmuv3_register() {
    let _g = model::install(model::cortex_a7());
    let pmu = Pmu::new(Aarch32::new()).unwrap();
    let info = pmu.info();
    assert_eq!(info.version, PmuVersion::V2);
    assert_eq!(info.counters, 4);
    assert_eq!(info.events, None, "PMCEID is not read on PMUv2");
    assert_eq!(info.cycle_counter_bits, 32);
    model::with(|m| assert_eq!(m.pmcr & LC, 0, "32-bit cycle counter: LC clear"));
    // Without PMCEID every event is accepted.
    assert!(pmu.allocate(Event::L1D_CACHE, Filter::EL0_EL1).is_ok());
    assert!(model::undefined().is_empty(), "{:?}", model::undefined());
}

#[test]
fn discovery_on_aarch32_pmuv3p1_reads_pmceid2_and_3() {
    let mut m = model::cortex_a53();
    m.id_dfr0 = 4 << 24;
    m.pmceid = [0x20101, 0x1000_0018, 0x5, 0];
    let _g = model::install(m);
    let pmu = Pmu::new(Aarch32::new()).unwrap();
    assert_eq!(pmu.info().version, PmuVersion::V3p1);
    let events = pmu.info().events.unwrap();
    assert_eq!(events.pmceid(), [0x20101, 0x1000_0018, 0x5, 0]);
    assert!(events.contains(Event::new(0x4002)));
    assert!(!events.contains(Event::new(0x4001)));
    assert_eq!(events.support(Event::new(0x3C)), Support::Counted);
    assert_eq!(events.support(Event::new(0xC0)), Support::NotDescribed);
    assert!(model::undefined().is_empty());
}

#[test]
fn no_architected_pmu_is_an_error() {
    for pmuver in [0x0, 0xF] {
        let mut m = model::cortex_a53();
        m.id_aa64dfr0 = pmuver << 8;
        let _g = model::install(m);
        assert!(matches!(Pmu::new(Aarch64), Err(Error::NoPmu)));
    }
}

#[test]
fn version_fields_decode() {
    assert_eq!(PmuVersion::from_aa64dfr0(0x6 << 8), PmuVersion::V3p5);
    assert_eq!(PmuVersion::from_aa64dfr0(0x4 << 8), PmuVersion::V3p1);
    assert_eq!(PmuVersion::from_dfr0(0x0301_0066), PmuVersion::V3);
    assert_eq!(PmuVersion::from_dfr0(0x0201_0555), PmuVersion::V2);
    assert!(PmuVersion::V3p5.at_least(PmuVersion::V3));
    assert!(!PmuVersion::V2.at_least(PmuVersion::V3));
    assert!(!PmuVersion::ImplementationDefined.at_least(PmuVersion::V1));
}

// ---------------------------------------------------------------------------------------------
// Allocation and errors
// ---------------------------------------------------------------------------------------------

#[test]
fn allocation_takes_the_lowest_free_counter_until_none_is_left() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    let counters: Vec<_> = (0..6)
        .map(|_| pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1).unwrap())
        .collect();
    assert_eq!(
        counters.iter().map(|c| c.index()).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5]
    );
    assert_eq!(
        pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1),
        Err(Error::NoFreeCounter)
    );
    let mut it = counters.into_iter();
    let first = it.next().unwrap();
    pmu.release(first);
    assert_eq!(
        pmu.allocate(Event::SW_INCR, Filter::EL0_EL1)
            .unwrap()
            .index(),
        0
    );
    model::with(|m| assert_eq!(m.inten, 0b11_1111, "each allocation enables its interrupt"));
}

#[test]
fn errors_are_values() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    assert_eq!(
        pmu.allocate(Event::L1D_CACHE, Filter::EL0_EL1),
        Err(Error::UnsupportedEvent(Event::L1D_CACHE))
    );
    assert_eq!(
        pmu.allocate_at(6, Event::INST_RETIRED, Filter::EL0_EL1),
        Err(Error::CounterOutOfRange { index: 6, count: 6 })
    );
    assert_eq!(
        pmu.allocate_at(usize::MAX, Event::INST_RETIRED, Filter::EL0_EL1),
        Err(Error::CounterOutOfRange {
            index: usize::MAX,
            count: 6
        })
    );
    let c = pmu
        .allocate_at(5, Event::INST_RETIRED, Filter::EL0_EL1)
        .unwrap();
    assert_eq!(c.index(), 5);
    assert_eq!(
        pmu.allocate_at(5, Event::SW_INCR, Filter::EL0_EL1),
        Err(Error::NoFreeCounter)
    );
    let cycles = pmu.allocate_cycles(Filter::EL0_EL1).unwrap();
    assert_eq!(
        pmu.allocate_cycles(Filter::EL0_EL1),
        Err(Error::NoFreeCounter)
    );
    assert_eq!(
        pmu.software_increment(&cycles),
        Err(Error::WrongCounterKind)
    );
    assert_eq!(pmu.set_sample_period(&c, 0), Err(Error::ZeroPeriod));
    assert_eq!(
        pmu.set_sample_period(&cycles, 10),
        Err(Error::WrongCounterKind),
        "the AArch64 cycle counter is 64-bit"
    );
    // CHAIN is not in QEMU's PMCEID0.
    assert_eq!(
        pmu.allocate_chained(Event::INST_RETIRED, Filter::EL0_EL1),
        Err(Error::UnsupportedEvent(Event::CHAIN))
    );
    assert!(model::undefined().is_empty());
}

#[test]
fn filters_reach_the_type_registers_bit_for_bit() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    let cases = [
        (Filter::EL0_EL1, 0),
        (Filter::ALL, 1 << 27),
        (Filter::EL0_ONLY, 1 << 31),
        (Filter::EL1_ONLY, 1 << 30 | 1 << 26),
        (
            Filter {
                p: true,
                u: true,
                nsk: true,
                nsu: true,
                nsh: true,
                m: true,
            },
            0xFC00_0000,
        ),
    ];
    for (i, (filter, bits)) in cases.into_iter().enumerate() {
        let c = pmu.allocate_at(i, Event::INST_RETIRED, filter).unwrap();
        model::with(|m| assert_eq!(m.evtyper[i], bits | 0x08, "{filter:?}"));
        pmu.release(c);
    }
    let _cycles = pmu.allocate_cycles(Filter::EL1_ONLY).unwrap();
    model::with(|m| assert_eq!(m.ccfiltr, 1 << 30 | 1 << 26));
}

#[test]
fn user_access_is_pmuserenr() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    let access = UserAccess {
        enable: true,
        cycle_read: true,
        ..UserAccess::default()
    };
    pmu.set_user_access(access);
    model::with(|m| assert_eq!(m.userenr, 0b101));
    assert_eq!(pmu.user_access(), access);
}

// ---------------------------------------------------------------------------------------------
// Counting and totals
// ---------------------------------------------------------------------------------------------

#[test]
fn software_increment_start_and_stop() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    let c = pmu.allocate(Event::SW_INCR, Filter::EL0_EL1).unwrap();
    pmu.enable(&c);
    pmu.software_increment(&c).unwrap();
    assert_eq!(pmu.read(&c), 0, "PMCR.E = 0: nothing counts");
    pmu.start();
    assert!(pmu.is_started());
    for _ in 0..7 {
        pmu.software_increment(&c).unwrap();
    }
    assert_eq!(pmu.read(&c), 7);
    pmu.stop();
    pmu.software_increment(&c).unwrap();
    assert_eq!(pmu.read(&c), 7, "stopped again: frozen");
    model::with(|m| assert_eq!(m.pmcr & E, 0));
}

#[test]
fn totals_are_exact_across_overflows_handled_and_pending() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    let ring = SampleRing::<4>::new();
    let c = pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1).unwrap();
    let start = 0x0000_0002_FFFF_FF00;
    pmu.preset(&c, start);
    model::with(|m| assert_eq!(m.evcntr[0], 0xFFFF_FF00));
    pmu.enable(&c);
    pmu.start();
    let mut expected = start;
    for step in [0x100, 0x1_0000_0000, 5, 0xFFFF_FFFF, 3] {
        model::with(|m| m.event(0x08, step));
        expected += step;
        // Before the handler runs the overflow is pending: the flag is part of the total.
        assert_eq!(pmu.read(&c), expected, "pending, after +{step:#x}");
        if model::with(|m| m.irq()) {
            assert_eq!(pmu.on_overflow(0, &ring).bits(), 1);
            model::with(|m| assert_eq!(m.ovs, 0, "the handler clears PMOVS"));
        }
        assert_eq!(pmu.read(&c), expected, "handled, after +{step:#x}");
    }
    assert!(ring.is_empty(), "no sampling: no samples");
}

#[test]
fn an_overflow_handled_in_the_middle_of_a_read_is_counted_once() {
    let _g = model::install(model::cortex_a53());
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let ring = leak(SampleRing::<1>::new());
    let c = pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1).unwrap();
    pmu.preset(&c, 0xFFFF_FFF0);
    pmu.enable(&c);
    pmu.start();
    model::with(|m| m.event(0x08, 0x20)); // wraps: flag pending
    let handled = leak(AtomicU32::new(0));
    // A read is: flags, counter, flags, then the handled-overflow count. The handler runs after
    // the second flag read, so the snapshot saw the flag *and* would see the handled overflow:
    // only the retry keeps the overflow from counting twice.
    model::take_log();
    model::inject_after(3, move || {
        handled.fetch_add(pmu.on_overflow(0, ring).bits(), Ordering::SeqCst);
    });
    assert_eq!(pmu.read(&c), 0x1_0000_0010);
    assert_eq!(
        handled.load(Ordering::SeqCst),
        1,
        "the injected handler ran"
    );
    assert_eq!(pmu.read(&c), 0x1_0000_0010);
}

#[test]
fn a_wrap_right_after_the_counter_read_is_not_counted_twice() {
    let _g = model::install(model::cortex_a53());
    let pmu = leak(Pmu::new(Aarch64).unwrap());
    let c = pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1).unwrap();
    pmu.preset(&c, 0xFFFF_FFF0);
    pmu.enable(&c);
    pmu.start();
    // The counter wraps right after it was read (access 2, after the first flag read): the value
    // read is from before the wrap but the second flag read sees the wrap. Taking that flag as
    // pending would count 2^32 too many; the flags differ, so the read is taken again.
    model::inject_after(2, || model::with(|m| m.event(0x08, 0x20)));
    assert_eq!(pmu.read(&c), 0x1_0000_0010);
}

#[test]
fn sampling_records_every_period_into_the_ring() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    let ring = SampleRing::<2>::new();
    let c = pmu.allocate(Event::SW_INCR, Filter::EL0_EL1).unwrap();
    pmu.set_sample_period(&c, 10).unwrap();
    model::with(|m| assert_eq!(m.evcntr[0], 0u32.wrapping_sub(10)));
    pmu.enable(&c);
    pmu.start();
    for i in 1..=35u64 {
        pmu.software_increment(&c).unwrap();
        if model::with(|m| m.irq()) {
            pmu.on_overflow(0x4000 + usize::try_from(i).unwrap(), &ring);
        }
        assert_eq!(pmu.read(&c), i);
    }
    assert_eq!(ring.capacity(), 2);
    assert_eq!(ring.len(), 2);
    assert_eq!(ring.dropped(), 1, "the third sample found the ring full");
    let s = ring.pop().unwrap();
    assert_eq!((s.counter, s.pc, s.total), (0, 0x400A, 10));
    let s = ring.pop().unwrap();
    assert_eq!((s.counter, s.pc, s.total), (0, 0x4014, 20));
    assert_eq!(ring.pop(), None);

    pmu.disable(&c);
    pmu.clear_sample_period(&c);
    assert_eq!(pmu.read(&c), 35, "leaving sampling keeps the total");
    model::with(|m| assert_eq!(m.evcntr[0], 35));
}

#[test]
fn chained_pairs_count_64_bits_in_hardware() {
    let mut m = model::cortex_a53();
    m.pmceid[0] |= 1 << 0x1E;
    let _g = model::install(m);
    let pmu = Pmu::new(Aarch64).unwrap();
    let single = pmu.allocate(Event::SW_INCR, Filter::EL0_EL1).unwrap();
    let c = pmu
        .allocate_chained(Event::INST_RETIRED, Filter::EL1_ONLY)
        .unwrap();
    assert_eq!((c.kind(), c.index()), (CounterKind::Chained, 2));
    model::with(|m| {
        assert_eq!(m.evtyper[2], 0x4400_0008);
        assert_eq!(m.evtyper[3], 0x4400_001E, "the odd counter counts CHAIN");
        assert_eq!(m.inten, 0b1001, "only the high half interrupts");
    });
    pmu.preset(&c, 0x0000_0001_FFFF_FFF0);
    pmu.enable(&c);
    pmu.start();
    model::with(|m| m.event(0x08, 0x1_0000_0020));
    assert_eq!(pmu.read(&c), 0x0000_0003_0000_0010);
    let ring = SampleRing::<1>::new();
    pmu.on_overflow(0, &ring);
    assert_eq!(pmu.read(&c), 0x0000_0003_0000_0010, "no software extension");
    pmu.release(c);
    pmu.release(single);
    // Two counters left in a PMU with N = 1: no pair.
    let mut m = model::cortex_a53();
    m.pmceid[0] |= 1 << 0x1E;
    m.n = 1;
    model::with(|x| *x = m);
    let pmu = Pmu::new(Aarch64).unwrap();
    assert_eq!(
        pmu.allocate_chained(Event::INST_RETIRED, Filter::EL0_EL1),
        Err(Error::NoFreeCounter)
    );
}

#[test]
fn measure_starts_and_stops_every_counter_with_one_write_each() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    let m = pmu.measurer([Event::SW_INCR], Filter::EL0_EL1).unwrap();
    pmu.start();
    model::take_log();
    let (before, counts) = pmu.measure(&m, || {
        // The "work": 1000 instructions and 1000 cycles. It first takes the log of the accesses
        // made before it.
        let log = model::take_log();
        model::with(|m| {
            m.event(0x08, 1000);
            m.cycles(1000);
        });
        log
    });
    assert_eq!(
        before.last(),
        Some(&Access::Write(Reg::CntenSet, 0x8000_0003)),
        "the last access before the work starts the counters"
    );
    let after = model::take_log();
    assert_eq!(
        after.first(),
        Some(&Access::Write(Reg::CntenClr, 0x8000_0003)),
        "the first access after the work stops them"
    );
    assert_eq!(counts.instructions, 1000);
    assert_eq!(counts.cycles, 1000);
    assert_eq!(counts.events, [0]);

    // Every count starts from zero, and the cycle counter is allocated: no second measurer.
    let (_, again) = pmu.measure(&m, || ());
    assert_eq!((again.cycles, again.instructions), (0, 0));
    assert_eq!(
        pmu.measurer([], Filter::EL0_EL1).err(),
        Some(Error::NoFreeCounter)
    );
    pmu.release_measurer(m);
    // An unsupported event gives everything back.
    assert_eq!(
        pmu.measurer([Event::L1D_CACHE], Filter::EL0_EL1).err(),
        Some(Error::UnsupportedEvent(Event::L1D_CACHE))
    );
    let m = pmu.measurer([], Filter::EL0_EL1).unwrap();
    pmu.release_measurer(m);
}

/// A measurer or a session gives its counters back when dropped: a measurer that goes out of
/// scope unreleased leaves the cycle counter free for the session that comes next.
#[test]
fn dropping_a_measurer_frees_its_counters_for_a_session() {
    use pmu_driver::mux::{track, Session};
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch64).unwrap();
    pmu.start();
    {
        let m = pmu.measurer([Event::SW_INCR], Filter::EL0_EL1).unwrap();
        let (_, counts) = m.measure(|| model::with(|m| m.event(0x08, 10)));
        assert_eq!(counts.instructions, 10);
        // Dropped here, not released by hand.
    }
    let mut events = track([Event::INST_RETIRED, Event::CPU_CYCLES]);
    let session = Session::new(&pmu, &mut events, Filter::EL0_EL1).unwrap();
    assert_eq!(session.counters(), 6);
    // While the session lives it holds the counters; dropped, it gives them back too.
    assert_eq!(
        pmu.measurer([], Filter::EL0_EL1).err(),
        Some(Error::NoFreeCounter)
    );
    drop(session);
    let m = pmu.measurer([Event::SW_INCR, Event::INST_RETIRED], Filter::EL0_EL1);
    assert!(m.is_ok());
    // So does a measurer that failed half-way: the counters it had taken are free again.
    drop(m);
    assert_eq!(
        pmu.measurer([Event::SW_INCR, Event::L1D_CACHE], Filter::EL0_EL1)
            .err(),
        Some(Error::UnsupportedEvent(Event::L1D_CACHE))
    );
    assert_eq!(model::with(|m| m.cnten), 0, "no counter left enabled");
    let mut events = track([Event::INST_RETIRED]);
    assert!(Session::new(&pmu, &mut events, Filter::EL0_EL1).is_ok());
}

/// On a PMU without PMCEID (an Armv7 PMU), a zero the PMU cannot vouch for says so.
#[test]
fn a_zero_without_pmceid_may_not_be_real() {
    let _g = model::install(model::cortex_a7());
    let pmu = Pmu::new(Aarch32::new()).unwrap();
    pmu.start();
    let m = pmu
        .measurer([Event::L1D_CACHE_REFILL], Filter::EL0_EL1)
        .unwrap();
    let (_, counts) = m.measure(|| ());
    assert_eq!(counts.events, [0]);
    assert_eq!(counts.support, [Support::NotDescribed]);
    assert!(counts.unconfirmed_zero(0));
    let text = counts.to_string();
    assert!(
        text.ends_with(
            "0  L1D_CACHE_REFILL  (may not be real: the PMU has no PMCEID bit to say it counts this event)"
        ),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------------
// AArch32 paths
// ---------------------------------------------------------------------------------------------

#[test]
fn armv7_event_counters_go_through_pmselr_and_restore_it() {
    let _g = model::install(model::cortex_a7());
    let pmu = Pmu::new(Aarch32::new()).unwrap();
    model::with(|m| m.selr = 3);
    model::take_log();
    let c = pmu
        .allocate_at(2, Event::INST_RETIRED, Filter::EL0_ONLY)
        .unwrap();
    let log = model::take_log();
    let writes: Vec<_> = log
        .iter()
        .filter(|a| {
            matches!(
                a,
                Access::Write(Reg::Selr | Reg::Xevtyper | Reg::Xevcntr, _)
            )
        })
        .copied()
        .collect();
    assert_eq!(
        writes,
        [
            Access::Write(Reg::Selr, 2),
            Access::Write(Reg::Xevtyper, 0x8000_0008),
            Access::Write(Reg::Selr, 3),
            Access::Write(Reg::Selr, 2),
            Access::Write(Reg::Xevcntr, 0),
            Access::Write(Reg::Selr, 3),
        ]
    );
    pmu.enable(&c);
    pmu.start();
    model::with(|m| m.event(0x08, 42));
    assert_eq!(pmu.read(&c), 42);
    assert!(model::undefined().is_empty(), "{:?}", model::undefined());
}

#[test]
fn aarch32_cycle_counter_uses_the_32_bit_access_and_extends_it() {
    let _g = model::install(model::cortex_a53());
    let pmu = Pmu::new(Aarch32::new()).unwrap();
    let ring = SampleRing::<1>::new();
    let c = pmu.allocate_cycles(Filter::EL0_EL1).unwrap();
    pmu.preset(&c, 0xFFFF_FFF0);
    pmu.enable(&c);
    pmu.start();
    model::with(|m| m.cycles(0x30));
    assert!(
        model::with(|m| m.irq()),
        "LC = 0: the cycle counter overflows at 32 bits"
    );
    assert_eq!(pmu.on_overflow(0, &ring).bits(), 1 << 31);
    assert_eq!(pmu.read(&c), 0x1_0000_0020);
    let log = model::take_log();
    assert!(log.iter().all(|a| !matches!(
        a,
        Access::Read(Reg::Ccntr64) | Access::Write(Reg::Ccntr64, _)
    )));
    assert!(model::undefined().is_empty(), "{:?}", model::undefined());
}

#[test]
fn aarch32_64_bit_cycle_counter_when_asked_for() {
    let mut m = model::cortex_a53();
    m.mrrc_ccntr = true;
    let _g = model::install(m);
    let pmu = Pmu::new(Aarch32::with_64bit_cycle_counter()).unwrap();
    assert_eq!(pmu.info().cycle_counter_bits, 64);
    model::with(|m| assert_eq!(m.pmcr & LC, LC));
    let c = pmu.allocate_cycles(Filter::EL0_EL1).unwrap();
    pmu.preset(&c, 0x7_FFFF_FFF0);
    pmu.enable(&c);
    pmu.start();
    model::with(|m| m.cycles(0x30));
    assert!(!model::with(|m| m.irq()));
    assert_eq!(pmu.read(&c), 0x8_0000_0020);
    assert!(model::take_log().contains(&Access::Read(Reg::Ccntr64)));
}

// ---------------------------------------------------------------------------------------------
// Timer
// ---------------------------------------------------------------------------------------------

#[test]
fn timer_reads_and_converts() {
    let _g = model::install(model::cortex_a53());
    model::with(|m| m.cntvct = 1_000_000);
    let t = Timer::new(Aarch64Timer).unwrap();
    assert_eq!(t.frequency(), 62_500_000);
    assert_eq!(t.ticks(), 1_000_000);
    assert_eq!(t.now_ns(), 16_000_000);
    let t32 = Timer::new(Aarch32Timer).unwrap();
    assert_eq!(t32.physical_ticks(), 1_000_000);
    model::with(|m| m.cntfrq = 0);
    assert_eq!(Timer::new(Aarch64Timer).err(), Some(Error::ZeroFrequency));
}

#[test]
fn event_sets_describe_pmceid() {
    let set = EventSet::from_pmceid([1 << 8, 1 << (0x23 - 32), 1, 0]);
    assert!(set.contains(Event::INST_RETIRED));
    assert!(set.contains(Event::STALL_FRONTEND));
    assert!(set.contains(Event::new(0x4000)));
    assert!(!set.contains(Event::CPU_CYCLES));
    assert_eq!(set.support(Event::new(0x400)), Support::NotDescribed);
    assert_eq!(set.iter().count(), 3);
}
