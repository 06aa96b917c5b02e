//! Arrays of registers and of blocks (SVD cluster arrays), in one vocabulary for every array a
//! generated crate has:
//!
//! - `array.at::<N>()` is element `N`, checked when the program is compiled;
//! - `array.try_at(n)` is element `n`, checked when the program runs
//!   (`Err(`[`IndexOutOfRange`]`)` past the end).
//!
//! Both give a handle whose `read`/`write`/`modify` (`set`/`clear` for write-1 views, and the
//! named forms where a read or a write has a side effect, see [`crate::access`]) are those of a
//! register that is not in an array. A system-register array is a unit value
//! (`PMEVTYPER_EL0.at::<3>().write(v)`), a memory-mapped one comes from its block
//! (`pmu.pmevtyper().at::<3>().write(v)`).
//!
//! An element of a system-register array is one instruction whose CRm/op2 hold the index: the
//! generated `read_at::<N>` passes them to the assembler as constants, so the array is written
//! once however many elements it has.
use core::marker::PhantomData;

use crate::access::{Modify, ModifyWithSideEffects, Readable, ReadsWithSideEffects};
use crate::mmio::{Bus, Mmio, Reg};
use crate::{IndexOutOfRange, Layout, Reset, Value};

/// A system-register array (implemented by generated crates).
pub trait SysRegArray: Copy {
    /// The layout of every element.
    type Layout: Layout;
    /// How its elements are reached ([`crate::access`]): which of `read`, `modify`,
    /// `read_with_side_effects` and `modify_with_side_effects` they have.
    type Access;
    /// The number of elements.
    const COUNT: usize;
    /// The array's architectural name, for messages.
    const NAME: &'static str;
}

/// The elements of a system-register array can be read.
pub trait ReadElement: SysRegArray {
    /// Reads element `N` (`N < COUNT`, which [`Element`] checks).
    fn read_at<const N: usize>() -> Value<Self::Layout>;
    /// Reads element `n`: one instruction chosen by `n` (`n < COUNT`, which [`Indexed`] checks;
    /// past it, a panic).
    fn read_index(n: usize) -> Value<Self::Layout>;
}

/// The elements of a system-register array can be written.
pub trait WriteElement: SysRegArray {
    /// Writes element `N`.
    fn write_at<const N: usize>(value: Value<Self::Layout>);
    /// Writes element `n` (as [`ReadElement::read_index`]).
    fn write_index(n: usize, value: Value<Self::Layout>);
}

/// The elements of a system-register array are write-1-to-set views: a 1 sets a state bit, a 0
/// leaves it.
pub trait SetElement: SysRegArray {
    /// Sets, in element `N`, the state bits that are 1 in `mask`.
    fn set_at<const N: usize>(mask: Value<Self::Layout>);
    /// Sets, in element `n`, the state bits that are 1 in `mask` (as [`ReadElement::read_index`]).
    fn set_index(n: usize, mask: Value<Self::Layout>);
}

/// The elements of a system-register array are write-1-to-clear views.
pub trait ClearElement: SysRegArray {
    /// Clears, in element `N`, the state bits that are 1 in `mask`.
    fn clear_at<const N: usize>(mask: Value<Self::Layout>);
    /// Clears, in element `n`, the state bits that are 1 in `mask` (as
    /// [`ReadElement::read_index`]).
    fn clear_index(n: usize, mask: Value<Self::Layout>);
}

/// The methods of an element (`Element`, `Indexed`), one text for both: each reaches its
/// element through the type's `load`, `store`, `store_set` and `store_clear`.
macro_rules! element_api {
    ([$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $ty {
    /// Reads the element.
    #[inline(always)]
    #[track_caller]
    pub fn read(self) -> Value<R::Layout>
    where
        R: ReadElement,
        R::Access: Readable,
    {
        self.load()
    }

    /// Reads the element, with the side effect its description gives the read.
    #[inline(always)]
    #[track_caller]
    pub fn read_with_side_effects(self) -> Value<R::Layout>
    where
        R: ReadElement,
        R::Access: ReadsWithSideEffects,
    {
        self.load()
    }

    /// Writes the element.
    #[inline(always)]
    #[track_caller]
    pub fn write(self, value: impl Into<Value<R::Layout>>)
    where
        R: WriteElement,
    {
        let value = value.into();
        self.store(value);
    }

    /// Writes `f(RESET)`: the fields `f` sets, the others at their reset value (side-effect
    /// fields neutral).
    #[inline(always)]
    #[track_caller]
    pub fn write_from_reset(self, f: impl FnOnce(Value<R::Layout>) -> Value<R::Layout>)
    where
        R: WriteElement,
        R::Layout: Reset,
    {
        self.store(f(<R::Layout as Reset>::RESET.neutral()));
    }

    /// Reads the element, changes the value with `f` and writes it back; `f` gets the value
    /// with every side-effect field neutral ([`Value::neutral`]).
    #[inline(always)]
    #[track_caller]
    pub fn modify(self, f: impl FnOnce(Value<R::Layout>) -> Value<R::Layout>)
    where
        R: ReadElement + WriteElement,
        R::Access: Modify,
    {
        self.store(f(self.load().neutral()));
    }

    /// Reads the element, changes the value with `f` and writes it back, where the read or
    /// any write has a side effect (see [`crate::access`]).
    #[inline(always)]
    #[track_caller]
    pub fn modify_with_side_effects(self, f: impl FnOnce(Value<R::Layout>) -> Value<R::Layout>)
    where
        R: ReadElement + WriteElement,
        R::Access: ModifyWithSideEffects,
    {
        self.store(f(self.load().neutral()));
    }

    /// Sets the state bits that are 1 in `mask`; the others keep their state.
    #[inline(always)]
    #[track_caller]
    pub fn set(self, mask: impl Into<Value<R::Layout>>)
    where
        R: SetElement,
    {
        let mask = mask.into();
        self.store_set(mask);
    }

    /// Clears the state bits that are 1 in `mask`; the others keep their state.
    #[inline(always)]
    #[track_caller]
    pub fn clear(self, mask: impl Into<Value<R::Layout>>)
    where
        R: ClearElement,
    {
        let mask = mask.into();
        self.store_clear(mask);
    }
}
    };
}

/// Element `N` of the system-register array `R`, checked when the program is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element<R, const N: usize>(PhantomData<R>);

impl<R: SysRegArray, const N: usize> Element<R, N> {
    /// Element `N` of `R`; an index past the end does not compile.
    #[inline(always)]
    pub const fn new(_array: R) -> Self {
        const { assert!(N < R::COUNT, "register array index out of range") };
        Self(PhantomData)
    }
}

impl<R: SysRegArray, const N: usize> Element<R, N> {
    #[inline(always)]
    #[track_caller]
    fn load(self) -> Value<R::Layout>
    where
        R: ReadElement,
    {
        R::read_at::<N>()
    }

    #[inline(always)]
    #[track_caller]
    fn store(self, value: Value<R::Layout>)
    where
        R: WriteElement,
    {
        R::write_at::<N>(value);
    }

    #[inline(always)]
    #[track_caller]
    fn store_set(self, mask: Value<R::Layout>)
    where
        R: SetElement,
    {
        R::set_at::<N>(mask);
    }

    #[inline(always)]
    #[track_caller]
    fn store_clear(self, mask: Value<R::Layout>)
    where
        R: ClearElement,
    {
        R::clear_at::<N>(mask);
    }
}

element_api!([R: SysRegArray, const N: usize] Element<R, N>);

/// Element `n` of the system-register array `R`, checked when it was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indexed<R> {
    index: usize,
    _array: PhantomData<R>,
}

impl<R: SysRegArray> Indexed<R> {
    /// Element `n` of `R`, or an error past the end.
    #[inline(always)]
    pub const fn new(_array: R, n: usize) -> Result<Self, IndexOutOfRange> {
        if n < R::COUNT {
            Ok(Self {
                index: n,
                _array: PhantomData,
            })
        } else {
            Err(IndexOutOfRange {
                index: n,
                count: R::COUNT,
            })
        }
    }

    /// The element's index.
    #[inline(always)]
    pub const fn index(&self) -> usize {
        self.index
    }
}

impl<R: SysRegArray> Indexed<R> {
    #[inline(always)]
    #[track_caller]
    fn load(self) -> Value<R::Layout>
    where
        R: ReadElement,
    {
        R::read_index(self.index)
    }

    #[inline(always)]
    #[track_caller]
    fn store(self, value: Value<R::Layout>)
    where
        R: WriteElement,
    {
        R::write_index(self.index, value);
    }

    #[inline(always)]
    #[track_caller]
    fn store_set(self, mask: Value<R::Layout>)
    where
        R: SetElement,
    {
        R::set_index(self.index, mask);
    }

    #[inline(always)]
    #[track_caller]
    fn store_clear(self, mask: Value<R::Layout>)
    where
        R: ClearElement,
    {
        R::clear_index(self.index, mask);
    }
}

element_api!([R: SysRegArray] Indexed<R>);

/// The panic of a generated `read_index`/`write_index` called past the end: [`Indexed`] never
/// does, so only a direct call of the trait method reaches it.
#[cold]
#[track_caller]
pub fn out_of_range(name: &'static str, index: usize, count: usize) -> ! {
    panic!("{name}: element {index} of an array of {count}")
}

/// An array of `COUNT` memory-mapped registers of layout `L`, `stride` bytes apart.
pub struct RegArray<L, A, const COUNT: usize, B = Mmio> {
    bus: B,
    base: usize,
    stride: usize,
    bus_bytes: usize,
    _marker: PhantomData<(fn() -> L, A)>,
}

impl<L, A, const COUNT: usize, B: Bus> Clone for RegArray<L, A, COUNT, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, A, const COUNT: usize, B: Bus> Copy for RegArray<L, A, COUNT, B> {}

impl<L: Layout, A, const COUNT: usize, B: Bus> RegArray<L, A, COUNT, B> {
    /// The number of registers.
    pub const COUNT: usize = COUNT;

    /// The array whose element 0 is at `base` on `bus`, each next one `stride` bytes on, reached
    /// with accesses of `bus_bytes`.
    ///
    /// # Safety
    /// As [`Reg::on`], for each of the `COUNT` registers.
    #[inline(always)]
    pub const unsafe fn on(bus: B, base: usize, stride: usize, bus_bytes: usize) -> Self {
        Self {
            bus,
            base,
            stride,
            bus_bytes,
            _marker: PhantomData,
        }
    }

    /// Register `N`; an index past the end does not compile.
    #[inline(always)]
    pub const fn at<const N: usize>(&self) -> Reg<L, A, B> {
        const { assert!(N < COUNT, "register array index out of range") };
        // SAFETY: element N < COUNT is covered by the constructor's contract.
        unsafe { Reg::on(self.bus, self.base + N * self.stride, self.bus_bytes) }
    }

    /// Register `n`, or an error past the end.
    #[inline(always)]
    pub const fn try_at(&self, n: usize) -> Result<Reg<L, A, B>, IndexOutOfRange> {
        if n >= COUNT {
            return Err(IndexOutOfRange {
                index: n,
                count: COUNT,
            });
        }
        // SAFETY: element n < COUNT is covered by the constructor's contract.
        Ok(unsafe { Reg::on(self.bus, self.base + n * self.stride, self.bus_bytes) })
    }

    /// The number of registers.
    #[inline(always)]
    pub const fn len(&self) -> usize {
        COUNT
    }

    /// Whether the array is empty (never, for a generated one).
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        COUNT == 0
    }
}

impl<L, A, const COUNT: usize, B> core::fmt::Debug for RegArray<L, A, COUNT, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RegArray")
            .field("base", &format_args!("{:#x}", self.base))
            .field("stride", &self.stride)
            .field("count", &COUNT)
            .finish()
    }
}

/// A generated block that can be placed at an address on a bus: what a cluster array's elements
/// are made with (implemented by generated crates for the blocks their clusters place).
pub trait OnBus<B>: Sized {
    /// The block at `base` on `bus`.
    ///
    /// # Safety
    /// As the block's own `on_bus`: the bus's contract must hold for every register of the
    /// block at `base`.
    unsafe fn on_bus_at(bus: B, base: usize) -> Self;
}

/// An array of `COUNT` blocks of type `T` (an SVD cluster array), `stride` bytes apart:
/// `at::<N>()` and `try_at(n)` give the block, whose accessors give its registers.
pub struct BlockArray<T, const COUNT: usize, B = Mmio> {
    bus: B,
    base: usize,
    stride: usize,
    _marker: PhantomData<fn() -> T>,
}

impl<T, const COUNT: usize, B: Bus> Clone for BlockArray<T, COUNT, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const COUNT: usize, B: Bus> Copy for BlockArray<T, COUNT, B> {}

impl<T: OnBus<B>, const COUNT: usize, B: Bus> BlockArray<T, COUNT, B> {
    /// The number of blocks.
    pub const COUNT: usize = COUNT;

    /// The array whose element 0 is at `base` on `bus`, each next one `stride` bytes on.
    ///
    /// # Safety
    /// As [`OnBus::on_bus_at`], for each of the `COUNT` blocks.
    #[inline(always)]
    pub const unsafe fn on(bus: B, base: usize, stride: usize) -> Self {
        Self {
            bus,
            base,
            stride,
            _marker: PhantomData,
        }
    }

    /// Block `N`; an index past the end does not compile.
    #[inline(always)]
    pub fn at<const N: usize>(&self) -> T {
        const { assert!(N < COUNT, "register array index out of range") };
        // SAFETY: element N < COUNT is covered by the constructor's contract.
        unsafe { T::on_bus_at(self.bus, self.base + N * self.stride) }
    }

    /// Block `n`, or an error past the end.
    #[inline(always)]
    pub fn try_at(&self, n: usize) -> Result<T, IndexOutOfRange> {
        if n >= COUNT {
            return Err(IndexOutOfRange {
                index: n,
                count: COUNT,
            });
        }
        // SAFETY: element n < COUNT is covered by the constructor's contract.
        Ok(unsafe { T::on_bus_at(self.bus, self.base + n * self.stride) })
    }

    /// The number of blocks.
    #[inline(always)]
    pub const fn len(&self) -> usize {
        COUNT
    }

    /// Whether the array is empty (never, for a generated one).
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        COUNT == 0
    }
}

impl<T, const COUNT: usize, B> core::fmt::Debug for BlockArray<T, COUNT, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BlockArray")
            .field("base", &format_args!("{:#x}", self.base))
            .field("stride", &self.stride)
            .field("count", &COUNT)
            .finish()
    }
}
