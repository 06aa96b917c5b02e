//! A firmware of rp2040's crate as `tests/patches/rp2040.toml` patches it: the numbered registers
//! are arrays (`pads.gpio().at::<3>()`, checked when compiled; `try_at(n)`, checked when run), the
//! pads' drive strengths have identifiers for names, and FUNCSEL is one field for every pin.
//! Built by `tests/tests/patched.rs`.
//!
//! features: pads_bank0 io_bank0 pwm pio0
#![no_std]

use rp2040_pac::mmio;

/// Sets pad 3 to 12 mA, gives pin `pin` pad 3's settings and the SIO function, and starts PWM slice 7; returns the
/// state machine 0 address and whether `pin` existed.
pub fn configure(pin: usize) -> (u32, bool) {
    // SAFETY: the blocks are at their addresses on an RP2040, and nothing else uses them here.
    let (pads, io, pwm, pio) = unsafe {
        (
            mmio::pads_bank0(),
            mmio::io_bank0(),
            mmio::pwm(),
            mmio::pio0(),
        )
    };
    let pad3 = pads.gpio().at::<3>();
    pad3.modify(|v| {
        v.with(
            rp2040_pac::PadsBank0Gpio::DRIVE,
            rp2040_pac::pads_bank0_gpio::Drive::Ma12,
        )
    });
    let found = match (pads.gpio().try_at(pin), io.gpio_ctrl().try_at(pin)) {
        (Ok(pad), Ok(ctrl)) => {
            pad.write(pad3.read());
            ctrl.modify(|v| {
                v.with(
                    rp2040_pac::IoBank0GpioCtrl::FUNCSEL,
                    rp2040_pac::io_bank0_gpio_ctrl::Funcsel::Sio,
                )
            });
            true
        }
        _ => false,
    };
    let csr = pwm.ch_csr().at::<7>();
    csr.write(csr.read().with(rp2040_pac::PwmChCsr::EN, true));
    let status = io.gpio_status().at::<29>().read().bits();
    (pio.sm_addr().at::<0>().read().bits() ^ status, found)
}
