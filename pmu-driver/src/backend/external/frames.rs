//! [`Frame`] for each generated memory-mapped PMU block, on any bus.
//!
//! Values cross as raw words (`from_bits_retain`/`bits`): the frames' layouts differ per crate
//! (TI gives each register a layout of its own), but the bits are the architecture's.
use armreg_rt::mmio::Bus;
use armreg_rt::{IndexOutOfRange, Layout, Value};

use super::Frame;
use crate::word;

fn out_of_range(index: usize, count: usize) -> IndexOutOfRange {
    IndexOutOfRange { index, count }
}

/// The architectural EXT32 frame (`arm-pmuv3`): 31 counters in the map, PMCEID0-3, the lock.
impl<B: Bus> Frame for arm_pmuv3::mmio::PmuExt32<B> {
    fn pmcr(&self) -> u32 {
        self.pmcr().read().bits()
    }
    fn set_pmcr(&self, value: u32) {
        self.pmcr().write(arm_pmuv3::PmcrExt::from_bits(value))
    }
    fn pmcfgr_n(&self) -> u8 {
        self.pmcfgr().read().get(arm_pmuv3::Pmcfgr::N)
    }
    fn pmceid(&self, n: usize) -> Option<u32> {
        self.pmceid()
            .try_at(n)
            .ok()
            .map(|r| r.read().get(arm_pmuv3::Pmceid32::ID))
    }
    fn set_pmevtyper(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        self.pmevtyper()
            .try_at(n)
            .map(|r| r.write(arm_pmuv3::Pmevtyper::from_bits_retain(value)))
    }
    fn pmevcntr(&self, n: usize) -> Result<u32, IndexOutOfRange> {
        self.pmevcntr()
            .try_at(n)
            .map(|r| word::low(r.read().bits()))
    }
    fn set_pmevcntr(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        self.pmevcntr()
            .try_at(n)
            .map(|r| r.write(arm_pmuv3::Pmevcntr::from_bits_retain(value.into())))
    }
    fn has_cycle_counter(&self) -> bool {
        true
    }
    fn pmccntr(&self) -> u64 {
        self.pmccntr().read().bits()
    }
    fn set_pmccntr(&self, value: u64) {
        self.pmccntr()
            .write(arm_pmuv3::Pmccntr::from_bits_retain(value))
    }
    fn set_pmccfiltr(&self, value: u32) {
        self.pmccfiltr()
            .write(arm_pmuv3::Pmccfiltr::from_bits_retain(value))
    }
    fn pmcntenset(&self, mask: u32) {
        self.pmcntenset()
            .set(arm_pmuv3::PmCounterMask::from_bits_retain(mask))
    }
    fn pmcntenclr(&self, mask: u32) {
        self.pmcntenclr()
            .clear(arm_pmuv3::PmCounterMask::from_bits_retain(mask))
    }
    fn pmcnten(&self) -> u32 {
        self.pmcntenset().read().bits()
    }
    fn pmintenset(&self, mask: u32) {
        self.pmintenset()
            .set(arm_pmuv3::PmCounterMask::from_bits_retain(mask))
    }
    fn pmintenclr(&self, mask: u32) {
        self.pmintenclr()
            .clear(arm_pmuv3::PmCounterMask::from_bits_retain(mask))
    }
    fn pmovs(&self) -> u32 {
        self.pmovsset().read().bits()
    }
    fn pmovsclr(&self, mask: u32) {
        self.pmovsclr()
            .clear(arm_pmuv3::PmCounterMask::from_bits_retain(mask))
    }
    fn pmswinc(&self, mask: u32) {
        self.pmswinc().write(arm_pmuv3::Pmswinc::from_bits(mask))
    }
    fn pmlar(&self, key: u32) -> bool {
        self.pmlar().write(arm_pmuv3::Pmlar::from_bits_retain(key));
        true
    }
    fn locked(&self) -> Option<bool> {
        Some(self.pmlsr().read().get(arm_pmuv3::Pmlsr::SLK))
    }
}

/// Calls `$body` with `$reg` bound to the TI frame's register `$prefix<n>` (TI describes each
/// counter's registers one by one, not as an array): six counters on AM62L.
macro_rules! ti_counter {
    ($self:ident, $n:expr, $reg:ident => $body:expr, [$($i:literal => $method:ident),*]) => {
        match $n {
            $($i => {
                let $reg = $self.$method();
                Ok($body)
            })*
            n => Err(out_of_range(n, 6)),
        }
    };
}

/// TI AM62L's per-CPU frame (`ti-am62l-pmu`): six counters, described register by register.
impl<B: Bus> Frame for ti_am62l_pmu::mmio::Pmu<B> {
    fn pmcr(&self) -> u32 {
        self.pmcr().read().bits()
    }
    fn set_pmcr(&self, value: u32) {
        self.pmcr().write(ti_am62l_pmu::Pmcr::from_bits(value))
    }
    fn pmcfgr_n(&self) -> u8 {
        self.pmcfgr().read().get(ti_am62l_pmu::Pmcfgr::N)
    }
    fn pmceid(&self, n: usize) -> Option<u32> {
        match n {
            0 => Some(self.pmceid0().read().get(ti_am62l_pmu::Pmceid0::ID)),
            1 => Some(self.pmceid1().read().get(ti_am62l_pmu::Pmceid1::ID)),
            2 => Some(self.pmceid2().read().get(ti_am62l_pmu::Pmceid2::ID)),
            3 => Some(self.pmceid3().read().get(ti_am62l_pmu::Pmceid3::ID)),
            _ => None,
        }
    }
    fn set_pmevtyper(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        ti_counter!(self, n, r => r.write(Value::from_bits_retain(value)), [
            0 => pmevtyper0, 1 => pmevtyper1, 2 => pmevtyper2,
            3 => pmevtyper3, 4 => pmevtyper4, 5 => pmevtyper5
        ])
    }
    fn pmevcntr(&self, n: usize) -> Result<u32, IndexOutOfRange> {
        ti_counter!(self, n, r => word::low(r.read().bits()), [
            0 => pmevcntr0, 1 => pmevcntr1, 2 => pmevcntr2,
            3 => pmevcntr3, 4 => pmevcntr4, 5 => pmevcntr5
        ])
    }
    fn set_pmevcntr(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        ti_counter!(self, n, r => r.write(Value::from_bits_retain(u64::from(value))), [
            0 => pmevcntr0, 1 => pmevcntr1, 2 => pmevcntr2,
            3 => pmevcntr3, 4 => pmevcntr4, 5 => pmevcntr5
        ])
    }
    fn has_cycle_counter(&self) -> bool {
        true
    }
    fn pmccntr(&self) -> u64 {
        self.pmccntr().read().bits()
    }
    fn set_pmccntr(&self, value: u64) {
        self.pmccntr()
            .write(ti_am62l_pmu::Pmccntr::from_bits_retain(value))
    }
    fn set_pmccfiltr(&self, value: u32) {
        self.pmccfiltr()
            .write(ti_am62l_pmu::Pmccfiltr::from_bits(value))
    }
    fn pmcntenset(&self, mask: u32) {
        self.pmcntenset()
            .set(ti_am62l_pmu::Pmcntenset::from_bits(mask))
    }
    fn pmcntenclr(&self, mask: u32) {
        self.pmcntenclr()
            .clear(ti_am62l_pmu::Pmcntenclr::from_bits(mask))
    }
    fn pmcnten(&self) -> u32 {
        self.pmcntenset().read().bits()
    }
    fn pmintenset(&self, mask: u32) {
        self.pmintenset()
            .set(ti_am62l_pmu::Pmintenset::from_bits(mask))
    }
    fn pmintenclr(&self, mask: u32) {
        self.pmintenclr()
            .clear(ti_am62l_pmu::Pmintenclr::from_bits(mask))
    }
    fn pmovs(&self) -> u32 {
        self.pmovsset().read().bits()
    }
    fn pmovsclr(&self, mask: u32) {
        self.pmovsclr()
            .clear(ti_am62l_pmu::Pmovsclr::from_bits(mask))
    }
    fn pmswinc(&self, mask: u32) {
        self.pmswinc().write(ti_am62l_pmu::Pmswinc::from_bits(mask))
    }
    fn pmlar(&self, key: u32) -> bool {
        self.pmlar()
            .write(ti_am62l_pmu::Pmlar::from_bits_retain(key));
        true
    }
    fn locked(&self) -> Option<bool> {
        Some(self.pmlsr().read().get(ti_am62l_pmu::Pmlsr::SLK))
    }
}

/// The DynamIQ cluster PMU as a memory-mapped block (`arm-dsu-pmu-mmio`, an UNCONFIRMED map):
/// six counters, no cycle counter, PMCEID, PMSWINC or lock described.
impl<B: Bus> Frame for arm_dsu_pmu_mmio::mmio::DsuPmuMmio<B> {
    fn pmcr(&self) -> u32 {
        self.pmcr().read().bits()
    }
    fn set_pmcr(&self, value: u32) {
        self.pmcr()
            .write(arm_dsu_pmu_mmio::DsuPmcr::from_bits(value))
    }
    fn pmcfgr_n(&self) -> u8 {
        self.pmcfgr().read().get(arm_dsu_pmu_mmio::DsuPmcfgr::N)
    }
    fn pmceid(&self, _: usize) -> Option<u32> {
        None
    }
    fn set_pmevtyper(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        // The cluster PMU counts cluster events, with no exception-level filter: only the event
        // number is written (as Linux's arm_dsu_pmu does).
        self.pmevtyper().try_at(n).map(|r| {
            r.write(arm_dsu_pmu_mmio::DsuPmevtyper::from_bits_retain(
                value & 0xFFFF,
            ))
        })
    }
    fn pmevcntr(&self, n: usize) -> Result<u32, IndexOutOfRange> {
        self.pmevcntr().try_at(n).map(|r| r.read().bits())
    }
    fn set_pmevcntr(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        self.pmevcntr()
            .try_at(n)
            .map(|r| r.write(arm_dsu_pmu_mmio::DsuPmevcntr::from_bits_retain(value)))
    }
    fn has_cycle_counter(&self) -> bool {
        false
    }
    fn pmccntr(&self) -> u64 {
        0
    }
    fn set_pmccntr(&self, _: u64) {}
    fn set_pmccfiltr(&self, _: u32) {}
    fn pmcntenset(&self, mask: u32) {
        self.pmcntenset()
            .set(arm_dsu_pmu_mmio::DsuCounterMask::from_bits(mask))
    }
    fn pmcntenclr(&self, mask: u32) {
        self.pmcntenclr()
            .clear(arm_dsu_pmu_mmio::DsuCounterMask::from_bits(mask))
    }
    fn pmcnten(&self) -> u32 {
        self.pmcntenset().read().bits()
    }
    fn pmintenset(&self, mask: u32) {
        self.pmintenset()
            .set(arm_dsu_pmu_mmio::DsuCounterMask::from_bits(mask))
    }
    fn pmintenclr(&self, mask: u32) {
        self.pmintenclr()
            .clear(arm_dsu_pmu_mmio::DsuCounterMask::from_bits(mask))
    }
    fn pmovs(&self) -> u32 {
        self.pmovsset().read().bits()
    }
    fn pmovsclr(&self, mask: u32) {
        self.pmovsclr()
            .clear(arm_dsu_pmu_mmio::DsuCounterMask::from_bits(mask))
    }
    fn pmswinc(&self, _: u32) {}
    fn pmlar(&self, _: u32) -> bool {
        false
    }
    fn locked(&self) -> Option<bool> {
        None
    }
}
