//! What a PMU does that its register description cannot state, added to a generated behavioural
//! model through its hooks: PMCR.P/PMCR.C reset the counters, counters count events (while
//! PMCR.E and their enable bit are set) and set their overflow flag when they wrap, PMSWINC
//! increments the counters counting SW_INCR.
//!
//! The access rules themselves (shared set/clear states, the lock, read-only and write-only
//! registers, P/C reading as 0) are the generated model's; nothing here repeats them.
#![allow(dead_code)]

use armreg_rt::model::{Hardware, Model};

/// Where a frame keeps what the hooks touch: register names as its description gives them.
#[derive(Clone, Copy, Debug)]
pub struct Names {
    /// The number of event counters.
    pub counters: usize,
    /// Event counter `n`'s register and, for an array, its element.
    pub evcntr: fn(usize) -> (String, usize),
    /// Event counter `n`'s event type register and element.
    pub evtyper: fn(usize) -> (String, usize),
    /// The cycle counter, if the frame has one.
    pub ccntr: Option<&'static str>,
    /// The set view of the counter enables, of the overflow flags, the software increment.
    pub cnten: &'static str,
    pub ovs: &'static str,
    pub swinc: Option<&'static str>,
}

/// TI AM62L's frame: registers named one by one (`PMEVCNTR0`..`PMEVCNTR5`).
pub const AM62L: Names = Names {
    counters: 6,
    evcntr: |n| (format!("PMEVCNTR{n}"), 0),
    evtyper: |n| (format!("PMEVTYPER{n}"), 0),
    ccntr: Some("PMCCNTR"),
    cnten: "PMCNTENSET",
    ovs: "PMOVSSET",
    swinc: Some("PMSWINC"),
};

/// The memory-mapped DSU cluster PMU: arrays of six, no cycle counter, no PMSWINC.
pub const DSU: Names = Names {
    counters: 6,
    evcntr: |n| ("PMEVCNTR<n>".to_string(), n),
    evtyper: |n| ("PMEVTYPER<n>".to_string(), n),
    ccntr: None,
    cnten: "PMCNTENSET",
    ovs: "PMOVSSET",
    swinc: None,
};

/// The architectural EXT32 frame with `counters` event counters implemented.
pub const fn pmuv3(counters: usize) -> Names {
    Names {
        counters,
        evcntr: |n| ("PMEVCNTR<n>".to_string(), n),
        evtyper: |n| ("PMEVTYPER<n>".to_string(), n),
        ccntr: Some("PMCCNTR"),
        cnten: "PMCNTENSET",
        ovs: "PMOVSSET",
        swinc: Some("PMSWINC"),
    }
}

const PMCR_E: u64 = 1 << 0;
const PMCR_P: u64 = 1 << 1;
const PMCR_C: u64 = 1 << 2;
const PMCR_LC: u64 = 1 << 6;
/// The cycle counter's bit in the enable and overflow states.
const CYCLE: usize = 31;

pub const SW_INCR: u16 = 0x00;
pub const CPU_CYCLES: u16 = 0x11;

/// Adds the PMU's behaviour to `model`: PMCR.P/C and PMSWINC.
pub fn attach(model: &Model, names: Names) {
    model.on_write(move |hw, w| {
        // P and C are write-1 actions in the architecture's description and write-only bits in
        // TI's: either way, the bits written are what acts.
        if w.register == "PMCR" {
            if w.value & PMCR_P != 0 {
                for n in 0..names.counters {
                    let (r, i) = (names.evcntr)(n);
                    hw.set_n(&r, i, 0);
                }
            }
            if w.value & PMCR_C != 0 {
                if let Some(c) = names.ccntr {
                    hw.set(c, 0);
                }
            }
        }
        if Some(w.register) == names.swinc {
            for n in 0..names.counters {
                if w.value & (1 << n) != 0 && event_of(hw, names, n) == SW_INCR {
                    add(hw, names, n, 1);
                }
            }
        }
    });
}

fn counts(hw: &Hardware<'_>, names: Names, bit: usize) -> bool {
    hw.get("PMCR") & PMCR_E != 0 && hw.get(names.cnten) & (1 << bit) != 0
}

fn event_of(hw: &Hardware<'_>, names: Names, n: usize) -> u16 {
    let (r, i) = (names.evtyper)(n);
    // PMEVTYPER.evtCount is bits [15:0].
    (hw.get_n(&r, i) & 0xFFFF) as u16
}

/// Adds `k` to event counter `n` if it counts, wrapping at 32 bits (PMCR.LP is not used) and
/// setting its overflow flag on a wrap.
fn add(hw: &mut Hardware<'_>, names: Names, n: usize, k: u64) {
    if !counts(hw, names, n) {
        return;
    }
    let (r, i) = (names.evcntr)(n);
    let sum = (hw.get_n(&r, i) & 0xFFFF_FFFF) + k;
    hw.set_n(&r, i, sum & 0xFFFF_FFFF);
    if sum >> 32 != 0 {
        let flags = hw.get(names.ovs);
        hw.set(names.ovs, flags | 1 << n);
    }
}

/// `k` occurrences of `event`: every counter counting it counts them; CPU_CYCLES also advances
/// the cycle counter (overflowing at 64 bits with PMCR.LC, else at 32). SW_INCR is not a
/// hardware event: only PMSWINC writes count it.
pub fn count(model: &Model, names: Names, event: u16, k: u64) {
    if event == SW_INCR {
        return;
    }
    model.hardware(|hw| {
        for n in 0..names.counters {
            if event_of(hw, names, n) == event {
                add(hw, names, n, k);
            }
        }
        if let Some(c) = names.ccntr {
            if event == CPU_CYCLES && counts(hw, names, CYCLE) {
                let old = hw.get(c);
                let new = old.wrapping_add(k);
                let wrapped = if hw.get("PMCR") & PMCR_LC != 0 {
                    new < old
                } else {
                    (old & 0xFFFF_FFFF) + k > 0xFFFF_FFFF
                };
                hw.set(c, new);
                if wrapped {
                    let flags = hw.get(names.ovs);
                    hw.set(names.ovs, flags | 1 << CYCLE);
                }
            }
        }
    });
}
