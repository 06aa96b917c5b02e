//! The system-register probe.
//!
//! Runs at the EL QEMU starts it in: EL1 (`-M virt`), EL2 (`-M virt,virtualization=on`) or EL3
//! (`secure=on`). It installs a vector table for that EL (VBAR_EL1, VBAR_EL2 or VBAR_EL3), lifts
//! the FP/SIMD, SVE and SME traps of that EL, then executes, for every entry of the generated table (`table.rs`, one
//! function with one `MRS` per register element), the read, and reports one line:
//!
//! - `read <index> <name> <value>`: the `MRS` completed;
//! - `trap <index> <name> <esr>`: it took a synchronous exception to this EL with ESR.EC 0x00
//!   (UNDEFINED) or 0x18 (trapped MSR/MRS/system instruction); the handler recorded ESR and
//!   returned past the `MRS`;
//! - `unexpected <index> <name> <esr>`: any other synchronous exception during a read (recorded
//!   and skipped the same way, so every one is seen; the test fails on any).
//!
//! An exception outside a read, or of another kind (IRQ, SError, from a lower EL), stops the
//! probe with a `fail` line and exit status 1. Output goes through Arm semihosting.
//!
//! The command line (`-append`) may say `e2h=1`: at EL2 the probe then sets HCR_EL2.E2H (the
//! `_EL12`/`_EL02` encodings are accessible only with it).
#![no_std]
#![no_main]

use core::arch::{asm, global_asm};
use core::fmt::Write;
use core::sync::atomic::{compiler_fence, Ordering};

/// Reads a system register by its generic encoding `S<op0>_<op1>_C<n>_C<m>_<op2>`.
macro_rules! mrs {
    ($enc:literal) => {{
        let value: u64;
        // SAFETY: an MRS has no effect on memory; if it takes an exception, the handler returns
        // to the next instruction. No `nomem`: the handler writes `TRAPPED`, which the caller
        // reads after the call.
        unsafe { core::arch::asm!(concat!("mrs {}, ", $enc), out(reg) value, options(nostack)) };
        value
    }};
}

/// A register element's name and its read.
type Entry = (&'static str, fn() -> u64);

/// The generated table: `TABLE: [Entry; N]`.
mod table {
    include!(concat!(env!("OUT_DIR"), "/table.rs"));
}

/// Non-zero while a read runs; the handler returns past the faulting instruction only then.
#[no_mangle]
static mut PROBING: u64 = 0;
/// ESR of the exception a read took, with bit 63 set (ESR's bits 63:56 are RES0); 0 if none.
#[no_mangle]
static mut TRAPPED: u64 = 0;

// ---------------------------------------------------------------------------------------------
// Semihosting
// ---------------------------------------------------------------------------------------------

const SYS_WRITE0: u64 = 0x04;
const SYS_GET_CMDLINE: u64 = 0x15;
const SYS_EXIT: u64 = 0x18;
/// ADP_Stopped_ApplicationExit.
const APPLICATION_EXIT: u64 = 0x20026;

/// One semihosting call.
///
/// # Safety
/// `arg` must be what the operation expects.
unsafe fn semihosting(op: u64, arg: u64) -> u64 {
    let ret: u64;
    // SAFETY: `hlt #0xf000` is the A64 semihosting trap; QEMU handles it and returns in x0.
    unsafe { asm!("hlt #0xf000", inout("x0") op => ret, in("x1") arg, options(nostack)) };
    ret
}

fn exit(code: u64) -> ! {
    let block = [APPLICATION_EXIT, code];
    // SAFETY: the {reason, code} block SYS_EXIT takes on AArch64.
    unsafe { semihosting(SYS_EXIT, block.as_ptr() as u64) };
    loop {
        core::hint::spin_loop();
    }
}

/// A line of output, written with one SYS_WRITE0 when complete.
struct Line {
    buf: [u8; 160],
    len: usize,
}

impl Line {
    const fn new() -> Self {
        Line {
            buf: [0; 160],
            len: 0,
        }
    }
    fn emit(&mut self) {
        self.buf[self.len] = b'\n';
        self.buf[self.len + 1] = 0;
        // SAFETY: the buffer is NUL-terminated.
        unsafe { semihosting(SYS_WRITE0, self.buf.as_ptr() as u64) };
        self.len = 0;
    }
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        // Two bytes stay free for the newline and the NUL.
        let room = self.buf.len() - 2 - self.len;
        let n = s.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

macro_rules! say {
    ($($arg:tt)*) => {{
        let mut line = Line::new();
        let _ = write!(line, $($arg)*);
        line.emit();
    }};
}

/// Whether the command line (`-append`) holds `word`.
fn cmdline_has(word: &str) -> bool {
    let mut buf = [0u8; 128];
    let mut block = [buf.as_mut_ptr() as u64, buf.len() as u64];
    // SAFETY: the {buffer, length} block; QEMU writes at most `length` bytes.
    let ok = unsafe { semihosting(SYS_GET_CMDLINE, block.as_mut_ptr() as u64) } == 0;
    let len = if ok {
        (block[1] as usize).min(buf.len())
    } else {
        0
    };
    core::str::from_utf8(&buf[..len])
        .unwrap_or("")
        .split(|c: char| c.is_whitespace() || c == '\0')
        .any(|w| w == word)
}

// ---------------------------------------------------------------------------------------------
// Start-up
// ---------------------------------------------------------------------------------------------

extern "C" {
    static vectors_el1: u8;
    static vectors_el2: u8;
    static vectors_el3: u8;
}

/// From `_start`, with the stack set and .bss clear.
#[no_mangle]
extern "C" fn start() -> ! {
    let current: u64 = mrs!("CurrentEL");
    let el = (current >> 2) & 3;
    let pfr0: u64 = mrs!("S3_0_C0_C4_0"); // ID_AA64PFR0_EL1
    let gicv3 = (pfr0 >> 24) & 0xf != 0;
    let mut e2h = false;
    match el {
        1 => {
            // CPACR_EL1: FPEN, ZEN and SMEN 0b11 (no FP/SIMD, SVE or SME traps at EL1 and EL0).
            let cpacr: u64 = (3 << 20) | (3 << 16) | (3 << 24);
            // SAFETY: untraps instructions; VBAR_EL1 names the vector table below.
            unsafe {
                asm!("msr CPACR_EL1, {}", in(reg) cpacr, options(nostack));
                asm!("msr VBAR_EL1, {}", in(reg) core::ptr::addr_of!(vectors_el1), options(nostack));
                asm!("isb", options(nostack));
            }
        }
        2 => {
            e2h = cmdline_has("e2h=1");
            // HCR_EL2: RW (EL1 is AArch64), E2H when asked. CPTR_EL2 in its E2H=0 form: TFP, TZ
            // and TSM clear, the RES1 bits set; in its E2H=1 form: FPEN, ZEN and SMEN 0b11.
            let hcr: u64 = (1 << 31) | if e2h { 1 << 34 } else { 0 };
            let cptr: u64 = if e2h {
                (3 << 20) | (3 << 16) | (3 << 24)
            } else {
                0x22ff
            };
            // SAFETY: configures EL2 itself, which runs with the MMU off; VBAR_EL2 names the
            // vector table below.
            unsafe {
                asm!("msr HCR_EL2, {}", in(reg) hcr, options(nostack));
                asm!("isb", options(nostack));
                asm!("msr CPTR_EL2, {}", in(reg) cptr, options(nostack));
                asm!("msr VBAR_EL2, {}", in(reg) core::ptr::addr_of!(vectors_el2), options(nostack));
                if gicv3 {
                    // ICC_SRE_EL2: SRE, DFB, DIB, Enable.
                    asm!("msr S3_4_C12_C9_5, {}", in(reg) 0xfu64, options(nostack));
                }
                asm!("isb", options(nostack));
            }
        }
        3 => {
            // CPTR_EL3: EZ and ESM set, TFP, TTA, TAM and TCPAC clear (no SVE, SME, FP/SIMD,
            // trace, AMU or CPACR traps to EL3).
            let cptr: u64 = (1 << 8) | (1 << 12);
            // SAFETY: as for EL2; SCR_EL3 keeps its reset value (Secure, no EEL2).
            unsafe {
                asm!("msr CPTR_EL3, {}", in(reg) cptr, options(nostack));
                asm!("msr VBAR_EL3, {}", in(reg) core::ptr::addr_of!(vectors_el3), options(nostack));
                if gicv3 {
                    // ICC_SRE_EL3: SRE, DFB, DIB, Enable.
                    asm!("msr S3_6_C12_C12_5, {}", in(reg) 0xfu64, options(nostack));
                }
                asm!("isb", options(nostack));
            }
        }
        _ => {
            say!("fail started at EL{el}: the probe runs at EL1, EL2 or EL3");
            exit(1)
        }
    }
    say!("el {el}");
    say!("e2h {}", u8::from(e2h));
    say!("count {}", table::TABLE.len());
    probe_all();
    say!("end");
    exit(0)
}

fn probe_all() {
    let base = core::ptr::addr_of_mut!(TRAPPED);
    let probing = core::ptr::addr_of_mut!(PROBING);
    for (index, (name, read)) in table::TABLE.iter().enumerate() {
        // SAFETY: plain stores and loads of the statics the handler shares; the fences keep
        // them on their side of the read.
        let value = unsafe {
            base.write_volatile(0);
            probing.write_volatile(1);
            compiler_fence(Ordering::SeqCst);
            let value = read();
            compiler_fence(Ordering::SeqCst);
            probing.write_volatile(0);
            value
        };
        // SAFETY: as above.
        let trapped = unsafe { base.read_volatile() };
        if trapped == 0 {
            say!("read {index} {name} {value:#x}");
        } else {
            let esr = trapped & !(1 << 63);
            let ec = (esr >> 26) & 0x3f;
            let kind = if ec == 0x00 || ec == 0x18 {
                "trap"
            } else {
                "unexpected"
            };
            say!("{kind} {index} {name} {esr:#x}");
        }
    }
}

/// An exception the probe did not cause on purpose: report it and stop.
#[no_mangle]
extern "C" fn unexpected(esr: u64, elr: u64, vector: u64) -> ! {
    say!(
        "fail unexpected exception: vector {vector:#x} ESR {esr:#x} (EC {:#x}) ELR {elr:#x}",
        (esr >> 26) & 0x3f
    );
    exit(1)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    say!("fail panic: {info}");
    exit(1)
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
3:  bl start

    // A synchronous exception from the current EL (SP_ELx): during a read, record ESR (bit 63
    // set) in TRAPPED and return past the instruction; otherwise it is unexpected.
    .macro SYNC el
    stp x0, x1, [sp, #-16]!
    ldr x0, =PROBING
    ldr x0, [x0]
    cbz x0, 1f
    mrs x0, esr_\el
    orr x0, x0, #(1 << 63)
    ldr x1, =TRAPPED
    str x0, [x1]
    mrs x0, elr_\el
    add x0, x0, #4
    msr elr_\el, x0
    ldp x0, x1, [sp], #16
    eret
1:  mrs x0, esr_\el
    mrs x1, elr_\el
    mov x2, #0x200
    bl unexpected
    .endm

    // Every other entry: report the vector and stop.
    .macro OTHER el, offset
    mrs x0, esr_\el
    mrs x1, elr_\el
    mov x2, #\offset
    bl unexpected
    .endm

    .macro VECTORS el
    .section .text.vectors_\el, "ax"
    .balign 2048
    .global vectors_\el
vectors_\el:
    .org vectors_\el + 0x000
    OTHER \el, 0x000
    .org vectors_\el + 0x080
    OTHER \el, 0x080
    .org vectors_\el + 0x100
    OTHER \el, 0x100
    .org vectors_\el + 0x180
    OTHER \el, 0x180
    .org vectors_\el + 0x200
    SYNC \el
    .org vectors_\el + 0x280
    OTHER \el, 0x280
    .org vectors_\el + 0x300
    OTHER \el, 0x300
    .org vectors_\el + 0x380
    OTHER \el, 0x380
    .org vectors_\el + 0x400
    OTHER \el, 0x400
    .org vectors_\el + 0x480
    OTHER \el, 0x480
    .org vectors_\el + 0x500
    OTHER \el, 0x500
    .org vectors_\el + 0x580
    OTHER \el, 0x580
    .org vectors_\el + 0x600
    OTHER \el, 0x600
    .org vectors_\el + 0x680
    OTHER \el, 0x680
    .org vectors_\el + 0x700
    OTHER \el, 0x700
    .org vectors_\el + 0x780
    OTHER \el, 0x780
    .ltorg
    .endm

    VECTORS el1
    VECTORS el2
    VECTORS el3
"#
);
