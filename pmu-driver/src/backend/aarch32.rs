//! AArch32 CP15 (`MRC`/`MCR`, `MRRC`/`MCRR`), through the generated `arm_pmuv3::aarch32` accessors.
//!
//! Two choices are made once, at construction, from what the CPU implements:
//! - Event counters: PMUv3 has `PMEVTYPER<n>`/`PMEVCNTR<n>` (one instruction each); an Armv7 PMU
//!   (PMUv1/v2) has only the PMSELR-indirect PMXEVTYPER/PMXEVCNTR. The indirect path restores
//!   PMSELR afterwards, so an interrupt handler using it cannot disturb the selection of the code it
//!   interrupted.
//! - Cycle counter: the 64-bit `MRRC`/`MCRR` access is only taken when asked for
//!   ([`Aarch32::with_64bit_cycle_counter`]). QEMU 7.2 makes it Undefined on every CPU model even
//!   where the architecture has it, and an Armv7 PMU never has it, so the default is the 32-bit
//!   `MRC`/`MCR`, with PMCR.LC clear so the counter overflows (and interrupts) at 32 bits and the
//!   driver extends it in software.
use arm_pmuv3::aarch32 as reg;
use arm_pmuv3::{
    PmCounterMask, Pmccfiltr, PmccfiltrA32, Pmccntr, Pmccntr32, Pmcr, PmcrA32, Pmevcntr32,
    Pmevtyper, PmevtyperA32, Pmselr, Pmswinc, PmuserenrA32,
};
use armreg_rt::{IndexOutOfRange, Layout, UInt, Value};

use super::{Registers, UserAccess, UserAccessControl};
use crate::{idregs, word, EventSet, PmuVersion};

/// The number of `PMEVTYPER<n>`/`PMEVCNTR<n>` the architecture defines (and PMSELR can select).
const EVENT_COUNTERS: usize = 31;

/// The PMU of the running CPU in AArch32 state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aarch32 {
    version: PmuVersion,
    cycle_counter_64: bool,
}

impl Aarch32 {
    /// The PMU of the running CPU, version read from ID_DFR0; 32-bit cycle-counter accesses.
    pub fn new() -> Self {
        Self {
            version: PmuVersion::from_dfr0(idregs::id_dfr0()),
            cycle_counter_64: false,
        }
    }

    /// As [`new`](Self::new), but the cycle counter is read and written with the 64-bit
    /// `MRRC`/`MCRR` and PMCR.LC is set. Only for a PMUv3 that implements that access (hardware,
    /// not QEMU 7.2, where it is an Undefined Instruction).
    pub fn with_64bit_cycle_counter() -> Self {
        Self {
            cycle_counter_64: true,
            ..Self::new()
        }
    }

    /// Whether `PMEVTYPER<n>`/`PMEVCNTR<n>` exist (PMUv3), rather than only the PMSELR path.
    fn direct(&self) -> bool {
        self.version.at_least(PmuVersion::V3)
    }

    /// Runs `f` with PMSELR selecting counter `n`, then puts the old selection back.
    fn selected<T>(&self, n: usize, f: impl FnOnce() -> T) -> Result<T, IndexOutOfRange> {
        // SEL is 5 bits: every counter index below EVENT_COUNTERS (31) fits.
        let sel = match u8::try_from(n).map(UInt::try_from) {
            Ok(Ok(sel)) if n < EVENT_COUNTERS => sel,
            _ => {
                return Err(IndexOutOfRange {
                    index: n,
                    count: EVENT_COUNTERS,
                })
            }
        };
        let old = reg::PMSELR::read();
        reg::PMSELR::write(Pmselr::DEFAULT.with(Pmselr::SEL, sel));
        let out = f();
        reg::PMSELR::write(old);
        Ok(out)
    }
}

impl Default for Aarch32 {
    fn default() -> Self {
        Self::new()
    }
}

impl Registers for Aarch32 {
    #[inline(always)]
    fn control(&self) -> Value<Pmcr> {
        Pmcr::from_bits_retain(u64::from(reg::PMCR::read().bits()))
    }
    #[inline(always)]
    fn set_control(&self, value: Value<Pmcr>) {
        reg::PMCR::write(PmcrA32::from_bits_retain(word::low(value.bits())))
    }
    #[inline(always)]
    fn counter_count(&self) -> u8 {
        reg::PMCR::read().get(PmcrA32::N)
    }
    fn version(&self) -> PmuVersion {
        self.version
    }
    fn common_events(&self) -> Option<EventSet> {
        // PMCEID0/1 belong to PMUv3 here: QEMU 7.2 makes them Undefined on its Armv7 models, so an
        // older PMU cannot say what it counts. PMCEID2/3 (events 0x4000+) came with PMUv3p1.
        if !self.version.at_least(PmuVersion::V3) {
            return None;
        }
        let (e2, e3) = if self.version.at_least(PmuVersion::V3p1) {
            (
                reg::PMCEID2::read().get(arm_pmuv3::Pmceid32::ID),
                reg::PMCEID3::read().get(arm_pmuv3::Pmceid32::ID),
            )
        } else {
            (0, 0)
        };
        Some(EventSet::from_pmceid([
            reg::PMCEID0::read().get(arm_pmuv3::Pmceid32::ID),
            reg::PMCEID1::read().get(arm_pmuv3::Pmceid32::ID),
            e2,
            e3,
        ]))
    }
    #[inline(always)]
    fn set_event_type(&self, n: usize, value: Value<Pmevtyper>) -> Result<(), IndexOutOfRange> {
        // The AArch32 view has no M, SH, T, RLK or RLH: those bits are RES0 there, written as 0.
        let value =
            Value::<PmevtyperA32>::from_bits_retain(value.bits() & PmevtyperA32::INFO.stored);
        if self.direct() {
            reg::PMEVTYPER.try_at(n).map(|r| r.write(value))
        } else {
            self.selected(n, || reg::PMXEVTYPER::write(value))
        }
    }
    #[inline(always)]
    fn event_count(&self, n: usize) -> Result<u32, IndexOutOfRange> {
        if self.direct() {
            reg::PMEVCNTR
                .try_at(n)
                .map(|r| r.read().get(Pmevcntr32::EVCNT))
        } else {
            self.selected(n, || reg::PMXEVCNTR::read().get(Pmevcntr32::EVCNT))
        }
    }
    #[inline(always)]
    fn set_event_count(&self, n: usize, value: u32) -> Result<(), IndexOutOfRange> {
        let v = Pmevcntr32::DEFAULT.with(Pmevcntr32::EVCNT, value);
        if self.direct() {
            reg::PMEVCNTR.try_at(n).map(|r| r.write(v))
        } else {
            self.selected(n, || reg::PMXEVCNTR::write(v))
        }
    }
    #[inline(always)]
    fn cycle_counter_bits(&self) -> u32 {
        if self.cycle_counter_64 {
            64
        } else {
            32
        }
    }
    #[inline(always)]
    fn cycle_count(&self) -> u64 {
        if self.cycle_counter_64 {
            reg::PMCCNTR64::read().get(Pmccntr::CCNT)
        } else {
            u64::from(reg::PMCCNTR::read().get(Pmccntr32::CCNT))
        }
    }
    #[inline(always)]
    fn set_cycle_count(&self, value: u64) {
        if self.cycle_counter_64 {
            reg::PMCCNTR64::write(Pmccntr::DEFAULT.with(Pmccntr::CCNT, value))
        } else {
            reg::PMCCNTR::write(Pmccntr32::DEFAULT.with(Pmccntr32::CCNT, word::low(value)))
        }
    }
    #[inline(always)]
    fn set_cycle_filter(&self, value: Value<Pmccfiltr>) {
        // As for the event types: the bits the AArch32 PMCCFILTR has, the others written as 0.
        reg::PMCCFILTR::write(Value::<PmccfiltrA32>::from_bits_retain(
            value.bits() & PmccfiltrA32::INFO.stored,
        ))
    }
    #[inline(always)]
    fn enable_counters(&self, mask: Value<PmCounterMask>) {
        reg::PMCNTENSET::set(mask)
    }
    #[inline(always)]
    fn disable_counters(&self, mask: Value<PmCounterMask>) {
        reg::PMCNTENCLR::clear(mask)
    }
    #[inline(always)]
    fn enabled_counters(&self) -> Value<PmCounterMask> {
        reg::PMCNTENSET::read()
    }
    #[inline(always)]
    fn enable_interrupts(&self, mask: Value<PmCounterMask>) {
        reg::PMINTENSET::set(mask)
    }
    #[inline(always)]
    fn disable_interrupts(&self, mask: Value<PmCounterMask>) {
        reg::PMINTENCLR::clear(mask)
    }
    #[inline(always)]
    fn overflow_flags(&self) -> Value<PmCounterMask> {
        // PMOVSR is the write-1-to-clear view; reading it gives the flags on every PMU version,
        // while PMOVSSET only exists from PMUv3.
        reg::PMOVSR::read()
    }
    #[inline(always)]
    fn clear_overflow_flags(&self, mask: Value<PmCounterMask>) {
        reg::PMOVSR::clear(mask)
    }
    #[inline(always)]
    fn software_increment(&self, mask: Value<PmCounterMask>) {
        reg::PMSWINC::write(Pmswinc::from_bits(mask.bits() & !(1 << 31)))
    }
}

impl UserAccessControl for Aarch32 {
    fn set_user_access(&self, access: UserAccess) {
        reg::PMUSERENR::write(
            PmuserenrA32::DEFAULT
                .with(PmuserenrA32::EN, access.enable)
                .with(PmuserenrA32::SW, access.software_increment)
                .with(PmuserenrA32::CR, access.cycle_read)
                .with(PmuserenrA32::ER, access.event_read),
        )
    }
    fn user_access(&self) -> UserAccess {
        let v = reg::PMUSERENR::read();
        UserAccess {
            enable: v.get(PmuserenrA32::EN),
            software_increment: v.get(PmuserenrA32::SW),
            cycle_read: v.get(PmuserenrA32::CR),
            event_read: v.get(PmuserenrA32::ER),
        }
    }
}
