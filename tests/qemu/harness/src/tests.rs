//! The tests both images run, written once over [`Platform`]. Each reports raw values
//! (`report::value`); the host test holds the expected values. Guest-side checks only catch what
//! makes the values meaningless (a driver error where none may happen).
use core::sync::atomic::Ordering;

use pmu_driver::cpu::{self, Events};
use pmu_driver::mux::{track, Counted, Session, Tracked};
use pmu_driver::timer::{TickConverter, Timer};
use pmu_driver::{Counter, Error, Event, Filter, Pmu, PmuVersion, Registers, UserAccess};

use crate::irq::{LAST_INTID, PMU_IRQS, TIMER_IRQS};
use crate::platform::{El0Task, Platform};
use crate::report::{fail, note, text, value, value_n};
use crate::tick::TICK;
use crate::{gic, isb};

/// Runs test `name`; `false` if there is no such test.
pub fn run<P: Platform>(name: &str) -> bool {
    match name {
        "discover" => discover::<P>(),
        "inst_retired" => inst_retired::<P>(),
        "sw_incr" => sw_incr_and_freeze::<P>(),
        "filter_el1" => filter_el1::<P>(),
        "el0" => el0::<P>(),
        "overflow" => overflow::<P>(),
        "sampling" => sampling::<P>(),
        "timer" => timer::<P>(),
        "errors" => errors::<P>(),
        "counts_after_boot" => counts_after_boot::<P>(),
        "detect" => detect::<P>(),
        "mux" => mux::<P>(),
        "mux_timer" => mux_timer::<P>(),
        "rotate_cost" => rotate_cost::<P>(),
        "drop_then_session" => drop_then_session::<P>(),
        _ => return false,
    }
    true
}

/// A driver result the test cannot go on without.
pub fn ok<T>(what: &str, r: Result<T, Error>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => fail(format_args!("{what}: {e}")),
    }
}

/// The driver, stored where the PMU interrupt handler finds it.
pub fn driver<P: Platform>() -> &'static Pmu<P::Regs> {
    P::pmu_cell().set(ok("Pmu::new", Pmu::new(P::regs())))
}

/// A number for each PMU version: 0xMm for PMUvM.m (0x30 = PMUv3, 0x35 = PMUv3p5).
pub fn version_code(v: PmuVersion) -> u64 {
    match v {
        PmuVersion::NotImplemented => 0,
        PmuVersion::V1 => 0x10,
        PmuVersion::V2 => 0x20,
        PmuVersion::V3 => 0x30,
        PmuVersion::V3p1 => 0x31,
        PmuVersion::V3p4 => 0x34,
        PmuVersion::V3p5 => 0x35,
        PmuVersion::V3p7 => 0x37,
        PmuVersion::V3p8 => 0x38,
        PmuVersion::V3p9 => 0x39,
        PmuVersion::ImplementationDefined => 0xF00,
        PmuVersion::Unknown(n) => 0x100 | u64::from(n),
    }
}

/// Reports an error as `<key>` = its kind (1-7), plus its details.
pub fn report_error<T>(key: &str, r: &Result<T, Error>) {
    let code = match *r {
        Ok(_) => 0,
        Err(Error::NoPmu) => 1,
        Err(Error::UnsupportedEvent(e)) => {
            value_n(key, 1, u64::from(e.number()));
            2
        }
        Err(Error::NoFreeCounter) => 3,
        Err(Error::CounterOutOfRange { index, count }) => {
            value_n(key, 1, index as u64);
            value_n(key, 2, count as u64);
            4
        }
        Err(Error::WrongCounterKind) => 5,
        Err(Error::ZeroPeriod) => 6,
        Err(Error::ZeroFrequency) => 7,
        Err(Error::NoCycleCounter) => 8,
        Err(Error::UnknownEventName { .. }) => 9,
    };
    value(key, code);
}

/// PMCR as reset, and what discovery makes of it.
fn discover<P: Platform>() {
    value("pmcr", P::raw_pmcr());
    let info = driver::<P>().info();
    value("n", info.counters.into());
    value("version", version_code(info.version));
    value("cycle_bits", info.cycle_counter_bits.into());
    match info.events {
        Some(set) => {
            value("events_known", 1);
            value("pmceid0", set.pmceid()[0].into());
            value("pmceid1", set.pmceid()[1].into());
        }
        None => value("events_known", 0),
    }
}

/// INST_RETIRED over loops of known length, through `measure` and through hand-written assembly.
fn inst_retired<P: Platform>() {
    let pmu = driver::<P>();
    let m = ok("measurer", pmu.measurer([], Filter::EL0_EL1));
    pmu.start();
    let (_, empty) = pmu.measure(&m, || ());
    value("measure_empty", empty.instructions);
    value("measure_empty_cycles", empty.cycles);
    macro_rules! measured {
        ($($k:literal),*) => {$(
            let (_, c) = pmu.measure(&m, || P::spin::<$k>());
            value_n("measure", $k, c.instructions);
            value_n("measure_cycles", $k, c.cycles);
        )*};
    }
    measured!(1, 100, 1000);
    pmu.release_measurer(m);

    // Hand-written assembly reads event counter 0.
    let c = ok(
        "allocate_at 0",
        pmu.allocate_at(0, Event::INST_RETIRED, Filter::EL0_EL1),
    );
    pmu.enable(&c);
    value("asm_empty", P::asm_two_reads::<0>());
    value_n("asm", 1, P::asm_two_reads::<1>());
    value_n("asm", 100, P::asm_two_reads::<100>());
    value_n("asm", 1000, P::asm_two_reads::<1000>());
}

/// SW_INCR counts each increment; PMCR.E = 0 freezes every counter.
fn sw_incr_and_freeze<P: Platform>() {
    let pmu = driver::<P>();
    let sw = ok("SW_INCR", pmu.allocate(Event::SW_INCR, Filter::EL0_EL1));
    let inst = ok(
        "INST_RETIRED",
        pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1),
    );
    let cycles = ok("cycles", pmu.allocate_cycles(Filter::EL0_EL1));
    for c in [&sw, &inst, &cycles] {
        pmu.enable(c);
    }
    pmu.start();
    for _ in 0..7 {
        ok("increment", pmu.software_increment(&sw));
    }
    value("sw_7", pmu.read(&sw));

    pmu.stop();
    let (i0, c0) = (pmu.read(&inst), pmu.read(&cycles));
    P::spin::<1000>();
    for _ in 0..3 {
        ok("increment", pmu.software_increment(&sw));
    }
    value("frozen_sw", pmu.read(&sw));
    value("frozen_inst_delta", pmu.read(&inst) - i0);
    value("frozen_cycles_delta", pmu.read(&cycles) - c0);

    pmu.start();
    ok("increment", pmu.software_increment(&sw));
    value("sw_restarted", pmu.read(&sw));
}

/// P = 1 counts nothing at EL1; the same measurement without it counts the loop.
fn filter_el1<P: Platform>() {
    let pmu = driver::<P>();
    pmu.start();
    let m = ok("measurer P=1", pmu.measurer([], Filter::EL0_ONLY));
    let (_, c) = pmu.measure(&m, || P::spin::<1000>());
    value("p1_instructions", c.instructions);
    value("p1_cycles", c.cycles);
    pmu.release_measurer(m);
    let m = ok("measurer P=0", pmu.measurer([], Filter::EL0_EL1));
    let (_, c) = pmu.measure(&m, || P::spin::<1000>());
    value("p0_instructions", c.instructions);
    value("p0_cycles", c.cycles);
}

/// EL0 work counted under the P filter (PMUSERENR.EN = 1), and an EL0 counter read trapping
/// without it.
fn el0<P: Platform>() {
    let pmu = driver::<P>();
    let inst = ok(
        "INST_RETIRED",
        pmu.allocate(Event::INST_RETIRED, Filter::EL0_ONLY),
    );
    pmu.enable(&inst);
    pmu.set_user_access(UserAccess {
        enable: true,
        ..UserAccess::default()
    });
    value("userenr_en", pmu.user_access().enable.into());
    pmu.start();
    for n in [10u32, 1000] {
        pmu.preset(&inst, 0);
        let out = P::run_el0(El0Task::Spin(n));
        value_n("el0_inst", n.into(), pmu.read(&inst));
        value_n("el0_traps", n.into(), out.traps.into());
    }
    let out = P::run_el0(El0Task::ReadCycleCounter);
    value("en_read_traps", out.traps.into());

    pmu.set_user_access(UserAccess::default());
    let out = P::run_el0(El0Task::ReadCycleCounter);
    value("noen_read_traps", out.traps.into());
    value("noen_syndrome", out.syndrome);
    value("noen_mode", out.trap_mode.into());
}

/// The counter window the overflow tests run twice (once across a wrap, once not), so both runs
/// execute the same instructions.
#[inline(never)]
pub fn window<P: Platform>(pmu: &Pmu<P::Regs>, c: &Counter, start: u64) {
    P::set_irqs(false);
    pmu.preset(c, start);
    pmu.enable(c);
    P::spin::<1000>();
    pmu.disable(c);
    // The overflow interrupt, if any, is pending until here.
    P::set_irqs(true);
    isb();
}

/// A counter preset just below the wrap raises INTID 23 through the GIC; the handler clears the
/// flag and the 64-bit total is exact.
fn overflow<P: Platform>() {
    let pmu = driver::<P>();
    let version = P::gic_version();
    value("gic", version.into());
    gic::init(version, P::gicv3_cpu());
    P::set_irqs(true);

    // SW_INCR: every increment is an explicit write, so the total is exact with the interrupt
    // taken in the middle of the increments.
    let sw = ok("SW_INCR", pmu.allocate(Event::SW_INCR, Filter::EL0_EL1));
    pmu.preset(&sw, 0xFFFF_FFFE);
    pmu.enable(&sw);
    pmu.start();
    for _ in 0..5 {
        ok("increment", pmu.software_increment(&sw));
        isb();
    }
    value("sw_irqs", PMU_IRQS.load(Ordering::SeqCst).into());
    value("intid", LAST_INTID.load(Ordering::SeqCst).into());
    value("sw_total", pmu.read(&sw));
    value("ovs_after", pmu.registers().overflow_flags().bits().into());
    pmu.release(sw);

    // INST_RETIRED and the cycle counter: the same window from 0 and from just below 2^32.
    let inst = ok(
        "INST_RETIRED",
        pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1),
    );
    window::<P>(pmu, &inst, 0);
    value("inst_control", pmu.read(&inst));
    let before = PMU_IRQS.load(Ordering::SeqCst);
    window::<P>(pmu, &inst, 0xFFFF_FF00);
    value(
        "inst_wrap_irqs",
        (PMU_IRQS.load(Ordering::SeqCst) - before).into(),
    );
    value("inst_wrap_delta", pmu.read(&inst) - 0xFFFF_FF00);

    let cycles = ok("cycles", pmu.allocate_cycles(Filter::EL0_EL1));
    window::<P>(pmu, &cycles, 0);
    value("cycles_control", pmu.read(&cycles));
    let before = PMU_IRQS.load(Ordering::SeqCst);
    window::<P>(pmu, &cycles, 0xFFFF_FF00);
    value(
        "cycles_wrap_irqs",
        (PMU_IRQS.load(Ordering::SeqCst) - before).into(),
    );
    value("cycles_wrap_delta", pmu.read(&cycles) - 0xFFFF_FF00);
    value("ovs_end", pmu.registers().overflow_flags().bits().into());
}

/// A sample period on a SW_INCR counter: one sample per period in the ring, exact total.
fn sampling<P: Platform>() {
    let pmu = driver::<P>();
    gic::init(P::gic_version(), P::gicv3_cpu());
    P::set_irqs(true);
    let sw = ok("SW_INCR", pmu.allocate(Event::SW_INCR, Filter::EL0_EL1));
    ok("period", pmu.set_sample_period(&sw, 10));
    pmu.enable(&sw);
    pmu.start();
    for _ in 0..35 {
        ok("increment", pmu.software_increment(&sw));
        isb();
    }
    value("total", pmu.read(&sw));
    value("irqs", PMU_IRQS.load(Ordering::SeqCst).into());
    let ring = P::samples();
    value("samples", ring.len() as u64);
    value("dropped", ring.dropped().into());
    let here = sampling::<P> as *const () as usize;
    let mut i = 0;
    while let Some(s) = ring.pop() {
        value_n("sample_total", i, s.total);
        value_n("sample_counter", i, s.counter.into());
        // The interrupted code is this test (or what it inlined), not the handler.
        value_n("sample_pc_set", i, u64::from(s.pc != 0 && s.pc != here));
        i += 1;
    }
}

/// CNTFRQ, a monotonic CNTVCT, and the ns conversion (the host recomputes it exactly).
fn timer<P: Platform>() {
    let t = ok("Timer::new", Timer::new(P::timer_regs()));
    value("cntfrq", t.frequency().into());
    let first = t.ticks();
    let mut prev = first;
    let mut backwards = 0;
    for _ in 0..1000 {
        let now = t.ticks();
        backwards += u64::from(now < prev);
        prev = now;
    }
    P::spin::<10000>();
    let last = t.ticks();
    value("backwards", backwards);
    value("advanced", u64::from(last > prev));
    value("ticks_first", first);
    value("ticks_last", last);
    // CNTVOFF is 0: the physical count is never behind the virtual one read earlier.
    value(
        "physical_not_behind",
        u64::from(t.physical_ticks() >= first),
    );
    // Conversions the host checks against exact 128-bit arithmetic.
    let c = t.converter();
    for (i, ticks) in [last, 1, 0x1234_5678_9ABC, u64::MAX]
        .into_iter()
        .enumerate()
    {
        let ns = c.to_ns(ticks);
        value_n("conv_ticks", i as u64, ticks);
        value_n("conv_ns_lo", i as u64, ns as u64);
        value_n("conv_ns_hi", i as u64, (ns >> 64) as u64);
    }
    // A frequency that does not divide 10^9, where the fast path may be 1 ns short.
    let odd = ok("TickConverter", TickConverter::new(19_200_000));
    for (i, ticks) in [last, 0xFFFF_FFFF_FFFF_FFF1].into_iter().enumerate() {
        let (fast, exact) = (odd.to_ns(ticks), odd.to_ns_exact(ticks));
        value_n("odd_ticks", i as u64, ticks);
        value_n("odd_fast_lo", i as u64, fast as u64);
        value_n("odd_fast_hi", i as u64, (fast >> 64) as u64);
        value_n("odd_exact_lo", i as u64, exact as u64);
        value_n("odd_exact_hi", i as u64, (exact >> 64) as u64);
    }
}

/// Errors as values: unsupported events, no free counter, an index out of range.
fn errors<P: Platform>() {
    let pmu = driver::<P>();
    let n = usize::from(pmu.info().counters);
    let r = pmu.allocate(Event::L1D_CACHE, Filter::EL0_EL1);
    report_error("l1d_cache", &r);
    if let Ok(c) = r {
        pmu.release(c);
    }
    report_error(
        "chained",
        &pmu.allocate_chained(Event::INST_RETIRED, Filter::EL0_EL1),
    );
    report_error(
        "out_of_range",
        &pmu.allocate_at(n, Event::INST_RETIRED, Filter::EL0_EL1),
    );
    let mut taken = 0;
    let last: Result<(), Error> = loop {
        match pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1) {
            Ok(_) => taken += 1,
            Err(e) => break Err(e),
        }
        if taken > 32 {
            fail(format_args!("allocated more than 32 counters"));
        }
    };
    value("allocated", taken);
    report_error("exhausted", &last);
    let cycles = ok("cycles", pmu.allocate_cycles(Filter::EL0_EL1));
    value(
        "cycles_swinc_wrong_kind",
        u64::from(pmu.software_increment(&cycles) == Err(Error::WrongCounterKind)),
    );
}

/// After a boot at EL2 or EL3: where we run, what the driver sees, and that it counts.
fn counts_after_boot<P: Platform>() {
    value("boot_el", P::boot_el().into());
    value("el", P::current_el().into());
    let pmu = driver::<P>();
    let n = pmu.info().counters;
    value("n", n.into());
    report_error(
        "out_of_range",
        &pmu.allocate_at(n.into(), Event::INST_RETIRED, Filter::EL0_EL1),
    );
    let m = ok("measurer", pmu.measurer([], Filter::EL0_EL1));
    pmu.start();
    let (_, empty) = pmu.measure(&m, || ());
    let (_, c) = pmu.measure(&m, || P::spin::<1000>());
    value("measure_empty", empty.instructions);
    value_n("measure", 1000, c.instructions);
    pmu.release_measurer(m);
    let m = ok("measurer P=1", pmu.measurer([], Filter::EL0_ONLY));
    let (_, c) = pmu.measure(&m, || P::spin::<1000>());
    value("p1_instructions", c.instructions);
}

/// Which core this is (MIDR through the generated accessors), what Arm's data says of it, and an
/// event looked up by name at run time counting what the compile-time constant counts.
fn detect<P: Platform>() {
    let pmu = driver::<P>();
    let d = cpu::detect(&P::regs(), pmu.info());
    value("midr", d.id.bits().into());
    value("implementer", d.id.implementer.into());
    value("part", d.id.part_number.into());
    value("known", u64::from(d.core.is_some()));
    text("name", d.name().unwrap_or("-"));
    value(
        "expected_counters",
        d.expected_counters().map_or(0xFF, u64::from),
    );
    value("n", pmu.info().counters.into());
    value(
        "source",
        match d.events {
            Events::Core(_) => 1,
            Events::Common { .. } => 2,
            Events::Unknown => 0,
        },
    );
    value("offered", d.events.iter().count() as u64);
    let Some(info) = d.events.by_name("inst_retired") else {
        fail(format_args!(
            "INST_RETIRED is not among the detected events"
        ))
    };
    value("inst_retired_code", info.code.into());
    // The same loop counted through the name found at run time and through the constant.
    let by_name = ok(
        "allocate by name",
        pmu.allocate(Event::new(info.code), Filter::EL0_EL1),
    );
    let constant = ok(
        "allocate constant",
        pmu.allocate(Event::INST_RETIRED, Filter::EL0_EL1),
    );
    pmu.enable(&by_name);
    pmu.enable(&constant);
    pmu.start();
    P::spin::<1000>();
    pmu.stop();
    value("by_name", pmu.read(&by_name));
    value("by_constant", pmu.read(&constant));
}

/// The workload of `mux`: 48 chunks of `spin::<10_000>()` (20,001 instructions), a software
/// increment after each.
const MUX_CHUNK: u32 = 10_000;
const MUX_CHUNKS: u32 = 48;
/// The workload of `mux_timer`: the same length in 4,800 chunks of `spin::<100>()`, so that
/// SW_INCR is frequent next to the rotations and its estimate can be judged as closely.
const MUX_TIMER_CHUNK: u32 = 100;
const MUX_TIMER_CHUNKS: u32 = 4_800;

/// The workload: `chunks` times `spin::<K>()` and one software increment (`swinc`), then
/// `between` (a rotation, or nothing).
#[inline(never)]
fn mux_workload<P: Platform, const K: u32>(
    chunks: u32,
    mut swinc: impl FnMut(),
    mut between: impl FnMut(),
) {
    for _ in 0..chunks {
        P::spin::<K>();
        swinc();
        between();
    }
}

/// The exact counts of the multiplexing workload (`chunks` of `spin::<K>()`): a session of the
/// three events QEMU implements, which fit the counters and so are never rotated.
fn mux_exact<P: Platform, const K: u32>(pmu: &Pmu<P::Regs>, chunks: u32) {
    let mut events = track([Event::INST_RETIRED, Event::CPU_CYCLES, Event::SW_INCR]);
    let mut s = ok(
        "Session::new",
        Session::new(pmu, &mut events, Filter::EL0_EL1),
    );
    let increments = s.increments();
    s.start();
    mux_workload::<P, K>(chunks, || increments.increment(), || ());
    s.stop();
    for (key, r) in ["exact_inst", "exact_cycles", "exact_sw"]
        .into_iter()
        .zip(s.readings())
    {
        match r.counted {
            Counted::Exact(n) => value(key, n),
            other => fail(format_args!("{key}: {other:?}, expected an exact count")),
        }
    }
    s.finish();
}

/// The eleven events of the multiplexing tests: the three QEMU implements, at every level and
/// at EL1 (`:k`), INST_RETIRED at EL0 (`:u`, nothing runs there), and four QEMU does not implement.
fn mux_events() -> [Tracked; 11] {
    let k = Filter::EL1;
    [
        Tracked::new(Event::INST_RETIRED),
        Tracked::new(Event::INST_RETIRED).with_filter(k),
        Tracked::new(Event::CPU_CYCLES),
        Tracked::new(Event::CPU_CYCLES).with_filter(k),
        Tracked::new(Event::SW_INCR),
        Tracked::new(Event::SW_INCR).with_filter(k),
        Tracked::new(Event::INST_RETIRED).with_filter(Filter::EL0),
        Tracked::new(Event::L1D_CACHE),
        Tracked::new(Event::BR_MIS_PRED),
        Tracked::new(Event::MEM_ACCESS),
        Tracked::new(Event::BUS_ACCESS),
    ]
}

/// What a stopped session found: rotations, cycles, and per event its state, count, estimate,
/// enabled and running time; then the table as a person reads it.
fn mux_report<R: Registers>(s: &Session<'_, '_, R>) {
    value("rotations", s.rotations());
    value("cycles", s.cycles());
    for (i, r) in s.readings().enumerate() {
        let i = i as u64;
        let (state, count, estimate) = match r.counted {
            Counted::Exact(n) => (0, n, n),
            Counted::Scaled { count, estimate } => (1, count, estimate),
            Counted::NotCounted => (2, 0, 0),
            Counted::NotSupported => (3, 0, 0),
            Counted::NoneSeen => (4, 0, 0),
        };
        value_n("state", i, state);
        value_n("count", i, count);
        value_n("estimate", i, estimate);
        value_n("enabled", i, r.enabled);
        value_n("running", i, r.running);
    }
    let mut table = TableLines::default();
    let _ = core::fmt::Write::write_fmt(&mut table, format_args!("{}", s.report()));
    table.flush();
}

/// Eleven events over the PMU's counters, rotated after each chunk of a deterministic workload,
/// against the exact counts of the same workload without multiplexing.
fn mux<P: Platform>() {
    let pmu = driver::<P>();
    mux_exact::<P, MUX_CHUNK>(pmu, MUX_CHUNKS);
    let mut events = mux_events();
    let mut s = ok(
        "Session::new",
        Session::new(pmu, &mut events, Filter::EL0_EL1),
    );
    value("counters", s.counters() as u64);
    s.start();
    // The session is borrowed by both closures in turn: one call each per chunk.
    let session = core::cell::RefCell::new(&mut s);
    mux_workload::<P, MUX_CHUNK>(
        MUX_CHUNKS,
        || session.borrow().software_increment(),
        || session.borrow_mut().rotate(),
    );
    let s = session.into_inner();
    s.stop();
    mux_report(s);
}

/// Virtual timer ticks between the rotations of `mux_timer`: 625 at QEMU's 62.5 MHz is 10 µs,
/// which `-icount shift=0` makes 10,000 instructions: about 96 rotations over the workload.
const MUX_TICK: u32 = 625;

/// The same eleven events over a workload as long, rotated from the virtual timer's interrupt
/// instead: the handler owns the session while the tick runs, and the workload's software
/// increments go through [`Session::increments`], which holds no session state.
fn mux_timer<P: Platform>() {
    let pmu = driver::<P>();
    let timer = ok("Timer::new", Timer::new(P::timer_regs()));
    value("cntfrq", timer.frequency().into());
    value("tick", MUX_TICK.into());
    mux_exact::<P, MUX_TIMER_CHUNK>(pmu, MUX_TIMER_CHUNKS);
    gic::init(P::gic_version(), P::gicv3_cpu());
    let mut events = mux_events();
    let mut s = ok(
        "Session::new",
        Session::new(pmu, &mut events, Filter::EL0_EL1),
    );
    value("counters", s.counters() as u64);
    let increments = s.increments();
    s.start();
    {
        let session = &mut s;
        let mut tick = || {
            session.rotate();
            timer.start_tick(MUX_TICK);
        };
        // SAFETY: `tick` lives to the end of this block and the hook is cleared before that;
        // until then nothing here touches it or the session it borrows (the workload increments
        // through `increments`).
        unsafe { TICK.set(&mut tick) };
        timer.start_tick(MUX_TICK);
        P::set_irqs(true);
        mux_workload::<P, MUX_TIMER_CHUNK>(MUX_TIMER_CHUNKS, || increments.increment(), || ());
        P::set_irqs(false);
        timer.stop_tick();
        TICK.clear();
    }
    s.stop();
    value("timer_irqs", TIMER_IRQS.load(Ordering::SeqCst).into());
    mux_report(&s);
}

/// Rotations timed by the session's own cycle counter (`-icount shift=0`: a cycle is an
/// instruction): 64 calls of `rotate` back to back, less two reads of the counter back to back.
const ROTATIONS: u64 = 64;

/// What one `rotate` costs with 8, 10 and 16 events on the PMU's counters. The events are the
/// three QEMU counts, over and over (with PMCEID, only events the PMU counts are rotated), each
/// counted where the session's filter says or at EL1 only.
fn rotate_cost<P: Platform>() {
    let pmu = driver::<P>();
    let mut all = [Tracked::new(Event::SW_INCR); 16];
    for (i, t) in all.iter_mut().enumerate() {
        let event = [Event::INST_RETIRED, Event::CPU_CYCLES, Event::SW_INCR][i % 3];
        *t = Tracked::new(event);
        if i % 2 == 1 {
            *t = t.with_filter(Filter::EL1);
        }
    }
    for n in [8usize, 10, 16] {
        let mut events = all;
        let mut s = ok(
            "Session::new",
            Session::new(pmu, &mut events[..n], Filter::EL0_EL1),
        );
        s.start();
        let (a, b) = (s.cycles(), s.cycles());
        let start = s.cycles();
        for _ in 0..ROTATIONS {
            s.rotate();
        }
        let end = s.cycles();
        value_n("rotations", n as u64, s.rotations());
        value_n(
            "rotate_cycles",
            n as u64,
            (end - start).saturating_sub(b - a),
        );
        value_n("held", n as u64, s.counters() as u64);
    }
}

/// A measurer dropped without being released, then a session: the session gets every counter.
fn drop_then_session<P: Platform>() {
    let pmu = driver::<P>();
    pmu.start();
    {
        let m = ok("measurer", pmu.measurer([Event::SW_INCR], Filter::EL0_EL1));
        let (_, c) = m.measure(|| P::spin::<100>());
        value("measured", c.instructions);
    }
    let mut events = track([Event::INST_RETIRED, Event::CPU_CYCLES]);
    let s = ok(
        "Session::new after a dropped measurer",
        Session::new(pmu, &mut events, Filter::EL0_EL1),
    );
    value("counters", s.counters() as u64);
}

/// Sends a `Display` line by line as notes.
struct TableLines {
    buf: [u8; 160],
    len: usize,
}

impl Default for TableLines {
    fn default() -> Self {
        Self {
            buf: [0; 160],
            len: 0,
        }
    }
}

impl TableLines {
    fn flush(&mut self) {
        if self.len > 0 {
            let line = core::str::from_utf8(&self.buf[..self.len]).unwrap_or("?");
            note(format_args!("table {line}"));
            self.len = 0;
        }
    }
}

impl core::fmt::Write for TableLines {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for b in s.bytes() {
            if b == b'\n' {
                self.flush();
            } else if self.len < self.buf.len() {
                self.buf[self.len] = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}
