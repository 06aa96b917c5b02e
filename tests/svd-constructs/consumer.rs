//! Uses the crates generated from three of `codegen/tests/svd/`'s constructs, as a firmware would:
//! built and run on the host by `tests/tests/svd_constructs.rs`.
#![cfg(test)]

use arrays::mmio::P as Leds;
use arrays::PLed;
use enum_dont_care::{p_mode::Speed, PMode, Value};
use metadata::device::{self, interrupt, Interrupt};
use nested_clusters::mmio::{Channel, P as Dma};

/// `0b01XX` reads as `Slow` whatever its low bits, `#1x00` as `Fast` at 0b1000 and 0b1100 only;
/// a write takes a number, since a value with don't-care bits is not one value.
#[test]
fn values_with_dont_care_bits_match_on_their_mask() {
    let speed = |bits: u32| Value::<PMode>::from_bits_retain(bits).get(PMode::SPEED);
    assert_eq!(speed(0b0000), Ok(Speed::Off));
    for bits in 0b0100..=0b0111 {
        assert_eq!(speed(bits), Ok(Speed::Slow), "{bits:#b}");
    }
    assert_eq!(speed(0b1000), Ok(Speed::Fast));
    assert_eq!(speed(0b1100), Ok(Speed::Fast));
    assert_eq!(speed(0b1001), Err(0b1001));
    assert_eq!(
        format!("{:?}", Value::<PMode>::from_bits_retain(0b0110)),
        "PMode { speed: Slow }"
    );
    let written: u8 = 0b0101;
    let written = enum_dont_care::UInt::try_from(written).unwrap();
    assert_eq!(Value::<PMode>::default().with(PMode::SPEED, written).bits(), 0b0101);
}

/// The `<cpu>` facts and the interrupts: one line for the interrupt two peripherals share.
#[test]
fn the_processor_and_its_interrupts_are_constants() {
    assert_eq!(device::CPU, "CM33");
    assert_eq!(device::CPU_REVISION, "r0p4");
    assert!(device::MPU_PRESENT && !device::FPU_PRESENT && device::VENDOR_SYSTICK_CONFIG);
    assert_eq!(device::NVIC_PRIO_BITS, 4);
    assert!(device::DSP_PRESENT && !device::ICACHE_PRESENT);
    assert_eq!(device::DEVICE_NUM_INTERRUPTS, 64);
    assert_eq!((interrupt::UART0, interrupt::UART1_2), (2, 3));
    assert_eq!(Interrupt::Uart12.number(), 3);
    assert_eq!(Interrupt::from_number(2), Some(Interrupt::Uart0));
    assert_eq!(Interrupt::from_number(4), None);
}

/// A field array (`PIN%s`) is one constant whose elements are fields, in the same vocabulary.
#[test]
fn field_arrays_are_one_constant() {
    let v = Value::<PLed>::default().with(PLed::PIN.at::<3>(), arrays::Const::<2>);
    assert_eq!(v.bits(), 2 << 6);
    assert_eq!(v.get(PLed::PIN.try_at(3).unwrap()), 2);
    assert!(PLed::PIN.try_at(4).is_err());
    assert_eq!(PLed::PIN.len(), 4);
}

/// `dimArrayIndex` names elements: the constant is the index `at` and `try_at` take.
#[test]
fn array_elements_have_their_names() {
    assert_eq!((Leds::LED_RED, Leds::LED_GREEN, Leds::LED_BLUE), (0, 1, 2));
    // SAFETY: only addresses are computed; nothing is accessed.
    let leds = unsafe { Leds::new(0x4000_0000) };
    assert_eq!(leds.led().at::<{ Leds::LED_BLUE }>().addr(), 0x4000_0008);
    assert_eq!(leds.led().try_at(Leds::LED_GREEN).unwrap().addr(), 0x4000_0004);
}

/// A cluster is a block of its own, reached through the block that places it: cluster arrays
/// nest, each with `at`/`try_at`, and the address adds up every level's offset and stride.
#[test]
fn clusters_are_blocks_reached_through_their_parent() {
    // SAFETY: only addresses are computed; nothing is accessed.
    let dma = unsafe { Dma::new(0x4000_0000) };
    let slot = dma.ch().at::<1>().slot().try_at(2).unwrap();
    assert_eq!(slot.dst().addr(), 0x4000_0000 + 0x100 + 0x100 + 0x10 + 2 * 0x10 + 4);
    assert_eq!(dma.ch().at::<0>().cr().addr(), 0x4000_0100);
    assert_eq!((Dma::CH_COUNT, Dma::CH_STRIDE, Channel::SLOT_COUNT), (2, 0x100, 4));
    assert!(dma.ch().try_at(2).is_err());
}
