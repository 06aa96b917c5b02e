use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

use crate::field::{Const, Field, IntegerWrite, ReadableField, UInt, WritableField};

/// An unsigned integer a register can be made of.
///
/// Buses move registers as `Word`s; the conversions through `u64` let a bus that is not memory
/// (a behavioural model) store every width alike.
pub trait Word: Copy + Eq + fmt::Debug {
    /// Width in bits.
    const BITS: u32;
    /// The value, zero-extended.
    fn to_u64(self) -> u64;
    /// The low `BITS` bits of `value`.
    fn from_u64(value: u64) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn from_u64(value: u64) -> Self {
                value as $t
            }
        }
    )*};
}
word!(u8, u16, u32, u64);

/// A register layout: the type a generated crate declares for each distinct register layout, and
/// the parameter of its values, [`Value<L>`](Value).
///
/// A generated layout is an uninhabited type carrying its fields as constants ([`Field`]);
/// everything a value does (conversions, field access, `Clone`, `PartialEq`, `Debug`, ...) is
/// implemented once here, generically. A crate with a thousand layouts then declares a thousand
/// small trait impls rather than seven thousand, which were a fifth of a large crate's build. The
/// impl holds one constant, [`INFO`](Layout::INFO), and the values every layout has,
/// [`DEFAULT`](Layout::DEFAULT) and [`RESET`](Reset::RESET), are provided from it: each constant
/// is a body the compiler checks, and two more per layout cost a sixteenth of a large crate's
/// build memory. So `Ctrl::DEFAULT` needs this trait in scope (each generated crate re-exports
/// it at its root), as `Ctrl::RESET` needs [`Reset`].
///
/// ```
/// # use armreg_rt::{Const, Field, Layout, LayoutInfo, UInt, Value};
/// enum Ctrl {}
/// impl Ctrl {
///     const EN: Field<Self, bool, bool> = Field::new(0, 1);
///     const DIV: Field<Self, u8, UInt<u8, 3>> = Field::new(4, 3);
/// }
/// impl Layout for Ctrl {
///     type Raw = u32;
///     const INFO: LayoutInfo<u32> = LayoutInfo {
///         res0: 0xFFFF_FF00,
///         name: "Ctrl",
///         fields: "en 0 1;div 4 3",
///         ..LayoutInfo::<u32>::PLAIN
///     };
/// }
/// let v = Ctrl::DEFAULT.with(Ctrl::EN, true).with(Ctrl::DIV, Const::<5>);
/// assert_eq!(v.bits(), 0x51);
/// assert_eq!(Ctrl::from_bits(0xFFFF_FFFF).bits(), 0xFF);
/// assert_eq!(v.get(Ctrl::DIV), 5);
/// assert_eq!(format!("{v:?}"), "Ctrl { en: true, div: 0x5 }");
/// ```
pub trait Layout: Sized + 'static {
    /// The integer the register is made of.
    type Raw: Word;
    /// What the layout's values need to know of it: reserved bits, reset, and what `Debug`
    /// shows.
    const INFO: LayoutInfo<Self::Raw>;
    /// Every field zero, reserved-one bits set, and every field where writing 0 has a side
    /// effect (w0c, w0s, w0t) one: the value to build a whole register from
    /// (`Ctrl::DEFAULT.with(Ctrl::EN, true)`), whose write triggers no side effect it was not
    /// asked for.
    const DEFAULT: Value<Self> = Value::from_bits_retain(Self::INFO.default);
    /// A value from raw bits, with reserved bits forced to their reserved values.
    #[inline(always)]
    fn from_bits(bits: Self::Raw) -> Value<Self> {
        Value::from_bits(bits)
    }
    /// A value from raw bits, every bit kept (as read from hardware).
    #[inline(always)]
    fn from_bits_retain(bits: Self::Raw) -> Value<Self> {
        Value::from_bits_retain(bits)
    }
}

/// A layout whose description gives its reset value: the registers that have it get
/// `write_from_reset`, which starts from this value as svd2rust's `write` does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no reset value in its description, so nothing to start from",
    note = "write a whole value instead: `write({Self}::DEFAULT.with(..))` starts from zeros and the RES1 bits"
)]
///
/// The impl is empty: the value is [`LayoutInfo::reset`], which the layout's
/// [`INFO`](Layout::INFO) must give. `Ctrl::RESET` needs this trait in scope (each generated
/// crate re-exports it at its root).
pub trait Reset: Layout {
    /// The value at reset: `Ctrl::RESET.get(Ctrl::DIV)`.
    const RESET: Value<Self> = match Self::INFO.reset {
        Some(bits) => Value::from_bits_retain(bits),
        None => panic!("a layout implementing `Reset` gives its reset in `Layout::INFO`"),
    };
}

/// The facts of a layout its values read, one constant per layout ([`Layout::INFO`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutInfo<R> {
    /// Bits reserved as zero: [`from_bits`](Value::from_bits) keeps them clear.
    pub res0: R,
    /// Bits reserved as one: [`from_bits`](Value::from_bits) keeps them set.
    pub res1: R,
    /// [`DEFAULT`](Layout::DEFAULT): the reserved-one bits, and the bits where writing 0 has a
    /// side effect (w0c, w0s, w0t), whose write does nothing when 1.
    pub default: R,
    /// Bits where writing 1 has a side effect (w1c, w1s, w1t, write-1 actions), whose write
    /// does nothing when 0. With the write-0 bits of `default`, what
    /// [`neutral`](Value::neutral) sets.
    pub w1_effects: R,
    /// Bits a write stores as written (read/write fields): what a read-modify-write must carry
    /// over. Where none are, acting on one side-effect field needs no read.
    pub stored: R,
    /// Where the register is an integer, one field from bit 0 and nothing else described (a
    /// counter, an address, a data register), that field's bits; 0 otherwise. An integer
    /// register's value converts from an integer (`ELR_EL2::write(addr)`), from a [`UInt`]
    /// of the field's width and from a [`Const`]. A `u64` whatever the width: the conversions
    /// check it in constants, where only plain integers compute.
    pub integer: u64,
    /// The value at reset, when the description gives every bit of it.
    pub reset: Option<R>,
    /// The name `Debug` shows.
    pub name: &'static str,
    /// The fields `Debug` shows, in the format [`debug_fields`](crate::field::debug_fields)
    /// reads.
    pub fields: &'static str,
}

/// An integer of the register's own width, for an integer register: every bit is the one
/// field's, so nothing is dropped. For a register of fields, a compile error when the program is
/// built (build its value from fields: `Ctrl::EN | Ctrl::DIV.to(..)`).
macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl<L: Layout<Raw = $t>> From<$t> for Value<L> {
            #[inline(always)]
            fn from(value: $t) -> Self {
                const {
                    assert!(
                        L::INFO.integer == <$t>::MAX as u64,
                        "only an integer register (one field, every bit) is written from an integer; build this register's value from its fields"
                    )
                };
                Value::from_bits_retain(value)
            }
        }
    )*};
}
from_integer!(u8, u16, u32, u64);

/// A [`UInt`] of the width of an integer register's field (`SIO.GPIO_OE_SET`'s 30 bits).
impl<L: Layout, T: Word, const N: u32> From<UInt<T, N>> for Value<L> {
    #[inline(always)]
    fn from(value: UInt<T, N>) -> Self {
        const {
            assert!(
                L::INFO.integer == UInt::<T, N>::MAX,
                "a `UInt` becomes the value of an integer register whose one field has its width"
            )
        };
        let bits = L::INFO.default.to_u64() | value.get().to_u64();
        Value::from_bits_retain(L::Raw::from_u64(bits))
    }
}

/// A constant for an integer register, checked when the program is built: it must fit the
/// register's field (`sio.gpio_oe_set().write(Const::<{ 1 << 25 }>)`).
impl<L: Layout, const V: u64> From<Const<V>> for Value<L> {
    #[inline(always)]
    fn from(_: Const<V>) -> Self {
        const {
            let integer = L::INFO.integer;
            assert!(
                integer != 0,
                "only an integer register (one field, from bit 0) is written from a constant; build this register's value from its fields"
            );
            assert!(
                V & !integer == 0,
                "the constant is wider than the register's field"
            );
        };
        let bits = L::INFO.default.to_u64() | V;
        Value::from_bits_retain(L::Raw::from_u64(bits))
    }
}

macro_rules! plain_info {
    ($($t:ty),*) => {$(
        impl LayoutInfo<$t> {
            /// No reserved bit, no side effect, no reset, every bit stored, no fields shown: the
            /// start of a hand-written layout's facts (`LayoutInfo { res0: .., ..LayoutInfo::<u32>::PLAIN }`).
            pub const PLAIN: Self = LayoutInfo {
                res0: 0,
                res1: 0,
                default: 0,
                w1_effects: 0,
                stored: <$t>::MAX,
                integer: 0,
                reset: None,
                name: "",
                fields: "",
            };
        }
    )*};
}
plain_info!(u8, u16, u32, u64);

/// A value of a register of layout `L`: its raw bits, read and written field by field through the
/// constants of `L`: `Pmcr::DEFAULT.with(Pmcr::E, true)`, `value.get(Pmcr::N)`.
#[repr(transparent)]
pub struct Value<L: Layout>(L::Raw, PhantomData<fn() -> L>);

impl<L: Layout> Value<L> {
    /// A value from raw bits, every bit kept (as read from hardware).
    #[inline(always)]
    pub const fn from_bits_retain(bits: L::Raw) -> Self {
        Self(bits, PhantomData)
    }
    /// A value from raw bits, with reserved bits forced to their reserved values.
    #[inline(always)]
    pub fn from_bits(bits: L::Raw) -> Self {
        let (bits, res0, res1) = (bits.to_u64(), L::INFO.res0.to_u64(), L::INFO.res1.to_u64());
        Self::from_bits_retain(L::Raw::from_u64((bits & !res0) | res1))
    }
    /// The raw bits.
    #[inline(always)]
    pub fn bits(self) -> L::Raw {
        self.0
    }
    /// The value of `field`: `Pmcr::DEFAULT.get(Pmcr::E)`.
    #[inline(always)]
    pub fn get<R, W, K>(
        self,
        field: Field<L, R, W, K>,
    ) -> <Field<L, R, W, K> as ReadableField<R>>::Value
    where
        Field<L, R, W, K>: ReadableField<R>,
    {
        <Field<L, R, W, K> as ReadableField<R>>::decode(field.extract(self.bits().to_u64()))
    }
    /// The value with `field` set to `value`: `Pmcr::DEFAULT.with(Pmcr::E, true)`.
    ///
    /// `value` has the field's own type, which holds nothing the field cannot: `bool` for one
    /// bit, the field's enum, an integer for a field of 8, 16, 32 or 64 bits, and for a
    /// narrower integer field a [`UInt`](crate::UInt) (`UInt::try_from(n)?`, or
    /// `UInt::truncating(n)`, which says it drops the high bits) or a constant checked when the
    /// program is built, [`Const::<5>`](crate::Const). Nothing is ever truncated silently.
    #[inline(always)]
    #[must_use]
    pub fn with<R, W, K, V>(self, field: Field<L, R, W, K>, value: V) -> Self
    where
        Field<L, R, W, K>: WritableField<V>,
    {
        let bits = <Field<L, R, W, K> as WritableField<V>>::encode(value);
        Self::from_bits_retain(L::Raw::from_u64(field.insert(self.bits().to_u64(), bits)))
    }
    /// Sets `field` to `value` in place, as [`with`](Self::with).
    #[inline(always)]
    pub fn set<R, W, K, V>(&mut self, field: Field<L, R, W, K>, value: V)
    where
        Field<L, R, W, K>: WritableField<V>,
    {
        *self = self.with(field, value);
    }
    /// The value with `field`, an address field, set from `address` in place:
    /// `Ttbr::DEFAULT.with_address(Ttbr::BADDR, table)`, as [`Field::address`] (checked in
    /// debug builds, masked in release builds).
    #[inline(always)]
    #[must_use]
    #[track_caller]
    pub fn with_address<R, W: IntegerWrite, K>(
        self,
        field: Field<L, R, W, K>,
        address: u64,
    ) -> Self {
        self | field.address(address)
    }
    /// The value with every field whose write has a side effect at the value whose write has
    /// none: write-1-to-clear, -set and -toggle fields and write-1 actions 0, write-0 ones 1.
    /// Ordinary fields keep their bits.
    ///
    /// What `modify` hands its closure, so that writing the value back clears, sets, toggles or
    /// triggers only what the closure asks for. A field of the result with a side effect reads
    /// as that neutral value, not as the register held it: read the register for that.
    #[inline(always)]
    #[must_use]
    pub fn neutral(self) -> Self {
        let info = L::INFO;
        let w0_effects = info.default.to_u64() & !info.res1.to_u64();
        let bits = (self.bits().to_u64() & !info.w1_effects.to_u64()) | w0_effects;
        Self::from_bits_retain(L::Raw::from_u64(bits))
    }
    /// The value that does what `field`'s write side effect does, and nothing else: every bit
    /// of `self` neutral (see [`neutral`](Self::neutral)) but the field's, which take the
    /// value that acts (1 for w1c/w1s/w1t and write-1 actions, 0 for w0c/w0s/w0t). What the
    /// registers' `clear_flag`, `set_flag`, `toggle_flag` and `trigger` write.
    #[inline(always)]
    #[must_use]
    pub fn acting_on<R, W, K>(self, field: Field<L, R, W, K>) -> Self {
        Self::from_bits_retain(L::Raw::from_u64(
            self.neutral().bits().to_u64() ^ field.mask(),
        ))
    }
}

impl<L: Layout> Clone for Value<L> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: Layout> Copy for Value<L> {}

impl<L: Layout> PartialEq for Value<L> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<L: Layout> Eq for Value<L> {}

impl<L: Layout> Hash for Value<L> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.to_u64().hash(state);
    }
}

/// Every field zero, reserved-one bits set (a layout's `DEFAULT`).
impl<L: Layout> Default for Value<L> {
    #[inline(always)]
    fn default() -> Self {
        L::DEFAULT
    }
}

/// `Name { field: value, .. }` for the fields the layout describes (see
/// [`debug_fields`](crate::field::debug_fields)).
impl<L: Layout> fmt::Debug for Value<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::field::debug_fields(f, L::INFO.name, self.0.to_u64(), L::INFO.fields)
    }
}

/// An array index outside the array's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexOutOfRange {
    /// The index asked for.
    pub index: usize,
    /// The number of elements.
    pub count: usize,
}

impl core::fmt::Display for IndexOutOfRange {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "register index {} out of range (0..{})",
            self.index, self.count
        )
    }
}
