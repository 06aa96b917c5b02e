//! A firmware that uses three blocks of rp2040's generated crate: GPIO (IO_BANK0), a UART and the
//! timer. Built with the crate's default features off and only these on, by
//! `tests/tests/consumers.rs` and by `codegen/benches/run.sh` (its consumer build).
//!
//! features: io_bank0 uart0 timer
#![no_std]

use rp2040_pac::mmio;

/// Routes GPIO 0 to the UART, sends a byte and returns the timer's low word.
pub fn touch() -> u32 {
    // SAFETY: the blocks are at their addresses on an RP2040, and nothing else uses them here.
    let (io, uart, timer) = unsafe { (mmio::io_bank0(), mmio::uart0(), mmio::timer()) };
    io.gpio0_ctrl().write(io.gpio0_ctrl().read());
    uart.uartdr().write(uart.uartdr().read());
    timer.timerawl().read().bits() ^ io.gpio0_status().read().bits()
}
