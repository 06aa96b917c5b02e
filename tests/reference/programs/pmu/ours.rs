use arm_pmu_events::common_armv8::Event;
use arm_pmuv3::{aarch64::*, rt::asm, *};

#[no_mangle]
pub unsafe fn count_ours(f: fn()) -> (u64, u64) {
    PMEVTYPER_EL0.at::<0>().write(Event::INST_RETIRED);
    PMCR_EL0::write(Pmcr::E | Pmcr::P | Pmcr::C);
    PMCNTENSET_EL0::set(PmCounterMask::C | PmCounterMask::P0);
    asm::isb();
    f();
    PMCNTENCLR_EL0::clear(PmCounterMask::C | PmCounterMask::P0);
    (
        PMCCNTR_EL0::read().bits(),
        PMEVCNTR_EL0.at::<0>().read().bits(),
    )
}
