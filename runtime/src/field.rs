//! Fields of register values: one constant per field instead of methods per field.
//!
//! A generated layout declares each field as an associated constant, `Pmcr::E:
//! Field<Pmcr, bool, bool>`; values of every layout are read and written through the same three
//! generic methods ([`Value::get`], [`with`](Value::with), [`set`](Value::set)). A crate with
//! thousands of fields then compiles thousands of constants, not three functions each: the
//! accessors were most of a large crate's build time.
//!
//! The access rules are in the field's type: a write-only field reads as [`WriteOnly`], which is
//! not [`FieldRead`], and a read-only one writes as [`ReadOnly`], which is not [`FieldWrite`], so
//! `get` on the first and `with` on the second do not compile; the error states the rule
//! ([`ReadableField`], [`WritableField`]).
//!
//! A field's fourth type says what writing it does beyond storing the value ([`Plain`] for an
//! ordinary field, [`W1c`] for write-1-to-clear, ...): a register handle acknowledges one flag
//! with `clear_flag(Status::OVR)` only where the field is one that clears on write
//! ([`ClearsFlag`]), and likewise `set_flag`, `toggle_flag` and `trigger`.
//!
//! Values never truncate: a field takes exactly its own type, and an integer field narrower
//! than its Rust type takes a [`UInt`], which holds no more bits than the field, or a
//! [`Const`], checked against the field's width when the program is built.

use core::fmt;
use core::marker::PhantomData;

use crate::{Layout, Value, Word};

/// `fn() -> _`: a field is a plain constant whatever its types (Send, Sync, no drop check).
type Types<L, R, W, K> = PhantomData<fn() -> (L, R, W, K)>;

/// Field `lsb .. lsb + width` of layout `L`, read as `R` and written as `W`; `K` says what a
/// write does besides storing the value ([`Plain`]: nothing).
pub struct Field<L, R, W, K = Plain> {
    lsb: u8,
    width: u8,
    _types: Types<L, R, W, K>,
}

impl<L, R, W, K> Field<L, R, W, K> {
    /// The field of `width` bits at `lsb`. Generated crates define one per field of a layout.
    ///
    /// # Panics
    /// If `width` is 0 or the field does not fit in 64 bits (at compile time in a constant).
    #[inline(always)]
    pub const fn new(lsb: u32, width: u32) -> Self {
        assert!(
            width >= 1 && lsb + width <= 64,
            "a field is 1..=64 bits within 64"
        );
        Self {
            lsb: lsb as u8,
            width: width as u8,
            _types: PhantomData,
        }
    }

    /// The field's lowest bit.
    #[inline(always)]
    pub const fn lsb(self) -> u32 {
        self.lsb as u32
    }

    /// The field's width in bits.
    #[inline(always)]
    pub const fn width(self) -> u32 {
        self.width as u32
    }

    /// The field's bits in place: `width` ones shifted up to `lsb`.
    #[inline(always)]
    pub const fn mask(self) -> u64 {
        ones(self.width as u32) << self.lsb
    }

    /// The field's bits of `raw`, moved down to bit 0.
    #[inline(always)]
    pub const fn extract(self, raw: u64) -> u64 {
        (raw & self.mask()) >> self.lsb
    }

    /// `raw` with the field's bits replaced by `bits` (bits above the field's width ignored).
    #[inline(always)]
    pub const fn insert(self, raw: u64, bits: u64) -> u64 {
        (raw & !self.mask()) | ((bits << self.lsb) & self.mask())
    }
}

impl<L: Layout, R, W, K> Field<L, R, W, K> {
    /// This field of `value` (as `value.get(field)`).
    #[inline(always)]
    pub fn get(self, value: Value<L>) -> R::Value
    where
        R: FieldRead,
    {
        R::from_field_bits(self.extract(value.bits().to_u64()))
    }

    /// `value` with this field set to `bits` (as `value.with(field, bits)`).
    #[inline(always)]
    #[must_use]
    pub fn with<V>(self, value: Value<L>, bits: V) -> Value<L>
    where
        Self: WritableField<V>,
    {
        value.with(self, bits)
    }
}

/// A field that can be read as `R`: every [`Field`] whose read type is a [`FieldRead`].
/// [`Value::get`] asks for this rather than for `R: FieldRead`, so that getting a write-only field
/// fails with this rule first, not with a list of every type that could be read.
#[diagnostic::on_unimplemented(
    message = "this field is write-only: it cannot be read",
    label = "write-only field",
    note = "a write-only field reads as `WriteOnly`; set it with `with`"
)]
pub trait ReadableField<R> {
    /// What reading the field gives.
    type Value;
    /// The value of the field's `bits` (moved down to bit 0).
    fn decode(bits: u64) -> Self::Value;
}

#[diagnostic::do_not_recommend]
impl<L, R: FieldRead, W, K> ReadableField<R> for Field<L, R, W, K> {
    type Value = R::Value;
    #[inline(always)]
    fn decode(bits: u64) -> R::Value {
        R::from_field_bits(bits)
    }
}

/// A field that can be written with a `V`: every [`Field`] with its own write type (a
/// [`FieldWrite`]), and every narrow integer field with a [`Const`] that fits it.
/// [`Value::with`] and [`Value::set`] ask for this rather than for `W: FieldWrite`, so that
/// writing a read-only field, or a narrow field with a bare integer, fails with this rule.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written with `{V}`",
    label = "not this field's value type",
    note = "a read-only field writes as `ReadOnly`: read it with `get`, and write the register's other fields",
    note = "an integer field narrower than its Rust type (`UInt<u8, 3>`) takes `Const::<5>` (checked when the program is built), `UInt::try_from(n)?` (checked when it runs) or `UInt::truncating(n)` (drops the high bits), never a bare integer"
)]
pub trait WritableField<V> {
    /// The field's bits for `value` (no more than the field's width).
    fn encode(value: V) -> u64;
}

#[diagnostic::do_not_recommend]
impl<L, R, W: FieldWrite, K> WritableField<W> for Field<L, R, W, K> {
    #[inline(always)]
    fn encode(value: W) -> u64 {
        value.to_field_bits()
    }
}

#[diagnostic::do_not_recommend]
impl<L, R, T, const N: u32, K, const V: u64> WritableField<Const<V>>
    for Field<L, R, UInt<T, N>, K>
{
    #[inline(always)]
    fn encode(_: Const<V>) -> u64 {
        const {
            assert!(
                N >= 64 || V >> N == 0,
                "the constant is wider than its field (`Const::<V>` on a field of N bits)"
            )
        };
        V
    }
}

/// A constant for a narrow integer field, checked against the field's width when the program is
/// built: `value.with(Ctrl::DIV, Const::<5>)` compiles for a field of 3 bits or more, and is an
/// error ("the constant is wider than its field") for one of 2.
///
/// `cargo build` evaluates the check; `cargo check` does not (it is a constant of the generic
/// method, evaluated where the program is generated, like an array's `at::<N>()`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Const<const V: u64>;

/// The value of an integer field of `N` bits whose Rust type `T` is wider (a field of 3 bits
/// is a `u8`): it holds at most `N` bits, so writing it never drops any. Made with
/// [`try_from`](TryFrom::try_from) (checked), [`truncating`](UInt::truncating) (explicit) or
/// [`Const`] (checked when the program is built).
///
/// svd2rust gives such fields an `unsafe fn bits(n)` where the description does not say every
/// value is allowed, and a safe one that masks `n` otherwise; here no form masks without saying
/// so, and none needs `unsafe`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UInt<T, const N: u32>(T);

/// An integer too wide for its field: what [`UInt::try_from`](TryFrom::try_from) gives back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooWide {
    /// The value asked for.
    pub value: u64,
    /// The field's width in bits.
    pub width: u32,
}

impl fmt::Display for TooWide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:#x} does not fit in a field of {} bits (at most {:#x})",
            self.value,
            self.width,
            ones(self.width)
        )
    }
}

impl core::error::Error for TooWide {}

impl<T: Word, const N: u32> UInt<T, N> {
    /// The largest value the field holds.
    pub const MAX: u64 = ones(N);
    /// `value` with the bits above the field's width dropped: the explicit truncation.
    #[inline(always)]
    pub fn truncating(value: T) -> Self {
        Self(T::from_u64(value.to_u64() & Self::MAX))
    }
    /// The value.
    #[inline(always)]
    pub fn get(self) -> T {
        self.0
    }
}

impl<T: Word, const N: u32> FieldWrite for UInt<T, N> {
    #[inline(always)]
    fn to_field_bits(self) -> u64 {
        self.0.to_u64()
    }
}

// Per integer type rather than over `Word`: core's `impl<T, U: Into<T>> TryFrom<U> for T`
// would overlap a generic impl.
macro_rules! uint {
    ($($t:ty),*) => {$(
        impl<const N: u32> TryFrom<$t> for UInt<$t, N> {
            type Error = TooWide;
            /// `value`, or an error if it is wider than the field.
            #[inline(always)]
            fn try_from(value: $t) -> Result<Self, TooWide> {
                if value as u64 <= Self::MAX {
                    Ok(Self(value))
                } else {
                    Err(TooWide { value: value as u64, width: N })
                }
            }
        }
        impl<const N: u32> From<UInt<$t, N>> for $t {
            #[inline(always)]
            fn from(value: UInt<$t, N>) -> $t {
                value.0
            }
        }
    )*};
}
uint!(u8, u16, u32, u64);

/// The write types of integer fields: what [`Value::with_address`](crate::Value::with_address)
/// takes (an address field is an integer field).
pub trait IntegerWrite {}
impl<T, const N: u32> IntegerWrite for UInt<T, N> {}
impl IntegerWrite for u8 {}
impl IntegerWrite for u16 {}
impl IntegerWrite for u32 {}
impl IntegerWrite for u64 {}

/// What a write of a field does besides storing the value: the last type of a [`Field`]. Each
/// kind is a type so that acknowledging a flag is a call only a field of that kind takes.
pub trait WriteKind {
    /// The kind as descriptions spell it (`w1c`).
    const NAME: &'static str;
}

macro_rules! kinds {
    ($($(#[$doc:meta])* $kind:ident = $name:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub enum $kind {}
        impl WriteKind for $kind {
            const NAME: &'static str = $name;
        }
    )*};
}
kinds! {
    /// A write stores the value, and does nothing else.
    Plain = "rw";
    /// Writing 1 clears the bit; writing 0 does nothing.
    W1c = "w1c";
    /// Writing 1 sets the bit; writing 0 does nothing.
    W1s = "w1s";
    /// Writing 1 toggles the bit; writing 0 does nothing.
    W1t = "w1t";
    /// Writing 0 clears the bit; writing 1 does nothing.
    W0c = "w0c";
    /// Writing 0 sets the bit; writing 1 does nothing.
    W0s = "w0s";
    /// Writing 0 toggles the bit; writing 1 does nothing.
    W0t = "w0t";
    /// Any write clears the field: no write leaves it alone.
    WClr = "wclr";
    /// Any write sets the field: no write leaves it alone.
    WSet = "wset";
    /// Writing 1 triggers an action (the bit reads as 0); writing 0 does nothing.
    W1Action = "w1-action";
}

/// Fields a write clears: `clear_flag` takes them.
#[diagnostic::on_unimplemented(
    message = "`clear_flag` takes a write-1-to-clear or write-0-to-clear field, not a `{Self}` one",
    note = "the field's last type says what writing it does; `set_flag`, `toggle_flag` and `trigger` take the other kinds, and `modify` changes an ordinary field"
)]
pub trait ClearsFlag: WriteKind {}
impl ClearsFlag for W1c {}
impl ClearsFlag for W0c {}

/// Fields a write sets: `set_flag` takes them.
#[diagnostic::on_unimplemented(
    message = "`set_flag` takes a write-1-to-set or write-0-to-set field, not a `{Self}` one",
    note = "the field's last type says what writing it does; `clear_flag`, `toggle_flag` and `trigger` take the other kinds, and `modify` changes an ordinary field"
)]
pub trait SetsFlag: WriteKind {}
impl SetsFlag for W1s {}
impl SetsFlag for W0s {}

/// Fields a write toggles: `toggle_flag` takes them.
#[diagnostic::on_unimplemented(
    message = "`toggle_flag` takes a write-1-to-toggle or write-0-to-toggle field, not a `{Self}` one",
    note = "the field's last type says what writing it does; `clear_flag`, `set_flag` and `trigger` take the other kinds, and `modify` changes an ordinary field"
)]
pub trait TogglesFlag: WriteKind {}
impl TogglesFlag for W1t {}
impl TogglesFlag for W0t {}

/// Write-1 actions: `trigger` takes them.
#[diagnostic::on_unimplemented(
    message = "`trigger` takes a write-1 action field, not a `{Self}` one",
    note = "the field's last type says what writing it does; `clear_flag`, `set_flag` and `toggle_flag` take the other kinds, and `modify` changes an ordinary field"
)]
pub trait Triggers: WriteKind {}
impl Triggers for W1Action {}

/// `width` (1..=64) low bits set.
const fn ones(width: u32) -> u64 {
    u64::MAX >> (64 - width)
}

/// `COUNT` fields of layout `L` of one width, `stride` bits apart (an SVD field array,
/// `PIN%s`): `at::<N>()` is field `N`, checked when the program is compiled, `try_at(n)` field
/// `n`, or an error past the end; each is a [`Field`] like any other.
pub struct FieldArray<L, R, W, const COUNT: usize, K = Plain> {
    lsb: u8,
    width: u8,
    stride: u8,
    _types: Types<L, R, W, K>,
}

impl<L, R, W, const COUNT: usize, K> FieldArray<L, R, W, COUNT, K> {
    /// The array whose field 0 is `width` bits at `lsb`, each next one `stride` bits on.
    ///
    /// # Panics
    /// If a field would not fit in 64 bits (at compile time in a constant).
    #[inline(always)]
    pub const fn new(lsb: u32, width: u32, stride: u32) -> Self {
        assert!(
            COUNT >= 1
                && width >= 1
                && stride >= width
                && lsb as u64 + (COUNT as u64 - 1) * stride as u64 + width as u64 <= 64,
            "a field array's fields are 1..=64 bits within 64, none overlapping"
        );
        Self {
            lsb: lsb as u8,
            width: width as u8,
            stride: stride as u8,
            _types: PhantomData,
        }
    }

    /// The number of fields.
    pub const COUNT: usize = COUNT;

    /// Field `N`; an index past the end does not compile.
    #[inline(always)]
    pub const fn at<const N: usize>(self) -> Field<L, R, W, K> {
        const { assert!(N < COUNT, "field array index out of range") };
        Field::new(
            self.lsb as u32 + N as u32 * self.stride as u32,
            self.width as u32,
        )
    }

    /// Field `n`, or an error past the end.
    #[inline(always)]
    pub const fn try_at(self, n: usize) -> Result<Field<L, R, W, K>, crate::IndexOutOfRange> {
        if n >= COUNT {
            return Err(crate::IndexOutOfRange {
                index: n,
                count: COUNT,
            });
        }
        Ok(Field::new(
            self.lsb as u32 + n as u32 * self.stride as u32,
            self.width as u32,
        ))
    }

    /// The number of fields.
    #[inline(always)]
    pub const fn len(self) -> usize {
        COUNT
    }

    /// Whether the array is empty (never, for a generated one).
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        COUNT == 0
    }
}

impl<L, R, W, const COUNT: usize, K> Clone for FieldArray<L, R, W, COUNT, K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, R, W, const COUNT: usize, K> Copy for FieldArray<L, R, W, COUNT, K> {}

impl<L, R, W, const COUNT: usize, K> fmt::Debug for FieldArray<L, R, W, COUNT, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FieldArray[{} x {} bits from {}, {} apart]",
            COUNT, self.width, self.lsb, self.stride
        )
    }
}

impl<L, R, W, K> Clone for Field<L, R, W, K> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<L, R, W, K> Copy for Field<L, R, W, K> {}

impl<L, R, W, K> fmt::Debug for Field<L, R, W, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Field[{}:{}]", self.lsb + self.width - 1, self.lsb)
    }
}

/// What a readable field holds: decoded from the field's bits (moved down to bit 0).
#[diagnostic::on_unimplemented(
    message = "this field cannot be read: `{Self}` is not a readable field value",
    note = "a write-only field (or one whose reads have side effects) reads as `WriteOnly`"
)]
pub trait FieldRead {
    /// What `get` returns: the value, or for an enum that names only some bit patterns,
    /// `Result<Self, bits>` with the unnamed bits as the error.
    type Value;
    /// The value of `bits`, which hold no more than the field's width.
    fn from_field_bits(bits: u64) -> Self::Value;
}

/// What a writable field takes: encoded into the field's bits.
#[diagnostic::on_unimplemented(
    message = "this field cannot be written with `{Self}`",
    note = "a read-only field writes as `ReadOnly`; otherwise pass the field's value type"
)]
pub trait FieldWrite: Copy {
    /// The field's bits for this value (bits above the field's width are dropped by the caller).
    fn to_field_bits(self) -> u64;
}

/// The read type of a field that cannot be read (write-only, or read with a side effect the
/// description forbids): not [`FieldRead`].
#[derive(Clone, Copy, Debug)]
pub enum WriteOnly {}

/// The write type of a field that cannot be written: not [`FieldWrite`].
#[derive(Clone, Copy, Debug)]
pub enum ReadOnly {}

/// `Debug` for a layout's values: `name { field: value, .. }` for the fields of `raw` that `table`
/// lists, `;`-separated, each as `name lsb width`, then for an enumerated field `bits=Name` (or
/// `bits/mask=Name` for a value with don't-care bits) per
/// value: `"e 0 1;n 11 5;mode 4 2 0=Off 1=Fast"`. A 1-bit field without names shows as a `bool`,
/// a wider one or a value without a name as hex.
///
/// One function shared by every layout and one string literal per layout: a table of typed
/// constants, or a chain of calls per layout, cost a large crate a tenth of its build.
pub fn debug_fields(f: &mut fmt::Formatter<'_>, name: &str, raw: u64, table: &str) -> fmt::Result {
    struct Shown<'a>(Shows<'a>);
    impl fmt::Debug for Shown<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self.0 {
                Shows::Flag(on) => fmt::Debug::fmt(&on, f),
                Shows::Named(name) => f.write_str(name),
                Shows::Number(bits) => write!(f, "{bits:#x}"),
            }
        }
    }
    let mut s = f.debug_struct(name);
    for (field, shown) in shown_fields(raw, table) {
        s.field(field, &Shown(shown));
    }
    s.finish()
}

/// `Debug` for an enumerated field's value: the name `names` gives `bits`, a space-separated
/// `bits=Name` list (`"0=Off 1=Fast"`), or `bits` in hex if it has none.
///
/// ```
/// # use armreg_rt::field::debug_variant;
/// struct Mode(u64);
/// impl core::fmt::Debug for Mode {
///     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
///         debug_variant(f, self.0, "0=Off 1=Fast")
///     }
/// }
/// assert_eq!(format!("{:?}", Mode(1)), "Fast");
/// assert_eq!(format!("{:?}", Mode(2)), "0x2");
/// ```
///
/// One function and one string literal per enum, as [`debug_fields`] for layouts: a `match` of
/// names in each enum's `Debug` cost rp2040's crate 1.1 MB of its build peak.
pub fn debug_variant(f: &mut fmt::Formatter<'_>, bits: u64, names: &str) -> fmt::Result {
    match name_of(names.split_ascii_whitespace(), bits) {
        Some(name) => f.write_str(name),
        None => write!(f, "{bits:#x}"),
    }
}

/// The name a list of `value=Name` words (a table's, or an enum's) gives `bits`.
fn name_of<'a>(names: impl Iterator<Item = &'a str>, bits: u64) -> Option<&'a str> {
    names
        .filter_map(|n| n.split_once('='))
        .find(|(value, _)| matches_value(value, bits))
        .map(|(_, name)| name)
}

/// How one field of a value shows: a 1-bit field without names as a flag, a value with a name as
/// that name, anything else as a number.
#[derive(Clone, Copy)]
pub(crate) enum Shows<'a> {
    Flag(bool),
    Named(&'a str),
    Number(u64),
}

/// The fields of `raw` that `table` lists (the format [`debug_fields`] reads), each with how it
/// shows: what `Debug` and `defmt::Format` both print.
pub(crate) fn shown_fields<'a>(
    raw: u64,
    table: &'a str,
) -> impl Iterator<Item = (&'a str, Shows<'a>)> + 'a {
    table.split(';').filter_map(move |entry| {
        let mut words = entry.split_ascii_whitespace();
        let (field, lsb, width) = (words.next()?, words.next()?, words.next()?);
        let (Ok(lsb), Ok(width @ 1..=64)) = (lsb.parse::<u32>(), width.parse::<u32>()) else {
            return None;
        };
        let bits = raw.checked_shr(lsb).unwrap_or(0) & ones(width);
        let mut names = words.peekable();
        let shown = if width == 1 && names.peek().is_none() {
            Shows::Flag(bits != 0)
        } else {
            name_of(names, bits).map_or(Shows::Number(bits), Shows::Named)
        };
        Some((field, shown))
    })
}

/// Whether a table's value `v` (or `v/mask`, a value with don't-care bits) matches `bits`.
fn matches_value(value: &str, bits: u64) -> bool {
    match value.split_once('/') {
        Some((value, mask)) => match (value.parse::<u64>(), mask.parse::<u64>()) {
            (Ok(value), Ok(mask)) => bits & mask == value,
            _ => false,
        },
        None => value.parse::<u64>() == Ok(bits),
    }
}

impl FieldRead for bool {
    type Value = bool;
    #[inline(always)]
    fn from_field_bits(bits: u64) -> bool {
        bits != 0
    }
}

impl FieldWrite for bool {
    #[inline(always)]
    fn to_field_bits(self) -> u64 {
        self as u64
    }
}

macro_rules! int_field {
    ($($t:ty),*) => {$(
        impl FieldRead for $t {
            type Value = $t;
            #[inline(always)]
            fn from_field_bits(bits: u64) -> $t {
                bits as $t
            }
        }

        impl FieldWrite for $t {
            #[inline(always)]
            fn to_field_bits(self) -> u64 {
                self as u64
            }
        }
    )*};
}
int_field!(u8, u16, u32, u64);

#[cfg(test)]
mod tests {
    use super::*;

    type F = Field<(), u8, u8>;

    #[test]
    fn masks_extract_and_insert() {
        let f = F::new(4, 3);
        assert_eq!(f.mask(), 0x70);
        assert_eq!(f.extract(0xFF), 0x7);
        assert_eq!(f.insert(0xFF, 0), 0x8F);
        // Bits above the width are ignored, the rest kept.
        assert_eq!(f.insert(0x00, 0xFA), 0x20);
        let full = F::new(0, 64);
        assert_eq!(full.mask(), u64::MAX);
        assert_eq!(full.insert(1, u64::MAX), u64::MAX);
        let top = F::new(63, 1);
        assert_eq!(top.mask(), 1 << 63);
        assert_eq!(top.extract(u64::MAX), 1);
    }

    #[test]
    #[should_panic(expected = "a field is 1..=64 bits within 64")]
    fn a_field_past_bit_63_is_refused() {
        let _ = F::new(60, 5);
    }

    enum Ctrl {}
    impl Ctrl {
        const EN: Field<Self, bool, bool> = Field::new(0, 1);
        const DIV: Field<Self, u8, UInt<u8, 3>> = Field::new(4, 3);
        const GO: Field<Self, WriteOnly, bool> = Field::new(15, 1);
    }
    impl Layout for Ctrl {
        type Raw = u16;
        const INFO: crate::LayoutInfo<u16> = crate::LayoutInfo {
            res0: 0x0F00,
            res1: 0x0080,
            default: 0x0080,
            name: "Ctrl",
            fields: "en 0 1;div 4 3 0=Off 5=Fast;raw 4 3;bad 4;worse x 1",
            ..crate::LayoutInfo::<u16>::PLAIN
        };
    }

    #[test]
    fn fields_read_and_write_through_the_value_type() {
        let mut v = Ctrl::from_bits(0xFFFF);
        // RES0 cleared, RES1 set by `from_bits`; `from_bits_retain` keeps everything.
        assert_eq!(v.bits(), 0xF0FF);
        assert_eq!(Ctrl::from_bits_retain(0xFFFF).bits(), 0xFFFF);
        assert!(v.get(Ctrl::EN));
        assert_eq!(v.get(Ctrl::DIV), 7);
        v.set(Ctrl::DIV, UInt::truncating(0x0A)); // only the low 3 bits land, as the name says
        assert_eq!(v.get(Ctrl::DIV), 2);
        assert_eq!(v.bits(), 0xF0AF);
        let w = v.with(Ctrl::EN, false).with(Ctrl::GO, false);
        assert_eq!(w.bits(), 0x70AE);
        // The inherent forms need no trait in scope.
        assert_eq!(Ctrl::DIV.get(w), 2);
        assert_eq!(Ctrl::EN.with(w, true).bits(), 0x70AF);
        // Values compare by their bits; the default is the reserved-one bits.
        assert_eq!(Value::<Ctrl>::default().bits(), 0x0080);
        assert!(w == Value::from_bits_retain(0x70AE) && w != v);
    }

    #[test]
    fn debug_shows_readable_fields_from_the_table() {
        extern crate std;
        let v = Ctrl::from_bits_retain(0x0051);
        assert_eq!(
            std::format!("{v:?}"),
            "Ctrl { en: true, div: Fast, raw: 0x5 }"
        );
        let v = Ctrl::from_bits_retain(0x0070);
        assert_eq!(
            std::format!("{v:?}"),
            "Ctrl { en: false, div: 0x7, raw: 0x7 }"
        );
    }

    enum Mode {}
    impl Layout for Mode {
        type Raw = u8;
        const INFO: crate::LayoutInfo<u8> = crate::LayoutInfo {
            name: "Mode",
            // 0b10xx is `High` unless it is exactly 0b1010; a malformed mask names nothing.
            fields: "m 0 4 10=Ten 8/12=High 1/x=Bad",
            ..crate::LayoutInfo::<u8>::PLAIN
        };
    }

    #[test]
    fn field_arrays_give_fields() {
        const PINS: FieldArray<Ctrl, u8, UInt<u8, 2>, 4> = FieldArray::new(8, 2, 2);
        let pin = PINS.at::<3>();
        assert_eq!((pin.lsb(), pin.width()), (14, 2));
        assert_eq!(PINS.try_at(1).map(|f| f.lsb()), Ok(10));
        assert!(PINS.try_at(4).is_err());
        let v = Ctrl::from_bits_retain(0).with(PINS.at::<2>(), Const::<3>);
        assert_eq!(v.bits(), 0b11 << 12);
        assert_eq!(v.get(PINS.try_at(2).unwrap()), 3);
    }

    #[test]
    fn debug_matches_values_with_dont_care_bits() {
        extern crate std;
        let shown = |bits| std::format!("{:?}", Mode::from_bits_retain(bits));
        assert_eq!(shown(0b1000), "Mode { m: High }");
        assert_eq!(shown(0b1011), "Mode { m: High }");
        assert_eq!(shown(0b1010), "Mode { m: Ten }");
        assert_eq!(shown(0b1100), "Mode { m: 0xc }");
        assert_eq!(shown(0b0001), "Mode { m: 0x1 }");
    }

    #[test]
    fn narrow_integers_never_truncate_silently() {
        extern crate std;
        // Checked when running: a value that fits, and one that does not, with its reason.
        let fits: UInt<u8, 3> = UInt::try_from(5u8).unwrap();
        assert_eq!(fits.get(), 5);
        let too_wide = UInt::<u8, 3>::try_from(8u8).unwrap_err();
        assert_eq!(too_wide, TooWide { value: 8, width: 3 });
        assert_eq!(
            std::format!("{too_wide}"),
            "0x8 does not fit in a field of 3 bits (at most 0x7)"
        );
        // Truncating says so; the largest value is the field's.
        assert_eq!(UInt::<u8, 3>::truncating(0b1101).get(), 0b101);
        assert_eq!(UInt::<u16, 12>::MAX, 0xFFF);
        assert_eq!(UInt::<u64, 63>::MAX, u64::MAX >> 1);
        assert_eq!(
            UInt::<u64, 64>::try_from(u64::MAX).map(UInt::get),
            Ok(u64::MAX)
        );
        // A constant is checked when the program is built (a too-wide one is a compile error:
        // the compile-fail test `tests/access-rules/const_too_wide_for_field.rs`).
        let v = Ctrl::DEFAULT
            .with(Ctrl::DIV, Const::<7>)
            .with(Ctrl::DIV, fits);
        assert_eq!(v.get(Ctrl::DIV), 5);
        assert_eq!(u8::from(fits), 5);
    }

    enum Status {}
    impl Status {
        const IE: Field<Self, bool, bool> = Field::new(0, 1);
        const OVR: Field<Self, bool, bool, W1c> = Field::new(1, 1);
        const DONE: Field<Self, bool, bool, W0c> = Field::new(2, 1);
        const GO: Field<Self, WriteOnly, bool, W1Action> = Field::new(3, 1);
    }
    impl Layout for Status {
        type Raw = u32;
        const INFO: crate::LayoutInfo<u32> = crate::LayoutInfo {
            res0: 0xFFFF_FF00,
            res1: 0x80,
            default: 0x84,
            w1_effects: 0x0A,
            stored: 0x01,
            name: "Status",
            fields: "ie 0 1;ovr 1 1;done 2 1",
            ..crate::LayoutInfo::<u32>::PLAIN
        };
    }

    #[test]
    fn neutral_values_leave_every_side_effect_alone() {
        // Read with IE, OVR and DONE set, GO reading 1: the neutral value keeps IE, writes 0
        // to the write-1 bits and 1 to the write-0 one.
        let read = Status::from_bits_retain(0x8F);
        assert_eq!(read.neutral().bits(), 0x85);
        // DEFAULT writes nothing that acts either: DONE (w0c) is 1 in it.
        assert_eq!(Status::DEFAULT.bits(), 0x84);
        assert!(Status::DEFAULT.get(Status::DONE));
        // Acting on one field flips exactly that field's neutral bits.
        assert_eq!(read.acting_on(Status::OVR).bits(), 0x87);
        assert_eq!(read.acting_on(Status::DONE).bits(), 0x81);
        assert_eq!(read.acting_on(Status::GO).bits(), 0x8D);
        let _ = Status::IE;
    }

    #[test]
    fn debug_names_the_bits() {
        extern crate std;
        assert_eq!(std::format!("{:?}", F::new(4, 3)), "Field[6:4]");
    }
}
