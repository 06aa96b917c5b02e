/// An unsigned integer a register can be made of.
pub trait Word: Copy + Eq + core::fmt::Debug {
    /// Width in bits.
    const BITS: u32;
    /// Reads a register of this width at `addr` with volatile bus accesses no wider than
    /// `bus_bytes`; a wider register is read in parts, lowest address first.
    ///
    /// # Safety
    /// `addr` must be valid for a volatile read of `Self::BITS / 8` bytes and suitably aligned.
    unsafe fn load(addr: usize, bus_bytes: usize) -> Self;
    /// Writes a register of this width, in parts (lowest address first) if the bus is narrower.
    ///
    /// # Safety
    /// `addr` must be valid for a volatile write of `Self::BITS / 8` bytes and suitably aligned.
    unsafe fn store(addr: usize, bus_bytes: usize, value: Self);
}

macro_rules! narrow_word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            unsafe fn load(addr: usize, _bus_bytes: usize) -> Self {
                // SAFETY: the caller guarantees `addr` is valid and aligned for this width.
                unsafe { (addr as *const $t).read_volatile() }
            }
            #[inline(always)]
            unsafe fn store(addr: usize, _bus_bytes: usize, value: Self) {
                // SAFETY: the caller guarantees `addr` is valid and aligned for this width.
                unsafe { (addr as *mut $t).write_volatile(value) }
            }
        }
    )*};
}
narrow_word!(u8, u16, u32);

impl Word for u64 {
    const BITS: u32 = 64;
    #[inline(always)]
    unsafe fn load(addr: usize, bus_bytes: usize) -> Self {
        if bus_bytes >= 8 {
            // SAFETY: the caller guarantees `addr` is valid and aligned for 8 bytes.
            unsafe { (addr as *const u64).read_volatile() }
        } else {
            // SAFETY: as above; the two halves lie inside the same 8 bytes.
            let (lo, hi) = unsafe {
                (
                    (addr as *const u32).read_volatile(),
                    ((addr + 4) as *const u32).read_volatile(),
                )
            };
            (u64::from(hi) << 32) | u64::from(lo)
        }
    }
    #[inline(always)]
    unsafe fn store(addr: usize, bus_bytes: usize, value: Self) {
        if bus_bytes >= 8 {
            // SAFETY: the caller guarantees `addr` is valid and aligned for 8 bytes.
            unsafe { (addr as *mut u64).write_volatile(value) }
        } else {
            // SAFETY: as above; the two halves lie inside the same 8 bytes.
            unsafe {
                (addr as *mut u32).write_volatile(value as u32);
                ((addr + 4) as *mut u32).write_volatile((value >> 32) as u32);
            }
        }
    }
}

/// A register value type generated from a layout.
pub trait RegisterValue: Copy {
    /// The integer the register is made of.
    type Raw: Word;
    /// The value as read from hardware, every bit kept.
    fn from_raw(raw: Self::Raw) -> Self;
    /// The bits to write.
    fn to_raw(self) -> Self::Raw;
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
