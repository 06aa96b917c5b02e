//! Ticks to nanoseconds without a division per call and without overflow.
//!
//! `ns = ticks * 10^9 / f`. With `q = 10^9 / f` and `r = 10^9 % f` (computed once):
//!
//! ```text
//! ticks * 10^9 / f = ticks * q + ticks * r / f
//! ```
//!
//! The second term uses `frac = floor(r * 2^64 / f)`, a 64-bit binary fraction of `r / f`:
//! `(ticks * frac) >> 64`. Both products are 64 x 64 → 128-bit multiplications (`ticks < 2^64`,
//! `q < 2^30`, `frac < 2^64`), so nothing overflows for any 64-bit tick count, and the result is a
//! `u128` because `ticks * 10^9 / f` exceeds 64 bits for large counts at frequencies below 1 GHz.
//!
//! **Error bound.** `frac = r * 2^64 / f - e` with `0 <= e < 1`, so
//! `ticks * frac / 2^64 = ticks * r / f - ticks * e / 2^64`, and `0 <= ticks * e / 2^64 < 1`.
//! Hence [`TickConverter::to_ns`] is `floor(ticks * 10^9 / f)` or one less: it is never above the
//! exact value and at most 1 ns below it, over the whole 64-bit range; it is exact whenever `f`
//! divides 10^9 (`r = 0`), as for QEMU's 62.5 MHz. [`TickConverter::to_ns_exact`] removes the
//! possible 1 ns with one more multiplication and a comparison (still no division).

use crate::Error;

const NS_PER_S: u32 = 1_000_000_000;

/// Converts generic-timer ticks at one frequency to nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickConverter {
    freq: u32,
    /// 10^9 / f.
    whole: u32,
    /// 10^9 % f.
    rem: u32,
    /// floor(rem * 2^64 / f).
    frac: u64,
}

impl TickConverter {
    /// A converter for a counter at `freq` Hz (the divisions happen here, once).
    pub const fn new(freq: u32) -> Result<Self, Error> {
        if freq == 0 {
            return Err(Error::ZeroFrequency);
        }
        let rem = NS_PER_S % freq;
        Ok(Self {
            freq,
            whole: NS_PER_S / freq,
            rem,
            frac: Self::fraction(rem, freq),
        })
    }

    /// `floor(rem * 2^64 / freq)` for `rem < freq`.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "rem < freq, so rem * 2^64 / freq < 2^64 fits a u64 (`u64::try_from` is not const)"
    )]
    const fn fraction(rem: u32, freq: u32) -> u64 {
        (((rem as u128) << 64) / freq as u128) as u64
    }

    /// The frequency in Hz.
    pub const fn frequency(&self) -> u32 {
        self.freq
    }

    /// `floor(ticks * 10^9 / f)` or one less (see the module documentation).
    #[inline]
    pub const fn to_ns(&self, ticks: u64) -> u128 {
        ticks as u128 * self.whole as u128 + self.fraction_ns(ticks)
    }

    /// Exactly `floor(ticks * 10^9 / f)`.
    #[inline]
    pub const fn to_ns_exact(&self, ticks: u64) -> u128 {
        // `fraction_ns` is floor(ticks * rem / f) or one less; it is one less exactly when one
        // more still fits under ticks * rem.
        let mut part = self.fraction_ns(ticks);
        if (part + 1) * self.freq as u128 <= ticks as u128 * self.rem as u128 {
            part += 1;
        }
        ticks as u128 * self.whole as u128 + part
    }

    /// `(ticks * frac) >> 64`: `ticks * rem / f` rounded down, possibly one further.
    #[inline]
    const fn fraction_ns(&self, ticks: u64) -> u128 {
        (ticks as u128 * self.frac as u128) >> 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// The reference: exact 128-bit arithmetic with a division.
    fn exact(ticks: u64, freq: u32) -> u128 {
        u128::from(ticks) * 1_000_000_000 / u128::from(freq)
    }

    /// A small deterministic generator (xorshift64*), so a failure names a reproducible input.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    const FREQS: &[u32] = &[
        1,
        3,
        7,
        32_768,
        1_000_000,
        19_200_000,
        24_000_000,
        25_000_000,
        26_000_000,
        50_000_000,
        62_500_000,
        100_000_000,
        999_999_937,
        1_000_000_000,
        1_000_000_007,
        2_000_000_000,
        u32::MAX,
    ];

    fn edge_ticks() -> impl Iterator<Item = u64> {
        [
            0,
            1,
            2,
            3,
            u64::from(u32::MAX),
            1 << 32,
            1 << 60,
            u64::MAX - 1,
            u64::MAX,
        ]
        .into_iter()
        .chain((0..64).map(|s| (1u64 << s) - 1))
        .chain((0..64).map(|s| 1u64 << s))
    }

    fn check(c: &TickConverter, freq: u32, t: u64) {
        let want = exact(t, freq);
        let fast = c.to_ns(t);
        assert!(
            fast <= want && want - fast <= 1,
            "to_ns({t}) at {freq} Hz = {fast}, exact {want}"
        );
        assert_eq!(c.to_ns_exact(t), want, "to_ns_exact({t}) at {freq} Hz");
        if 1_000_000_000 % freq == 0 {
            assert_eq!(fast, want, "{freq} Hz divides 10^9: to_ns must be exact");
        }
    }

    #[test]
    fn within_one_ns_below_exact_over_the_whole_range() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut freqs: Vec<u32> = FREQS.to_vec();
        freqs.extend((0..200).map(|_| (rng.next() >> 32) as u32 | 1));
        for &freq in &freqs {
            let c = TickConverter::new(freq).unwrap();
            for t in edge_ticks() {
                check(&c, freq, t);
            }
            for _ in 0..2_000 {
                let t = rng.next();
                check(&c, freq, t);
                // Small counts too, where a relative error would show most.
                check(&c, freq, t >> (t % 64));
            }
        }
    }

    #[test]
    fn the_bound_is_reached_so_it_is_tight() {
        // The fast path does lose its 1 ns sometimes; if it never did, the stated bound (and the
        // correction in to_ns_exact) would be untested.
        let mut rng = Rng(42);
        let c = TickConverter::new(19_200_000).unwrap();
        let short = (0..100_000)
            .map(|_| rng.next())
            .filter(|&t| c.to_ns(t) + 1 == exact(t, 19_200_000))
            .count();
        assert!(short > 0, "no input reached the 1 ns bound");
    }

    #[test]
    fn qemu_frequency_is_sixteen_ns_per_tick() {
        let c = TickConverter::new(62_500_000).unwrap();
        assert_eq!(c.to_ns(1), 16);
        assert_eq!(c.to_ns(u64::MAX), u128::from(u64::MAX) * 16);
    }

    #[test]
    fn zero_frequency_is_an_error() {
        assert_eq!(TickConverter::new(0), Err(Error::ZeroFrequency));
    }
}
