//! The instruction barrier timer and counter reads need.

/// `ISB`: later instructions start only after every earlier one has completed, so a counter read
/// placed after it cannot be performed early (the Arm ARM lets CNTVCT/CNTPCT reads execute out of
/// order), and one placed before it cannot be delayed past what follows.
#[inline(always)]
pub fn isb() {
    #[cfg(target_arch = "aarch64")]
    // SAFETY: `isb` only orders instruction execution; it touches no memory or register state.
    unsafe {
        core::arch::asm!("isb", options(nostack, preserves_flags))
    };
    #[cfg(target_arch = "arm")]
    // SAFETY: as above (ARMv7-A has `isb`).
    unsafe {
        core::arch::asm!("isb", options(nostack, preserves_flags))
    };
    // On the host the "registers" are an emulation in ordinary memory: a compiler fence is the
    // whole ordering it needs.
    #[cfg(not(any(target_arch = "aarch64", target_arch = "arm")))]
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}
