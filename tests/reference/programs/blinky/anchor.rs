use rp2040_pac::Peripherals;

#[no_mangle]
pub fn blinky_anchor() -> ! {
    let p = Peripherals::take().unwrap();
    p.RESETS.reset().modify(|_, w| w.io_bank0().clear_bit());
    while p.RESETS.reset_done().read().io_bank0().bit_is_clear() {}
    p.IO_BANK0.gpio(25).gpio_ctrl().write(|w| w.funcsel().sio());
    p.SIO.gpio_oe_set().write(|w| unsafe { w.bits(1 << 25) });
    loop {
        p.SIO.gpio_out_xor().write(|w| unsafe { w.bits(1 << 25) });
        cortex_m::asm::delay(1_000_000);
    }
}
