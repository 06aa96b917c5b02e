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

/// The same blocks taken through `Peripherals`, which has a field for each instance of the
/// selected blocks (UART1 is a second `UART0`) and none for a block left out (the crate would
/// not compile); `None` when they were taken before.
pub fn take() -> Option<u32> {
    let p = rp2040_pac::Peripherals::take()?;
    p.uart1.uartdr().write(p.uart0.uartdr().read());
    Some(p.timer.timerawl().read().bits() ^ p.io_bank0.gpio0_status().read().bits())
}
