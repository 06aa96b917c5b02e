//! The 32-bit halves of 64-bit register values.
//!
//! Event counters overflow at 32 bits (the driver keeps PMCR.LP clear), AArch32 and external views
//! of PMCR are 32 bits wide, and a 32-bit cycle-counter access writes the low word: in each case
//! the driver wants one word of a 64-bit value on purpose. These two functions are the only places
//! that narrow, and the mask or shift in each makes the result fit in 32 bits before the cast.

/// Bits \[31:0\] of `value`.
#[inline(always)]
pub(crate) const fn low(value: u64) -> u32 {
    (value & 0xFFFF_FFFF) as u32
}

/// Bits \[63:32\] of `value`.
#[inline(always)]
pub(crate) const fn high(value: u64) -> u32 {
    (value >> 32) as u32
}

#[cfg(test)]
mod tests {
    #[test]
    fn halves() {
        assert_eq!(super::low(0x1234_5678_9ABC_DEF0), 0x9ABC_DEF0);
        assert_eq!(super::high(0x1234_5678_9ABC_DEF0), 0x1234_5678);
        assert_eq!(super::low(u64::MAX), u32::MAX);
        assert_eq!(super::high(u64::from(u32::MAX)), 0);
    }
}
