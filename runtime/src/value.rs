use crate::field::{Field, FieldRead, FieldWrite};

/// An unsigned integer a register can be made of.
///
/// Buses move registers as `Word`s; the conversions through `u64` let a bus that is not memory
/// (a behavioural model) store every width alike.
pub trait Word: Copy + Eq + core::fmt::Debug {
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

/// A register value type generated from a layout.
///
/// Everything but the reserved bits is provided: conversions, the raw bits and the field
/// accessors. A crate with a thousand value types then declares a thousand small impls rather
/// than compiling thousands of functions, which were most of a large crate's build time. Fields are
/// constants of the value type ([`Field`]); bring this trait into scope to read and write them:
///
/// ```
/// # use armreg_rt::{Field, RegisterValue};
/// # #[derive(Clone, Copy)] #[repr(transparent)] struct Ctrl(u32);
/// # impl Ctrl { const EN: Field<Self, bool, bool> = Field::new(0, 1); const DIV: Field<Self, u8, u8> = Field::new(4, 3); }
/// # unsafe impl RegisterValue for Ctrl { type Raw = u32; const RES0: u32 = 0xFFFF_FF00; const RES1: u32 = 0; }
/// let v = Ctrl::from_bits(0).with(Ctrl::EN, true).with(Ctrl::DIV, 5);
/// assert_eq!(v.bits(), 0x51);
/// assert_eq!(v.get(Ctrl::DIV), 5);
/// ```
///
/// # Safety
/// `Self` must be a `#[repr(transparent)]` newtype of `Raw` in which every bit pattern is a valid
/// value (as every generated value type is), or override `from_raw` and `to_raw`.
pub unsafe trait RegisterValue: Copy {
    /// The integer the register is made of.
    type Raw: Word;
    /// Bits reserved as zero: [`from_bits`](Self::from_bits) keeps them clear.
    const RES0: Self::Raw;
    /// Bits reserved as one: [`from_bits`](Self::from_bits) keeps them set.
    const RES1: Self::Raw;
    /// The value as read from hardware, every bit kept.
    #[inline(always)]
    fn from_raw(raw: Self::Raw) -> Self {
        const { assert!(core::mem::size_of::<Self>() == core::mem::size_of::<Self::Raw>()) };
        // SAFETY: the trait's contract: `Self` is a transparent newtype of `Raw` and any bits
        // are a value; the sizes are equal (checked above).
        unsafe { core::mem::transmute_copy(&raw) }
    }
    /// The bits to write.
    #[inline(always)]
    fn to_raw(self) -> Self::Raw {
        const { assert!(core::mem::size_of::<Self>() == core::mem::size_of::<Self::Raw>()) };
        // SAFETY: as for `from_raw`, in the other direction.
        unsafe { core::mem::transmute_copy(&self) }
    }
    /// A value from raw bits, with reserved bits forced to their reserved values.
    #[inline(always)]
    fn from_bits(bits: Self::Raw) -> Self {
        let (bits, res0, res1) = (bits.to_u64(), Self::RES0.to_u64(), Self::RES1.to_u64());
        Self::from_raw(Self::Raw::from_u64((bits & !res0) | res1))
    }
    /// A value from raw bits, every bit kept (as read from hardware).
    #[inline(always)]
    fn from_bits_retain(bits: Self::Raw) -> Self {
        Self::from_raw(bits)
    }
    /// The raw bits.
    #[inline(always)]
    fn bits(self) -> Self::Raw {
        self.to_raw()
    }
    /// The value of `field`: `Pmcr::DEFAULT.get(Pmcr::E)`.
    #[inline(always)]
    fn get<R: FieldRead, W>(self, field: Field<Self, R, W>) -> R::Value {
        field.get(self)
    }
    /// The value with `field` set to `value`; bits of an integer `value` above the field's width
    /// are ignored: `Pmcr::DEFAULT.with(Pmcr::E, true).with(Pmcr::N, 3)`.
    #[inline(always)]
    #[must_use]
    fn with<R, W: FieldWrite>(self, field: Field<Self, R, W>, value: W) -> Self {
        field.with(self, value)
    }
    /// Sets `field` to `value` in place, as [`with`](Self::with).
    #[inline(always)]
    fn set<R, W: FieldWrite>(&mut self, field: Field<Self, R, W>, value: W) {
        *self = field.with(*self, value);
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
