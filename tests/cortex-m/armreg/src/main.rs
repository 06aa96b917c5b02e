//! TIMER0's compare interrupt on QEMU's `microbit` (nRF51822, Cortex-M0), on the crate generated
//! from nrf51.svd with its `rt` feature: the vector table is the crate's `__INTERRUPTS`, the
//! handler cortex-m-rt's `#[interrupt]`. TIMER0 counts at 1 MHz and clears itself at CC[0] = 1000
//! (every millisecond); the handler counts the COMPARE[0] events it acknowledges; after `COUNT`
//! of them `main` stops the timer, prints `timer0: <n> interrupts` on UART0 and exits through
//! semihosting. `../svd2rust/src/main.rs` is the same program on nrf51-pac.
#![no_std]
#![no_main]

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cortex_m::peripheral::NVIC;
use cortex_m_rt::entry;
use cortex_m_semihosting::debug;
use nrf51::device::Interrupt;
use nrf51::{interrupt, timer_bitmode, timer_mode, timer_shorts, uart_enable, Layout, Value};
use nrf51::{TimerBitmode, TimerIntenset, TimerMode, TimerPrescaler, TimerShorts, UartEnable};

/// The interrupts `main` waits for.
const COUNT: u32 = 10;
/// The micro:bit's UART TX pin (P0.24).
const TX_PIN: u32 = 24;

/// COMPARE[0] events the handler acknowledged.
static TAKEN: AtomicU32 = AtomicU32::new(0);

#[entry]
fn main() -> ! {
    let p = nrf51::Peripherals::take().unwrap();
    let (timer, uart) = (p.timer0, p.uart0);
    uart.pseltxd().write(Value::from_bits(TX_PIN));
    uart.enable()
        .write(UartEnable::DEFAULT.with(UartEnable::ENABLE, uart_enable::Enable::Enabled));
    uart.tasks_starttx().write(Value::from_bits(1));

    timer
        .mode()
        .write(TimerMode::DEFAULT.with(TimerMode::MODE, timer_mode::Mode::Timer));
    timer
        .bitmode()
        .write(TimerBitmode::DEFAULT.with(TimerBitmode::BITMODE, timer_bitmode::Bitmode::_32bit));
    timer
        .prescaler()
        .write(TimerPrescaler::DEFAULT.with(TimerPrescaler::PRESCALER, nrf51::Const::<4>));
    timer.cc().at::<0>().write(Value::from_bits(1000));
    timer.shorts().write(TimerShorts::DEFAULT.with(
        TimerShorts::COMPARE0_CLEAR,
        timer_shorts::Compare0Clear::Enabled,
    ));
    timer.intenset().write(TimerIntenset::COMPARE0);
    // SAFETY: the handler below is ready; no critical section depends on TIMER0 being masked.
    unsafe { NVIC::unmask(Interrupt::Timer0) };
    timer.tasks_start().write(Value::from_bits(1));

    while TAKEN.load(Relaxed) < COUNT {
        cortex_m::asm::wfi();
    }
    timer.tasks_stop().write(Value::from_bits(1));
    NVIC::mask(Interrupt::Timer0);

    let mut line = *b"timer0: 00 interrupts\n";
    let n = TAKEN.load(Relaxed);
    line[8] = b'0' + (n / 10 % 10) as u8;
    line[9] = b'0' + (n % 10) as u8;
    for byte in line {
        uart.events_txdrdy().write(Value::from_bits(0));
        uart.txd().write(Value::from_bits(u32::from(byte)));
        while uart.events_txdrdy().read().bits() == 0 {}
    }
    debug::exit(debug::EXIT_SUCCESS);
    loop {
        cortex_m::asm::wfi();
    }
}

#[interrupt]
fn TIMER0() {
    // SAFETY: the handler touches only TIMER0's COMPARE[0] event, which `main` leaves to it.
    let timer = unsafe { nrf51::mmio::timer0() };
    let compare = timer.events_compare().at::<0>();
    if compare.read().bits() != 0 {
        compare.write(Value::from_bits(0));
        TAKEN.store(TAKEN.load(Relaxed) + 1, Relaxed);
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}
