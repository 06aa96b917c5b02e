//! A polled console on the QEMU `virt` board's PL011, written against the generated crate.
#![cfg_attr(not(test), no_std)]

use qemu_virt_pl011::mmio::Pl011;
use qemu_virt_pl011::{uartlcr_h::Wlen, Layout, Uartcr, Uartdr, Uartfr, UartlcrH};

/// The console UART: `Pl011` at the board's base address (the one `unsafe` step).
///
/// # Safety
/// Only on the `virt` board, with UART0 mapped as device memory and used by nothing else.
pub unsafe fn console() -> Pl011 {
    // SAFETY: the caller's promise is the constructor's.
    unsafe { qemu_virt_pl011::mmio::uart0() }
}

/// 8-bit frames with FIFOs, transmitter on: disabled while the frame format changes, as the
/// PL011 requires.
pub fn enable(uart: &Pl011) {
    uart.uartcr().write(Uartcr::DEFAULT);
    uart.uartlcr_h().write(
        UartlcrH::DEFAULT
            .with(UartlcrH::WLEN, Wlen::Bits8)
            .with(UartlcrH::FEN, true),
    );
    uart.uartcr()
        .write(Uartcr::DEFAULT.with(Uartcr::UARTEN, true).with(Uartcr::TXE, true));
}

/// Sends `text`, waiting while the transmit FIFO is full.
pub fn write(uart: &Pl011, text: &str) {
    for byte in text.bytes() {
        while uart.uartfr().read().get(Uartfr::TXFF) {}
        uart.uartdr().write(Uartdr::DEFAULT.with(Uartdr::DATA, byte));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qemu_virt_pl011::Reset;

    /// The same code on the host, with a buffer standing in for the block.
    #[test]
    fn writes_through_the_registers() {
        let mut regs = [0u32; Pl011::SIZE / 4];
        // SAFETY: the buffer is as large as the block and outlives `uart`.
        let uart = unsafe { Pl011::new(regs.as_mut_ptr() as usize) };
        enable(&uart);
        write(&uart, "ok");
        let word = |addr: usize| regs[(addr - regs.as_ptr() as usize) / 4];
        assert_eq!(word(uart.uartdr().addr()), u32::from(b'k'));
        assert_eq!(word(uart.uartlcr_h().addr()), 0x70);
        assert_eq!(word(uart.uartcr().addr()), 0x101);
        assert_eq!(qemu_virt_pl011::mmio::UART0_BASE, 0x0900_0000);
        assert_eq!(UartlcrH::RESET.get(UartlcrH::WLEN), Wlen::Bits5);
    }
}
