//! Running code at EL0 and coming back.
//!
//! `run_el0` saves the callee-saved registers, SP and DAIF, and `eret`s to the task at EL0t with
//! interrupts unmasked. A task ends with `svc #0`: the lower-EL synchronous vector sees EC 0x15,
//! stores the task's x0 and resumes `run_el0`'s caller. Any other synchronous exception from EL0
//! (a trapped PMU access, EC 0x18) is counted, its ESR kept, and the faulting instruction skipped.
use core::arch::global_asm;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use qemu_harness::{El0Outcome, El0Task};

#[no_mangle]
static EL0_CTX: [AtomicU64; 14] = [const { AtomicU64::new(0) }; 14];
#[no_mangle]
static EL0_TRAPS: AtomicU32 = AtomicU32::new(0);
#[no_mangle]
static EL0_SYNDROME: AtomicU64 = AtomicU64::new(0);
#[no_mangle]
static EL0_RESULT: AtomicU64 = AtomicU64::new(0);

extern "C" {
    fn run_el0(entry: usize, arg: u64);
    fn el0_spin();
    fn el0_read_ccnt();
}

/// Runs `task` at EL0.
pub fn run(task: El0Task) -> El0Outcome {
    EL0_TRAPS.store(0, Ordering::SeqCst);
    EL0_SYNDROME.store(0, Ordering::SeqCst);
    EL0_RESULT.store(0, Ordering::SeqCst);
    let (entry, arg) = match task {
        El0Task::Spin(n) => (el0_spin as *const () as usize, u64::from(n)),
        El0Task::ReadCycleCounter => (el0_read_ccnt as *const () as usize, 0),
    };
    // SAFETY: `entry` is one of the EL0 tasks below, which end in `svc #0`; `run_el0` restores
    // every callee-saved register, SP and DAIF before returning here.
    unsafe { run_el0(entry, arg) };
    El0Outcome {
        traps: EL0_TRAPS.load(Ordering::SeqCst),
        syndrome: EL0_SYNDROME.load(Ordering::SeqCst),
        trap_mode: 0,
        result: EL0_RESULT.load(Ordering::SeqCst),
    }
}

global_asm!(
    r#"
    .text
    .global run_el0
run_el0:                          // x0: task entry, x1: its argument (x0 at EL0)
    ldr x9, =EL0_CTX
    stp x19, x20, [x9, #0]
    stp x21, x22, [x9, #16]
    stp x23, x24, [x9, #32]
    stp x25, x26, [x9, #48]
    stp x27, x28, [x9, #64]
    stp x29, x30, [x9, #80]
    mov x10, sp
    mrs x11, daif
    stp x10, x11, [x9, #96]
    ldr x10, =__el0_stack_top
    msr sp_el0, x10
    msr elr_el1, x0
    msr spsr_el1, xzr             // EL0t, DAIF clear
    mov x0, x1
    eret

el0_return:
    ldr x9, =EL0_CTX
    ldp x19, x20, [x9, #0]
    ldp x21, x22, [x9, #16]
    ldp x23, x24, [x9, #32]
    ldp x25, x26, [x9, #48]
    ldp x27, x28, [x9, #64]
    ldp x29, x30, [x9, #80]
    ldp x10, x11, [x9, #96]
    mov sp, x10
    msr daif, x11
    ret

    .global el0_sync
el0_sync:
    stp x0, x1, [sp, #-16]!
    mrs x0, esr_el1
    lsr x1, x0, #26
    cmp x1, #0x15                 // SVC from AArch64: the task is done
    b.eq 2f
    ldr x1, =EL0_SYNDROME
    str x0, [x1]
    ldr x1, =EL0_TRAPS
    ldr w0, [x1]
    add w0, w0, #1
    str w0, [x1]
    mrs x0, elr_el1
    add x0, x0, #4
    msr elr_el1, x0
    ldp x0, x1, [sp], #16
    eret
2:  ldr x0, [sp]
    ldr x1, =EL0_RESULT
    str x0, [x1]
    add sp, sp, #16
    b el0_return

    // EL0 tasks: registers only, no memory (EL0 data accesses with the MMU off are Device).
    .global el0_spin
el0_spin:                          // 2 * x0 + 1 instructions
2:  subs x0, x0, #1
    b.ne 2b
    svc #0

    .global el0_read_ccnt
el0_read_ccnt:
    mrs x0, pmccntr_el0
    svc #0
"#
);
