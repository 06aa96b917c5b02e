//! Start-up: from reset (or a boot loader) to `main` in SVC mode (PL1).
//!
//! QEMU starts the program in SVC mode, or in Hyp mode (`-M virt,virtualization=on`), as boards
//! with the Virtualization Extensions do. `_start` leaves Hyp mode for SVC (an exception return,
//! ELR_hyp and SPSR_hyp), sets the stack, points VBAR at vectors that report an unexpected
//! exception and exit, zeroes .bss and calls `main`. The `armv7a-none-eabi` target uses no
//! floating-point registers, so nothing turns them on.
use core::arch::global_asm;

global_asm!(
    r#"
    .section .text.start, "ax"
    .arm
    .arch_extension virt
    .global _start
_start:
    mrs     r0, cpsr
    and     r1, r0, #0x1f
    cmp     r1, #0x1a                   @ Hyp mode?
    bne     1f
    bic     r0, r0, #0x1f
    orr     r0, r0, #(0x13 | 0xc0)      @ SVC, IRQ and FIQ masked
    msr     spsr_cxsf, r0
    adr     r0, 1f
    msr     elr_hyp, r0
    eret
1:  ldr     sp, =__stack_top
    ldr     r0, =vectors
    mcr     p15, 0, r0, c12, c0, 0      @ VBAR
    mrc     p15, 0, r0, c1, c0, 0       @ SCTLR.V = 0: vectors at VBAR
    bic     r0, r0, #(1 << 13)
    mcr     p15, 0, r0, c1, c0, 0
    isb
    ldr     r0, =__bss_start
    ldr     r1, =__bss_end
    mov     r2, #0
2:  cmp     r0, r1
    strlo   r2, [r0], #4
    blo     2b
    bl      main
3:  wfi
    b       3b

    @ Every exception is unexpected here: say which vector was taken, and exit.
    .balign 32
vectors:
    b       10f                         @ reset
    b       11f                         @ undefined instruction
    b       12f                         @ SVC
    b       13f                         @ prefetch abort
    b       14f                         @ data abort
    b       15f                         @ (unused)
    b       16f                         @ IRQ
    b       17f                         @ FIQ
10: mov     r0, #0
    b       4f
11: mov     r0, #1
    b       4f
12: mov     r0, #2
    b       4f
13: mov     r0, #3
    b       4f
14: mov     r0, #4
    b       4f
15: mov     r0, #5
    b       4f
16: mov     r0, #6
    b       4f
17: mov     r0, #7
4:  mov     r1, lr
    b       unexpected_exception
"#
);

#[no_mangle]
extern "C" fn unexpected_exception(vector: u32, lr: u32) -> ! {
    crate::println!("unexpected exception: vector {vector}, LR {lr:#x}");
    crate::semihosting::exit(3)
}
