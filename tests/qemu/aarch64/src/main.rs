//! AArch64 firmware for the pmu-driver QEMU tests. QEMU boots it with `-append <test>`; it runs
//! that test, reports values on stderr (semihosting) and exits with status 0, or 1 on a failed
//! guest-side check. The tests themselves are in `qemu-harness`, written once for both states.
#![no_std]
#![no_main]

mod boot;
mod bringup;
mod el0;
mod platform;
mod sequence;

use core::sync::atomic::Ordering;

use qemu_harness::report::value;

/// Tests only this image has.
fn own_tests(name: &str) -> bool {
    match name {
        // After starting at EL2 (`virtualization=on`) or EL3 (`secure=on`): what EL2 set up.
        "boot" => {
            value("el2_n", boot::EL2_N.load(Ordering::SeqCst).into());
            value("hpmn", boot::HPMN.load(Ordering::SeqCst).into());
            qemu_harness::tests::run::<platform::A64>("counts_after_boot")
        }
        // The differential check: the state of QEMU's PMU after each write of the sequence.
        "pmu_sequence" => {
            sequence::run();
            true
        }
        // A kernel's first steps through the generated system-register accessors.
        "bringup" => {
            bringup::run();
            true
        }
        _ => false,
    }
}

#[no_mangle]
extern "C" fn main_el1() -> ! {
    qemu_harness::main::<platform::A64>(own_tests)
}
