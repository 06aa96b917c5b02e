//! Behavioural models of memory-mapped blocks, for testing drivers on the host (feature `model`).
//!
//! A generated crate with blocks has, behind its own `model` feature, one [`BlockSpec`] per block
//! (the description's access rules as tables) and a `<Block>Model` type around a [`Model`]. A
//! `&Model` is a [`Bus`]: the generated block type is built on it (`Block::with_bus(&model, 0)`,
//! or the model type's `block()`), and the driver code that runs on hardware through [`Mmio`]
//! runs unchanged against the model.
//!
//! What the model does is what the description states, and nothing else:
//! - every register (element) has storage, initialised to its described reset (0 where none is
//!   described, RES1 bits set);
//! - a read-only register ignores writes; a write-only one reads as 0;
//! - field rules bit by bit ([`Bits`]): read-only, write-only (reads 0), RAZ/WI, RES0/RES1 kept,
//!   w1s/w1c/w1t/w0s/w0c/w0t, write-set/write-clear, write-once, read-to-clear/set; bits no field
//!   describes read as 0 and ignore writes;
//! - set/clear views (PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSSET/CLR) act on their one shared
//!   state: writing 1s to the set view sets those bits, to the clear view clears them, both read
//!   the state;
//! - write-1 actions (PMCR.P, PMCR.C) read as 0, store nothing, and are reported to the hooks;
//! - the software lock ([`LockSpec`]): while the status register's lock bit is 1, writes to every
//!   register but the lock access register are ignored; writing the key there unlocks, any other
//!   value locks;
//! - every access is logged ([`Access`]) for assertions.
//!
//! What a description cannot state (counters counting, PMCR.P resetting the counters, a counter
//! that advances between two reads) is added by the test with hooks ([`Model::on_write`],
//! [`Model::on_read`]), which see the accesses and change the state through [`Hardware`], the
//! hardware's own side of the registers.
//!
//! An access where the description has no register, or one that straddles a register or is not
//! aligned to its size, panics: on hardware it would be a driver bug (reaching a register the
//! view does not have, such as a PMSELR in the external PMU view).
//!
//! [`Bus`]: crate::mmio::Bus
//! [`Mmio`]: crate::mmio::Mmio
mod spec;
mod system;
#[cfg(test)]
mod tests;

use std::boxed::Box;
use std::sync::{Mutex, MutexGuard};
use std::vec::Vec;

use crate::mmio::{Bus, SafeBus};
use crate::Word;

pub use spec::{Bits, BlockSpec, LockSpec, RegKind, RegSpec};
pub use system::System;

/// Whether an access read or wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
}

/// What became of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The access took effect (field rules may still have ignored some of its bits).
    Done,
    /// A write ignored because the block is locked.
    Locked,
    /// A write to a read-only register, ignored.
    ReadOnly,
}

/// One bus access, as logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub op: Op,
    /// Offset in the block.
    pub offset: usize,
    /// Bytes accessed.
    pub bytes: usize,
    /// The value read or written (the bus's bits, not shifted into the register).
    pub value: u64,
    /// The register reached (its description name) and, for an array, the element.
    pub register: &'static str,
    pub index: Option<usize>,
    pub outcome: Outcome,
}

/// A write that took effect, as the hooks see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Write {
    /// The register written (its description name) and, for an array, the element.
    pub register: &'static str,
    pub index: Option<usize>,
    /// The bits written, in place in the register; only the bits of `lane` were written (a
    /// register wider than the bus is written in parts).
    pub value: u64,
    pub lane: u64,
    /// What the register held before and after (the shared state, for a set/clear view).
    pub before: u64,
    pub after: u64,
    /// The write-1 action bits written as 1.
    pub actions: u64,
}

/// A read, as the hooks see it (after the value was read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    /// The register read (its description name) and, for an array, the element.
    pub register: &'static str,
    pub index: Option<usize>,
    /// The bits read, in place in the register; only the bits of `lane` were read.
    pub value: u64,
    pub lane: u64,
}

type Hook = Box<dyn FnMut(&mut Hardware<'_>, &Write) + Send>;
type ReadHook = Box<dyn FnMut(&mut Hardware<'_>, &Read) + Send>;

/// A behavioural model of one block: the state of its registers, behind a lock so that `&Model`
/// is a bus usable from any thread.
pub struct Model {
    map: Map,
    state: Mutex<State>,
}

/// Where each register element's storage is.
struct Map {
    spec: &'static BlockSpec,
    /// Index of each register's first element in `State::values`.
    first: Vec<usize>,
}

struct State {
    values: Vec<u64>,
    states: Vec<u64>,
    /// Whether each element was written since reset (for the write-once bits).
    written: Vec<bool>,
    locked: bool,
    log: Vec<Access>,
    hooks: Vec<Hook>,
    read_hooks: Vec<ReadHook>,
}

/// The mask of a register `bytes` wide.
fn ones(bytes: usize) -> u64 {
    if bytes >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * bytes)) - 1
    }
}

impl Map {
    fn new(spec: &'static BlockSpec) -> Self {
        let mut first = Vec::with_capacity(spec.registers.len());
        let mut next = 0;
        for r in spec.registers {
            first.push(next);
            next += r.count.max(1);
        }
        Map { spec, first }
    }

    fn elements(&self) -> usize {
        self.spec.registers.iter().map(|r| r.count.max(1)).sum()
    }

    /// The register, element and bit shift of an access of `bytes` at `offset`.
    fn decode(&self, offset: usize, bytes: usize) -> (usize, usize, u32) {
        let spec = self.spec;
        for (i, r) in spec.registers.iter().enumerate() {
            let Some(rel) = offset.checked_sub(r.offset) else {
                continue;
            };
            let n = if r.count > 1 && r.stride > 0 {
                rel / r.stride
            } else {
                0
            };
            if n >= r.count.max(1) {
                continue;
            }
            let within = rel - n * r.stride;
            if within >= r.bytes {
                continue;
            }
            assert!(
                within % bytes == 0 && within + bytes <= r.bytes,
                "model of block `{}`: a {bytes}-byte access at offset {offset:#x} straddles register `{}` or is not aligned",
                spec.name,
                r.name
            );
            return (i, n, (8 * within) as u32);
        }
        panic!(
            "model of block `{}`: no register at offset {offset:#x} ({bytes}-byte access): the description has none there",
            spec.name
        )
    }

    fn find(&self, name: &str) -> usize {
        self.spec
            .registers
            .iter()
            .position(|r| r.name == name)
            .unwrap_or_else(|| {
                panic!(
                    "model of block `{}` has no register `{name}`",
                    self.spec.name
                )
            })
    }

    fn index(&self, i: usize, n: usize) -> Option<usize> {
        (self.spec.registers[i].count > 1).then_some(n)
    }
}

impl State {
    fn reset(map: &Map) -> Self {
        let spec = map.spec;
        let mut values = Vec::with_capacity(map.elements());
        for r in spec.registers {
            values.extend(core::iter::repeat_n(r.reset, r.count.max(1)));
        }
        // A shared state starts at the reset of the first view of it.
        let states = (0..spec.states.len())
            .map(|s| {
                spec.registers
                    .iter()
                    .find(|r| matches!(r.kind, RegKind::Set(k) | RegKind::Clear(k) if k == s))
                    .map_or(0, |r| r.reset)
            })
            .collect();
        let locked = spec
            .lock
            .is_some_and(|l| spec.registers[l.status].reset & l.locked != 0);
        State {
            written: std::vec![false; values.len()],
            values,
            states,
            locked,
            log: Vec::new(),
            hooks: Vec::new(),
            read_hooks: Vec::new(),
        }
    }

    /// What register `i`, element `n`, holds (the shared state for a set/clear view).
    fn get(&self, map: &Map, i: usize, n: usize) -> u64 {
        match map.spec.registers[i].kind {
            RegKind::Set(s) | RegKind::Clear(s) => self.states[s],
            _ => self.values[map.first[i] + n],
        }
    }

    fn put(&mut self, map: &Map, i: usize, n: usize, value: u64) {
        let value = value & ones(map.spec.registers[i].bytes);
        match map.spec.registers[i].kind {
            RegKind::Set(s) | RegKind::Clear(s) => self.states[s] = value,
            _ => self.values[map.first[i] + n] = value,
        }
    }
}

/// The value a write of `v` (only the bits of `lane`) makes of `old`, and the action bits it
/// triggers.
fn written(bits: &Bits, old: u64, v: u64, lane: u64, first: bool) -> (u64, u64) {
    let write = (bits.write | if first { bits.once } else { 0 }) & lane;
    let mut new = (old & !write) | (v & write);
    new |= v & bits.w1s & lane;
    new &= !(v & bits.w1c & lane);
    new ^= v & bits.w1t & lane;
    new |= !v & bits.w0s & lane;
    new &= !(!v & bits.w0c & lane);
    new ^= !v & bits.w0t & lane;
    new |= bits.wset & lane;
    new &= !(bits.wclr & lane);
    (new | bits.res1, v & bits.action & lane)
}

impl Model {
    /// The block `spec` at reset, unlocked or locked as its lock status resets, with no hooks.
    pub fn new(spec: &'static BlockSpec) -> Self {
        let map = Map::new(spec);
        let state = Mutex::new(State::reset(&map));
        Model { map, state }
    }

    /// The rules the model applies.
    pub fn spec(&self) -> &'static BlockSpec {
        self.map.spec
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A hook that panicked leaves the state as it was when it panicked: still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts every register back to its reset and empties the log; hooks stay.
    pub fn reset(&self) {
        let mut state = self.state();
        let hooks = core::mem::take(&mut state.hooks);
        let read_hooks = core::mem::take(&mut state.read_hooks);
        *state = State::reset(&self.map);
        state.hooks = hooks;
        state.read_hooks = read_hooks;
    }

    /// Adds `hook`, called after every write that takes effect (not those the lock or a read-only
    /// register ignores), in the order hooks were added. It changes the state through
    /// [`Hardware`]; it must not access the model through a bus (the model is busy).
    pub fn on_write(&self, hook: impl FnMut(&mut Hardware<'_>, &Write) + Send + 'static) {
        self.state().hooks.push(Box::new(hook));
    }

    /// Adds `hook`, called after every read with what was read (hardware that changes between
    /// two reads: a counter carrying into its high word between the two halves of a read).
    pub fn on_read(&self, hook: impl FnMut(&mut Hardware<'_>, &Read) + Send + 'static) {
        self.state().read_hooks.push(Box::new(hook));
    }

    /// Runs `f` on the hardware's side of the registers: what counting logic, a test's set-up or
    /// its assertions see, free of the access rules and not logged.
    pub fn hardware<T>(&self, f: impl FnOnce(&mut Hardware<'_>) -> T) -> T {
        let mut state = self.state();
        f(&mut Hardware {
            map: &self.map,
            state: &mut state,
        })
    }

    /// Every access so far, oldest first.
    pub fn log(&self) -> Vec<Access> {
        self.state().log.clone()
    }

    /// Every access so far, emptying the log.
    pub fn take_log(&self) -> Vec<Access> {
        core::mem::take(&mut self.state().log)
    }

    /// Whether the block is locked (writes ignored).
    pub fn locked(&self) -> bool {
        self.state().locked
    }

    /// A bus read of `bytes` at block offset `offset`, with the description's rules.
    pub fn load(&self, offset: usize, bytes: usize) -> u64 {
        let (i, n, shift) = self.map.decode(offset, bytes);
        let r = &self.map.spec.registers[i];
        let lane = ones(bytes) << shift;
        let mut state = self.state();
        let stored = state.get(&self.map, i, n);
        let mut value = match r.kind {
            RegKind::Wo => 0,
            _ => (stored & r.bits.readable) | r.bits.res1,
        };
        if let Some(lock) = self.map.spec.lock.filter(|l| l.status == i) {
            value &= !lock.locked;
            if state.locked {
                value |= lock.locked;
            }
        }
        let (clear, set) = (r.bits.read_clear & lane, r.bits.read_set & lane);
        if clear | set != 0 {
            state.put(&self.map, i, n, (stored & !clear) | set);
        }
        let index = self.map.index(i, n);
        state.log.push(Access {
            op: Op::Read,
            offset,
            bytes,
            value: (value & lane) >> shift,
            register: r.name,
            index,
            outcome: Outcome::Done,
        });
        let event = Read {
            register: r.name,
            index,
            value: value & lane,
            lane,
        };
        let state = &mut *state;
        let mut hooks = core::mem::take(&mut state.read_hooks);
        for hook in &mut hooks {
            hook(
                &mut Hardware {
                    map: &self.map,
                    state,
                },
                &event,
            );
        }
        state.read_hooks = hooks;
        (value & lane) >> shift
    }

    /// A bus write of the `bytes` low bytes of `value` at block offset `offset`, with the
    /// description's rules; the hooks run after it if it takes effect.
    pub fn store(&self, offset: usize, bytes: usize, value: u64) {
        let (i, n, shift) = self.map.decode(offset, bytes);
        let spec = self.map.spec;
        let r = &spec.registers[i];
        let lane = ones(bytes) << shift;
        let v = (value << shift) & lane;
        let mut state = self.state();
        let state = &mut *state;
        let before = state.get(&self.map, i, n);
        let lock = spec.lock;
        let outcome = if let Some(lock) = lock.filter(|l| l.access == i) {
            // Only the whole key, written at once, unlocks.
            let whole = lane == ones(r.bytes);
            state.locked = !(whole && v == lock.key & lane);
            Outcome::Done
        } else if state.locked {
            Outcome::Locked
        } else if r.kind == RegKind::Ro {
            Outcome::ReadOnly
        } else {
            Outcome::Done
        };
        let index = self.map.index(i, n);
        state.log.push(Access {
            op: Op::Write,
            offset,
            bytes,
            value: value & ones(bytes),
            register: r.name,
            index,
            outcome,
        });
        if outcome != Outcome::Done {
            return;
        }
        let (after, actions) = match r.kind {
            RegKind::Set(_) => (before | (v & r.bits.writable()), 0),
            RegKind::Clear(_) => (before & !(v & r.bits.writable()), 0),
            _ => {
                let slot = self.map.first[i] + n;
                let first = !state.written[slot];
                state.written[slot] = true;
                written(&r.bits, before, v, lane, first)
            }
        };
        state.put(&self.map, i, n, after);
        let event = Write {
            register: r.name,
            index,
            value: v,
            lane,
            before,
            after: state.get(&self.map, i, n),
            actions,
        };
        let mut hooks = core::mem::take(&mut state.hooks);
        for hook in &mut hooks {
            hook(
                &mut Hardware {
                    map: &self.map,
                    state,
                },
                &event,
            );
        }
        state.hooks = hooks;
    }
}

impl core::fmt::Debug for Model {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Model")
            .field("block", &self.map.spec.name)
            .field("locked", &self.locked())
            .finish_non_exhaustive()
    }
}

/// A model is reached at block offsets: build the block on it at base 0.
impl Bus for &Model {
    #[inline]
    unsafe fn read<W: Word>(self, addr: usize) -> W {
        W::from_u64(self.load(addr, W::BITS as usize / 8))
    }
    #[inline]
    unsafe fn write<W: Word>(self, addr: usize, value: W) {
        self.store(addr, W::BITS as usize / 8, value.to_u64())
    }
}

// SAFETY: a model's accesses touch only its own storage, for any address (an address without a
// register panics).
unsafe impl SafeBus for &Model {}

/// The hardware's side of a model's registers: no access rules, no log. Registers are named as in
/// the description; a set or clear view names its shared state.
pub struct Hardware<'a> {
    map: &'a Map,
    state: &'a mut State,
}

impl Hardware<'_> {
    fn element(&self, name: &str, n: usize) -> usize {
        let i = self.map.find(name);
        let count = self.map.spec.registers[i].count.max(1);
        assert!(
            n < count,
            "register `{name}` of block `{}` has {count} element(s), not {}",
            self.map.spec.name,
            n + 1
        );
        i
    }

    /// What register `name` holds.
    pub fn get(&self, name: &str) -> u64 {
        self.get_n(name, 0)
    }

    /// What element `n` of register array `name` holds.
    pub fn get_n(&self, name: &str, n: usize) -> u64 {
        let i = self.element(name, n);
        self.state.get(self.map, i, n)
    }

    /// Makes register `name` hold `value` (cut to the register's width).
    pub fn set(&mut self, name: &str, value: u64) {
        self.set_n(name, 0, value)
    }

    /// Makes element `n` of register array `name` hold `value`.
    pub fn set_n(&mut self, name: &str, n: usize, value: u64) {
        let i = self.element(name, n);
        self.state.put(self.map, i, n, value);
    }

    /// Whether the block is locked.
    pub fn locked(&self) -> bool {
        self.state.locked
    }

    /// Locks or unlocks the block (an implementation whose lock is set at reset when the
    /// description gives no reset for its status register).
    pub fn set_locked(&mut self, locked: bool) {
        self.state.locked = locked;
    }
}
