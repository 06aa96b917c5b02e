//! The DynamIQ Shared Unit's cluster PMU through its AArch64 system registers (CLUSTERPM*_EL1,
//! the generated `arm_dsu_pmu::aarch64` accessors), the way Linux's `arm_dsu_pmu` reaches it.
//!
//! The cluster PMU follows the PMUv3 programmers' model with these differences, which this back
//! end absorbs so the driver logic is the one used for a core's PMU:
//! - event counters are reached only through CLUSTERPMSELR and CLUSTERPMXEVTYPER/XEVCNTR; the
//!   selection is restored afterwards, so an interrupt handler cannot disturb the code it
//!   interrupted (as the AArch32 back end does for an Armv7 PMU);
//! - events are cluster events with no exception-level filter: only the event number is written;
//! - there is no software increment and no cycle-counter filter.
//!
//! Lower exception levels reach these registers only when EL3/EL2 set ACTLR_EL3/EL2.CLUSTERPMUEN
//! (bit 12, TF-A `include/drivers/arm/dsu.h`); firmware does that, not this driver.
use arm_dsu_pmu::aarch64 as reg;
use arm_dsu_pmu::{
    ClusterpmCounterMask, Clusterpmccntr, Clusterpmcr, Clusterpmselr, Clusterpmxevcntr,
    Clusterpmxevtyper,
};
use arm_pmuv3::{PmCounterMask, Pmccfiltr, Pmcr, Pmevtyper};
use armreg_rt::{IndexOutOfRange, Layout, Value};

use super::Registers;
use crate::{EventSet, PmuVersion};

/// The event counters CLUSTERPMSELR can select (the cycle counter is index 31).
const EVENT_COUNTERS: usize = 31;

/// The cluster PMU of the DynamIQ cluster the running CPU belongs to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dsu;

impl Dsu {
    /// Runs `f` with CLUSTERPMSELR selecting counter `n`, then puts the old selection back.
    fn selected<T>(&self, n: usize, f: impl FnOnce() -> T) -> Result<T, IndexOutOfRange> {
        let sel = match u32::try_from(n) {
            Ok(sel) if n < EVENT_COUNTERS => sel,
            _ => {
                return Err(IndexOutOfRange {
                    index: n,
                    count: EVENT_COUNTERS,
                })
            }
        };
        let old = reg::CLUSTERPMSELR_EL1::read();
        reg::CLUSTERPMSELR_EL1::write(Clusterpmselr::DEFAULT.with(Clusterpmselr::VALUE, sel));
        let out = f();
        reg::CLUSTERPMSELR_EL1::write(old);
        Ok(out)
    }
}

fn mask(m: Value<PmCounterMask>) -> Value<ClusterpmCounterMask> {
    ClusterpmCounterMask::from_bits_retain(m.bits())
}

impl Registers for Dsu {
    #[inline]
    fn control(&self) -> Value<Pmcr> {
        Pmcr::from_bits_retain(u64::from(reg::CLUSTERPMCR_EL1::read().bits()))
    }
    #[inline]
    fn set_control(&self, value: Value<Pmcr>) {
        // CLUSTERPMCR has E, P and C of PMCR's writable fields; the rest is not written.
        reg::CLUSTERPMCR_EL1::write(
            Clusterpmcr::DEFAULT
                .with(Clusterpmcr::E, value.get(Pmcr::E))
                .with(Clusterpmcr::P, value.bits() & 0b10 != 0)
                .with(Clusterpmcr::C, value.bits() & 0b100 != 0),
        )
    }
    #[inline]
    fn counter_count(&self) -> u8 {
        reg::CLUSTERPMCR_EL1::read().get(Clusterpmcr::N)
    }
    fn version(&self) -> PmuVersion {
        // No ID register describes the cluster PMU; its programmers' model is PMUv3's.
        PmuVersion::V3
    }
    fn common_events(&self) -> Option<EventSet> {
        Some(EventSet::from_pmceid([
            reg::CLUSTERPMCEID0_EL1::read().get(arm_dsu_pmu::Clusterpmceid::VALUE),
            reg::CLUSTERPMCEID1_EL1::read().get(arm_dsu_pmu::Clusterpmceid::VALUE),
            0,
            0,
        ]))
    }
    fn set_event_type(&self, n: usize, value: Value<Pmevtyper>) -> Result<(), IndexOutOfRange> {
        let event = Clusterpmxevtyper::DEFAULT.with(
            arm_dsu_pmu::Clusterpmmdcr::VALUE,
            u32::from(value.get(Pmevtyper::EVTCOUNT)),
        );
        self.selected(n, || reg::CLUSTERPMXEVTYPER_EL1::write(event))
    }
    fn event_count(&self, n: usize) -> Result<u32, IndexOutOfRange> {
        self.selected(n, || {
            reg::CLUSTERPMXEVCNTR_EL1::read().get(Clusterpmxevcntr::EVCNT)
        })
    }
    fn set_event_count(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        let v = Clusterpmxevcntr::DEFAULT.with(Clusterpmxevcntr::EVCNT, value);
        self.selected(n, || reg::CLUSTERPMXEVCNTR_EL1::write(v))
    }
    #[inline]
    fn cycle_counter_bits(&self) -> u32 {
        64
    }
    #[inline]
    fn cycle_count(&self) -> u64 {
        reg::CLUSTERPMCCNTR_EL1::read().get(Clusterpmccntr::CCNT)
    }
    #[inline]
    fn set_cycle_count(&self, value: u64) {
        reg::CLUSTERPMCCNTR_EL1::write(
            arm_dsu_pmu::Clusterpmccntr::DEFAULT.with(Clusterpmccntr::CCNT, value),
        )
    }
    #[inline]
    fn set_cycle_filter(&self, _: Value<Pmccfiltr>) {}
    #[inline]
    fn enable_counters(&self, m: Value<PmCounterMask>) {
        reg::CLUSTERPMCNTENSET_EL1::set(mask(m))
    }
    #[inline]
    fn disable_counters(&self, m: Value<PmCounterMask>) {
        reg::CLUSTERPMCNTENCLR_EL1::clear(mask(m))
    }
    #[inline]
    fn enabled_counters(&self) -> Value<PmCounterMask> {
        PmCounterMask::from_bits_retain(reg::CLUSTERPMCNTENSET_EL1::read().bits())
    }
    #[inline]
    fn enable_interrupts(&self, m: Value<PmCounterMask>) {
        reg::CLUSTERPMINTENSET_EL1::set(mask(m))
    }
    #[inline]
    fn disable_interrupts(&self, m: Value<PmCounterMask>) {
        reg::CLUSTERPMINTENCLR_EL1::clear(mask(m))
    }
    #[inline]
    fn overflow_flags(&self) -> Value<PmCounterMask> {
        PmCounterMask::from_bits_retain(reg::CLUSTERPMOVSSET_EL1::read().bits())
    }
    #[inline]
    fn clear_overflow_flags(&self, m: Value<PmCounterMask>) {
        reg::CLUSTERPMOVSCLR_EL1::clear(mask(m))
    }
    #[inline]
    fn software_increment(&self, _: Value<PmCounterMask>) {}
}
