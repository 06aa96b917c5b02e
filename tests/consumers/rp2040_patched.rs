//! A firmware of rp2040's crate as `tests/patches/rp2040.toml` patches it: the numbered registers
//! are arrays (`pads.gpio().at::<3>()`, checked when compiled; `try_at(n)`, checked when run), the
//! DMA channels a cluster array (`dma.ch().at::<3>().read_addr()`), the pads' drive strengths have
//! identifiers for names, FUNCSEL is one field for every pin, and PWM's per-slice bits are a field
//! array (`PwmEn::CH.at::<7>()`). Built by `tests/tests/patched.rs` (the blinky on this crate,
//! through `Peripherals`, is a reference program: `tests/reference/programs/blinky/`).
//!
//! features: pads_bank0 io_bank0 pwm pio0 dma
#![no_std]

use rp2040_pac::{mmio, Layout};

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
                    rp2040_pac::Function::Sio,
                )
            });
            true
        }
        _ => false,
    };
    let csr = pwm.ch_csr().at::<7>();
    csr.write(csr.read().with(rp2040_pac::PwmChCsr::EN, true));
    // EN's CH0 .. CH7 are one field array: slice 7's bit, and slice `pin`'s if there is one.
    pwm.en()
        .modify(|v| v.with(rp2040_pac::PwmEn::CH.at::<7>(), true));
    if let Ok(slice) = rp2040_pac::PwmEn::CH.try_at(pin) {
        pwm.en().modify(|v| v.with(slice, false));
    }
    let status = io.gpio_status().at::<29>().read().bits();
    (pio.sm_addr().at::<0>().read().bits() ^ status, found)
}

/// Starts a copy of `words` words from `from` to `to` on DMA channel 3, and gives channel
/// `channel` the same read address; returns whether `channel` exists (rp2040 has 12).
pub fn copy(from: u32, to: u32, words: u32, channel: usize) -> bool {
    // SAFETY: the DMA block is at its address on an RP2040, and nothing else uses it here.
    let dma = unsafe { mmio::dma() };
    let ch3 = dma.ch().at::<3>();
    ch3.read_addr().write(rp2040_pac::Value::from_bits(from));
    ch3.write_addr().write(rp2040_pac::Value::from_bits(to));
    ch3.trans_count().write(rp2040_pac::Value::from_bits(words));
    // CHAIN_TO has no reset in the patched crate (it is the channel's own number): say it.
    ch3.ctrl_trig().write(
        rp2040_pac::DmaChCtrlTrig::DEFAULT
            .with(rp2040_pac::DmaChCtrlTrig::CHAIN_TO, rp2040_pac::Const::<3>)
            .with(rp2040_pac::DmaChCtrlTrig::INCR_READ, true)
            .with(rp2040_pac::DmaChCtrlTrig::INCR_WRITE, true)
            .with(rp2040_pac::DmaChCtrlTrig::EN, true),
    );
    match dma.ch().try_at(channel) {
        Ok(ch) => {
            ch.read_addr().write(ch3.read_addr().read());
            true
        }
        Err(_) => false,
    }
}
