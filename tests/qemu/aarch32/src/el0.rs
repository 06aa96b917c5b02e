//! Running code in User mode (EL0) and coming back.
//!
//! `run_el0` saves r4-r11, SP, LR and CPSR, and enters the task in User mode with IRQs unmasked.
//! A task ends with `svc #0`: the SVC vector sees it came from User mode, stores the task's r0 and
//! resumes `run_el0`'s caller. A trapped PMU access is an Undefined Instruction exception, which
//! the Undefined handler records (instruction word, mode) and skips.
use core::arch::global_asm;
use core::sync::atomic::{AtomicU32, Ordering};

use qemu_harness::{El0Outcome, El0Task};

use crate::boot::{UNDEF_COUNT, UNDEF_INSN, UNDEF_MODE};

#[no_mangle]
static EL0_CTX: [AtomicU32; 11] = [const { AtomicU32::new(0) }; 11];
#[no_mangle]
static EL0_RESULT: AtomicU32 = AtomicU32::new(0);

extern "C" {
    fn run_el0(entry: usize, arg: u32);
    fn el0_spin();
    fn el0_read_ccnt();
}

/// Runs `task` in User mode.
pub fn run(task: El0Task) -> El0Outcome {
    let traps_before = UNDEF_COUNT.load(Ordering::SeqCst);
    EL0_RESULT.store(0, Ordering::SeqCst);
    let (entry, arg) = match task {
        El0Task::Spin(n) => (el0_spin as *const () as usize, n),
        El0Task::ReadCycleCounter => (el0_read_ccnt as *const () as usize, 0),
    };
    // SAFETY: `entry` is one of the User-mode tasks below, which end in `svc #0`; `run_el0`
    // restores r4-r11, SP, LR and CPSR before returning here.
    unsafe { run_el0(entry, arg) };
    let traps = UNDEF_COUNT.load(Ordering::SeqCst) - traps_before;
    El0Outcome {
        traps,
        syndrome: if traps > 0 {
            UNDEF_INSN.load(Ordering::SeqCst).into()
        } else {
            0
        },
        trap_mode: if traps > 0 {
            UNDEF_MODE.load(Ordering::SeqCst)
        } else {
            0
        },
        result: EL0_RESULT.load(Ordering::SeqCst).into(),
    }
}

global_asm!(
    r#"
    .text
    .arm
    .global run_el0
run_el0:                          @ r0: task entry, r1: its argument (r0 in User mode)
    ldr r12, =EL0_CTX
    stmia r12, {{r4-r11, sp, lr}}
    mrs r2, cpsr
    str r2, [r12, #40]
    cps #0x1f                     @ System mode shares User's SP
    ldr sp, =__usr_stack_top
    cps #0x13
    msr spsr_cxsf, #0x10          @ User mode, IRQs unmasked, A32
    mov lr, r0
    mov r0, r1
    movs pc, lr

    .global svc_entry
svc_entry:
    mrs r12, spsr
    and r12, r12, #0x1f
    cmp r12, #0x10
    bne 2f
    ldr r12, =EL0_RESULT          @ from User mode: the task is done
    str r0, [r12]
    ldr r12, =EL0_CTX
    ldr r2, [r12, #40]
    msr cpsr_c, r2
    ldmia r12, {{r4-r11, sp, lr}}
    bx lr
2:  mov r0, #0x08
    mov r1, lr
    mrs r2, spsr
    bl unexpected_exception

    @ User-mode tasks: registers only.
    .global el0_spin
el0_spin:                         @ 2 * r0 + 1 instructions
2:  subs r0, r0, #1
    bne 2b
    svc #0

    .global el0_read_ccnt
el0_read_ccnt:
    mrc p15, 0, r0, c9, c13, 0    @ PMCCNTR
    svc #0
"#
);
