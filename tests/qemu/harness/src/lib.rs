//! What the AArch64 and AArch32 QEMU firmware images share: semihosting output and exit, the
//! result protocol, the GIC, the PMU and timer interrupt handler, and the tests written once over
//! [`Platform`].
#![no_std]

pub mod gic;
pub mod irq;
mod once;
pub mod platform;
pub mod report;
pub mod semihosting;
pub mod sequence;
pub mod tests;
pub mod tick;

pub use once::Once;
pub use platform::{El0Outcome, El0Task, Platform, SAMPLES};

/// `ISB`: makes a pending interrupt be taken (and a system-register write take effect) before the
/// next instruction.
#[inline(always)]
pub fn isb() {
    // SAFETY: `isb` has no effect on memory or registers.
    unsafe { core::arch::asm!("isb", options(nostack, preserves_flags)) };
}

/// Reads the test name from the command line (`-append test=<name>`; QEMU puts the image path in
/// front of it) and runs it, the platform's own tests first.
pub fn main<P: Platform>(own: fn(&str) -> bool) -> ! {
    let mut buf = [0u8; 512];
    let cmdline = semihosting::cmdline(&mut buf);
    let name = cmdline
        .split_whitespace()
        .find_map(|word| word.strip_prefix("test="))
        .unwrap_or("");
    if !(own(name) || tests::run::<P>(name)) {
        report::fail(format_args!(
            "unknown test {name:?} (command line {cmdline:?})"
        ));
    }
    report::pass()
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    report::fail(format_args!("panic: {info}"))
}
