//! How the driver reaches the PMU registers.
//!
//! The driver logic is written once, generic over [`Registers`]; each back end maps those calls to
//! one way of reaching the registers and is monomorphised into the driver, so a system-register
//! back end costs exactly its accessors. Every method is one architectural access (or, on an
//! Armv7 PMU, a PMSELR-indirected pair), and takes `&self` so that a memory-mapped back end can
//! carry its base address and an interrupt handler can use the same back end as the thread it
//! interrupts.
//!
//! Values travel as generated values, `Value<Layout>`. PMCR travels as a `Value` of the AArch64
//! layout [`Pmcr`]: every view (AArch32 `PmcrA32`, external `PmcrExt`) has its fields at the same
//! bit positions, and the number of counters has its own method because the external view reads
//! it from PMCFGR.N, not PMCR.N.
use arm_pmuv3::{PmCounterMask, Pmccfiltr, Pmcr, Pmevtyper};
use armreg_rt::{IndexOutOfRange, Value};

use crate::{EventSet, PmuVersion};

pub mod aarch32;
pub mod aarch64;
pub mod dsu;
pub mod external;

/// The registers of one PMU, reached one way.
pub trait Registers {
    /// PMCR, widened to the AArch64 layout.
    fn control(&self) -> Value<Pmcr>;
    /// Writes PMCR (fields the view lacks are dropped).
    fn set_control(&self, value: Value<Pmcr>);
    /// The number of event counters this exception level sees: PMCR.N through system registers
    /// (MDCR_EL2.HPMN at EL1/EL0 under a hypervisor), PMCFGR.N externally.
    fn counter_count(&self) -> u8;
    /// The PMU architecture version.
    fn version(&self) -> PmuVersion;
    /// The common events the PMU counts (PMCEID0-3), or `None` when this PMU cannot say.
    fn common_events(&self) -> Option<EventSet>;
    /// Writes `PMEVTYPER<n>`.
    fn set_event_type(&self, n: usize, value: Value<Pmevtyper>) -> Result<(), IndexOutOfRange>;
    /// Bits \[31:0\] of `PMEVCNTR<n>`.
    fn event_count(&self, n: usize) -> Result<u32, IndexOutOfRange>;
    /// Writes bits \[31:0\] of `PMEVCNTR<n>`.
    fn set_event_count(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange>;
    /// How many bits of the cycle counter this back end reads and writes (64, or 32 where only the
    /// 32-bit access exists): the driver sets PMCR.LC to match, so the counter overflows, and
    /// interrupts, at the width the back end can see. 0: there is no cycle counter (a cluster PMU
    /// block that describes none).
    fn cycle_counter_bits(&self) -> u32;
    /// PMCCNTR (zero-extended when the back end reads 32 bits).
    fn cycle_count(&self) -> u64;
    /// Writes PMCCNTR (its low 32 bits when the back end writes 32 bits).
    fn set_cycle_count(&self, value: u64);
    /// Writes PMCCFILTR.
    fn set_cycle_filter(&self, value: Value<Pmccfiltr>);
    /// PMCNTENSET: starts the counters in `mask`.
    fn enable_counters(&self, mask: Value<PmCounterMask>);
    /// PMCNTENCLR: stops the counters in `mask`.
    fn disable_counters(&self, mask: Value<PmCounterMask>);
    /// The counters that are enabled (PMCNTENSET read).
    fn enabled_counters(&self) -> Value<PmCounterMask>;
    /// PMINTENSET: enables the overflow interrupt of the counters in `mask`.
    fn enable_interrupts(&self, mask: Value<PmCounterMask>);
    /// PMINTENCLR: disables the overflow interrupt of the counters in `mask`.
    fn disable_interrupts(&self, mask: Value<PmCounterMask>);
    /// The overflow flags (PMOVSSET read).
    fn overflow_flags(&self) -> Value<PmCounterMask>;
    /// PMOVSCLR: clears the overflow flags in `mask`.
    fn clear_overflow_flags(&self, mask: Value<PmCounterMask>);
    /// PMSWINC: increments the SW_INCR counters in `mask` (bit 31, the cycle counter, is ignored).
    fn software_increment(&self, mask: Value<PmCounterMask>);
}

/// What EL0 may do with the PMU (PMUSERENR): only system-register back ends have it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct UserAccess {
    /// EN: every PMU register (except PMUSERENR and PMINTEN*) is accessible from EL0.
    pub enable: bool,
    /// SW: PMSWINC writes from EL0.
    pub software_increment: bool,
    /// CR: cycle counter reads from EL0.
    pub cycle_read: bool,
    /// ER: event counter reads (and PMSELR) from EL0.
    pub event_read: bool,
}

/// A back end with an EL0 access control: PMUSERENR.
pub trait UserAccessControl {
    /// Writes PMUSERENR.
    fn set_user_access(&self, access: UserAccess);
    /// Reads PMUSERENR.
    fn user_access(&self) -> UserAccess;
}
