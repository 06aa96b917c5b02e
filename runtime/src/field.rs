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

use core::fmt;
use core::marker::PhantomData;

use crate::{Layout, Value, Word};

/// `fn() -> _`: a field is a plain constant whatever its types (Send, Sync, no drop check).
type Types<L, R, W> = PhantomData<fn() -> (L, R, W)>;

/// Field `lsb .. lsb + width` of layout `L`, read as `R` and written as `W`.
pub struct Field<L, R, W> {
    lsb: u8,
    width: u8,
    _types: Types<L, R, W>,
}

impl<L, R, W> Field<L, R, W> {
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

impl<L: Layout, R, W> Field<L, R, W> {
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
    pub fn with(self, value: Value<L>, bits: W) -> Value<L>
    where
        W: FieldWrite,
    {
        let raw = self.insert(value.bits().to_u64(), bits.to_field_bits());
        Value::from_bits_retain(L::Raw::from_u64(raw))
    }
}

/// A field that can be read as `R`: every [`Field`] whose read type is a [`FieldRead`].
/// [`Value::get`] asks for this rather than for `R: FieldRead`, so that getting a write-only field
/// fails with this rule first, not with a list of every type that could be read.
#[diagnostic::on_unimplemented(
    message = "this field is write-only: it cannot be read",
    label = "write-only field",
    note = "a write-only field (or one whose reads have side effects) reads as `WriteOnly`; set it with `with`"
)]
pub trait ReadableField<R> {
    /// What reading the field gives.
    type Value;
    /// The value of the field's `bits` (moved down to bit 0).
    fn decode(bits: u64) -> Self::Value;
}

#[diagnostic::do_not_recommend]
impl<L, R: FieldRead, W> ReadableField<R> for Field<L, R, W> {
    type Value = R::Value;
    #[inline(always)]
    fn decode(bits: u64) -> R::Value {
        R::from_field_bits(bits)
    }
}

/// A field that can be written with `W`: every [`Field`] whose write type is a [`FieldWrite`].
/// [`Value::with`] and [`Value::set`] ask for this rather than for `W: FieldWrite`, so that
/// writing a read-only field fails with this rule first, not with a list of every type that could
/// be written.
#[diagnostic::on_unimplemented(
    message = "this field is read-only: it cannot be written",
    label = "read-only field",
    note = "a read-only field writes as `ReadOnly`; read it with `get`, and write the register's other fields"
)]
pub trait WritableField<W> {
    /// The field's bits for `value` (bits above the field's width are dropped by the caller).
    fn encode(value: W) -> u64;
}

#[diagnostic::do_not_recommend]
impl<L, R, W: FieldWrite> WritableField<W> for Field<L, R, W> {
    #[inline(always)]
    fn encode(value: W) -> u64 {
        value.to_field_bits()
    }
}

/// `width` (1..=64) low bits set.
const fn ones(width: u32) -> u64 {
    u64::MAX >> (64 - width)
}

/// `COUNT` fields of layout `L` of one width, `stride` bits apart (an SVD field array,
/// `PIN%s`): `at::<N>()` is field `N`, checked when the program is compiled, `try_at(n)` field
/// `n`, or an error past the end; each is a [`Field`] like any other.
pub struct FieldArray<L, R, W, const COUNT: usize> {
    lsb: u8,
    width: u8,
    stride: u8,
    _types: Types<L, R, W>,
}

impl<L, R, W, const COUNT: usize> FieldArray<L, R, W, COUNT> {
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
    pub const fn at<const N: usize>(self) -> Field<L, R, W> {
        const { assert!(N < COUNT, "field array index out of range") };
        Field::new(
            self.lsb as u32 + N as u32 * self.stride as u32,
            self.width as u32,
        )
    }

    /// Field `n`, or an error past the end.
    #[inline(always)]
    pub const fn try_at(self, n: usize) -> Result<Field<L, R, W>, crate::IndexOutOfRange> {
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

impl<L, R, W, const COUNT: usize> Clone for FieldArray<L, R, W, COUNT> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, R, W, const COUNT: usize> Copy for FieldArray<L, R, W, COUNT> {}

impl<L, R, W, const COUNT: usize> fmt::Debug for FieldArray<L, R, W, COUNT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FieldArray[{} x {} bits from {}, {} apart]",
            COUNT, self.width, self.lsb, self.stride
        )
    }
}

impl<L, R, W> Clone for Field<L, R, W> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<L, R, W> Copy for Field<L, R, W> {}

impl<L, R, W> fmt::Debug for Field<L, R, W> {
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
        const DIV: Field<Self, u8, u8> = Field::new(4, 3);
        const GO: Field<Self, WriteOnly, bool> = Field::new(15, 1);
    }
    impl Layout for Ctrl {
        type Raw = u16;
        const INFO: crate::LayoutInfo<u16> = crate::LayoutInfo {
            res0: 0x0F00,
            res1: 0x0080,
            reset: None,
            name: "Ctrl",
            fields: "en 0 1;div 4 3 0=Off 5=Fast;raw 4 3;bad 4;worse x 1",
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
        v.set(Ctrl::DIV, 0x0A); // only the low 3 bits land
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
            res0: 0,
            res1: 0,
            reset: None,
            name: "Mode",
            // 0b10xx is `High` unless it is exactly 0b1010; a malformed mask names nothing.
            fields: "m 0 4 10=Ten 8/12=High 1/x=Bad",
        };
    }

    #[test]
    fn field_arrays_give_fields() {
        const PINS: FieldArray<Ctrl, u8, u8, 4> = FieldArray::new(8, 2, 2);
        let pin = PINS.at::<3>();
        assert_eq!((pin.lsb(), pin.width()), (14, 2));
        assert_eq!(PINS.try_at(1).map(|f| f.lsb()), Ok(10));
        assert!(PINS.try_at(4).is_err());
        let v = Ctrl::from_bits_retain(0).with(PINS.at::<2>(), 3u8);
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
    fn debug_names_the_bits() {
        extern crate std;
        assert_eq!(std::format!("{:?}", F::new(4, 3)), "Field[6:4]");
    }
}
