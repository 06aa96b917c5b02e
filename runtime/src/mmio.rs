//! Typed handles to memory-mapped registers.
//!
//! A [`Reg`] is an address, a value type and an access marker. The marker decides which methods
//! exist, so a read-only register has no `write`, a write-only one no `read`, and the two views of a
//! write-1-to-set / write-1-to-clear pair offer `set` or `clear` of a mask and no read-modify-write.
use core::marker::PhantomData;

use crate::{RegisterValue, Word};

/// Read and write.
pub enum Rw {}
/// Read only.
pub enum Ro {}
/// Write only.
pub enum Wo {}
/// The write-1-to-set view of a shared state: reads give the state, writing 1s sets those bits.
pub enum SetView {}
/// The write-1-to-clear view of a shared state: reads give the state, writing 1s clears those bits.
pub enum ClearView {}

/// Access markers that allow reading.
pub trait Readable {}
impl Readable for Rw {}
impl Readable for Ro {}
impl Readable for SetView {}
impl Readable for ClearView {}

/// Access markers that allow writing a whole value.
pub trait Writable {}
impl Writable for Rw {}
impl Writable for Wo {}

/// One memory-mapped register.
pub struct Reg<V, A> {
    addr: usize,
    bus_bytes: usize,
    _marker: PhantomData<(V, A)>,
}

impl<V, A> Clone for Reg<V, A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V, A> Copy for Reg<V, A> {}

impl<V: RegisterValue, A> Reg<V, A> {
    /// A handle to the register at `addr`, reached with bus accesses of `bus_bytes`.
    ///
    /// # Safety
    /// `addr` must be the address of this register, mapped as device memory, for as long as the
    /// handle (or a copy of it) is used.
    #[inline(always)]
    pub const unsafe fn new(addr: usize, bus_bytes: usize) -> Self {
        Self {
            addr,
            bus_bytes,
            _marker: PhantomData,
        }
    }

    /// The register's address.
    #[inline(always)]
    pub const fn addr(&self) -> usize {
        self.addr
    }
}

impl<V: RegisterValue, A: Readable> Reg<V, A> {
    /// Reads the register.
    #[inline(always)]
    pub fn read(&self) -> V {
        // SAFETY: `new`'s contract makes the address valid for this register.
        V::from_raw(unsafe { <V::Raw as Word>::load(self.addr, self.bus_bytes) })
    }
}

impl<V: RegisterValue, A: Writable> Reg<V, A> {
    /// Writes the register.
    #[inline(always)]
    pub fn write(&self, value: V) {
        // SAFETY: `new`'s contract makes the address valid for this register.
        unsafe { <V::Raw as Word>::store(self.addr, self.bus_bytes, value.to_raw()) }
    }
}

impl<V: RegisterValue> Reg<V, Rw> {
    /// Reads the register, changes the value with `f` and writes it back.
    #[inline(always)]
    pub fn modify(&self, f: impl FnOnce(V) -> V) {
        self.write(f(self.read()));
    }
}

impl<V: RegisterValue> Reg<V, SetView> {
    /// Sets the bits that are 1 in `mask`; the others keep their state.
    #[inline(always)]
    pub fn set(&self, mask: V) {
        // SAFETY: `new`'s contract makes the address valid for this register.
        unsafe { <V::Raw as Word>::store(self.addr, self.bus_bytes, mask.to_raw()) }
    }
}

impl<V: RegisterValue> Reg<V, ClearView> {
    /// Clears the bits that are 1 in `mask`; the others keep their state.
    #[inline(always)]
    pub fn clear(&self, mask: V) {
        // SAFETY: `new`'s contract makes the address valid for this register.
        unsafe { <V::Raw as Word>::store(self.addr, self.bus_bytes, mask.to_raw()) }
    }
}

impl<V, A> core::fmt::Debug for Reg<V, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Reg({:#x})", self.addr)
    }
}
