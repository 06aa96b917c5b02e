//! Start-up and exception vectors.
//!
//! QEMU starts the image in SVC mode (PL1, Non-secure). `_start` gives the IRQ, Undefined and
//! Abort modes their stacks, zeroes .bss, points VBAR at the vectors and calls Rust. The
//! Undefined-Instruction handler records the faulting instruction and skips it, so a test can
//! check that an access traps; `svc #0` from User mode ends an EL0 run (see `el0.rs`).
use core::arch::global_asm;
use core::sync::atomic::{AtomicU32, Ordering};

/// CPSR.M at `_start`.
#[no_mangle]
pub static BOOT_MODE: AtomicU32 = AtomicU32::new(0);
/// Undefined-Instruction exceptions taken, and the last one's instruction word and mode.
pub static UNDEF_COUNT: AtomicU32 = AtomicU32::new(0);
pub static UNDEF_INSN: AtomicU32 = AtomicU32::new(0);
pub static UNDEF_MODE: AtomicU32 = AtomicU32::new(0);

/// The Undefined vector's Rust half: `addr` is the faulting (A32) instruction, `spsr` the state it
/// ran in.
#[no_mangle]
extern "C" fn undef_rust(addr: usize, spsr: u32) {
    // SAFETY: `addr` is the address of an instruction just executed: mapped and 4-byte aligned.
    let insn = unsafe { (addr as *const u32).read_volatile() };
    UNDEF_INSN.store(insn, Ordering::SeqCst);
    UNDEF_MODE.store(spsr & 0x1F, Ordering::SeqCst);
    UNDEF_COUNT.fetch_add(1, Ordering::SeqCst);
}

/// An exception the tests did not expect: report it and stop.
#[no_mangle]
extern "C" fn unexpected_exception(vector: u32, lr: u32, spsr: u32) -> ! {
    qemu_harness::report::fail(format_args!(
        "unexpected exception: vector {vector:#x} LR {lr:#x} SPSR {spsr:#x}"
    ))
}

/// The IRQ vector's Rust half: `pc` is where the program was interrupted.
#[no_mangle]
extern "C" fn irq_rust(pc: usize) {
    qemu_harness::irq::handle::<crate::platform::A32>(pc);
}

global_asm!(
    r#"
    .section .text.boot, "ax"
    .arm
    .global _start
_start:
    mrs r4, cpsr
    and r4, r4, #0x1f
    cmp r4, #0x13                 @ only SVC: from HYP, `cps` to the other modes is not allowed
    bne 9f
    cpsid if
    cps #0x12
    ldr sp, =__irq_stack_top
    cps #0x1b
    ldr sp, =__und_stack_top
    cps #0x17
    ldr sp, =__abt_stack_top
    cps #0x13
9:  ldr sp, =__stack_top
    ldr r0, =__bss_start
    ldr r1, =__bss_end
    mov r2, #0
2:  cmp r0, r1
    strlo r2, [r0], #4
    blo 2b
    ldr r0, =BOOT_MODE
    str r4, [r0]
    ldr r0, =vectors
    mcr p15, 0, r0, c12, c0, 0    @ VBAR
    mrc p15, 0, r0, c1, c0, 0     @ SCTLR: V = 0 (vectors at VBAR), A = 0 (no alignment faults)
    bic r0, r0, #(1 << 13)
    bic r0, r0, #(1 << 1)
    mcr p15, 0, r0, c1, c0, 0
    isb
    bl main_svc
3:  wfi
    b 3b

    .section .text.vectors, "ax"
    .balign 32
vectors:
    b 8f                          @ reset
    b undef_entry
    b svc_entry
    b 5f                          @ prefetch abort
    b 6f                          @ data abort
    b 7f
    b irq_entry
    b 7f                          @ FIQ
5:  mov r0, #0x0c
    b unexpected
6:  mov r0, #0x10
    b unexpected
7:  mov r0, #0x1c
    b unexpected
8:  mov r0, #0x00
    b unexpected

unexpected:
    mov r1, lr
    mrs r2, spsr
    bl unexpected_exception

undef_entry:
    push {{r0-r3, r12, lr}}
    sub r0, lr, #4                @ the faulting A32 instruction
    mrs r1, spsr
    bl undef_rust
    pop {{r0-r3, r12, lr}}
    movs pc, lr                   @ resume after it

irq_entry:
    sub lr, lr, #4
    push {{r0-r3, r12, lr}}
    mov r0, lr
    bl irq_rust
    pop {{r0-r3, r12, lr}}
    movs pc, lr
"#
);
