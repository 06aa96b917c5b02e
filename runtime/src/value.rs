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
/// The conversions are provided: a crate with a thousand value types then declares a thousand
/// one-line impls rather than compiling two thousand functions.
///
/// # Safety
/// `Self` must be a `#[repr(transparent)]` newtype of `Raw` in which every bit pattern is a valid
/// value (as every generated value type is), or override both methods.
pub unsafe trait RegisterValue: Copy {
    /// The integer the register is made of.
    type Raw: Word;
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
