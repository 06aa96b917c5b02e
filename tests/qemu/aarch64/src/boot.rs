//! Start-up and exception vectors.
//!
//! `_start` runs at whatever EL QEMU starts us in: EL1 by default, EL2 with
//! `virtualization=on`, EL3 with `secure=on`. It sets the stack, clears .bss and calls
//! [`start`], which sets every system register through the generated `aarch64_sysregs`
//! accessors: EL3 drops to Non-secure EL2 (or EL1 when there is no EL2); EL2 sets HCR_EL2.RW,
//! gives EL1 the counters, calls [`el2_setup`] (MDCR_EL2.HPMN) and drops to EL1. EL1 enables
//! FP/SIMD (rustc emits NEON), installs the vectors and calls Rust. Only `eret`, the stack
//! pointer and the vector entries stay in assembly.
use core::arch::global_asm;
use core::sync::atomic::{AtomicU32, Ordering};

use aarch64_sysregs::aarch64::{
    CurrentEL, CNTHCTL_EL2, CNTVOFF_EL2, CPACR_EL1, CPTR_EL2, CPTR_EL3, ELR_EL1, ELR_EL2, ELR_EL3,
    ESR_EL1, FAR_EL1, HCR_EL2, ICC_SRE_EL2, ICC_SRE_EL3, ID_AA64PFR0_EL1, MDCR_EL3, SCR_EL3,
    SCTLR_EL1, SPSR_EL1, SPSR_EL2, SPSR_EL3, VBAR_EL1,
};
use aarch64_sysregs::currentel::El;
use aarch64_sysregs::id_aa64pfr0::{El2, Gic};
use aarch64_sysregs::rt::asm;
use aarch64_sysregs::spsr::{A, D, F, I, M};
use aarch64_sysregs::{hcr, scr};
use aarch64_sysregs::{
    Cnthctl, Cntvoff, Const, Cpacr, CptrEl2, CptrEl3, Hcr, IccSreElx, IdAa64pfr0, Layout, MdcrEl3,
    Scr, Sctlr, Spsr, UInt, Vbar,
};
use arm_pmuv3::aarch64::{MDCR_EL2, PMCR_EL0};
use arm_pmuv3::MdcrEl2;

/// The EL `_start` ran at (written by the start-up code).
pub static BOOT_EL: AtomicU32 = AtomicU32::new(0);
/// PMCR_EL0.N as EL2 saw it, and the HPMN it set (0 when not started at EL2).
pub static EL2_N: AtomicU32 = AtomicU32::new(0);
pub static HPMN: AtomicU32 = AtomicU32::new(0);

extern "C" {
    /// Entry points below that set SP for their EL, then call [`el2_main`] or [`el1_main`].
    fn el2_entry();
    fn el1_entry();
    /// The vector table.
    static vectors: u8;
}

/// The vector table's address, for VBAR_EL1.
pub fn vectors_addr() -> u64 {
    core::ptr::addr_of!(vectors) as u64
}

/// SPSR for an exception return to `mode` with D, A, I and F masked.
fn spsr_masked(mode: M) -> aarch64_sysregs::Value<Spsr> {
    Spsr::M.to(mode)
        | Spsr::D.to(D::Masked)
        | Spsr::A.to(A::Masked)
        | Spsr::I.to(I::Masked)
        | Spsr::F.to(F::Masked)
}

/// `ERET` to what ELR_ELx/SPSR_ELx (just written) say.
fn eret() -> ! {
    asm::isb();
    // SAFETY: ELR and SPSR of this EL name one of the entry points above, which set their own SP.
    unsafe { asm::eret() }
}

/// From `_start` (stack set, .bss clear): records the boot EL and goes down to EL1.
#[no_mangle]
extern "C" fn start() -> ! {
    let el = CurrentEL::read().get(aarch64_sysregs::Currentel::EL);
    BOOT_EL.store(el.bits().into(), Ordering::SeqCst);
    match el {
        El::El3 => el3_main(),
        El::El2 => el2_main(),
        El::El1 | El::El0 => el1_main(),
    }
}

/// Whether the CPU has the GICv3 system-register interface (QEMU: the machine has a GICv3).
fn has_gicv3() -> bool {
    ID_AA64PFR0_EL1::read().get(IdAa64pfr0::GIC) != Ok(Gic::Ni)
}

/// ICC_SRE_EL3/EL2: the system-register interface at this EL, and the next EL down may use it.
fn sre_elx() -> aarch64_sysregs::Value<IccSreElx> {
    IccSreElx::DEFAULT
        .with(IccSreElx::SRE, true)
        .with(IccSreElx::DFB, true)
        .with(IccSreElx::DIB, true)
        .with(IccSreElx::ENABLE, true)
}

/// EL3: no traps of FP/SIMD or of lower ELs' PMU and debug accesses; lower ELs Non-secure and
/// AArch64, HVC allowed; then EL2 (or EL1 when the CPU has no EL2).
fn el3_main() -> ! {
    CPTR_EL3::write(CptrEl3::DEFAULT);
    SCR_EL3::write(Scr::NS.to(scr::Ns::NonSecure) | Scr::HCE | Scr::RW.to(scr::Rw::Aarch64));
    MDCR_EL3::write(MdcrEl3::DEFAULT);
    if has_gicv3() {
        // Lower ELs use the system-register interface too, and own the GIC.
        ICC_SRE_EL3::write(sre_elx());
        qemu_harness::isb();
        qemu_harness::gic::disable_security();
    }
    let has_el2 = ID_AA64PFR0_EL1::read().get(IdAa64pfr0::EL2) != Ok(El2::Ni);
    let (entry, mode) = if has_el2 {
        (el2_entry as *const () as u64, M::El2h)
    } else {
        (el1_entry as *const () as u64, M::El1h)
    };
    ELR_EL3::write(entry);
    SPSR_EL3::write(spsr_masked(mode));
    eret()
}

/// EL2 (from `el2_entry`, or `start`): no FP/SIMD traps, EL1 is AArch64 and reaches the physical
/// counter and timer, no virtual offset; [`el2_setup`]; then EL1.
#[no_mangle]
extern "C" fn el2_main() -> ! {
    CPTR_EL2::write(CptrEl2::DEFAULT);
    HCR_EL2::write(Hcr::RW.to(hcr::Rw::Aarch64));
    CNTHCTL_EL2::write(Cnthctl::EL1PCTEN | Cnthctl::EL1PCEN);
    CNTVOFF_EL2::write(Cntvoff::DEFAULT);
    if has_gicv3() {
        ICC_SRE_EL2::write(sre_elx());
    }
    qemu_harness::isb();
    el2_setup();
    ELR_EL2::write(el1_entry as *const () as u64);
    SPSR_EL2::write(spsr_masked(M::El1h));
    eret()
}

/// At EL2, before dropping to EL1: reserve the top two event counters for EL2, so EL1 sees
/// PMCR_EL0.N = N - 2, through the generated MDCR_EL2 accessor.
fn el2_setup() {
    let n = PMCR_EL0::read().get(arm_pmuv3::Pmcr::N);
    let hpmn = n.saturating_sub(2);
    // N is a 5-bit field, so N - 2 fits HPMN's 5 bits.
    MDCR_EL2::write(MdcrEl2::DEFAULT.with(MdcrEl2::HPMN, UInt::truncating(hpmn)));
    EL2_N.store(n.into(), Ordering::SeqCst);
    HPMN.store(hpmn.into(), Ordering::SeqCst);
}

/// SCTLR_EL1 with the MMU, caches and alignment checks off, and the bits that are RES1 on CPUs
/// without the features that define them (the layout's DEFAULT leaves them 0).
pub fn sctlr_el1_off() -> aarch64_sysregs::Value<Sctlr> {
    Sctlr::DEFAULT
        .with(Sctlr::LSMAOE, true)
        .with(Sctlr::NTLSMD, true)
        .with(Sctlr::SPAN, true)
        .with(Sctlr::EIS, true)
        .with(Sctlr::TSCXT, true)
        .with(Sctlr::EOS, true)
}

/// EL1 (from `el1_entry`, or `start`): FP/SIMD untrapped before any Rust code that may use it,
/// then the rest in [`el1_rest`].
#[no_mangle]
extern "C" fn el1_main() -> ! {
    // FPEN = 0b11: no FP/SIMD traps at EL0 or EL1.
    CPACR_EL1::write(Cpacr::DEFAULT.with(Cpacr::FPEN, Const::<0b11>));
    qemu_harness::isb();
    el1_rest()
}

#[inline(never)]
fn el1_rest() -> ! {
    SCTLR_EL1::write(sctlr_el1_off());
    VBAR_EL1::write(Vbar::DEFAULT.with_address(Vbar::VBA, vectors_addr()));
    qemu_harness::isb();
    crate::main_el1()
}

/// An exception the tests did not expect: report it and stop.
#[no_mangle]
pub extern "C" fn unexpected_exception(vector: u64) -> ! {
    let esr = ESR_EL1::read();
    let elr = ELR_EL1::read().bits();
    let far = FAR_EL1::read().bits();
    qemu_harness::report::fail(format_args!(
        "unexpected exception: vector {vector:#x} ESR {:#x} (EC {:?}) ELR {elr:#x} FAR {far:#x}",
        esr.bits(),
        esr.get(aarch64_sysregs::Esr::EC)
    ))
}

/// The IRQ vector's Rust half. ELR_EL1 is where the program was interrupted; it and SPSR_EL1
/// are put back in case the handler took an exception.
#[no_mangle]
extern "C" fn irq_rust() {
    let (elr, spsr) = (ELR_EL1::read(), SPSR_EL1::read());
    qemu_harness::irq::handle::<crate::platform::A64>(elr.bits() as usize);
    ELR_EL1::write(elr);
    SPSR_EL1::write(spsr);
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

    // Where EL3 and EL2 return to: each EL has its own SP, set before any Rust code.
    .global el2_entry
el2_entry:
    ldr x0, =__stack_top
    mov sp, x0
    bl el2_main
    .global el1_entry
el1_entry:
    ldr x0, =__stack_top
    mov sp, x0
    bl el1_main

    .section .text.vectors, "ax"
    .balign 2048
    .global vectors
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
    .org vectors + 0x200          // synchronous, current EL: a `brk` of the bring-up test
    b el1_sync
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
    bl unexpected_exception

    // The code that takes the exception on purpose tells the compiler every caller-saved
    // register is clobbered, so only x29/x30 need saving around the Rust handler.
el1_sync:
    stp x29, x30, [sp, #-16]!
    bl el1_sync_rust
    ldp x29, x30, [sp], #16
    eret

    // Saves everything the Rust handler may clobber (caller-saved general registers and all of
    // the SIMD registers, since rustc uses NEON); the handler keeps ELR/SPSR.
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
    stp x0, xzr, [sp, #-16]!
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
    ldp x0, xzr, [sp], #16
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
