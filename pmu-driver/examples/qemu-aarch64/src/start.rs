//! Start-up: from reset (or a boot loader) to `main` at EL1.
//!
//! QEMU starts the program at EL1, or at EL2 (`-M virt,virtualization=on`) or EL3
//! (`-M virt,secure=on`), as boards do. `_start` drops to EL1 from EL3 (Non-secure, AArch64) and
//! from EL2 (AArch64 EL1, the counters and timers EL1's, every PMU counter EL1's: MDCR_EL2.HPMN =
//! PMCR_EL0.N), sets the stack, turns on FP/SIMD (CPACR_EL1.FPEN: rustc uses SIMD registers for
//! copies and formatting, which trap without it), installs exception vectors that report an
//! unexpected exception and exit, zeroes .bss and calls `main`.
use core::arch::global_asm;

global_asm!(
    r#"
    .section .text.start, "ax"
    .global _start
_start:
    mrs     x0, CurrentEL
    lsr     x0, x0, #2
    cmp     x0, #3
    b.ne    1f
    // EL3: lower levels Non-secure (NS), AArch64 (RW), HVC allowed (HCE); no traps. On to EL2,
    // or to EL1 when the CPU has no EL2 (ID_AA64PFR0_EL1.EL2 == 0).
    mov     x0, #(1 << 10 | 1 << 8 | 1 << 0)
    msr     SCR_EL3, x0
    msr     CPTR_EL3, xzr
    msr     MDCR_EL3, xzr
    mrs     x1, ID_AA64PFR0_EL1
    ubfx    x1, x1, #8, #4
    mov     x0, #0x3c9                  // EL2h, D A I F masked
    adr     x2, 2f
    cbnz    x1, 7f
    mov     x0, #0x3c5                  // EL1h, D A I F masked
    adr     x2, 3f
7:  msr     SPSR_EL3, x0
    msr     ELR_EL3, x2
    eret
1:  cmp     x0, #2
    b.ne    3f
2:  // EL2: EL1 is AArch64 (HCR_EL2.RW), reaches the counters and timers, and owns every PMU
    // counter; no FP/SIMD traps.
    mov     x0, #(1 << 31)
    msr     HCR_EL2, x0
    mov     x0, #3
    msr     CNTHCTL_EL2, x0
    msr     CNTVOFF_EL2, xzr
    mov     x0, #0x33ff
    msr     CPTR_EL2, x0
    mrs     x0, PMCR_EL0
    ubfx    x0, x0, #11, #5
    msr     MDCR_EL2, x0
    mov     x0, #0x3c5                  // EL1h, D A I F masked
    msr     SPSR_EL2, x0
    adr     x0, 3f
    msr     ELR_EL2, x0
    eret
3:  // EL1.
    ldr     x0, =__stack_top
    mov     sp, x0
    mov     x0, #(3 << 20)              // CPACR_EL1.FPEN: no FP/SIMD traps
    msr     CPACR_EL1, x0
    ldr     x0, =vectors
    msr     VBAR_EL1, x0
    isb
    ldr     x0, =__bss_start
    ldr     x1, =__bss_end
4:  cmp     x0, x1
    b.hs    5f
    str     xzr, [x0], #8
    b       4b
5:  bl      main
6:  wfe
    b       6b

    // Every exception is unexpected here: say which entry was taken, and exit.
    .balign 2048
vectors:
    .set entry, 0
    .rept 16
    .balign 128
    mov     x0, #entry
    mrs     x1, ESR_EL1
    mrs     x2, ELR_EL1
    b       unexpected_exception
    .set entry, entry + 1
    .endr
"#
);

#[no_mangle]
extern "C" fn unexpected_exception(entry: u64, esr: u64, elr: u64) -> ! {
    crate::println!(
        "unexpected exception: vector entry {entry}, ESR_EL1 {esr:#x}, ELR_EL1 {elr:#x}"
    );
    crate::semihosting::exit(3)
}
