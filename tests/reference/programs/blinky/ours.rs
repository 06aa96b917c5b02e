use rp2040::*;

#[no_mangle]
pub fn blinky_ours() -> ! {
    let p = Peripherals::take().unwrap();
    p.resets.reset().modify(|v| v & !ResetsReset::IO_BANK0);
    while !p.resets.reset_done().read().get(ResetsResetDone::IO_BANK0) {}
    p.io_bank0
        .gpio_ctrl()
        .at::<25>()
        .write(IoBank0GpioCtrl::FUNCSEL.to(Function::Sio));
    p.sio.gpio_oe_set().write(Const::<{ 1 << 25 }>);
    loop {
        p.sio.gpio_out_xor().write(Const::<{ 1 << 25 }>);
        cortex_m::asm::delay(1_000_000);
    }
}
