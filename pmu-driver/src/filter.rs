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
    /// EL0 only (perf's `:u`): the same as [`Filter::EL0_ONLY`].
    pub const EL0: Self = Self::EL0_ONLY;
    /// EL1 only (perf's `:k`): the same as [`Filter::EL1_ONLY`].
    pub const EL1: Self = Self::EL1_ONLY;
    /// EL2 only (perf's `:h`): P and U exclude EL1 and EL0, NSH includes EL2, M != P excludes EL3.
    pub const EL2: Self = Self {
        p: true,
        u: true,
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

    /// The Non-secure exception levels this filter counts at, as perf's event modifiers write
    /// them: `u` (EL0), `k` (EL1), `h` (EL2), in that order (`"uk"` for [`Filter::EL0_EL1`]).
    pub fn levels(self) -> &'static str {
        // Non-secure EL1 is counted when NSK == P (NSK is RES0 without EL3, so then when P is
        // clear); EL0 likewise with NSU and U; Non-secure EL2 when NSH is set.
        let el0 = self.u == self.nsu;
        let el1 = self.p == self.nsk;
        let el2 = self.nsh;
        const NAMES: [&str; 8] = ["", "u", "k", "uk", "h", "uh", "kh", "ukh"];
        NAMES[usize::from(el0) | usize::from(el1) << 1 | usize::from(el2) << 2]
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

/// An event's name with perf's suffix for where it counted (`INST_RETIRED:u`): what a report
/// prints. Padding (`{:<24}`) applies to the whole label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    event: crate::Event,
    levels: Option<&'static str>,
}

impl Label {
    /// `event`, with the suffix of `filter` when there is one.
    pub fn new(event: crate::Event, filter: Option<Filter>) -> Self {
        Self {
            event,
            levels: filter.map(Filter::levels),
        }
    }
}

impl core::fmt::Display for Label {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut text = crate::text::Text::<64>::new();
        let _ = match self.event.name() {
            Some(name) => core::fmt::Write::write_str(&mut text, name),
            None => core::fmt::Write::write_fmt(
                &mut text,
                format_args!("0x{:04X}", self.event.number()),
            ),
        };
        if let Some(levels) = self.levels {
            let _ = core::fmt::Write::write_fmt(&mut text, format_args!(":{levels}"));
        }
        f.pad(text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    #[test]
    fn levels_read_as_perf_modifiers() {
        assert_eq!(Filter::EL0_EL1.levels(), "uk");
        assert_eq!(Filter::EL0.levels(), "u");
        assert_eq!(Filter::EL1.levels(), "k");
        assert_eq!(Filter::EL2.levels(), "h");
        assert_eq!(Filter::ALL.levels(), "ukh");
        let label = Label::new(crate::Event::INST_RETIRED, Some(Filter::EL0));
        assert_eq!(format!("[{label:<16}]"), "[INST_RETIRED:u  ]");
        let label = Label::new(crate::Event::new(0xC0), None);
        assert_eq!(format!("{label}"), "0x00C0");
    }
}
