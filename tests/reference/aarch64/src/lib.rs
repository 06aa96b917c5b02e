//! The AArch64 reference programs, each on this project's crates (`ours`) and on aarch64-cpu
//! (`anchor`): the files in `tests/reference/programs/` are the programs as a user writes them,
//! whose characters the test counts and whose functions it disassembles side by side.
#![no_std]
#![allow(clippy::missing_safety_doc)]

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// The EL2→EL1 drop and the MMU set-up of a small kernel, on aarch64-sysregs.
pub mod boot_ours {
    include!("../../programs/boot/ours.rs");
}

/// The same, on aarch64-cpu.
pub mod boot_anchor {
    include!("../../programs/boot/anchor.rs");
}

/// Cycles and one event counted around a function, on arm-pmuv3 and arm-pmu-events.
pub mod pmu_ours {
    include!("../../programs/pmu/ours.rs");
}

/// The same, on aarch64-cpu (which has no PMU registers: `asm!`).
pub mod pmu_anchor {
    include!("../../programs/pmu/anchor.rs");
}
