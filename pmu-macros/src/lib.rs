//! Compile-time checked PMU event declarations.
//!
//! PMU events are numbers (0x08 `INST_RETIRED`, 0x11 `CPU_CYCLES`, ...); written as bare
//! constants, a typo counts the wrong thing silently. [`event_set!`] (and its attribute form
//! [`macro@event_enum`]) declares an event set that the compiler checks, and can import the events
//! of Linux perf `pmu-events` JSON at compile time.
//!
//! ```
//! pmu_macros::event_set! {
//!     /// The events this profiler counts.
//!     #[pmu = pmuv3p1]                         // pmuv3 (default, 10-bit), pmuv3p1 (16-bit), dsu
//!     #[evtype = arm_pmuv3::Pmevtyper]         // emit `From<Profiled> for Value<Pmevtyper>`
//!     pub enum Profiled {
//!         /// Instruction architecturally executed
//!         INST_RETIRED = 0x08,
//!         /// Cycle
//!         CPU_CYCLES = 0x11,
//!     }
//! }
//!
//! assert_eq!(Profiled::CPU_CYCLES.code(), 0x11);
//! assert_eq!("inst_retired".parse(), Ok(Profiled::INST_RETIRED));
//! // QEMU 7.2's PMCEID0 (0x20101, as measured by tests/tests/qemu.rs) advertises SW_INCR,
//! // INST_RETIRED and CPU_CYCLES.
//! assert_eq!(Profiled::INST_RETIRED.supported([0x20101, 0, 0, 0]), Some(true));
//! use arm_pmuv3::{Pmevtyper, Value};
//! let evtyper = Value::<Pmevtyper>::from(Profiled::CPU_CYCLES).with(Pmevtyper::U, true);
//! assert_eq!(evtyper.get(Pmevtyper::EVTCOUNT), 0x11);
//! ```
//!
//! Written events are checked against the Arm architecture's common events
//! (`pmu_events::COMMON_EVENTS`): a common event's name with another number (`L1D_CACHE_REFILL =
//! 0x04`) is an error naming the right one, a common number under another name (`INST_RETIERD =
//! 0x08`) one suggesting the architecture's name. Numbers in the implementation-defined range
//! (0xC0–0xFF; 0x40–0xFF on Armv7) are each core's own, and the ARM11 and DSU PMUs number their
//! events their own way: not checked.
//!
//! A core's events by name (`core` names a set of the generated `arm-pmu-events` crate, whose
//! feature must be on), and a budget of counters the set must fit, checked at compile time:
//!
//! ```
//! pmu_macros::event_set! {
//!     #[core = cortex_a53]
//!     #[counters = 6]
//!     pub enum Mine { CPU_CYCLES, INST_RETIRED, L1D_CACHE_REFILL, EVENT_C0 }
//! }
//!
//! assert_eq!(Mine::L1D_CACHE_REFILL.code(), 0x03);
//! assert_eq!(Mine::EVENT_C0.event(), arm_pmu_events::cortex_a53::Event::EVENT_C0);
//! ```
//!
//! Such a set has the API below but `supported` (ask `event()`, the core's event), and converts
//! into the core's event and, through `arm_pmu_events::PmuEvent`, into `pmu_driver::Event`.
//!
//! Importing perf JSON: a file, or a core folder (every `*.json` in it), relative to the calling
//! crate's manifest; `ArchStdEvent` references are resolved against the tables of the arch root
//! found above it, as Linux's jevents does (or `#[arch = "..."]`). Here, a core folder laid out as
//! Linux's `tools/perf/pmu-events/arch/arm64/` is (the test fixture `tests/fixtures/arm64/`;
//! `tests/json_import.rs` imports Linux 6.12's own, which `tests/linux/extract.sh` extracts):
//!
//! ```
//! pmu_macros::event_set! {
//!     #[json = "tests/fixtures/arm64/vendor/core"]
//!     pub enum Core {}
//! }
//!
//! assert_eq!(Core::CPU_CYCLES.code(), 0x11); // {"ArchStdEvent": "CPU_CYCLES"}, from common.json
//! assert_eq!(Core::EXT_MEM_REQ.supported([0x20101, 0, 0, 0]), None); // IMPDEF: not in PMCEID
//! ```
//!
//! The files read are tracked (`include_bytes!`), so editing one rebuilds the crate; a file added
//! to an imported folder is only seen on the next build of the crate.
//!
//! The generated enum has `code()`, `name()`, `description()`, `ALL`, `from_code`, `from_name`,
//! `Display`, `FromStr` (error type `Parse<Name>Error`), `From<Name> for u16`, `pmceid_bit()` and
//! `supported(pmceid)` (`None` for events PMCEID does not advertise; `supported_el0` for the
//! AArch64 register pair), and `From<Name>` for the values of the `evtype` layout when one is
//! given (`Value<Layout>`, named through the layout's module: `a::Pmevtyper` gives `a::Value`).
//! It names only `core`, so it builds in `#![no_std]` crates.
//!
//! Errors, each at the offending token (for JSON events, at the `json` path, with the file's own
//! line:column): duplicate code, duplicate name (ASCII case ignored, as perf does), a code that
//! does not fit the PMU's event field, a name or number that disagrees with the architecture, a
//! name that is not an identifier, an unknown `ArchStdEvent`, a JSON file that is missing or
//! malformed, more events than `counters`, an unknown core, and unknown (with the closest
//! setting) or repeated settings.
use proc_macro::TokenStream;

mod expand;

/// Declares a checked PMU event set: `event_set! { #[settings] pub enum Name { NAME = CODE, ... } }`.
///
/// Settings, as attributes on the enum: `pmu = pmuv3 | pmuv3p1 | dsu` (default `pmuv3`),
/// `core = cortex_a53` (the events are a core's, named without codes), `counters = N` (a budget),
/// `evtype = path::To::Layout` (emits `From<Name> for path::To::Value<Layout>`) and
/// `evtype_field = FIELD` (the layout's field constant for the event number; default `EVTCOUNT`,
/// or `VALUE` for `dsu`), `json = "path"` (repeatable), `arch = "path"`. A name may also be a
/// string literal; it must still be an identifier. Doc comments are the descriptions.
#[proc_macro]
pub fn event_set(input: TokenStream) -> TokenStream {
    expand::event_set(input.into(), &expand::Context::from_env()).into()
}

/// The attribute form of [`event_set!`]: `#[event_enum(pmu = pmuv3p1, json = "...")]` on an enum
/// whose variants are `NAME = CODE` with doc comments.
#[proc_macro_attribute]
pub fn event_enum(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::event_enum(args.into(), item.into(), &expand::Context::from_env()).into()
}
