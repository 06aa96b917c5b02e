//! Exception-level filtering: the P, U, NSK, NSU, NSH and M bits shared by `PMEVTYPER<n>` and
//! PMCCFILTR.
//!
//! The bits are kept as the architecture defines them because their meaning depends on which
//! exception levels exist: NSK and NSU only refine P and U when EL3 is implemented (otherwise
//! they are RES0), and M is compared with P. The constants below are the common choices, spelled
//! out so that they hold with or without EL2 and EL3.
use arm_pmuv3::{Pmccfiltr, Pmevtyper};
use armreg_rt::{Layout, Value};

/// Where a counter counts.
///
/// - `p`: do not count at EL1. With EL3 implemented, Non-secure EL1 is counted exactly when
///   `nsk == p`, so with `nsk` clear `p` decides for both security states.
/// - `u`: do not count at EL0; likewise Non-secure EL0 is counted exactly when `nsu == u`.
/// - `nsk`, `nsu`: flip the Non-secure EL1/EL0 choice relative to `p`/`u` (RES0 without EL3).
/// - `nsh`: count at EL2.
/// - `m`: EL3 is counted exactly when `m == p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Filter {
    /// PMEVTYPER.P / PMCCFILTR.P, bit 31.
    pub p: bool,
    /// U, bit 30.
    pub u: bool,
    /// NSK, bit 29.
    pub nsk: bool,
    /// NSU, bit 28.
    pub nsu: bool,
    /// NSH, bit 27.
    pub nsh: bool,
    /// M, bit 26.
    pub m: bool,
}

impl Filter {
    /// EL0 and EL1 in every security state, and EL3; not EL2 (all bits clear).
    pub const EL0_EL1: Self = Self {
        p: false,
        u: false,
        nsk: false,
        nsu: false,
        nsh: false,
        m: false,
    };
    /// Every exception level: EL0, EL1, EL2 (NSH) and EL3 (M == P).
    pub const ALL: Self = Self {
        nsh: true,
        ..Self::EL0_EL1
    };
    /// EL0 only: P excludes EL1 (NSK == 0 != P keeps Non-secure EL1 out too), M != P excludes EL3.
    pub const EL0_ONLY: Self = Self {
        p: true,
        ..Self::EL0_EL1
    };
    /// EL1 only: U excludes EL0 (NSU == 0 != U keeps Non-secure EL0 out), M != P excludes EL3.
    pub const EL1_ONLY: Self = Self {
        u: true,
        m: true,
        ..Self::EL0_EL1
    };

    /// `ty` with its filter bits replaced by this filter.
    pub fn apply(self, ty: Value<Pmevtyper>) -> Value<Pmevtyper> {
        ty.with(Pmevtyper::P, self.p)
            .with(Pmevtyper::U, self.u)
            .with(Pmevtyper::NSK, self.nsk)
            .with(Pmevtyper::NSU, self.nsu)
            .with(Pmevtyper::NSH, self.nsh)
            .with(Pmevtyper::M, self.m)
    }

    /// The event type register value counting `event` with this filter.
    pub fn event_type(self, event: crate::Event) -> Value<Pmevtyper> {
        self.apply(Pmevtyper::DEFAULT.with(Pmevtyper::EVTCOUNT, event.number()))
    }

    /// The PMCCFILTR value for this filter.
    pub fn cycle_filter(self) -> Value<Pmccfiltr> {
        Pmccfiltr::DEFAULT
            .with(Pmccfiltr::P, self.p)
            .with(Pmccfiltr::U, self.u)
            .with(Pmccfiltr::NSK, self.nsk)
            .with(Pmccfiltr::NSU, self.nsu)
            .with(Pmccfiltr::NSH, self.nsh)
            .with(Pmccfiltr::M, self.m)
    }
}
