//! Typed handles to memory-mapped registers, and the buses that reach them.
//!
//! A [`Reg`] is a bus, an address, a layout and an access marker ([`crate::access`]). The marker
//! decides which methods exist, so a read-only register has no `write`, a write-only one no
//! `read`, the two views of a write-1-to-set / write-1-to-clear pair offer `set` or `clear` of a
//! mask and no read-modify-write, and a register whose read or write acts whatever is written
//! has no `modify` but one that says so. `modify` itself never clears, sets, toggles or
//! triggers a field the closure did not set (see [`Value::neutral`]).
//!
//! The bus ([`Bus`]) is a type parameter, monomorphised away: on the target it is [`Mmio`], a
//! zero-sized type whose accesses are single volatile loads and stores, so a handle costs what a
//! hand-written `write_volatile` costs; on the host it can be a behavioural model of the block
//! (feature `model`, module `armreg_rt::model`) that applies the access rules of the description. A
//! register wider than the block's bus is split into bus-width accesses here, in one place,
//! lowest address first, so every bus sees the accesses the hardware would.
use core::marker::PhantomData;

use crate::field::{ClearsFlag, Field, SetsFlag, TogglesFlag, Triggers};
use crate::{Layout, Reset, Value, Word};

/// How the registers of a block are reached.
///
/// Addresses are whatever the bus decodes: absolute addresses for [`Mmio`], block offsets for a
/// lone model, absolute addresses again for a model of a memory map.
pub trait Bus: Copy {
    /// Reads the `W` at `addr`.
    ///
    /// # Safety
    /// For [`Mmio`]: `addr` is valid for a volatile read of a `W` and aligned to its size. A bus
    /// that is also a [`SafeBus`] has no requirement.
    unsafe fn read<W: Word>(self, addr: usize) -> W;
    /// Writes `value` to the `W` at `addr`.
    ///
    /// # Safety
    /// As for [`read`](Self::read), for a write.
    unsafe fn write<W: Word>(self, addr: usize, value: W);
}

/// A bus on which every access is memory-safe whatever its address (a behavioural model): blocks
/// on it are built without `unsafe`.
///
/// # Safety
/// Implement it only for a bus whose `read` and `write` are sound for every address and value.
pub unsafe trait SafeBus: Bus {}

/// Memory: each access is one volatile load or store of its width.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mmio;

impl Bus for Mmio {
    #[inline(always)]
    unsafe fn read<W: Word>(self, addr: usize) -> W {
        // SAFETY: the caller guarantees `addr` is valid and aligned for a `W`.
        unsafe { (addr as *const W).read_volatile() }
    }
    #[inline(always)]
    unsafe fn write<W: Word>(self, addr: usize, value: W) {
        // SAFETY: the caller guarantees `addr` is valid and aligned for a `W`.
        unsafe { (addr as *mut W).write_volatile(value) }
    }
}

/// Reads a `W` at `addr` in accesses of at most `bus_bytes`, lowest address (lowest bits) first.
///
/// # Safety
/// The bus's contract for every part; `bus_bytes` is 1, 2, 4 or 8.
#[inline(always)]
unsafe fn load<W: Word, B: Bus>(bus: B, addr: usize, bus_bytes: usize) -> W {
    let bytes = W::BITS as usize / 8;
    if bytes <= bus_bytes {
        // SAFETY: forwarded from the caller.
        return unsafe { bus.read::<W>(addr) };
    }
    let mut value = 0u64;
    let mut at = 0;
    while at < bytes {
        // SAFETY: forwarded from the caller; the part lies inside the register.
        let part = unsafe {
            match bus_bytes {
                1 => bus.read::<u8>(addr + at).to_u64(),
                2 => bus.read::<u16>(addr + at).to_u64(),
                _ => bus.read::<u32>(addr + at).to_u64(),
            }
        };
        value |= part << (8 * at);
        at += bus_bytes;
    }
    W::from_u64(value)
}

/// Writes a `W` at `addr` in accesses of at most `bus_bytes`, lowest address first.
///
/// # Safety
/// As for [`load`].
#[inline(always)]
unsafe fn store<W: Word, B: Bus>(bus: B, addr: usize, bus_bytes: usize, value: W) {
    let bytes = W::BITS as usize / 8;
    if bytes <= bus_bytes {
        // SAFETY: forwarded from the caller.
        return unsafe { bus.write(addr, value) };
    }
    let value = value.to_u64();
    let mut at = 0;
    while at < bytes {
        let part = value >> (8 * at);
        // SAFETY: forwarded from the caller; the part lies inside the register.
        unsafe {
            match bus_bytes {
                1 => bus.write(addr + at, part as u8),
                2 => bus.write(addr + at, part as u16),
                _ => bus.write(addr + at, part as u32),
            }
        }
        at += bus_bytes;
    }
}

pub use crate::access::{
    ClearView, Modify, ModifyWithSideEffects, Readable, ReadsWithSideEffects, Ro, RoReadActs, Rw,
    RwReadActs, RwWriteActs, SetView, Wo, Writable,
};

/// One memory-mapped register of layout `L`, reached through the bus `B`.
pub struct Reg<L, A, B = Mmio> {
    bus: B,
    addr: usize,
    bus_bytes: usize,
    _marker: PhantomData<(fn() -> L, A)>,
}

impl<L, A, B: Bus> Clone for Reg<L, A, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, A, B: Bus> Copy for Reg<L, A, B> {}

impl<L: Layout, A> Reg<L, A> {
    /// A handle to the register at `addr` in memory, reached with bus accesses of `bus_bytes`.
    ///
    /// # Safety
    /// `addr` must be the address of this register, mapped as device memory, for as long as the
    /// handle (or a copy of it) is used.
    #[inline(always)]
    pub const unsafe fn new(addr: usize, bus_bytes: usize) -> Self {
        Self {
            bus: Mmio,
            addr,
            bus_bytes,
            _marker: PhantomData,
        }
    }
}

impl<L: Layout, A, B: Bus> Reg<L, A, B> {
    /// A handle to the register at `addr` on `bus`, reached with accesses of `bus_bytes` (1, 2,
    /// 4 or 8).
    ///
    /// # Safety
    /// The bus's contract must hold for every access of the register at `addr` for as long as the
    /// handle is used (for [`Mmio`], as for [`new`](Reg::new)).
    #[inline(always)]
    pub const unsafe fn on(bus: B, addr: usize, bus_bytes: usize) -> Self {
        Self {
            bus,
            addr,
            bus_bytes,
            _marker: PhantomData,
        }
    }

    /// The register's address on its bus.
    #[inline(always)]
    pub const fn addr(&self) -> usize {
        self.addr
    }

    /// The bus the register is reached through.
    #[inline(always)]
    pub const fn bus(&self) -> B {
        self.bus
    }

    /// The register's bits, whatever its marker allows: for the methods below.
    #[inline(always)]
    fn load(&self) -> Value<L> {
        // SAFETY: the constructor's contract makes every access of this register valid.
        Value::from_bits_retain(unsafe { load(self.bus, self.addr, self.bus_bytes) })
    }

    #[inline(always)]
    fn store(&self, value: Value<L>) {
        // SAFETY: the constructor's contract makes every access of this register valid.
        unsafe { store(self.bus, self.addr, self.bus_bytes, value.bits()) }
    }

    /// Writes `value` with `field` acting: the read-modify-write of `clear_flag` and its
    /// siblings. Where the layout stores no bit a write would have to carry over, nothing is
    /// read.
    #[inline(always)]
    fn act<R, W, K>(&self, field: Field<L, R, W, K>) {
        let base = if L::INFO.stored.to_u64() == 0 {
            L::DEFAULT
        } else {
            self.load()
        };
        self.store(base.acting_on(field));
    }

    /// Reads the register.
    #[inline(always)]
    pub fn read(&self) -> Value<L>
    where
        A: Readable,
    {
        self.load()
    }

    /// Reads the register, with the side effect its description gives the read (a FIFO pops,
    /// a flag clears): the name says so where it happens.
    #[inline(always)]
    pub fn read_with_side_effects(&self) -> Value<L>
    where
        A: ReadsWithSideEffects,
    {
        self.load()
    }

    /// Writes the register: exactly `value`, side-effect fields included. `value` is a
    /// [`Value`], or anything that becomes one: fields combined with `|` (`Ctrl::EN |
    /// Ctrl::DIV.to(..)`, each unnamed field at its `DEFAULT`, whose write triggers nothing),
    /// or for an integer register an integer or a [`Const`](crate::Const).
    #[inline(always)]
    pub fn write(&self, value: impl Into<Value<L>>)
    where
        A: Writable,
    {
        self.store(value.into());
    }

    /// Writes `f(L::RESET)`: the fields `f` sets, and every other field at its reset value
    /// (side-effect fields neutral, see [`Value::neutral`]). This is what svd2rust's
    /// `write(|w| ..)` does; [`write`](Self::write) writes exactly the value it is given.
    #[inline(always)]
    pub fn write_from_reset(&self, f: impl FnOnce(Value<L>) -> Value<L>)
    where
        L: Reset,
        A: Writable,
    {
        self.store(f(L::RESET.neutral()));
    }

    /// Reads the register, changes the value with `f` and writes it back. `f` gets the value
    /// read with every side-effect field neutral ([`Value::neutral`]), so a write-1-to-clear
    /// flag that was pending stays pending unless `f` sets it: only what `f` asks for acts.
    #[inline(always)]
    pub fn modify(&self, f: impl FnOnce(Value<L>) -> Value<L>)
    where
        A: Modify,
    {
        self.store(f(self.load().neutral()));
    }

    /// Clears a write-1-to-clear (or write-0-to-clear) field, acknowledging that flag: the
    /// other flags stay pending and the ordinary fields keep their values.
    #[inline(always)]
    pub fn clear_flag<R, W, K: ClearsFlag>(&self, field: Field<L, R, W, K>)
    where
        A: Modify,
    {
        self.act(field);
    }

    /// Sets a write-1-to-set (or write-0-to-set) field; nothing else changes.
    #[inline(always)]
    pub fn set_flag<R, W, K: SetsFlag>(&self, field: Field<L, R, W, K>)
    where
        A: Modify,
    {
        self.act(field);
    }

    /// Toggles a write-1-to-toggle (or write-0-to-toggle) field; nothing else changes.
    #[inline(always)]
    pub fn toggle_flag<R, W, K: TogglesFlag>(&self, field: Field<L, R, W, K>)
    where
        A: Modify,
    {
        self.act(field);
    }

    /// Triggers a write-1 action (PMCR.P: reset the event counters); nothing else changes.
    #[inline(always)]
    pub fn trigger<R, W, K: Triggers>(&self, field: Field<L, R, W, K>)
    where
        A: Modify,
    {
        self.act(field);
    }

    /// Reads the register, changes the value with `f` and writes it back, where that cannot be
    /// done without side effects: the read has one, or some field acts on any write
    /// (write-clear, write-set). The write-1 and write-0 fields are still neutral
    /// ([`Value::neutral`]); the others do what the register's documentation says.
    #[inline(always)]
    pub fn modify_with_side_effects(&self, f: impl FnOnce(Value<L>) -> Value<L>)
    where
        A: ModifyWithSideEffects,
    {
        self.store(f(self.load().neutral()));
    }
}

impl<L: Layout, B: Bus> Reg<L, SetView, B> {
    /// Sets the bits that are 1 in `mask`; the others keep their state.
    #[inline(always)]
    pub fn set(&self, mask: impl Into<Value<L>>) {
        self.store(mask.into());
    }
}

impl<L: Layout, B: Bus> Reg<L, ClearView, B> {
    /// Clears the bits that are 1 in `mask`; the others keep their state.
    #[inline(always)]
    pub fn clear(&self, mask: impl Into<Value<L>>) {
        self.store(mask.into());
    }
}

impl<L, A, B> core::fmt::Debug for Reg<L, A, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Reg({:#x})", self.addr)
    }
}

/// The flag behind a generated crate's `Peripherals::take`: clear until the device's blocks are
/// handed out, set once they are (by `take` or `steal`).
///
/// Where the target has an atomic swap (`target_has_atomic = "8"`: every Arm target but
/// Armv6-M), [`take`](Self::take) is one swap and needs nothing else. Armv6-M (`thumbv6m`) has
/// atomic loads and stores but no read-modify-write: there `take` is a load and a store inside a
/// `critical_section::with`, with feature `critical-section` (which the generated crates forward
/// as their own `critical-section`), and is absent without it. A critical section, not a cheaper
/// load-then-store, because an interrupt between the two could take the blocks too.
#[derive(Debug)]
pub struct Taken(core::sync::atomic::AtomicBool);

impl Taken {
    /// A clear flag: nothing taken yet.
    #[must_use]
    pub const fn new() -> Self {
        Self(core::sync::atomic::AtomicBool::new(false))
    }

    /// Sets the flag; whether it was clear, that is whether this call is the first to take.
    #[cfg(target_has_atomic = "8")]
    #[inline]
    pub fn take(&self) -> bool {
        // The flag guards no other memory, so no ordering beyond the flag's own is needed: every
        // swap of one atomic sees the others in one order, and only the first finds it clear.
        !self.0.swap(true, core::sync::atomic::Ordering::Relaxed)
    }

    /// Sets the flag; whether it was clear, that is whether this call is the first to take.
    #[cfg(all(not(target_has_atomic = "8"), feature = "critical-section"))]
    #[inline]
    pub fn take(&self) -> bool {
        use core::sync::atomic::Ordering::Relaxed;
        // The store only when the flag was clear: a set flag is left as it is, as svd2rust's
        // `take` leaves it, so both compile to the same load, compare and store.
        critical_section::with(|_| {
            if self.0.load(Relaxed) {
                false
            } else {
                self.0.store(true, Relaxed);
                true
            }
        })
    }

    /// Sets the flag, whatever it was (a `steal`): a later `take` finds it set.
    #[inline]
    pub fn set(&self) {
        self.0.store(true, core::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for Taken {
    fn default() -> Self {
        Self::new()
    }
}

/// Compiles the items given to it where [`Taken::take`] exists (a target with an atomic swap,
/// or feature `critical-section`), and nothing elsewhere: a generated `Peripherals::take` is
/// written inside it, so that it exists exactly where its flag can be taken, whichever crate the
/// generated code is compiled in (a generated crate, or a build script's modules in the user's
/// crate, whose features are its own).
#[cfg(any(target_has_atomic = "8", feature = "critical-section"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __where_taken {
    ($($item:item)*) => { $($item)* };
}

/// See the other definition: on a target without an atomic swap and without feature
/// `critical-section`, the items are left out.
#[cfg(not(any(target_has_atomic = "8", feature = "critical-section")))]
#[doc(hidden)]
#[macro_export]
macro_rules! __where_taken {
    ($($item:item)*) => {};
}
