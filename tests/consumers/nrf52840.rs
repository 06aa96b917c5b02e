//! A firmware that uses three blocks of nrf52840's generated crate: GPIO (P0), a UARTE and a
//! timer. Built with the crate's default features off and only these on, by
//! `tests/tests/consumers.rs` and by `codegen/benches/run.sh` (its consumer build).
//!
//! features: gpio uarte timer
#![no_std]

use nrf52840_pac::mmio;

/// Sets an output, routes and enables the UARTE (its `PSEL` cluster) and returns the timer's
/// mode.
pub fn touch() -> u32 {
    // SAFETY: the blocks are at their addresses on an nRF52840, and nothing else uses them here.
    let (p0, uarte, timer) = unsafe { (mmio::p0(), mmio::uarte0(), mmio::timer0()) };
    p0.out().write(p0.out().read());
    uarte.psel().txd().write(uarte.psel().txd().read());
    uarte.enable().write(uarte.enable().read());
    timer.mode().read().bits() ^ p0.out().read().bits()
}
