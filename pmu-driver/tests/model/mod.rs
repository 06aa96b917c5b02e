//! A behavioural model of a PMU behind the `armreg_rt::host` hook, so the driver's logic runs on
//! the host against the rules the architecture states: PMCNTEN/PMINTEN/PMOVS as one state with
//! set and clear views, PMCR.P/C as write-1 actions, 32-bit event counters that set their overflow
//! flag on wrap (and feed a CHAIN counter above them), a cycle counter overflowing at 32 or 64 bits
//! by PMCR.LC, PMSWINC, PMSELR indirection, and PMCR.E freezing everything.
//!
//! Accesses a modelled CPU would make Undefined (PMUv3 registers on an Armv7 PMU, the 64-bit
//! AArch32 PMCCNTR where it is missing, counters at or above N) are recorded in `undefined`, so a
//! test can require there were none. Every access is logged, and a test can inject an "interrupt"
//! (any closure) after the k-th next access, to land inside the driver's read sequences.
#![allow(dead_code)]

use std::sync::{Mutex, MutexGuard};

use arm_dsu_pmu::aarch64 as dsu;
use arm_generic_timer_regs::{aarch32 as t32, aarch64 as t64};
use arm_pmuv3::{aarch32 as r32, aarch64 as r64};
use armreg_rt::host::{self, Handler};
use armreg_rt::SysRegPath;
use pmu_driver::{ID_AA64DFR0_EL1, ID_DFR0};

/// One register access, as the driver made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read(Reg),
    Write(Reg, u64),
}

/// The registers the model knows, decoded from their access path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    Pmcr,
    CntenSet,
    CntenClr,
    IntenSet,
    IntenClr,
    OvsSet,
    OvsClr,
    Swinc,
    Selr,
    Ceid(usize),
    /// AArch64 PMCEID0_EL0/PMCEID1_EL0: two PMCEID words in one register.
    Ceid64(usize),
    Ccntr,
    Ccntr32,
    Ccntr64,
    Ccfiltr,
    Evtyper(usize),
    Evcntr(usize),
    Xevtyper,
    Xevcntr,
    Userenr,
    IdAa64dfr0,
    IdDfr0,
    Cntfrq,
    Cntvct,
    Cntpct,
}

fn decode(path: SysRegPath) -> Option<Reg> {
    use Reg::*;
    let fixed = [
        (r64::PMCR_EL0::PATH, Pmcr),
        (r64::PMCNTENSET_EL0::PATH, CntenSet),
        (r64::PMCNTENCLR_EL0::PATH, CntenClr),
        (r64::PMINTENSET_EL1::PATH, IntenSet),
        (r64::PMINTENCLR_EL1::PATH, IntenClr),
        (r64::PMOVSSET_EL0::PATH, OvsSet),
        (r64::PMOVSCLR_EL0::PATH, OvsClr),
        (r64::PMSWINC_EL0::PATH, Swinc),
        (r64::PMSELR_EL0::PATH, Selr),
        (r64::PMCEID0_EL0::PATH, Ceid64(0)),
        (r64::PMCEID1_EL0::PATH, Ceid64(1)),
        (r64::PMCCNTR_EL0::PATH, Ccntr),
        (r64::PMCCFILTR_EL0::PATH, Ccfiltr),
        (r64::PMXEVTYPER_EL0::PATH, Xevtyper),
        (r64::PMXEVCNTR_EL0::PATH, Xevcntr),
        (r64::PMUSERENR_EL0::PATH, Userenr),
        (r32::PMCR::PATH, Pmcr),
        (r32::PMCNTENSET::PATH, CntenSet),
        (r32::PMCNTENCLR::PATH, CntenClr),
        (r32::PMINTENSET::PATH, IntenSet),
        (r32::PMINTENCLR::PATH, IntenClr),
        (r32::PMOVSSET::PATH, OvsSet),
        (r32::PMOVSR::PATH, OvsClr),
        (r32::PMSWINC::PATH, Swinc),
        (r32::PMSELR::PATH, Selr),
        (r32::PMCEID0::PATH, Ceid(0)),
        (r32::PMCEID1::PATH, Ceid(1)),
        (r32::PMCEID2::PATH, Ceid(2)),
        (r32::PMCEID3::PATH, Ceid(3)),
        (r32::PMCCNTR::PATH, Ccntr32),
        (r32::PMCCNTR64::PATH, Ccntr64),
        (r32::PMCCFILTR::PATH, Ccfiltr),
        (r32::PMXEVTYPER::PATH, Xevtyper),
        (r32::PMXEVCNTR::PATH, Xevcntr),
        (r32::PMUSERENR::PATH, Userenr),
        (ID_AA64DFR0_EL1, IdAa64dfr0),
        (ID_DFR0, IdDfr0),
        (t64::CNTFRQ_EL0::PATH, Cntfrq),
        (t64::CNTVCT_EL0::PATH, Cntvct),
        (t64::CNTPCT_EL0::PATH, Cntpct),
        (t32::CNTFRQ::PATH, Cntfrq),
        (t32::CNTVCT::PATH, Cntvct),
        (t32::CNTPCT::PATH, Cntpct),
        // The DynamIQ cluster PMU's system registers follow the PMUv3 model with PMSELR
        // indirection: the same registers here, so the `Dsu` back end runs on this model.
        (dsu::CLUSTERPMCR_EL1::PATH, Pmcr),
        (dsu::CLUSTERPMCNTENSET_EL1::PATH, CntenSet),
        (dsu::CLUSTERPMCNTENCLR_EL1::PATH, CntenClr),
        (dsu::CLUSTERPMINTENSET_EL1::PATH, IntenSet),
        (dsu::CLUSTERPMINTENCLR_EL1::PATH, IntenClr),
        (dsu::CLUSTERPMOVSSET_EL1::PATH, OvsSet),
        (dsu::CLUSTERPMOVSCLR_EL1::PATH, OvsClr),
        (dsu::CLUSTERPMSELR_EL1::PATH, Selr),
        (dsu::CLUSTERPMCEID0_EL1::PATH, Ceid(0)),
        (dsu::CLUSTERPMCEID1_EL1::PATH, Ceid(1)),
        (dsu::CLUSTERPMCCNTR_EL1::PATH, Ccntr),
        (dsu::CLUSTERPMXEVTYPER_EL1::PATH, Xevtyper),
        (dsu::CLUSTERPMXEVCNTR_EL1::PATH, Xevcntr),
    ];
    if let Some(&(_, reg)) = fixed.iter().find(|(p, _)| *p == path) {
        return Some(reg);
    }
    (0..31).find_map(|n| {
        if r64::PMEVTYPER_EL0::path(n) == Some(path) || r32::PMEVTYPER::path(n) == Some(path) {
            Some(Evtyper(n))
        } else if r64::PMEVCNTR_EL0::path(n) == Some(path) || r32::PMEVCNTR::path(n) == Some(path) {
            Some(Evcntr(n))
        } else {
            None
        }
    })
}

/// The modelled PMU and generic timer.
#[derive(Clone, Debug)]
pub struct Model {
    /// PMCR without N (which `n` gives) and without the write-1 actions P and C.
    pub pmcr: u64,
    pub n: usize,
    pub evtyper: [u32; 31],
    pub evcntr: [u32; 31],
    pub ccntr: u64,
    pub ccfiltr: u32,
    pub cnten: u32,
    pub inten: u32,
    pub ovs: u32,
    pub selr: u32,
    pub userenr: u32,
    pub pmceid: [u32; 4],
    pub id_aa64dfr0: u64,
    pub id_dfr0: u32,
    /// Whether the AArch32 64-bit PMCCNTR access exists.
    pub mrrc_ccntr: bool,
    pub cntfrq: u32,
    pub cntvct: u64,
    pub undefined: Vec<Reg>,
    pub log: Vec<Access>,
}

/// QEMU's cortex-a53 (QEMU 7.2, as measured by `tests/tests/qemu.rs`): PMUv3, N = 6,
/// PMCEID0 = 0x20101.
pub fn cortex_a53() -> Model {
    Model {
        pmcr: 0x4103_0000,
        n: 6,
        evtyper: [0; 31],
        evcntr: [0; 31],
        ccntr: 0,
        ccfiltr: 0,
        cnten: 0,
        inten: 0,
        ovs: 0,
        selr: 0,
        userenr: 0,
        pmceid: [0x20101, 0, 0, 0],
        id_aa64dfr0: 0x1 << 8,
        id_dfr0: 0x3 << 24,
        mrrc_ccntr: false,
        cntfrq: 62_500_000,
        cntvct: 0,
        undefined: Vec::new(),
        log: Vec::new(),
    }
}

/// QEMU's cortex-a7 (QEMU 7.2, as measured by `tests/tests/qemu.rs`): an Armv7 PMUv2 with 4
/// counters.
pub fn cortex_a7() -> Model {
    Model {
        pmcr: 0x4107_2000 & !(0x1F << 11),
        n: 4,
        id_dfr0: 0x2 << 24,
        ..cortex_a53()
    }
}

pub const E: u64 = 1 << 0;
pub const LC: u64 = 1 << 6;
pub const LP: u64 = 1 << 7;

impl Model {
    fn version32(&self) -> u32 {
        (self.id_dfr0 >> 24) & 0xF
    }

    fn started(&self) -> bool {
        self.pmcr & E != 0
    }

    fn counts(&self, i: usize) -> bool {
        self.started() && self.cnten & (1 << i) != 0
    }

    /// Adds `k` to event counter `i`, setting its overflow flag on a wrap and feeding a CHAIN
    /// counter above an even one.
    pub fn add(&mut self, i: usize, k: u64) {
        let sum = u64::from(self.evcntr[i]) + k;
        self.evcntr[i] = low(sum);
        let wraps = sum >> 32;
        if wraps > 0 {
            self.ovs |= 1 << i;
            let hi = i + 1;
            if i % 2 == 0 && hi < self.n && self.counts(hi) && self.evtyper[hi] & 0xFFFF == 0x1E {
                self.add(hi, wraps);
            }
        }
    }

    /// `k` occurrences of `event`, on every counter counting it.
    pub fn event(&mut self, event: u16, k: u64) {
        for i in 0..self.n {
            if self.counts(i) && self.evtyper[i] & 0xFFFF == u32::from(event) {
                self.add(i, k);
            }
        }
    }

    /// `k` cycles.
    pub fn cycles(&mut self, k: u64) {
        if !self.counts(31) {
            return;
        }
        let old = self.ccntr;
        self.ccntr = old.wrapping_add(k);
        let wrapped = if self.pmcr & LC != 0 {
            self.ccntr < old
        } else {
            (old & 0xFFFF_FFFF) + k > 0xFFFF_FFFF
        };
        if wrapped {
            self.ovs |= 1 << 31;
        }
    }

    /// Whether the PMU interrupt would be asserted.
    pub fn irq(&self) -> bool {
        self.ovs & self.inten != 0
    }

    fn implemented(&self) -> u32 {
        ((1u32 << self.n) - 1) | 1 << 31
    }

    fn counter_ok(&mut self, reg: Reg, i: usize) -> bool {
        if i >= self.n {
            self.undefined.push(reg);
            return false;
        }
        true
    }

    fn read(&mut self, reg: Reg) -> u64 {
        use Reg::*;
        self.log.push(Access::Read(reg));
        match reg {
            Pmcr => self.pmcr | (self.n as u64) << 11,
            CntenSet | CntenClr => self.cnten.into(),
            IntenSet | IntenClr => self.inten.into(),
            OvsSet | OvsClr => self.ovs.into(),
            Selr => self.selr.into(),
            Ceid(w) => {
                let v3 = self.version32() >= 3;
                let v3p1 = self.version32() >= 4;
                if (w < 2 && !v3) || (w >= 2 && !v3p1) {
                    self.undefined.push(reg);
                    return 0;
                }
                self.pmceid[w].into()
            }
            Ceid64(w) => u64::from(self.pmceid[w]) | u64::from(self.pmceid[w + 2]) << 32,
            Ccntr => self.ccntr,
            Ccntr32 => self.ccntr & 0xFFFF_FFFF,
            Ccntr64 => {
                if !self.mrrc_ccntr {
                    self.undefined.push(reg);
                    return 0;
                }
                self.ccntr
            }
            Ccfiltr => self.ccfiltr.into(),
            Evtyper(i) => self.direct(reg, i).map_or(0, |i| self.evtyper[i].into()),
            Evcntr(i) => self.direct(reg, i).map_or(0, |i| self.evcntr[i].into()),
            Xevtyper => self.selected(reg).map_or(0, |i| self.evtyper[i].into()),
            Xevcntr => self.selected(reg).map_or(0, |i| self.evcntr[i].into()),
            Userenr => self.userenr.into(),
            IdAa64dfr0 => self.id_aa64dfr0,
            IdDfr0 => self.id_dfr0.into(),
            Cntfrq => self.cntfrq.into(),
            Cntvct | Cntpct => self.cntvct,
            Swinc => {
                self.undefined.push(reg);
                0
            }
        }
    }

    /// PMEVTYPER<n>/PMEVCNTR<n>: PMUv3 only, and only below N.
    fn direct(&mut self, reg: Reg, i: usize) -> Option<usize> {
        if self.version32() < 3 {
            self.undefined.push(reg);
            return None;
        }
        self.counter_ok(reg, i).then_some(i)
    }

    fn selected(&mut self, reg: Reg) -> Option<usize> {
        let i = self.selr as usize & 0x1F;
        self.counter_ok(reg, i).then_some(i)
    }

    fn write(&mut self, reg: Reg, v: u64) {
        use Reg::*;
        self.log.push(Access::Write(reg, v));
        let mask = low(v) & self.implemented();
        match reg {
            Pmcr => {
                if v & 0b10 != 0 {
                    self.evcntr = [0; 31];
                }
                if v & 0b100 != 0 {
                    self.ccntr = 0;
                }
                // Writable: E D X DP LC LP; the read-only IDCODE/IMP are kept.
                let writable = 0b1111_1001;
                self.pmcr = (self.pmcr & !writable) | (v & writable);
            }
            CntenSet => self.cnten |= mask,
            CntenClr => self.cnten &= !mask,
            IntenSet => self.inten |= mask,
            IntenClr => self.inten &= !mask,
            OvsSet => self.ovs |= mask,
            OvsClr => self.ovs &= !mask,
            Swinc => {
                for i in 0..self.n {
                    if mask & (1 << i) != 0 && self.counts(i) && self.evtyper[i] & 0xFFFF == 0 {
                        self.add(i, 1);
                    }
                }
            }
            Selr => self.selr = low(v),
            Ccntr => self.ccntr = v,
            Ccntr32 => self.ccntr = (self.ccntr & !0xFFFF_FFFF) | (v & 0xFFFF_FFFF),
            Ccntr64 => {
                if self.mrrc_ccntr {
                    self.ccntr = v;
                } else {
                    self.undefined.push(reg);
                }
            }
            Ccfiltr => self.ccfiltr = low(v),
            Evtyper(i) => {
                if let Some(i) = self.direct(reg, i) {
                    self.evtyper[i] = low(v);
                }
            }
            Evcntr(i) => {
                if let Some(i) = self.direct(reg, i) {
                    self.evcntr[i] = low(v);
                }
            }
            Xevtyper => {
                if let Some(i) = self.selected(reg) {
                    self.evtyper[i] = low(v);
                }
            }
            Xevcntr => {
                if let Some(i) = self.selected(reg) {
                    self.evcntr[i] = low(v);
                }
            }
            Userenr => self.userenr = low(v),
            Cntfrq => self.cntfrq = low(v),
            Ceid(_) | Ceid64(_) | IdAa64dfr0 | IdDfr0 | Cntvct | Cntpct => self.undefined.push(reg),
        }
    }
}

/// Bits [31:0] of `v`: what a 32-bit register keeps of a write (and a 32-bit counter of a sum).
fn low(v: u64) -> u32 {
    (v & 0xFFFF_FFFF) as u32
}

static MODEL: Mutex<Option<Model>> = Mutex::new(None);
/// Serialises tests: they share the one handler and model.
static SERIAL: Mutex<()> = Mutex::new(());

type Injection = (usize, Box<dyn FnOnce() + Send>);
static INJECT: Mutex<Option<Injection>> = Mutex::new(None);

fn lock<T>(m: &'static Mutex<T>) -> MutexGuard<'static, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn after_access() {
    let due = {
        let mut slot = lock(&INJECT);
        match slot.as_mut() {
            Some((1, _)) => slot.take().map(|(_, f)| f),
            Some((k, _)) => {
                *k -= 1;
                None
            }
            None => None,
        }
    };
    if let Some(f) = due {
        f();
    }
}

fn emu_read(path: SysRegPath) -> u64 {
    let reg = decode(path).unwrap_or_else(|| panic!("the model has no register at {path}"));
    let v = lock(&MODEL).as_mut().expect("no model installed").read(reg);
    after_access();
    v
}

fn emu_write(path: SysRegPath, value: u64) {
    let reg = decode(path).unwrap_or_else(|| panic!("the model has no register at {path}"));
    lock(&MODEL)
        .as_mut()
        .expect("no model installed")
        .write(reg, value);
    after_access();
}

static HANDLER: Handler = Handler {
    read: emu_read,
    write: emu_write,
};

/// Installs `model` behind the host hook for the duration of the returned guard.
pub fn install(model: Model) -> MutexGuard<'static, ()> {
    let guard = lock(&SERIAL);
    *lock(&MODEL) = Some(model);
    *lock(&INJECT) = None;
    host::install(&HANDLER);
    guard
}

/// Runs `f` on the installed model.
pub fn with<T>(f: impl FnOnce(&mut Model) -> T) -> T {
    f(lock(&MODEL).as_mut().expect("no model installed"))
}

/// Takes the access log.
pub fn take_log() -> Vec<Access> {
    with(|m| std::mem::take(&mut m.log))
}

/// Runs `f` right after the `k`-th next register access.
pub fn inject_after(k: usize, f: impl FnOnce() + Send + 'static) {
    assert!(k > 0);
    *lock(&INJECT) = Some((k, Box::new(f)));
}

/// Accesses the modelled CPU would have made Undefined.
pub fn undefined() -> Vec<Reg> {
    with(|m| m.undefined.clone())
}
