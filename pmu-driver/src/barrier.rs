//! The instruction barrier timer and counter reads need.

/// `ISB`: later instructions start only after every earlier one has completed, so a counter read
/// placed after it cannot be performed early (the Arm ARM lets CNTVCT/CNTPCT reads execute out of
/// order), and one placed before it cannot be delayed past what follows.
#[inline(always)]
pub fn isb() {
    #[cfg(target_arch = "aarch64")]
    // SAFETY: `isb` only orders instruction execution: it reads and writes no memory, no
    // general-purpose register and no flag, and uses no stack (`nostack`, `preserves_flags`;
    // `nomem` is left out on purpose, so the compiler does not move memory accesses across it).
    unsafe {
        core::arch::asm!("isb", options(nostack, preserves_flags))
    };
    #[cfg(target_arch = "arm")]
    // SAFETY: as for AArch64: ARMv7-A's `isb` reads and writes no memory, no register and no flag,
    // and uses no stack.
    unsafe {
        core::arch::asm!("isb", options(nostack, preserves_flags))
    };
    // On the host the "registers" are an emulation in ordinary memory: a compiler fence is the
    // whole ordering it needs.
    #[cfg(not(any(target_arch = "aarch64", target_arch = "arm")))]
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}
