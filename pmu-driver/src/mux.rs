//! "perf stat" for bare metal: any number of events counted on the PMU's few counters by
//! time-division multiplexing, with the cycle counter fixed.
//!
//! A [`Session`] takes the event counters the PMU has free and the cycle counter. Each
//! [`rotate`](Session::rotate) (from a timer interrupt, or called where the code under test
//! allows) ends the current group of events and starts the next, round-robin. Per event it keeps
//! what perf keeps: the count while it was on a counter, the time the session was enabled, and
//! the time the event was running. Time is the fixed cycle counter's. The estimate of an event
//! that was not counted the whole time is `count × enabled / running`; one counted the whole time
//! (there were enough counters) is exact. An event the PMU does not count (PMCEID says so) is
//! never scheduled, and reports no number; nor does one that was never on a counter, or one that
//! counted nothing while PMCEID cannot say whether the PMU counts it at all (an Armv7 PMU, an
//! implementation-defined event). Each event may have a filter of its own (perf's `:u`, `:k`).
//!
//! "perf stat" of a function on whatever Arm core runs it: eight events on its four to six
//! counters, found by name among the core's own events ([`crate::cpu`]), rotated between pieces
//! of the work:
//!
//! ```no_run
//! use core::fmt::Write;
//! use pmu_driver::mux::Session;
//! use pmu_driver::{cpu, Aarch64, Filter, Pmu};
//!
//! fn profile(work: impl Fn(u32), out: &mut impl Write) -> Result<(), pmu_driver::Error> {
//!     let pmu = Pmu::new(Aarch64)?;
//!     let core = cpu::detect(&Aarch64, pmu.info()); // MIDR: which core, and its events
//!     let mut events = [
//!         "INST_RETIRED", "CPU_CYCLES", "L1D_CACHE", "L1D_CACHE_REFILL",
//!         "BR_PRED", "BR_MIS_PRED", "MEM_ACCESS", "BUS_ACCESS",
//!     ]
//!     .map(|name| core.events.tracked(name));
//!     let mut session = Session::new(&pmu, &mut events, Filter::EL0_EL1)?;
//!     session.start();
//!     for i in 0..100 {
//!         work(i);
//!         session.rotate(); // or from a timer interrupt
//!     }
//!     session.stop();
//!     let _ = writeln!(out, "{} ({:?})", session.report(), core.name());
//!     Ok(())
//! }
//! ```
//!
//! On a timer interrupt: the handler owns the session while the tick runs and calls `rotate`,
//! then re-arms the tick ([`Timer::start_tick`](crate::timer::Timer::start_tick) on the EL1
//! virtual timer); the work, which must not touch the session meanwhile, increments SW_INCR
//! through [`Session::increments`], which holds no session state. The QEMU tests do exactly that
//! (`tests/qemu/harness`, test `mux_timer`).
//!
//! Rotation costs the instructions of `rotate` itself. They run with every event counter
//! stopped, and their time is left out of every event's enabled time, so an estimate
//! extrapolates only over the time the session was counting.
//!
//! Everything is in the caller's storage (`&mut [Tracked]`): no allocation, no panic.
use core::fmt;

use arm_pmuv3::PmCounterMask;
use armreg_rt::{Layout, Value};

use crate::backend::Registers;
use crate::{Counter, Error, Event, Filter, Pmu, Support};

/// One event of a session, and what the session learnt of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tracked {
    /// The event.
    pub event: Event,
    /// Its name, for the report.
    pub name: &'static str,
    /// Where it counts, when not where the session's filter says (perf's `:u`, `:k`).
    pub filter: Option<Filter>,
    support: Support,
    /// The name was looked up and names no event of the core: never scheduled.
    unknown: bool,
    count: u64,
    enabled: u64,
    running: u64,
}

impl Tracked {
    /// `event`, reported as `name`.
    pub const fn new(event: Event, name: &'static str) -> Self {
        Self {
            event,
            name,
            filter: None,
            support: Support::NotDescribed,
            unknown: false,
            count: 0,
            enabled: 0,
            running: 0,
        }
    }

    /// A name that names no event of the core (see [`crate::cpu::Events::tracked`]): the session
    /// reports it [`Counted::NotSupported`] and never schedules it.
    pub const fn unknown(name: &'static str) -> Self {
        let mut t = Self::new(Event::new(0), name);
        t.unknown = true;
        t.support = Support::NotCounted;
        t
    }

    /// The same event counted where `filter` says rather than where the session's filter says.
    #[must_use]
    pub const fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Whether the session schedules it: every event PMCEID does not rule out.
    fn scheduled(&self) -> bool {
        self.support != Support::NotCounted
    }

    /// The event of a table row (`arm_pmu_events` or [`crate::cpu::Events`]).
    pub const fn from_info(info: &arm_pmu_events::EventInfo) -> Self {
        Self::new(Event::new(info.code), info.name)
    }

    /// What the session found.
    pub fn reading(&self) -> Reading {
        let counted = if self.support == Support::NotCounted {
            Counted::NotSupported
        } else if self.running == 0 {
            Counted::NotCounted
        } else if self.count == 0 && self.support == Support::NotDescribed {
            Counted::NoneSeen
        } else if self.running >= self.enabled {
            Counted::Exact(self.count)
        } else {
            // count × enabled / running, rounded to the nearest, in 128 bits: no overflow for
            // any u64 operands.
            let running = u128::from(self.running);
            let scaled =
                (u128::from(self.count) * u128::from(self.enabled) + running / 2) / running;
            Counted::Scaled {
                count: self.count,
                estimate: u64::try_from(scaled).unwrap_or(u64::MAX),
            }
        };
        Reading {
            event: self.event,
            name: self.name,
            counted,
            enabled: self.enabled,
            running: self.running,
        }
    }
}

/// What a session reports for one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub event: Event,
    pub name: &'static str,
    pub counted: Counted,
    /// Cycles the session was counting while this event was part of it.
    pub enabled: u64,
    /// Cycles this event was on a counter.
    pub running: u64,
}

impl Reading {
    /// The share of the time the event was counted, in tenths of a percent (0..=1000).
    pub fn permille(&self) -> u64 {
        match self.enabled {
            0 => 0,
            enabled => {
                let p = u128::from(self.running.min(enabled)) * 1000 / u128::from(enabled);
                u64::try_from(p).unwrap_or(1000)
            }
        }
    }
}

/// How an event was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// On a counter the whole time: the count is exact.
    Exact(u64),
    /// On a counter part of the time: `count` while counted, `estimate = count × enabled / running`.
    Scaled { count: u64, estimate: u64 },
    /// Never on a counter (the session ended before its turn).
    NotCounted,
    /// The PMU does not count it (its PMCEID bit is clear), or the name names no event of the
    /// core: it was never scheduled.
    NotSupported,
    /// It was on a counter and nothing was counted, and PMCEID does not say whether the PMU
    /// counts it (an Armv7 PMU without PMCEID, an implementation-defined event): a zero that may
    /// mean "not implemented" is not reported as a count.
    NoneSeen,
}

/// A multiplexing session over `events` on `pmu`.
pub struct Session<'p, 'e, R: Registers> {
    pmu: &'p Pmu<R>,
    events: &'e mut [Tracked],
    filter: Filter,
    /// The event counters the session holds, lowest first.
    counters: [Option<Counter>; 31],
    held: usize,
    /// `events` index each held counter counts, or `None`.
    assigned: [Option<usize>; 31],
    /// The held counters that count an event now (PMCNTENSET bits), worked out when the group
    /// is scheduled so that starting and stopping it is one register write each.
    group: Value<PmCounterMask>,
    /// The next event to schedule, round-robin.
    next: usize,
    cycles: Counter,
    /// Cycle count when the current group started counting.
    started_at: u64,
    counting: bool,
    /// More events to schedule than counters: `rotate` moves the groups on.
    rotating: bool,
    rotations: u64,
}

impl<'p, 'e, R: Registers> Session<'p, 'e, R> {
    /// A session counting `events` where `filter` says, on every event counter `pmu` has free and
    /// the cycle counter. Events PMCEID says the PMU does not count are kept out (they report
    /// [`Counted::NotSupported`]). Fails when the cycle counter or every event counter is taken.
    pub fn new(pmu: &'p Pmu<R>, events: &'e mut [Tracked], filter: Filter) -> Result<Self, Error> {
        let cycles = pmu.allocate_cycles(filter)?;
        let mut counters: [Option<Counter>; 31] = [const { None }; 31];
        let mut held = 0;
        for index in 0..usize::from(pmu.info().counters) {
            if let Ok(c) = pmu.allocate_at(index, Event::SW_INCR, filter) {
                if let Some(slot) = counters.get_mut(held) {
                    *slot = Some(c);
                    held += 1;
                }
            }
        }
        if held == 0 {
            pmu.release(cycles);
            return Err(Error::NoFreeCounter);
        }
        for e in events.iter_mut() {
            let (filter, unknown) = (e.filter, e.unknown);
            *e = Tracked::new(e.event, e.name);
            e.filter = filter;
            e.unknown = unknown;
            e.support = if unknown {
                Support::NotCounted
            } else {
                pmu.info()
                    .events
                    .map_or(Support::NotDescribed, |set| set.support(e.event))
            };
        }
        Ok(Self {
            pmu,
            events,
            filter,
            counters,
            held,
            assigned: [None; 31],
            group: PmCounterMask::from_bits_retain(0),
            next: 0,
            cycles,
            started_at: 0,
            counting: false,
            rotating: false,
            rotations: 0,
        })
    }

    /// How many event counters the session rotates the events through.
    pub fn counters(&self) -> usize {
        self.held
    }

    /// How many times the session rotated.
    pub fn rotations(&self) -> u64 {
        self.rotations
    }

    /// The cycles counted since [`start`](Self::start) by the fixed cycle counter (exact).
    pub fn cycles(&self) -> u64 {
        self.pmu.read(&self.cycles)
    }

    /// The mask of the held counters that count an event in the group just scheduled.
    fn group_mask(&self) -> Value<PmCounterMask> {
        let mut bits = 0u32;
        for (c, a) in self.counters.iter().zip(&self.assigned) {
            if let (Some(c), Some(_)) = (c, a) {
                bits |= 1 << (c.index() % 32);
            }
        }
        PmCounterMask::from_bits_retain(bits)
    }

    /// Programs the next group: each held counter gets the next supported event, round-robin.
    fn schedule(&mut self) {
        let supported = self.events.iter().filter(|e| e.scheduled()).count();
        let take = supported.min(self.held);
        let mut given = 0;
        let mut looked = 0;
        self.assigned = [None; 31];
        while given < take && looked < self.events.len() {
            let i = self.next % self.events.len();
            self.next = self.next.wrapping_add(1);
            looked += 1;
            let Some((event, filter)) = self
                .events
                .get(i)
                .filter(|e| e.scheduled())
                .map(|e| (e.event, e.filter.unwrap_or(self.filter)))
            else {
                continue;
            };
            if let Some(Some(counter)) = self.counters.get(given) {
                if self.pmu.program(counter, event, filter).is_ok() {
                    if let Some(a) = self.assigned.get_mut(given) {
                        *a = Some(i);
                    }
                }
            }
            given += 1;
        }
        self.group = self.group_mask();
    }

    /// Starts counting: the cycle counter and the first group of events, and the PMU (PMCR.E).
    pub fn start(&mut self) {
        self.rotating = self.events.iter().filter(|e| e.scheduled()).count() > self.held;
        self.schedule();
        self.pmu.enable(&self.cycles);
        self.pmu.start();
        self.started_at = self.pmu.read(&self.cycles);
        self.pmu.registers().enable_counters(self.group);
        self.counting = true;
    }

    /// Ends the current group (its counts and times are added up) and leaves the counters
    /// stopped. Returns the cycles the group counted.
    fn close_group(&mut self) -> u64 {
        self.pmu.registers().disable_counters(self.group);
        let now = self.pmu.read(&self.cycles);
        let span = now.saturating_sub(self.started_at);
        for (counter, assigned) in self.counters.iter().zip(&self.assigned) {
            if let (Some(counter), Some(i)) = (counter, assigned) {
                let count = self.pmu.read(counter);
                if let Some(e) = self.events.get_mut(*i) {
                    e.count = e.count.saturating_add(count);
                    e.running = e.running.saturating_add(span);
                }
            }
        }
        for e in self.events.iter_mut().filter(|e| e.scheduled()) {
            e.enabled = e.enabled.saturating_add(span);
        }
        span
    }

    /// Moves to the next group of events: call it from a timer interrupt, or between pieces of
    /// the work. With no more supported events than counters, nothing moves and every count
    /// stays exact.
    pub fn rotate(&mut self) {
        if !(self.counting && self.rotating) {
            return;
        }
        self.close_group();
        self.schedule();
        self.rotations = self.rotations.saturating_add(1);
        self.started_at = self.pmu.read(&self.cycles);
        self.pmu.registers().enable_counters(self.group);
    }

    /// Increments every held counter that counts SW_INCR now (a PMSWINC write).
    pub fn software_increment(&self) {
        self.pmu.registers().software_increment(self.group);
    }

    /// Software increments for code that does not hold the session: the work, while a timer
    /// interrupt handler owns the session and rotates it.
    pub fn increments(&self) -> Increments<'p, R> {
        let mask = self.counters.iter().flatten().fold(0, |m, c| m | c.mask());
        Increments {
            pmu: self.pmu,
            mask: PmCounterMask::from_bits_retain(mask),
        }
    }

    /// Stops counting (the last group's counts and times are added up). The readings stay.
    pub fn stop(&mut self) {
        if self.counting {
            self.close_group();
            self.pmu.disable(&self.cycles);
            self.counting = false;
        }
    }

    /// What the session found, event by event.
    pub fn readings(&self) -> impl Iterator<Item = Reading> + '_ {
        self.events.iter().map(Tracked::reading)
    }

    /// The session's results as a table (`Display`), as perf stat prints them.
    pub fn report(&self) -> Report<'_> {
        Report {
            events: self.events,
            cycles: self.cycles(),
            counters: self.held,
            rotations: self.rotations,
        }
    }

    /// Stops and gives the counters back to the PMU.
    pub fn finish(mut self) {
        self.stop();
        let Self {
            pmu,
            counters,
            cycles,
            ..
        } = self;
        for c in counters.into_iter().flatten() {
            pmu.release(c);
        }
        pmu.release(cycles);
    }
}

/// [`Session::software_increment`] without the session: one PMSWINC write to every event counter
/// the session holds, which only the counters that count SW_INCR at that moment count. It reads
/// and changes no session state, so it may run while an interrupt handler rotates the session.
pub struct Increments<'p, R: Registers> {
    pmu: &'p Pmu<R>,
    mask: Value<PmCounterMask>,
}

impl<R: Registers> Clone for Increments<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: Registers> Copy for Increments<'_, R> {}

impl<R: Registers> Increments<'_, R> {
    /// Increments the session's counters that count SW_INCR now.
    pub fn increment(&self) {
        self.pmu.registers().software_increment(self.mask);
    }
}

/// A session's results as a table.
pub struct Report<'a> {
    events: &'a [Tracked],
    cycles: u64,
    counters: usize,
    rotations: u64,
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:>20}  {:<24} how it was counted", "count", "event")?;
        writeln!(
            f,
            "{:>20}  {:<24} exact (the cycle counter, fixed)",
            self.cycles, "cycles"
        )?;
        for e in self.events {
            let r = e.reading();
            match r.counted {
                Counted::Exact(n) => writeln!(f, "{n:>20}  {:<24} exact (100.0%)", r.name)?,
                Counted::Scaled { estimate, .. } => {
                    let p = r.permille();
                    writeln!(
                        f,
                        "{estimate:>20}  {:<24} scaled ({}.{}% counted)",
                        r.name,
                        p / 10,
                        p % 10
                    )?;
                }
                Counted::NotCounted => {
                    writeln!(f, "{:>20}  {:<24} (0.0% counted)", "<not counted>", r.name)?
                }
                Counted::NotSupported => writeln!(
                    f,
                    "{:>20}  {:<24} (not an event this PMU counts)",
                    "<not supported>", r.name
                )?,
                Counted::NoneSeen => {
                    let p = r.permille();
                    writeln!(
                        f,
                        "{:>20}  {:<24} ({}.{}% counted; no PMCEID bit says the PMU counts it)",
                        "<none seen>",
                        r.name,
                        p / 10,
                        p % 10
                    )?;
                }
            }
        }
        write!(
            f,
            "{} events on {} counters, {} rotations",
            self.events.len(),
            self.counters,
            self.rotations
        )
    }
}
