//! The runtime shared by every generated register crate.
//!
//! Generated crates describe registers; this crate holds the few types they all share, so that a
//! driver can be written once against any of them:
//! - [`Layout`], [`Value`] and [`Field`]: what every generated layout is, the values of its
//!   registers, and how their fields are read and written (`value.get(Pmcr::E)`,
//!   `value.with(Pmcr::E, true)`); [`UInt`] and [`Const`]: values of integer fields narrower
//!   than their type, which never truncate silently;
//! - [`SysRegPath`]: where a system register lives (AArch64 `MRS`/`MSR`, AArch32 `MRC`/`MCR`,
//!   `MRRC`/`MCRR`);
//! - [`array`](mod@array): arrays of registers, system and memory-mapped alike: `at::<N>()` checked when
//!   compiling, `try_at(n)` when running;
//! - [`mmio::Reg`]: a typed handle to one memory-mapped register whose access rules are in its
//!   type ([`access`]): `modify` never triggers a side effect it was not asked for, and a read
//!   with one is written `read_with_side_effects`;
//! - [`asm`]: the barriers and hints register code needs (`asm::isb()`, `asm::dsb(Ish)`), and
//!   AArch64's exception return, each one instruction;
//! - [`host`]: the hook through which system-register accessors run on a target that lacks the
//!   instruction (the host, for tests and docs);
//! - [`events`]: PMU event tables and CPU cores as data, for lookups at run time;
//! - with feature `defmt`, `defmt::Format` for values (field by field, as `Debug`),
//!   `IndexOutOfRange` and `SysRegPath`, for firmware that logs over defmt;
//! - `model` (feature `model`, needs `std`): the engine of the behavioural models generated
//!   for memory-mapped blocks, a bus that applies a description's access rules.
#![no_std]

// Models keep their state in a `Mutex` and their hooks in boxes: host tests only.
#[cfg(feature = "model")]
extern crate std;

pub mod access;
pub mod array;
pub mod asm;
#[cfg(feature = "defmt")]
mod defmt_format;
pub mod events;
pub mod field;
mod field_value;
pub mod host;
pub mod mmio;
#[cfg(feature = "model")]
pub mod model;
mod path;
#[doc(hidden)]
pub mod sysreg;
mod value;

pub use field::{Const, Field, FieldArray, UInt};
pub use field_value::{Cleared, FieldValue, IntoFieldValue};
pub use path::SysRegPath;
pub use value::{IndexOutOfRange, Layout, LayoutInfo, Reset, Value, Word};
