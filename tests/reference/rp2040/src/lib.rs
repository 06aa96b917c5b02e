//! The rp2040 reference program, a blinky on this project's crate (`ours`) and on svd2rust's
//! (`anchor`): the files in `tests/reference/programs/blinky/` are the program as a user writes
//! it, whose characters the test counts and whose functions it disassembles side by side.
#![no_std]

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// A blinky on the crate generated from rp2040's SVD and this project's patch.
pub mod blinky_ours {
    include!("../../programs/blinky/ours.rs");
}

/// The same, on rp2040-pac (svd2rust).
pub mod blinky_anchor {
    include!("../../programs/blinky/anchor.rs");
}
