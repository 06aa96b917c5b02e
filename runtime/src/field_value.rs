//! Values written field by field without naming the layout twice: a field with its value
//! ([`FieldValue`], `Tcr::TG0.to(Tg0::_4k)`), a one-bit field alone meaning "set"
//! (`Cnthctl::EL1PCEN`), combined with `|` into a register value
//! (`Cnthctl::EL1PCEN | Cnthctl::EL1PCTEN`, `v | Sctlr::M`), which every `write` and `modify`
//! takes. `x | y` sets the fields of `y` in `x`: a one-bit field to 1, a field value to its
//! value, replacing what the field held. `x & !f` clears the one-bit field `f`, as C's
//! `x & ~F` does (`modify(|v| v & !Reset::IO_BANK0)`).
//!
//! All of it is generic here, once, so a crate with thousands of fields declares nothing more
//! for it; a combination of constants folds to one constant.
use core::ops::{BitAnd, BitOr, Not};

use crate::field::{Field, IntegerWrite, WritableField};
use crate::{Layout, Value, Word};

/// A field of layout `L` with its value: the bits `bits` under `mask`. Made by
/// [`Field::to`]; a one-bit `bool` field converts into one as "set".
pub struct FieldValue<L> {
    mask: u64,
    bits: u64,
    _layout: core::marker::PhantomData<fn() -> L>,
}

impl<L> Clone for FieldValue<L> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<L> Copy for FieldValue<L> {}

impl<L> core::fmt::Debug for FieldValue<L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "FieldValue {{ mask: {:#x}, bits: {:#x} }}",
            self.mask, self.bits
        )
    }
}

impl<L: Layout, R, W, K> Field<L, R, W, K> {
    /// This field with `value`, to combine with `|` or write: `Tcr::TG0.to(Tg0::_4k)`. The value
    /// is checked as [`Value::with`] checks it.
    #[inline(always)]
    pub fn to<V>(self, value: V) -> FieldValue<L>
    where
        Self: WritableField<V>,
    {
        FieldValue {
            mask: self.mask(),
            bits: self.insert(0, <Self as WritableField<V>>::encode(value)),
            _layout: core::marker::PhantomData,
        }
    }
}

impl<L: Layout, R, W: IntegerWrite, K> Field<L, R, W, K> {
    /// This field, which holds bits `lsb..=msb` of an address in place (a table base, a vector
    /// base: `Ttbr::BADDR`, `Vbar::VBA`), set from `address` itself, not shifted:
    /// `TTBR0_EL1::write(Ttbr::BADDR.address(table))`.
    ///
    /// The bits of `address` outside the field (below it: its alignment; above it: its size)
    /// must be 0. Like integer overflow, that is checked in debug builds (a panic naming both)
    /// and not in release builds, where those bits are dropped: the same instructions as the
    /// hand-written mask.
    #[inline(always)]
    #[track_caller]
    pub fn address(self, address: u64) -> FieldValue<L> {
        debug_assert!(
            address & !self.mask() == 0,
            "address {address:#x} has bits outside the field's bits {}..={} (mask {:#x})",
            self.lsb(),
            self.lsb() + self.width() - 1,
            self.mask()
        );
        FieldValue {
            mask: self.mask(),
            bits: address & self.mask(),
            _layout: core::marker::PhantomData,
        }
    }
}

impl<L: Layout> FieldValue<L> {
    /// `value` with this field's bits replaced.
    #[inline(always)]
    fn apply(self, value: Value<L>) -> Value<L> {
        let raw = (value.bits().to_u64() & !self.mask) | self.bits;
        Value::from_bits_retain(L::Raw::from_u64(raw))
    }
}

/// What `|` takes on its right: a [`FieldValue`], or a one-bit `bool` field (set to 1).
pub trait IntoFieldValue<L> {
    /// The field and its value.
    fn into_field_value(self) -> FieldValue<L>;
}

impl<L> IntoFieldValue<L> for FieldValue<L> {
    #[inline(always)]
    fn into_field_value(self) -> FieldValue<L> {
        self
    }
}

impl<L: Layout, R, K> IntoFieldValue<L> for Field<L, R, bool, K> {
    #[inline(always)]
    fn into_field_value(self) -> FieldValue<L> {
        FieldValue {
            mask: self.mask(),
            bits: self.mask(),
            _layout: core::marker::PhantomData,
        }
    }
}

/// A one-bit field to clear: `!Ctrl::EN`, taken by `value & !Ctrl::EN`.
pub struct Cleared<L> {
    mask: u64,
    _layout: core::marker::PhantomData<fn() -> L>,
}

impl<L> Clone for Cleared<L> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<L> Copy for Cleared<L> {}

impl<L> core::fmt::Debug for Cleared<L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Cleared {{ mask: {:#x} }}", self.mask)
    }
}

impl<L: Layout, R, K> Not for Field<L, R, bool, K> {
    type Output = Cleared<L>;
    /// The field, to clear with `&`.
    #[inline(always)]
    fn not(self) -> Cleared<L> {
        Cleared {
            mask: self.mask(),
            _layout: core::marker::PhantomData,
        }
    }
}

impl<L: Layout> BitAnd<Cleared<L>> for Value<L> {
    type Output = Value<L>;
    /// The value with the one-bit field cleared.
    #[inline(always)]
    fn bitand(self, field: Cleared<L>) -> Value<L> {
        Value::from_bits_retain(L::Raw::from_u64(self.bits().to_u64() & !field.mask))
    }
}

/// `DEFAULT` with the field's value.
impl<L: Layout> From<FieldValue<L>> for Value<L> {
    #[inline(always)]
    fn from(field: FieldValue<L>) -> Self {
        field.apply(L::DEFAULT)
    }
}

/// `DEFAULT` with the one-bit field set.
impl<L: Layout, R, K> From<Field<L, R, bool, K>> for Value<L> {
    #[inline(always)]
    fn from(field: Field<L, R, bool, K>) -> Self {
        field.into_field_value().apply(L::DEFAULT)
    }
}

impl<L: Layout, T: IntoFieldValue<L>> BitOr<T> for Value<L> {
    type Output = Value<L>;
    /// The value with the field on the right set.
    #[inline(always)]
    fn bitor(self, field: T) -> Value<L> {
        field.into_field_value().apply(self)
    }
}

impl<L: Layout, T: IntoFieldValue<L>> BitOr<T> for FieldValue<L> {
    type Output = Value<L>;
    /// `DEFAULT` with both fields.
    #[inline(always)]
    fn bitor(self, field: T) -> Value<L> {
        Value::from(self) | field
    }
}

impl<L: Layout, R, K, T: IntoFieldValue<L>> BitOr<T> for Field<L, R, bool, K> {
    type Output = Value<L>;
    /// `DEFAULT` with this one-bit field set, and the field on the right.
    #[inline(always)]
    fn bitor(self, field: T) -> Value<L> {
        Value::from(self) | field
    }
}

#[cfg(test)]
mod tests {
    use crate::field::{Field, ReadOnly, W1c};
    use crate::{Const, Layout, LayoutInfo, UInt, Value};

    enum Ctrl {}
    impl Ctrl {
        const EN: Field<Self, bool, bool> = Field::new(0, 1);
        const IE: Field<Self, bool, bool> = Field::new(1, 1);
        const OVR: Field<Self, bool, bool, W1c> = Field::new(2, 1);
        const DIV: Field<Self, u8, UInt<u8, 3>> = Field::new(4, 3);
        const BUSY: Field<Self, bool, ReadOnly> = Field::new(7, 1);
    }
    impl Layout for Ctrl {
        type Raw = u32;
        const INFO: LayoutInfo<u32> = LayoutInfo {
            res1: 0x100,
            default: 0x100,
            ..LayoutInfo::<u32>::PLAIN
        };
    }

    #[test]
    fn fields_combine_with_or_from_the_default() {
        let v: Value<Ctrl> = Ctrl::EN | Ctrl::DIV.to(Const::<5>);
        assert_eq!(v.bits(), 0x100 | 0x50 | 1);
        assert_eq!(Value::from(Ctrl::IE).bits(), 0x102);
        assert_eq!((Ctrl::DIV.to(Const::<2>) | Ctrl::EN).bits(), 0x121);
        // `|` on a value sets the field on the right, replacing what it held.
        let read = Value::<Ctrl>::from_bits_retain(0x1F0);
        assert_eq!((read | Ctrl::DIV.to(Const::<1>)).bits(), 0x190);
        assert_eq!((read | Ctrl::EN | Ctrl::OVR).bits(), 0x1F5);
        // `& !field` clears a one-bit field, as C's `& ~FIELD`.
        assert_eq!((read & !Ctrl::IE & !Ctrl::OVR).bits(), 0x1F0 & !0b110);
        let _ = Ctrl::BUSY;
    }

    enum Count {}
    impl Layout for Count {
        type Raw = u32;
        const INFO: LayoutInfo<u32> = LayoutInfo {
            integer: 0x3FFF_FFFF,
            ..LayoutInfo::<u32>::PLAIN
        };
    }

    enum Word32 {}
    impl Layout for Word32 {
        type Raw = u32;
        const INFO: LayoutInfo<u32> = LayoutInfo {
            integer: 0xFFFF_FFFF,
            ..LayoutInfo::<u32>::PLAIN
        };
    }

    #[test]
    fn integer_registers_take_integers() {
        assert_eq!(Value::<Word32>::from(0xDEAD_BEEF).bits(), 0xDEAD_BEEF);
        assert_eq!(Value::<Count>::from(Const::<{ 1 << 25 }>).bits(), 1 << 25);
        let n: UInt<u32, 30> = UInt::try_from(7).unwrap();
        assert_eq!(Value::<Count>::from(n).bits(), 7);
    }
}
