//! `../armreg/src/main.rs`'s program on nrf51-pac, svd2rust's crate for the nRF51 (crates.io):
//! the same registers written with the same values in the same order, so that the two `.text`
//! sizes compare the register crates. TIMER0 at 1 MHz clears itself at CC[0] = 1000; the handler
//! counts the COMPARE[0] events it acknowledges; after `COUNT` of them `main` stops the timer,
//! prints `timer0: <n> interrupts` on UART0 and exits through semihosting.
#![no_std]
#![no_main]

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cortex_m::peripheral::NVIC;
use cortex_m_rt::entry;
use cortex_m_semihosting::debug;
use nrf51_pac::{interrupt, Interrupt};

/// The interrupts `main` waits for.
const COUNT: u32 = 10;
/// The micro:bit's UART TX pin (P0.24).
const TX_PIN: u32 = 24;

/// COMPARE[0] events the handler acknowledged.
static TAKEN: AtomicU32 = AtomicU32::new(0);

#[entry]
fn main() -> ! {
    let p = nrf51_pac::Peripherals::take().unwrap();
    let (timer, uart) = (p.TIMER0, p.UART0);
    // SAFETY: any pin number is valid for PSELTXD.
    uart.pseltxd.write(|w| unsafe { w.bits(TX_PIN) });
    uart.enable.write(|w| w.enable().enabled());
    // SAFETY: 1 starts the task.
    uart.tasks_starttx.write(|w| unsafe { w.bits(1) });

    timer.mode.write(|w| w.mode().timer());
    timer.bitmode.write(|w| w.bitmode()._32bit());
    // SAFETY: 4 is a valid prescaler.
    timer.prescaler.write(|w| unsafe { w.prescaler().bits(4) });
    // SAFETY: any compare value is valid.
    timer.cc[0].write(|w| unsafe { w.bits(1000) });
    timer.shorts.write(|w| w.compare0_clear().enabled());
    timer.intenset.write(|w| w.compare0().set());
    // SAFETY: the handler below is ready; no critical section depends on TIMER0 being masked.
    unsafe { NVIC::unmask(Interrupt::TIMER0) };
    // SAFETY: 1 starts the task.
    timer.tasks_start.write(|w| unsafe { w.bits(1) });

    while TAKEN.load(Relaxed) < COUNT {
        cortex_m::asm::wfi();
    }
    // SAFETY: 1 stops the task.
    timer.tasks_stop.write(|w| unsafe { w.bits(1) });
    NVIC::mask(Interrupt::TIMER0);

    let mut line = *b"timer0: 00 interrupts\n";
    let n = TAKEN.load(Relaxed);
    line[8] = b'0' + (n / 10 % 10) as u8;
    line[9] = b'0' + (n % 10) as u8;
    for byte in line {
        // SAFETY: 0 clears the event; any byte is valid for TXD.
        uart.events_txdrdy.write(|w| unsafe { w.bits(0) });
        uart.txd.write(|w| unsafe { w.txd().bits(byte) });
        while uart.events_txdrdy.read().bits() == 0 {}
    }
    debug::exit(debug::EXIT_SUCCESS);
    loop {
        cortex_m::asm::wfi();
    }
}

#[interrupt]
fn TIMER0() {
    // SAFETY: the handler touches only TIMER0's COMPARE[0] event, which `main` leaves to it.
    let timer = unsafe { &*nrf51_pac::TIMER0::ptr() };
    let compare = &timer.events_compare[0];
    if compare.read().bits() != 0 {
        // SAFETY: 0 clears the event.
        compare.write(|w| unsafe { w.bits(0) });
        TAKEN.store(TAKEN.load(Relaxed) + 1, Relaxed);
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}
