//! The firmware of `tests/consumers/rp2040.rs`, written for svd2rust's crate of the same SVD (its
//! 0.37 API), for `codegen/benches/run.sh --compare`: svd2rust has no per-peripheral selection,
//! so this builds the whole crate.
#![no_std]

/// Routes GPIO 0 to the UART, sends a byte and returns the timer's low word.
pub fn touch() -> u32 {
    // SAFETY: the blocks are at their addresses on an RP2040, and nothing else uses them here.
    let (io, uart, timer) = unsafe {
        (
            rp2040_pac::IoBank0::steal(),
            rp2040_pac::Uart0::steal(),
            rp2040_pac::Timer::steal(),
        )
    };
    let ctrl = io.gpio0_ctrl().read().bits();
    // SAFETY: the value read back is a valid one.
    io.gpio0_ctrl().write(|w| unsafe { w.bits(ctrl) });
    let data = uart.uartdr().read().bits();
    // SAFETY: as above.
    uart.uartdr().write(|w| unsafe { w.bits(data) });
    timer.timerawl().read().bits() ^ io.gpio0_status().read().bits()
}
