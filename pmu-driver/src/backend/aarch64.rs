//! AArch64 system registers (`MRS`/`MSR`), through the generated `arm_pmuv3::aarch64` accessors.
use arm_pmuv3::aarch64 as reg;
use arm_pmuv3::{PmCounterMask, Pmccfiltr, Pmccntr, Pmcr, Pmevcntr, Pmevtyper, Pmswinc, Pmuserenr};
use armreg_rt::{IndexOutOfRange, Layout, Value};

use super::{Registers, UserAccess, UserAccessControl};
use crate::{idregs, word, EventSet, PmuVersion};

/// The PMU of the running CPU in AArch64 state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Aarch64;

impl Aarch64 {
    /// The PMU of the running CPU (as `Aarch64` itself, spelled like [`crate::Aarch32::new`]).
    pub const fn new() -> Self {
        Self
    }
}

impl Registers for Aarch64 {
    #[inline(always)]
    fn control(&self) -> Value<Pmcr> {
        reg::PMCR_EL0::read()
    }
    #[inline(always)]
    fn set_control(&self, value: Value<Pmcr>) {
        reg::PMCR_EL0::write(value)
    }
    #[inline(always)]
    fn counter_count(&self) -> u8 {
        reg::PMCR_EL0::read().get(Pmcr::N)
    }
    fn version(&self) -> PmuVersion {
        PmuVersion::from_aa64dfr0(idregs::id_aa64dfr0_el1())
    }
    fn common_events(&self) -> Option<EventSet> {
        // PMCEID0_EL0 holds PMCEID0 in its low word and PMCEID2 in its high word; PMCEID1_EL0
        // likewise PMCEID1 and PMCEID3.
        let lo = reg::PMCEID0_EL0::read().get(arm_pmuv3::Pmceid::ID);
        let hi = reg::PMCEID1_EL0::read().get(arm_pmuv3::Pmceid::ID);
        Some(EventSet::from_pmceid([
            word::low(lo),
            word::low(hi),
            word::high(lo),
            word::high(hi),
        ]))
    }
    #[inline(always)]
    fn set_event_type(&self, n: usize, value: Value<Pmevtyper>) -> Result<(), IndexOutOfRange> {
        reg::PMEVTYPER_EL0.try_at(n).map(|r| r.write(value))
    }
    #[inline(always)]
    fn event_count(&self, n: usize) -> Result<u32, IndexOutOfRange> {
        // The driver keeps PMCR.LP clear: event counters overflow at 32 bits.
        reg::PMEVCNTR_EL0
            .try_at(n)
            .map(|r| word::low(r.read().get(Pmevcntr::EVCNT)))
    }
    #[inline(always)]
    fn set_event_count(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        let value = Pmevcntr::DEFAULT.with(Pmevcntr::EVCNT, u64::from(value));
        reg::PMEVCNTR_EL0.try_at(n).map(|r| r.write(value))
    }
    #[inline(always)]
    fn cycle_counter_bits(&self) -> u32 {
        64
    }
    #[inline(always)]
    fn cycle_count(&self) -> u64 {
        reg::PMCCNTR_EL0::read().get(Pmccntr::CCNT)
    }
    #[inline(always)]
    fn set_cycle_count(&self, value: u64) {
        reg::PMCCNTR_EL0::write(Pmccntr::DEFAULT.with(Pmccntr::CCNT, value))
    }
    #[inline(always)]
    fn set_cycle_filter(&self, value: Value<Pmccfiltr>) {
        reg::PMCCFILTR_EL0::write(value)
    }
    #[inline(always)]
    fn enable_counters(&self, mask: Value<PmCounterMask>) {
        reg::PMCNTENSET_EL0::set(mask)
    }
    #[inline(always)]
    fn disable_counters(&self, mask: Value<PmCounterMask>) {
        reg::PMCNTENCLR_EL0::clear(mask)
    }
    #[inline(always)]
    fn enabled_counters(&self) -> Value<PmCounterMask> {
        reg::PMCNTENSET_EL0::read()
    }
    #[inline(always)]
    fn enable_interrupts(&self, mask: Value<PmCounterMask>) {
        reg::PMINTENSET_EL1::set(mask)
    }
    #[inline(always)]
    fn disable_interrupts(&self, mask: Value<PmCounterMask>) {
        reg::PMINTENCLR_EL1::clear(mask)
    }
    #[inline(always)]
    fn overflow_flags(&self) -> Value<PmCounterMask> {
        reg::PMOVSSET_EL0::read()
    }
    #[inline(always)]
    fn clear_overflow_flags(&self, mask: Value<PmCounterMask>) {
        reg::PMOVSCLR_EL0::clear(mask)
    }
    #[inline(always)]
    fn software_increment(&self, mask: Value<PmCounterMask>) {
        reg::PMSWINC_EL0::write(Pmswinc::from_bits(mask.bits() & !(1 << 31)))
    }
}

impl UserAccessControl for Aarch64 {
    fn set_user_access(&self, access: UserAccess) {
        reg::PMUSERENR_EL0::write(
            Pmuserenr::DEFAULT
                .with(Pmuserenr::EN, access.enable)
                .with(Pmuserenr::SW, access.software_increment)
                .with(Pmuserenr::CR, access.cycle_read)
                .with(Pmuserenr::ER, access.event_read),
        )
    }
    fn user_access(&self) -> UserAccess {
        let v = reg::PMUSERENR_EL0::read();
        UserAccess {
            enable: v.get(Pmuserenr::EN),
            software_increment: v.get(Pmuserenr::SW),
            cycle_read: v.get(Pmuserenr::CR),
            event_read: v.get(Pmuserenr::ER),
        }
    }
}
