//! Which core this is, and so which events it has: MIDR read through the generated accessors
//! (`MIDR_EL1` by `MRS` on AArch64, `MIDR` by `MRC` on AArch32), looked up in the cores of Arm's
//! PMU data (`arm_pmu_events::CORES`). A core the data does not know, or whose events the build
//! left out, falls back to its architecture's common events, filtered by what PMCEID advertises.
//!
//! Everything here is `'static` data and plain code: no allocation, no panic.
use arm_pmu_events::{CoreInfo, EventInfo, EventTable};
use arm_pmuv3::{aarch32, aarch64, Midr};
use armreg_rt::Value;

use crate::backend::aarch32::Aarch32;
use crate::backend::aarch64::Aarch64;
use crate::{Event, EventSet, Support};

/// A back end that can read the running core's MIDR.
pub trait ReadMidr {
    /// MIDR (`MIDR_EL1` in AArch64).
    fn midr(&self) -> Value<Midr>;
}

impl ReadMidr for Aarch64 {
    #[inline(always)]
    fn midr(&self) -> Value<Midr> {
        aarch64::MIDR_EL1::read()
    }
}

impl ReadMidr for Aarch32 {
    #[inline(always)]
    fn midr(&self) -> Value<Midr> {
        aarch32::MIDR::read()
    }
}

/// MIDR decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuId {
    /// MIDR.Implementer (0x41: Arm).
    pub implementer: u8,
    /// MIDR.Variant: the N of rNpM.
    pub variant: u8,
    /// MIDR.Architecture (0xF: given by the ID registers).
    pub architecture: u8,
    /// MIDR.PartNum (0xD03: Cortex-A53).
    pub part_number: u16,
    /// MIDR.Revision: the M of rNpM.
    pub revision: u8,
}

impl CpuId {
    /// The fields of a MIDR value.
    pub fn from_midr(midr: Value<Midr>) -> Self {
        Self {
            implementer: match midr.get(Midr::IMPLEMENTER) {
                Ok(known) => known.bits(),
                Err(raw) => raw,
            },
            variant: midr.get(Midr::VARIANT),
            architecture: midr.get(Midr::ARCHITECTURE),
            part_number: midr.get(Midr::PARTNUM),
            revision: midr.get(Midr::REVISION),
        }
    }

    /// The MIDR value these fields make.
    pub fn bits(self) -> u32 {
        u32::from(self.implementer) << 24
            | u32::from(self.variant & 0xF) << 20
            | u32::from(self.architecture & 0xF) << 16
            | u32::from(self.part_number & 0xFFF) << 4
            | u32::from(self.revision & 0xF)
    }
}

/// Where a core's events come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Events {
    /// The core's own events, from Arm's data.
    Core(&'static EventTable),
    /// The architecture's common events, of which only those PMCEID advertises (`pmceid`
    /// `None`: the PMU cannot say, so all of them).
    Common {
        table: &'static EventTable,
        pmceid: Option<EventSet>,
    },
    /// None known: the core is unknown and the build has no common set for its PMU.
    Unknown,
}

impl Events {
    /// Whether `event` is one this source offers.
    fn offers(&self, event: &EventInfo) -> bool {
        match self {
            Events::Common {
                pmceid: Some(set), ..
            } => set.support(Event::new(event.code)) == Support::Counted,
            _ => true,
        }
    }

    fn table(&self) -> Option<&'static EventTable> {
        match *self {
            Events::Core(table) | Events::Common { table, .. } => Some(table),
            Events::Unknown => None,
        }
    }

    /// The event called `name` (ASCII case ignored).
    pub fn by_name(&self, name: &str) -> Option<&'static EventInfo> {
        self.table()?.by_name(name).filter(|e| self.offers(e))
    }

    /// The event numbered `code`.
    pub fn by_code(&self, code: u16) -> Option<&'static EventInfo> {
        self.table()?.by_code(code).filter(|e| self.offers(e))
    }

    /// The event called `name` (ASCII case ignored), whether or not the PMU counts it (the driver
    /// says so when it is allocated); [`Error::UnknownEventName`](crate::Error::UnknownEventName),
    /// with the closest name the set has, when the set has no such event.
    pub fn event(&self, name: &'static str) -> Result<Event, crate::Error> {
        self.table()
            .and_then(|t| t.by_name(name))
            .map(Event::from)
            .ok_or_else(|| crate::Error::UnknownEventName {
                name,
                suggestion: self.closest(name),
            })
    }

    /// The name of the set closest to `name`, if one is close (a typo).
    pub fn closest(&self, name: &str) -> Option<&'static str> {
        let events = self.table().map_or(&[][..], EventTable::events);
        armreg_rt::events::closest_name(name, events.iter().map(|e| e.name))
    }

    /// The event called `name`, for a multiplexing session. A name the set does not have gives a
    /// [`Tracked`](crate::mux::Tracked) that [`Session::new`](crate::mux::Session::new) refuses
    /// with [`Error::UnknownEventName`](crate::Error::UnknownEventName) ("did you mean ...?");
    /// an event the PMU does not count is reported as not supported.
    pub fn tracked(&self, name: &'static str) -> crate::mux::Tracked {
        match self.event(name) {
            Ok(event) => crate::mux::Tracked::new(event),
            Err(_) => crate::mux::Tracked::unknown(name, self.closest(name)),
        }
    }

    /// Every event offered, lowest code first.
    pub fn iter(&self) -> impl Iterator<Item = &'static EventInfo> + '_ {
        self.table()
            .map_or(&[][..], EventTable::events)
            .iter()
            .filter(|e| self.offers(e))
    }
}

/// What detection found: the core's identity, what Arm's data says of it, and its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detected {
    /// MIDR, decoded.
    pub id: CpuId,
    /// The core, if Arm's data names it.
    pub core: Option<&'static CoreInfo>,
    /// Its events.
    pub events: Events,
}

impl Detected {
    /// The core's name, if Arm's data names it.
    pub fn name(&self) -> Option<&'static str> {
        self.core.map(|c| c.name)
    }

    /// The number of event counters the core has, where Arm's data says (compare PMCR.N).
    pub fn expected_counters(&self) -> Option<u8> {
        self.core.and_then(|c| c.counters)
    }
}

/// Identifies the running core from the MIDR `regs` reads, and picks its events: the core's own
/// table when Arm's data names it and the build has its set (`arm-pmu-events` feature of the
/// core's name), otherwise the common events of its PMU (`common` from
/// [`Pmu::info`](crate::Pmu::info): an Armv7 PMU without PMCEID gets the Armv7 set unfiltered,
/// PMUv3 the Armv8 set filtered by PMCEID).
pub fn detect<R: ReadMidr>(regs: &R, pmu: crate::PmuInfo) -> Detected {
    identify(CpuId::from_midr(regs.midr()), pmu)
}

/// [`detect`] for a MIDR already read.
pub fn identify(id: CpuId, pmu: crate::PmuInfo) -> Detected {
    let core = arm_pmu_events::core(id.implementer, id.part_number);
    let events = match core.and_then(|c| c.events) {
        Some(table) => Events::Core(table),
        None => common(pmu),
    };
    Detected { id, core, events }
}

/// The common set for a PMU: Armv7's for PMUv1/v2, Armv8's for PMUv3.
fn common(pmu: crate::PmuInfo) -> Events {
    let table = if pmu.version.at_least(crate::PmuVersion::V3) {
        arm_pmu_events::COMMON_ARMV8
    } else {
        arm_pmu_events::COMMON_ARMV7
    };
    table.map_or(Events::Unknown, |table| Events::Common {
        table,
        pmceid: pmu.events,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PmuInfo, PmuVersion};

    fn info(version: PmuVersion, pmceid: Option<[u32; 4]>) -> PmuInfo {
        PmuInfo {
            version,
            counters: 6,
            events: pmceid.map(EventSet::from_pmceid),
            cycle_counter_bits: 64,
        }
    }

    fn id(midr: u32) -> CpuId {
        CpuId::from_midr(Value::<Midr>::from_bits_retain(midr))
    }

    #[test]
    fn midr_fields() {
        // QEMU 7.2's cortex-a53: r0p4.
        let a53 = id(0x410F_D034);
        assert_eq!(
            (
                a53.implementer,
                a53.variant,
                a53.architecture,
                a53.part_number,
                a53.revision
            ),
            (0x41, 0, 0xF, 0xD03, 4)
        );
        assert_eq!(a53.bits(), 0x410F_D034);
        // An implementer the description does not name is still decoded.
        assert_eq!(id(0x7A00_0000).implementer, 0x7A);
    }

    #[test]
    fn known_cores_get_their_own_events() {
        let d = identify(
            id(0x410F_D034),
            info(PmuVersion::V3, Some([0x20101, 0, 0, 0])),
        );
        assert_eq!(d.name(), Some("Cortex-A53"));
        assert_eq!(d.expected_counters(), Some(6));
        assert!(matches!(d.events, Events::Core(t) if t.name == "Cortex-A53"));
        // The core's own table, not filtered: PMCEID says nothing of implementation-defined events.
        assert_eq!(d.events.by_code(0xC0).map(|e| e.name), Some("EVENT_C0"));
        assert_eq!(d.events.by_name("inst_retired").map(|e| e.code), Some(0x08));
        let a7 = identify(id(0x410F_C075), info(PmuVersion::V2, None));
        assert_eq!(
            (a7.name(), a7.expected_counters()),
            (Some("Cortex-A7"), Some(4))
        );
    }

    #[test]
    fn unknown_cores_fall_back_to_the_common_events_pmceid_advertises() {
        let d = identify(
            id(0x000F_0510),
            info(PmuVersion::V3, Some([0x20101, 0, 0, 0])),
        );
        assert_eq!(d.name(), None);
        assert!(matches!(d.events, Events::Common { .. }));
        let names: std::vec::Vec<&str> = d.events.iter().map(|e| e.name).collect();
        assert_eq!(names, ["SW_INCR", "INST_RETIRED", "CPU_CYCLES"]);
        assert!(d.events.by_name("L1D_CACHE").is_none());
        // Named, though the PMU does not count it: allocation says why.
        assert_eq!(d.events.event("L1D_CACHE"), Ok(Event::L1D_CACHE));
        assert_eq!(
            d.events.event("L1D_CACHE_REFIL"),
            Err(crate::Error::UnknownEventName {
                name: "L1D_CACHE_REFIL",
                suggestion: Some("L1D_CACHE_REFILL")
            })
        );
        // An Armv7 PMU without PMCEID: the whole Armv7 set.
        let v7 = identify(id(0x4100_0000), info(PmuVersion::V2, None));
        assert!(v7.events.iter().count() > 50);
        assert_eq!(v7.events.by_code(0x11).map(|e| e.name), Some("CPU_CYCLES"));
    }
}
