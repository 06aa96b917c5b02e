//! AArch32 firmware for the pmu-driver QEMU tests. QEMU boots it with `-append test=<name>`; it
//! runs that test, reports values on stderr (semihosting) and exits with status 0, or 1 on a
//! failed guest-side check. The shared tests are in `qemu-harness`; this image adds the one about
//! the 64-bit PMCCNTR access that QEMU 7.2 makes Undefined.
#![no_std]
#![no_main]

mod boot;
mod el0;
mod platform;

use core::sync::atomic::Ordering;

use pmu_driver::Filter;
use qemu_harness::report::{fail, value};
use qemu_harness::tests::{driver, ok, window};

use boot::{UNDEF_COUNT, UNDEF_INSN, UNDEF_MODE};
use platform::A32;

/// The generated 64-bit `MRRC` PMCCNTR accessor traps on QEMU 7.2; the driver's default AArch32
/// back end uses the 32-bit access and still gives exact 64-bit cycle totals across a 32-bit wrap.
fn mrrc_trap() {
    let v = arm_pmuv3::aarch32::PMCCNTR64::read();
    core::hint::black_box(v);
    value("mrrc_traps", UNDEF_COUNT.load(Ordering::SeqCst).into());
    let insn = UNDEF_INSN.load(Ordering::SeqCst);
    // The host checks it is `MRRC p15, 0, <Rt>, <Rt2>, c9` (the registers are the compiler's).
    value("mrrc_insn", insn.into());
    value("mrrc_mode", UNDEF_MODE.load(Ordering::SeqCst).into());

    let pmu = driver::<A32>();
    value("cycle_bits", pmu.info().cycle_counter_bits.into());
    let cycles = ok("cycles", pmu.allocate_cycles(Filter::EL0_EL1));
    pmu.start();
    window::<A32>(pmu, &cycles, 0);
    value("cycles_control", pmu.read(&cycles));
    // The GIC is not set up here: the overflow stays pending and the driver's snapshot counts it.
    window::<A32>(pmu, &cycles, 0xFFFF_FF00);
    value("cycles_wrap_delta", pmu.read(&cycles) - 0xFFFF_FF00);
    value(
        "traps_after_driver",
        UNDEF_COUNT.load(Ordering::SeqCst).into(),
    );
}

/// Tests only this image has.
fn own_tests(name: &str) -> bool {
    match name {
        "mrrc_trap" => mrrc_trap(),
        _ => return false,
    }
    true
}

#[no_mangle]
extern "C" fn main_svc() -> ! {
    let mode = boot::BOOT_MODE.load(Ordering::SeqCst);
    if mode != 0x13 {
        fail(format_args!(
            "started in mode {mode:#x}: this image runs from SVC (PL1)"
        ));
    }
    qemu_harness::main::<A32>(own_tests)
}
