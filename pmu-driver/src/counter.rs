//! Counter handles and the software state that turns 32-bit hardware counters into 64-bit totals.
//!
//! A 32-bit counter's 64-bit total is
//!
//! ```text
//! total = base + overflows * period + (hw - reload)          (no overflow pending)
//! total = base + (overflows + 1) * period + hw                (overflow flag set, not yet handled)
//! ```
//!
//! where `period = 2^32 - reload` and `reload` is the value the overflow handler writes back for
//! a sampling counter (0 otherwise, so that `period = 2^32` and the handler never writes the
//! counter). The handler only increments `overflows` and clears the flag; the reader takes a
//! consistent snapshot (see [`crate::Pmu::read`]). Everything here is atomic so that the handler
//! and the code it interrupts share the state through `&`.
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// Index of the cycle counter in PMCNTENSET and friends.
pub(crate) const CYCLE_INDEX: u8 = 31;

/// What a [`Counter`] counts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterKind {
    /// One 32-bit event counter, extended to 64 bits in software.
    Event,
    /// An even event counter and the odd one above it counting its overflows (the CHAIN event):
    /// a 64-bit counter in hardware.
    Chained,
    /// The cycle counter (PMCCNTR).
    Cycles,
}

/// An allocated counter. It is not `Clone`: releasing it ([`crate::Pmu::release`]) consumes it,
/// so a released counter cannot be used by mistake. Dropping it does not release it (the
/// overflow handler may still use its index): a counter dropped unreleased stays allocated.
#[derive(Debug, PartialEq, Eq)]
#[must_use = "a counter stays allocated until `Pmu::release` takes it back"]
pub struct Counter {
    pub(crate) kind: CounterKind,
    pub(crate) index: u8,
}

impl Counter {
    /// What it counts with.
    pub fn kind(&self) -> CounterKind {
        self.kind
    }

    /// Its index: the event counter (the low one of a chained pair), or 31 for the cycle counter.
    pub fn index(&self) -> u8 {
        self.index
    }

    /// Its bits in PMCNTENSET, PMINTENSET, PMOVSSET and PMSWINC.
    pub(crate) fn mask(&self) -> u32 {
        match self.kind {
            CounterKind::Chained => 0b11 << self.index,
            CounterKind::Event | CounterKind::Cycles => 1 << self.index,
        }
    }

    /// The bit whose overflow matters: for a chained pair, the high counter's.
    pub(crate) fn overflow_bit(&self) -> u32 {
        match self.kind {
            CounterKind::Chained => 1 << (self.index + 1),
            CounterKind::Event | CounterKind::Cycles => 1 << self.index,
        }
    }
}

/// The software half of one counter.
pub(crate) struct Slot {
    /// The total when the hardware counter last held `reload` with no overflow since.
    pub base: AtomicU64,
    /// Overflows handled since `base` was set.
    pub overflows: AtomicU32,
    /// The value the overflow handler writes back (sampling), else 0.
    pub reload: AtomicU32,
}

impl Slot {
    pub const fn new() -> Self {
        Self {
            base: AtomicU64::new(0),
            overflows: AtomicU32::new(0),
            reload: AtomicU32::new(0),
        }
    }

    /// Makes `total` the count represented by the hardware value `hw`, with period `2^32 - reload`.
    /// Only while the counter is stopped and its overflow flag clear.
    #[inline]
    pub fn reset(&self, total: u64, hw: u32, reload: u32) {
        self.reload.store(reload, Relaxed);
        self.overflows.store(0, Relaxed);
        self.base.store(
            total.wrapping_sub(u64::from(hw.wrapping_sub(reload))),
            Relaxed,
        );
    }

    /// The total for a snapshot: hardware value `hw`, `pending` overflow flag, `overflows` handled.
    #[inline]
    pub fn total(&self, hw: u32, pending: bool, overflows: u32) -> u64 {
        let reload = self.reload.load(Relaxed);
        let period = (1u64 << 32) - u64::from(reload);
        let base = self.base.load(Relaxed);
        if pending {
            // The counter wrapped and nobody wrote `reload` back yet: `hw` counts from 0.
            base.wrapping_add(u64::from(overflows).wrapping_add(1).wrapping_mul(period))
                .wrapping_add(u64::from(hw))
        } else {
            base.wrapping_add(u64::from(overflows).wrapping_mul(period))
                .wrapping_add(u64::from(hw.wrapping_sub(reload)))
        }
    }
}
