//! Start-up and exception vectors.
//!
//! `_start` runs at whatever EL QEMU starts us in: EL1 by default, EL2 with
//! `virtualization=on`, EL3 with `secure=on`. EL3 drops to Non-secure EL2 (or EL1 when there is no
//! EL2); EL2 sets HCR_EL2.RW, gives EL1 the counters, calls [`el2_setup`] (MDCR_EL2.HPMN) and
//! drops to EL1. EL1 enables FP/SIMD (rustc emits NEON), installs the vectors and calls Rust.
use core::arch::global_asm;
use core::sync::atomic::{AtomicU32, Ordering};

use arm_pmuv3::aarch64::{MDCR_EL2, PMCR_EL0};
use arm_pmuv3::MdcrEl2;

/// The EL `_start` ran at (written by the start-up code).
#[no_mangle]
pub static BOOT_EL: AtomicU32 = AtomicU32::new(0);
/// PMCR_EL0.N as EL2 saw it, and the HPMN it set (0 when not started at EL2).
pub static EL2_N: AtomicU32 = AtomicU32::new(0);
pub static HPMN: AtomicU32 = AtomicU32::new(0);

/// At EL2, before dropping to EL1: reserve the top two event counters for EL2, so EL1 sees
/// PMCR_EL0.N = N - 2, through the generated MDCR_EL2 accessor.
#[no_mangle]
extern "C" fn el2_setup() {
    let n = PMCR_EL0::read().get(arm_pmuv3::Pmcr::N);
    let hpmn = n.saturating_sub(2);
    MDCR_EL2::write(MdcrEl2::DEFAULT.with(MdcrEl2::HPMN, hpmn));
    EL2_N.store(n.into(), Ordering::SeqCst);
    HPMN.store(hpmn.into(), Ordering::SeqCst);
}

/// An exception the tests did not expect: report it and stop.
#[no_mangle]
extern "C" fn unexpected_exception(vector: u64, esr: u64, elr: u64, far: u64) -> ! {
    qemu_harness::report::fail(format_args!(
        "unexpected exception: vector {vector:#x} ESR {esr:#x} (EC {:#x}) ELR {elr:#x} FAR {far:#x}",
        esr >> 26
    ))
}

/// The IRQ vector's Rust half: `pc` is where the program was interrupted.
#[no_mangle]
extern "C" fn irq_rust(pc: usize) {
    qemu_harness::irq::handle::<crate::platform::A64>(pc);
}

global_asm!(
    r#"
    .section .text.boot, "ax"
    .global _start
_start:
    ldr x0, =__stack_top
    mov sp, x0
    ldr x0, =__bss_start
    ldr x1, =__bss_end
2:  cmp x0, x1
    b.hs 3f
    str xzr, [x0], #8
    b 2b
3:  mrs x19, CurrentEL
    lsr x19, x19, #2
    ldr x0, =BOOT_EL
    str w19, [x0]
    cmp x19, #3
    b.eq from_el3
    cmp x19, #2
    b.eq from_el2
    b at_el1

from_el3:
    msr cptr_el3, xzr
    // SCR_EL3: NS, RES1 bits 5:4, HCE (HVC allowed), RW (lower levels are AArch64).
    mov x0, #0x531
    msr scr_el3, x0
    msr mdcr_el3, xzr
    mrs x0, id_aa64pfr0_el1
    ubfx x0, x0, #8, #4
    cbz x0, 4f
    adr x0, from_el2
    msr elr_el3, x0
    mov x0, #0x3c9                // EL2h, DAIF masked
    msr spsr_el3, x0
    eret
4:  adr x0, at_el1                // no EL2: straight to Non-secure EL1
    msr elr_el3, x0
    mov x0, #0x3c5                // EL1h, DAIF masked
    msr spsr_el3, x0
    eret

from_el2:
    ldr x0, =__stack_top
    mov sp, x0
    mov x0, #0x33ff               // CPTR_EL2: RES1 bits, TFP = 0
    msr cptr_el2, x0
    mov x0, #(1 << 31)            // HCR_EL2.RW
    msr hcr_el2, x0
    mov x0, #3                    // CNTHCTL_EL2: EL1 reaches the physical counter and timer
    msr cnthctl_el2, x0
    msr cntvoff_el2, xzr
    isb
    bl el2_setup
    adr x0, at_el1
    msr elr_el2, x0
    mov x0, #0x3c5
    msr spsr_el2, x0
    eret

at_el1:
    ldr x0, =__stack_top
    mov sp, x0
    ldr x0, =0x30d00800           // SCTLR_EL1: RES1 bits; MMU, caches and alignment checks off
    msr sctlr_el1, x0
    mov x0, #(3 << 20)            // CPACR_EL1.FPEN: no FP/SIMD traps
    msr cpacr_el1, x0
    ldr x0, =vectors
    msr vbar_el1, x0
    isb
    bl main_el1
5:  wfi
    b 5b

    .section .text.vectors, "ax"
    .balign 2048
vectors:
    .org vectors + 0x000
    mov x0, #0x000
    b unexpected
    .org vectors + 0x080
    mov x0, #0x080
    b unexpected
    .org vectors + 0x100
    mov x0, #0x100
    b unexpected
    .org vectors + 0x180
    mov x0, #0x180
    b unexpected
    .org vectors + 0x200          // synchronous, current EL
    mov x0, #0x200
    b unexpected
    .org vectors + 0x280          // IRQ, current EL
    b irq_entry
    .org vectors + 0x300
    mov x0, #0x300
    b unexpected
    .org vectors + 0x380
    mov x0, #0x380
    b unexpected
    .org vectors + 0x400          // synchronous from EL0: svc or a trap
    b el0_sync
    .org vectors + 0x480          // IRQ from EL0
    b irq_entry
    .org vectors + 0x500
    mov x0, #0x500
    b unexpected
    .org vectors + 0x580
    mov x0, #0x580
    b unexpected
    .org vectors + 0x600
    mov x0, #0x600
    b unexpected
    .org vectors + 0x680
    mov x0, #0x680
    b unexpected
    .org vectors + 0x700
    mov x0, #0x700
    b unexpected
    .org vectors + 0x780
    mov x0, #0x780
    b unexpected

unexpected:
    mrs x1, esr_el1
    mrs x2, elr_el1
    mrs x3, far_el1
    bl unexpected_exception

    // Saves everything the Rust handler may clobber (caller-saved general registers and all of
    // the SIMD registers, since rustc uses NEON), and ELR/SPSR.
irq_entry:
    stp x29, x30, [sp, #-16]!
    stp x17, x18, [sp, #-16]!
    stp x15, x16, [sp, #-16]!
    stp x13, x14, [sp, #-16]!
    stp x11, x12, [sp, #-16]!
    stp x9, x10, [sp, #-16]!
    stp x7, x8, [sp, #-16]!
    stp x5, x6, [sp, #-16]!
    stp x3, x4, [sp, #-16]!
    stp x1, x2, [sp, #-16]!
    mrs x1, elr_el1
    mrs x2, spsr_el1
    stp x0, x1, [sp, #-16]!
    stp x2, xzr, [sp, #-16]!
    stp q0, q1, [sp, #-32]!
    stp q2, q3, [sp, #-32]!
    stp q4, q5, [sp, #-32]!
    stp q6, q7, [sp, #-32]!
    stp q8, q9, [sp, #-32]!
    stp q10, q11, [sp, #-32]!
    stp q12, q13, [sp, #-32]!
    stp q14, q15, [sp, #-32]!
    stp q16, q17, [sp, #-32]!
    stp q18, q19, [sp, #-32]!
    stp q20, q21, [sp, #-32]!
    stp q22, q23, [sp, #-32]!
    stp q24, q25, [sp, #-32]!
    stp q26, q27, [sp, #-32]!
    stp q28, q29, [sp, #-32]!
    stp q30, q31, [sp, #-32]!
    mov x0, x1
    bl irq_rust
    ldp q30, q31, [sp], #32
    ldp q28, q29, [sp], #32
    ldp q26, q27, [sp], #32
    ldp q24, q25, [sp], #32
    ldp q22, q23, [sp], #32
    ldp q20, q21, [sp], #32
    ldp q18, q19, [sp], #32
    ldp q16, q17, [sp], #32
    ldp q14, q15, [sp], #32
    ldp q12, q13, [sp], #32
    ldp q10, q11, [sp], #32
    ldp q8, q9, [sp], #32
    ldp q6, q7, [sp], #32
    ldp q4, q5, [sp], #32
    ldp q2, q3, [sp], #32
    ldp q0, q1, [sp], #32
    ldp x2, xzr, [sp], #16
    ldp x0, x1, [sp], #16
    msr elr_el1, x1
    msr spsr_el1, x2
    ldp x1, x2, [sp], #16
    ldp x3, x4, [sp], #16
    ldp x5, x6, [sp], #16
    ldp x7, x8, [sp], #16
    ldp x9, x10, [sp], #16
    ldp x11, x12, [sp], #16
    ldp x13, x14, [sp], #16
    ldp x15, x16, [sp], #16
    ldp x17, x18, [sp], #16
    ldp x29, x30, [sp], #16
    eret
"#
);
