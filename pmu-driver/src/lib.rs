//! A safe `#![no_std]` driver for the Arm Performance Monitors (PMUv3, and the Armv7 PMUv1/v2 an
//! AArch32 CPU may have) and the generic timer, built on the generated register accessors
//! (`arm-pmuv3`, `arm-generic-timer-regs`).
//!
//! The driver is written once, generic over a register back end ([`Registers`]):
//! [`Aarch64`] (system registers), [`Aarch32`] (CP15), [`Dsu`] (the DynamIQ cluster PMU's
//! CLUSTERPM* system registers) and [`External`] (a memory-mapped PMU frame, [`Frame`]: the
//! external view of a core's PMU such as TI AM62L's per-CPU frames, or a memory-mapped cluster
//! PMU; it unlocks the frame, reads the number of counters from PMCFGR.N, and runs on hardware
//! or on a generated behavioural model alike).
//!
//! Cycles, instructions and L1D refills of one function, the refills named by the core's typed
//! event (`arm-pmu-events` with feature `cortex-a53`):
//!
//! ```no_run
//! use arm_pmu_events::cortex_a53::Event as A53;
//! use pmu_driver::{Aarch64, Error, Filter, Pmu};
//!
//! # fn work() -> u32 { core::hint::black_box(40) + 2 }
//! # fn main() -> Result<(), Error> {
//! let pmu = Pmu::new(Aarch64::new())?;
//! pmu.start();
//! // QEMU counts only SW_INCR, INST_RETIRED and CPU_CYCLES, and its PMCEID says so: there this
//! // is `Err`, "L1D_CACHE_REFILL (0x0003): PMCEID0 bit 3 is clear on this PMU".
//! let m = pmu.measurer([A53::L1D_CACHE_REFILL.into()], Filter::EL0_EL1)?;
//! let (_, counts) = m.measure(work);
//! let _ = (counts.cycles, counts.instructions, counts.events[0]);
//! // `counts` displays as one line per count, by name. `m` gives its counters back when it is
//! // dropped.
//! # Ok(()) }
//! ```
//!
//! A complete bare-metal program around it (start-up code, linker script, semihosting output,
//! the QEMU command line), for AArch64 and AArch32, is in the repository's
//! `pmu-driver/examples/`; the crate's README is the quick start, with what a rotation of
//! [`mux`] costs.
//!
//! - Discovery: number of counters, PMU version, supported events ([`PmuInfo`]).
//! - Counters: allocation with event and exception-level [`Filter`]s, the cycle counter, chained
//!   pairs where the PMU has the CHAIN event, software increment, start/stop, EL0 access.
//! - 64-bit totals for 32-bit counters, extended by the overflow interrupt
//!   ([`Pmu::on_overflow`]), which can also record [`Sample`]s into a [`SampleRing`].
//! - [`Measurer::measure`]: cycles, instructions and chosen events over a closure.
//! - Events: [`Event`], from any generated event enum with its name ([`PmuEvent`]); errors that
//!   name the event and the PMCEID bit that rules it out, or the closest name to a misspelt one.
//! - [`timer`]: the generic timer and an overflow-free ticks → ns conversion.
//! - Errors are values ([`Error`]); nothing panics.
#![no_std]
#![warn(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::undocumented_unsafe_blocks
)]

// Unit tests use `std` (vectors, panics with messages); the library itself does not.
#[cfg(test)]
extern crate std;

mod backend;
mod barrier;
mod counter;
pub mod cpu;
mod error;
mod event;
mod filter;
mod idregs;
mod measure;
pub mod mux;
mod overflow;
mod pmu;
mod ring;
mod text;
pub mod timer;
mod version;
mod word;

pub use armreg_rt::events::PmuEvent;
pub use backend::aarch32::Aarch32;
pub use backend::aarch64::Aarch64;
pub use backend::dsu::Dsu;
pub use backend::external::{External, Frame, UNLOCK_KEY};
pub use backend::{Registers, UserAccess, UserAccessControl};
pub use counter::{Counter, CounterKind};
pub use error::Error;
pub use event::{pmceid_bit, Event, EventSet, Support};
pub use filter::{Filter, Label};
pub use idregs::{ID_AA64DFR0_EL1, ID_DFR0};
pub use measure::{Measurement, Measurer};
pub use pmu::{Pmu, PmuInfo};
pub use ring::{Sample, SampleRing};
pub use version::PmuVersion;
