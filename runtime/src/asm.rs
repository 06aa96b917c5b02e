//! The instructions register code needs around its accesses, each one instruction: barriers
//! (`isb()`, `dsb(Ish)`, `dmb(Sy)`), the hints (`wfi`, `wfe`, `sev`, `sevl`, `nop`) and, on
//! AArch64, the exception return (`eret`).
//!
//! On the host (tests, docs) each is a compiler fence, and `eret` panics: there is nothing to
//! return to. A barrier's domain is a type (`Sy`, `Ish`, ...), so a
//! domain the target lacks does not compile: an M-profile core has `Sy` alone, only Armv8 has
//! the load-only kinds (`Ld`, `IshLd`, ...).

/// The shareability domain and access types of a `DSB` or `DMB`.
pub trait Domain: sealed::Domain {}

mod sealed {
    pub trait Domain {
        fn dsb(self);
        fn dmb(self);
    }
}

macro_rules! domains {
    ($cfg:meta => $($(#[$doc:meta])* $name:ident = $text:literal;)*) => {$(
        $(#[$doc])*
        #[cfg($cfg)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name;
        #[cfg($cfg)]
        impl Domain for $name {}
        #[cfg($cfg)]
        impl sealed::Domain for $name {
            #[inline(always)]
            fn dsb(self) {
                #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
                // SAFETY: a barrier touches no memory and no register; `nomem` is left out so that
                // the compiler orders memory accesses around it, which is the point.
                unsafe {
                    core::arch::asm!(concat!("dsb ", $text), options(nostack, preserves_flags))
                };
                #[cfg(not(any(target_arch = "aarch64", target_arch = "arm")))]
                core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
            }
            #[inline(always)]
            fn dmb(self) {
                #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
                // SAFETY: as for `dsb`.
                unsafe {
                    core::arch::asm!(concat!("dmb ", $text), options(nostack, preserves_flags))
                };
                #[cfg(not(any(target_arch = "aarch64", target_arch = "arm")))]
                core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
            }
        }
    )*};
}

domains! {
    all() =>
    /// Full system, reads and writes.
    Sy = "sy";
}

domains! {
    not(target_feature = "mclass") =>
    /// Full system, writes.
    St = "st";
    /// Inner shareable, reads and writes.
    Ish = "ish";
    /// Inner shareable, writes.
    IshSt = "ishst";
    /// Non-shareable, reads and writes.
    Nsh = "nsh";
    /// Non-shareable, writes.
    NshSt = "nshst";
    /// Outer shareable, reads and writes.
    Osh = "osh";
    /// Outer shareable, writes.
    OshSt = "oshst";
}

domains! {
    any(target_arch = "aarch64", not(any(target_arch = "arm"))) =>
    /// Full system, reads (Armv8).
    Ld = "ld";
    /// Inner shareable, reads (Armv8).
    IshLd = "ishld";
    /// Non-shareable, reads (Armv8).
    NshLd = "nshld";
    /// Outer shareable, reads (Armv8).
    OshLd = "oshld";
}

/// Data synchronization barrier: every memory access before it completes before any
/// instruction after it (`dsb(Ish)` before a TLB invalidate completes, `dsb(Sy)`).
#[inline(always)]
pub fn dsb(domain: impl Domain) {
    sealed::Domain::dsb(domain);
}

/// Data memory barrier: memory accesses before it are observed before those after it.
#[inline(always)]
pub fn dmb(domain: impl Domain) {
    sealed::Domain::dmb(domain);
}

/// One instruction with no operand; on the host, a compiler fence (the same ordering of the
/// program's own accesses).
macro_rules! instruction {
    ($($(#[$doc:meta])* $name:ident = $text:literal;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() {
            #[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
            // SAFETY: the instruction touches no memory and no register the compiler knows of.
            unsafe {
                core::arch::asm!($text, options(nostack, preserves_flags))
            };
            #[cfg(not(any(target_arch = "aarch64", target_arch = "arm")))]
            core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        }
    )*};
}

instruction! {
    /// Instruction synchronization barrier: instructions after it are fetched after every
    /// context change before it (a system register write, the MMU turned on) has taken effect.
    isb = "isb";
    /// Wait for an interrupt.
    wfi = "wfi";
    /// Wait for an event.
    wfe = "wfe";
    /// Send an event to every core.
    sev = "sev";
    /// No operation.
    nop = "nop";
}

/// Send an event to this core only (Armv8).
#[cfg(any(target_arch = "aarch64", not(target_arch = "arm")))]
#[inline(always)]
pub fn sevl() {
    #[cfg(target_arch = "aarch64")]
    // SAFETY: the instruction touches no memory and no register the compiler knows of.
    unsafe {
        core::arch::asm!("sevl", options(nostack, preserves_flags))
    };
}

/// Exception return: to the state `SPSR_ELx` gives, at the address `ELR_ELx` gives (the
/// EL2→EL1 drop of a boot path).
///
/// # Safety
/// `SPSR_ELx` and `ELR_ELx` of the current exception level must describe a state and an
/// address the program may run at, with its stack set (`SP_ELx` of the target level).
#[cfg(any(target_arch = "aarch64", not(target_arch = "arm")))]
#[inline(always)]
pub unsafe fn eret() -> ! {
    #[cfg(target_arch = "aarch64")]
    // SAFETY: the caller guarantees the state returned to.
    unsafe {
        core::arch::asm!("eret", options(noreturn))
    }
    #[cfg(not(target_arch = "aarch64"))]
    panic!("eret: an exception return has nowhere to go on the host")
}
