//! The external (memory-mapped) PMU view: one frame of registers per PE (FEAT_PMUv3_EXT32, as a
//! SoC such as TI AM62L maps it per CPU), or a memory-mapped cluster PMU.
//!
//! The view differs from the system registers in ways the back end takes care of (Arm ARM DDI0487
//! §I5.2, table I5-1):
//! - there is no PMSELR, PMXEVTYPER or PMXEVCNTR: each counter's `PMEVTYPER<n>`/`PMEVCNTR<n>` is
//!   reached directly;
//! - PMCR bits [31:11] are RAZ/WI: the number of counters is PMCFGR.N;
//! - the frame may have a CoreSight software lock: writes are ignored until the key 0xC5ACCE55 is
//!   written to PMLAR ([`External::unlocked`], [`External::unlock`]); writing anything else locks
//!   it again ([`External::lock`]);
//! - the 64-bit cycle counter is two 32-bit words: a read is retaken if the high word changed
//!   between the halves (a carry out of the low word).
//!
//! The generated crates give each frame its own types (`arm_pmuv3::mmio::PmuExt32`,
//! `ti_am62l_pmu::mmio::Pmu`, `arm_dsu_pmu_mmio::mmio::DsuPmuMmio`); [`Frame`] is the one
//! interface the back end needs from them, implemented for each in [`frames`], generic over the
//! bus, so the same back end runs on hardware ([`armreg_rt::mmio::Mmio`]) and on a generated
//! behavioural model.
use arm_pmuv3::{PmCounterMask, Pmccfiltr, Pmcr, Pmevtyper};
use armreg_rt::{IndexOutOfRange, Layout, Value};

use super::Registers;
use crate::{word, EventSet, PmuVersion};

mod frames;

/// The key that unlocks a CoreSight software lock (PMLAR).
pub const UNLOCK_KEY: u32 = 0xC5AC_CE55;

/// The registers of one memory-mapped PMU frame, as raw words: each method is one generated
/// accessor call (two for a 64-bit register on the 32-bit bus).
pub trait Frame {
    /// PMCR (bits \[31:11\] read as 0 in this view).
    fn pmcr(&self) -> u32;
    /// Writes PMCR.
    fn set_pmcr(&self, value: u32);
    /// PMCFGR.N: the number of event counters.
    fn pmcfgr_n(&self) -> u8;
    /// PMCEID`n` (n < 4), or `None` when the frame has none.
    fn pmceid(&self, n: usize) -> Option<u32>;
    /// Writes PMEVTYPER`n`.
    fn set_pmevtyper(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange>;
    /// Bits \[31:0\] of PMEVCNTR`n`.
    fn pmevcntr(&self, n: usize) -> Result<u32, IndexOutOfRange>;
    /// Writes bits \[31:0\] of PMEVCNTR`n` (the high word, where there is one, gets 0).
    fn set_pmevcntr(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange>;
    /// Whether the frame has a 64-bit cycle counter (PMCCNTR, PMCCFILTR).
    fn has_cycle_counter(&self) -> bool;
    /// PMCCNTR, read low word then high word (0 without a cycle counter).
    fn pmccntr(&self) -> u64;
    /// Writes PMCCNTR (nothing without a cycle counter).
    fn set_pmccntr(&self, value: u64);
    /// Writes PMCCFILTR (nothing without a cycle counter).
    fn set_pmccfiltr(&self, value: u32);
    /// PMCNTENSET.
    fn pmcntenset(&self, mask: u32);
    /// PMCNTENCLR.
    fn pmcntenclr(&self, mask: u32);
    /// The counter enables (a PMCNTENSET read).
    fn pmcnten(&self) -> u32;
    /// PMINTENSET.
    fn pmintenset(&self, mask: u32);
    /// PMINTENCLR.
    fn pmintenclr(&self, mask: u32);
    /// The overflow flags (a PMOVSSET read).
    fn pmovs(&self) -> u32;
    /// PMOVSCLR.
    fn pmovsclr(&self, mask: u32);
    /// PMSWINC (nothing where the frame has none).
    fn pmswinc(&self, mask: u32);
    /// Writes PMLAR; `false` when the frame has no software lock.
    fn pmlar(&self, key: u32) -> bool;
    /// PMLSR.SLK, or `None` when the frame has no software lock.
    fn locked(&self) -> Option<bool>;
}

/// A PMU reached through a memory-mapped frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct External<F> {
    frame: F,
    version: PmuVersion,
}

impl<F: Frame> External<F> {
    /// The back end for `frame`, unlocked (the key written to PMLAR, where the frame has a lock)
    /// so that the driver's writes take effect. The version is PMUv3: the external view is a
    /// PMUv3 feature, and the frame has no ID register giving the minor version; use
    /// [`with_version`](Self::with_version) to say more.
    pub fn unlocked(frame: F) -> Self {
        frame.pmlar(UNLOCK_KEY);
        Self {
            frame,
            version: PmuVersion::V3,
        }
    }

    /// The same back end, reporting PMU version `version` (PMCEID2/3 are read from PMUv3p1).
    pub fn with_version(self, version: PmuVersion) -> Self {
        Self { version, ..self }
    }

    /// Locks the frame (any value but the key to PMLAR): later writes are ignored until
    /// [`unlock`](Self::unlock). Nothing happens on a frame without a lock.
    pub fn lock(&self) {
        self.frame.pmlar(!UNLOCK_KEY);
    }

    /// Unlocks the frame (the key to PMLAR).
    pub fn unlock(&self) {
        self.frame.pmlar(UNLOCK_KEY);
    }

    /// Whether the frame is locked (PMLSR.SLK), or `None` when it has no software lock.
    pub fn is_locked(&self) -> Option<bool> {
        self.frame.locked()
    }

    /// The frame.
    pub fn frame(&self) -> &F {
        &self.frame
    }
}

impl<F: Frame> Registers for External<F> {
    #[inline]
    fn control(&self) -> Value<Pmcr> {
        Pmcr::from_bits_retain(u64::from(self.frame.pmcr()))
    }
    #[inline]
    fn set_control(&self, value: Value<Pmcr>) {
        // Bits [31:11] are RAZ/WI here; the frame's layout drops what it does not have.
        self.frame.set_pmcr(word::low(value.bits()))
    }
    #[inline]
    fn counter_count(&self) -> u8 {
        self.frame.pmcfgr_n()
    }
    fn version(&self) -> PmuVersion {
        self.version
    }
    fn common_events(&self) -> Option<EventSet> {
        let (p0, p1) = (self.frame.pmceid(0)?, self.frame.pmceid(1)?);
        // PMCEID2/3 (events 0x4000 on) came with PMUv3p1.
        let (p2, p3) = if self.version.at_least(PmuVersion::V3p1) {
            (
                self.frame.pmceid(2).unwrap_or(0),
                self.frame.pmceid(3).unwrap_or(0),
            )
        } else {
            (0, 0)
        };
        Some(EventSet::from_pmceid([p0, p1, p2, p3]))
    }
    #[inline]
    fn set_event_type(&self, n: usize, value: Value<Pmevtyper>) -> Result<(), IndexOutOfRange> {
        self.frame.set_pmevtyper(n, value.bits())
    }
    #[inline]
    fn event_count(&self, n: usize) -> Result<u32, IndexOutOfRange> {
        self.frame.pmevcntr(n)
    }
    #[inline]
    fn set_event_count(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        self.frame.set_pmevcntr(n, value)
    }
    #[inline]
    fn cycle_counter_bits(&self) -> u32 {
        if self.frame.has_cycle_counter() {
            64
        } else {
            0
        }
    }
    fn cycle_count(&self) -> u64 {
        // Low word, then high word: a carry between the two makes the first read wrong. The
        // second read is right if its high word equals the first's: then no carry happened
        // between the first high word and the second one.
        loop {
            let first = self.frame.pmccntr();
            let second = self.frame.pmccntr();
            if first >> 32 == second >> 32 {
                return second;
            }
        }
    }
    #[inline]
    fn set_cycle_count(&self, value: u64) {
        self.frame.set_pmccntr(value)
    }
    #[inline]
    fn set_cycle_filter(&self, value: Value<Pmccfiltr>) {
        self.frame.set_pmccfiltr(value.bits())
    }
    #[inline]
    fn enable_counters(&self, mask: Value<PmCounterMask>) {
        self.frame.pmcntenset(mask.bits())
    }
    #[inline]
    fn disable_counters(&self, mask: Value<PmCounterMask>) {
        self.frame.pmcntenclr(mask.bits())
    }
    #[inline]
    fn enabled_counters(&self) -> Value<PmCounterMask> {
        PmCounterMask::from_bits_retain(self.frame.pmcnten())
    }
    #[inline]
    fn enable_interrupts(&self, mask: Value<PmCounterMask>) {
        self.frame.pmintenset(mask.bits())
    }
    #[inline]
    fn disable_interrupts(&self, mask: Value<PmCounterMask>) {
        self.frame.pmintenclr(mask.bits())
    }
    #[inline]
    fn overflow_flags(&self) -> Value<PmCounterMask> {
        PmCounterMask::from_bits_retain(self.frame.pmovs())
    }
    #[inline]
    fn clear_overflow_flags(&self, mask: Value<PmCounterMask>) {
        self.frame.pmovsclr(mask.bits())
    }
    #[inline]
    fn software_increment(&self, mask: Value<PmCounterMask>) {
        self.frame.pmswinc(mask.bits() & !(1 << 31))
    }
}
