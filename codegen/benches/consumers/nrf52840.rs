//! The firmware of `tests/consumers/nrf52840.rs`, written for svd2rust's crate of the same SVD
//! (its 0.37 API), for `codegen/benches/run.sh --compare`: svd2rust has no per-peripheral
//! selection, so this builds the whole crate.
#![no_std]

/// Sets an output, enables the UARTE and returns the timer's mode.
pub fn touch() -> u32 {
    // SAFETY: the blocks are at their addresses on an nRF52840, and nothing else uses them here.
    let (p0, uarte, timer) = unsafe {
        (
            nrf52840_pac::P0::steal(),
            nrf52840_pac::Uarte0::steal(),
            nrf52840_pac::Timer0::steal(),
        )
    };
    let out = p0.out().read().bits();
    // SAFETY: the value read back is a valid one.
    p0.out().write(|w| unsafe { w.bits(out) });
    let enable = uarte.enable().read().bits();
    // SAFETY: as above.
    uarte.enable().write(|w| unsafe { w.bits(enable) });
    timer.mode().read().bits() ^ p0.out().read().bits()
}
