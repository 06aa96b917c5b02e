//! `bringup`: what a kernel's first steps do, every system register through the generated
//! `aarch64_sysregs` accessors (only instructions stay in assembly: `brk`, barriers, TLB
//! maintenance). After the boot path (`boot.rs`, accessors too) has come down from EL2 or EL3:
//! reads the CPU's identification and features through the generated enums, takes a `brk` through
//! the vector table and decodes ESR_EL1, turns on the MMU and caches over an identity map, and
//! takes the virtual timer's interrupt through the GICv3 CPU interface.
use core::arch::asm;
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use aarch64_sysregs::aarch64::{
    CurrentEL, CNTVCT_EL0, CNTV_CTL_EL0, CNTV_CVAL_EL0, DAIF, ELR_EL1, ESR_EL1, ID_AA64DFR0_EL1,
    ID_AA64MMFR0_EL1, ID_AA64PFR0_EL1, MAIR_EL1, MIDR_EL1, MPIDR_EL1, SCTLR_EL1, TCR_EL1,
    TTBR0_EL1, VBAR_EL1,
};
use aarch64_sysregs::esr::Ec;
use aarch64_sysregs::id_aa64mmfr0::Parange;
use aarch64_sysregs::mair::Attr0 as Attr;
use aarch64_sysregs::tcr_el1::{Epd1, Ips, Irgn0, Sh0, Tg0, Tg1};
use aarch64_sysregs::{daif, sctlr};
use aarch64_sysregs::{
    CntvCtl, CntvCval, Const, Currentel, Daif, Esr, IdAa64dfr0, IdAa64mmfr0, IdAa64pfr0, Layout,
    Mair, Midr, Mpidr, Sctlr, TcrEl1, Ttbr, Vbar,
};
use qemu_harness::irq::{LAST_INTID, TIMER_IRQS};
use qemu_harness::report::{fail, value};
use qemu_harness::tick::TICK;
use qemu_harness::{isb, Platform};

use crate::platform::A64;

/// A decoded enumerated field as reported: its value, or 0x100 + the raw bits when the
/// description has no name for them (which the host then reports as a mismatch).
macro_rules! decoded {
    ($field:expr) => {
        match $field {
            Ok(e) => u64::from(e.bits()),
            Err(raw) => 0x100 | u64::from(raw),
        }
    };
}

pub fn run() {
    value("boot_el", A64::boot_el().into());
    value(
        "current_el",
        CurrentEL::read().get(Currentel::EL).bits().into(),
    );
    identify();
    take_brk();
    mmu_on();
    take_timer_irq();
}

/// MIDR, MPIDR and the ID_AA64 fields a kernel checks first.
fn identify() {
    let midr = MIDR_EL1::read();
    value("midr_implementer", decoded!(midr.get(Midr::IMPLEMENTER)));
    value("midr_part", midr.get(Midr::PARTNUM).into());
    let mpidr = MPIDR_EL1::read();
    let aff = [Mpidr::AFF3, Mpidr::AFF2, Mpidr::AFF1, Mpidr::AFF0]
        .into_iter()
        .fold(0u64, |acc, f| acc << 8 | u64::from(mpidr.get(f)));
    value("mpidr_aff", aff);
    let dfr0 = ID_AA64DFR0_EL1::read();
    value("pmuver", decoded!(dfr0.get(IdAa64dfr0::PMUVER)));
    let pfr0 = ID_AA64PFR0_EL1::read();
    value("el2", decoded!(pfr0.get(IdAa64pfr0::EL2)));
    value("el3", decoded!(pfr0.get(IdAa64pfr0::EL3)));
    value("fp", decoded!(pfr0.get(IdAa64pfr0::FP)));
    value("advsimd", decoded!(pfr0.get(IdAa64pfr0::ADVSIMD)));
    value("gic", decoded!(pfr0.get(IdAa64pfr0::GIC)));
    let mmfr0 = ID_AA64MMFR0_EL1::read();
    value("parange", decoded!(mmfr0.get(IdAa64mmfr0::PARANGE)));
    value("tgran4", decoded!(mmfr0.get(IdAa64mmfr0::TGRAN4)));
}

/// Set while the `brk` below is expected: any other synchronous exception is a failure.
static EXPECT_BRK: AtomicBool = AtomicBool::new(false);
static BRK_ESR: AtomicU64 = AtomicU64::new(0);
static BRK_ELR: AtomicU64 = AtomicU64::new(0);

/// The synchronous vector of the current EL: records ESR_EL1 and ELR_EL1 of the expected `brk`
/// and returns past it.
#[no_mangle]
extern "C" fn el1_sync_rust() {
    let esr = ESR_EL1::read();
    if !EXPECT_BRK.swap(false, Ordering::SeqCst) || esr.get(Esr::EC) != Ok(Ec::Brk64) {
        crate::boot::unexpected_exception(0x200)
    }
    let elr = ELR_EL1::read().bits();
    BRK_ESR.store(esr.bits(), Ordering::SeqCst);
    BRK_ELR.store(elr, Ordering::SeqCst);
    // ELR is the `brk` itself: resume at the next instruction.
    ELR_EL1::write(elr + 4);
}

fn take_brk() {
    // The boot path installed the vectors; install them again here, as a kernel would.
    VBAR_EL1::write(Vbar::DEFAULT.with_address(Vbar::VBA, crate::boot::vectors_addr()));
    isb();
    value(
        "vbar_ok",
        u64::from(VBAR_EL1::read().bits() == crate::boot::vectors_addr()),
    );
    EXPECT_BRK.store(true, Ordering::SeqCst);
    let at: u64;
    // SAFETY: the vector returns to the next instruction; the handler is Rust code, so every
    // caller-saved register is declared clobbered (`at` is in a callee-saved one).
    unsafe {
        asm!(
            "adr x20, 2f",
            "2:",
            "brk #0x42",
            out("x20") at,
            clobber_abi("C"),
        )
    };
    let esr = aarch64_sysregs::Value::<Esr>::from_bits_retain(BRK_ESR.load(Ordering::SeqCst));
    value("esr_ec", decoded!(esr.get(Esr::EC)));
    // For BRK the ISS is the immediate (imm16).
    value("esr_iss", esr.get(Esr::ISS).into());
    value("esr_il", esr.get(Esr::IL).into());
    value(
        "brk_elr_ok",
        u64::from(BRK_ELR.load(Ordering::SeqCst) == at),
    );
}

/// A level 1 translation table: with a 39-bit VA and the 4 KiB granule, 512 entries of 1 GiB.
#[repr(C, align(4096))]
struct Table(UnsafeCell<[u64; 512]>);
// SAFETY: written only by `mmu_on`, before the MMU reads it, on the only CPU.
unsafe impl Sync for Table {}
static L1: Table = Table(UnsafeCell::new([0; 512]));

/// Block descriptor bits (translation table entries are memory, not registers).
const BLOCK: u64 = 0b01;
const AF: u64 = 1 << 10;
const SH_INNER: u64 = 0b11 << 8;
const PXN: u64 = 1 << 53;
const UXN: u64 = 1 << 54;
const fn attr_index(i: u64) -> u64 {
    i << 2
}
/// MAIR_EL1 indices: Normal write-back, and Device-nGnRnE.
const NORMAL: u64 = 0;
const DEVICE: u64 = 1;

/// A pattern written with the MMU off and read back with it on.
static PATTERN: [AtomicU64; 64] = [const { AtomicU64::new(0) }; 64];
const fn pattern(i: usize, salt: u64) -> u64 {
    (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt
}

fn mmu_on() {
    for (i, w) in PATTERN.iter().enumerate() {
        w.store(pattern(i, 0x5A5A), Ordering::SeqCst);
    }
    // SAFETY: the MMU is off and nothing else uses the table.
    let table = unsafe { &mut *L1.0.get() };
    // QEMU `virt`: devices (GIC, UART, flash) in the first GiB, RAM from 1 GiB.
    table[0] = BLOCK | AF | attr_index(DEVICE) | PXN | UXN;
    table[1] = 0x4000_0000 | BLOCK | AF | SH_INNER | attr_index(NORMAL);
    MAIR_EL1::write(Mair::ATTR0.to(Attr::NormalWb) | Mair::ATTR1.to(Attr::DeviceNgnrne));
    // The output size the CPU supports, at most 40 bits (the map only reaches 2 GiB).
    let ips = match ID_AA64MMFR0_EL1::read().get(IdAa64mmfr0::PARANGE) {
        Ok(Parange::_32) => Ips::_32Bit,
        Ok(Parange::_36) => Ips::_36Bit,
        _ => Ips::_40Bit,
    };
    TCR_EL1::write(
        TcrEl1::DEFAULT
            .with(TcrEl1::T0SZ, Const::<{ 64 - 39 }>)
            .with(TcrEl1::IRGN0, Irgn0::Wbwa)
            .with(TcrEl1::ORGN0, Irgn0::Wbwa)
            .with(TcrEl1::SH0, Sh0::Inner)
            .with(TcrEl1::TG0, Tg0::_4k)
            // No TTBR1 walks.
            .with(TcrEl1::EPD1, Epd1::Fault)
            .with(TcrEl1::TG1, Tg1::_4k)
            .with(TcrEl1::IPS, ips),
    );
    TTBR0_EL1::write(Ttbr::DEFAULT.with_address(Ttbr::BADDR, L1.0.get() as u64));
    // SAFETY: barriers and TLB maintenance: the table writes complete before the walks, no stale
    // entries, the register writes take effect.
    unsafe {
        asm!(
            "dsb ishst",
            "tlbi vmalle1",
            "dsb nsh",
            "isb",
            options(nostack)
        )
    };
    SCTLR_EL1::modify(|v| {
        v | Sctlr::M.to(sctlr::M::Enabled)
            | Sctlr::C.to(sctlr::C::Cacheable)
            | Sctlr::I.to(sctlr::I::Cacheable)
    });
    isb();
    let sctlr = SCTLR_EL1::read();
    value("sctlr_m", sctlr.get(Sctlr::M).bits().into());
    value("sctlr_c", sctlr.get(Sctlr::C).bits().into());
    value("sctlr_i", sctlr.get(Sctlr::I).bits().into());
    let mut ok = PATTERN
        .iter()
        .enumerate()
        .all(|(i, w)| w.load(Ordering::SeqCst) == pattern(i, 0x5A5A));
    // And through the cacheable mapping.
    for (i, w) in PATTERN.iter().enumerate() {
        w.store(pattern(i, 0xA5A5), Ordering::SeqCst);
    }
    ok &= PATTERN
        .iter()
        .enumerate()
        .all(|(i, w)| w.load(Ordering::SeqCst) == pattern(i, 0xA5A5));
    value("mmu_readback_ok", ok.into());
}

/// Ticks of the 62.5 MHz counter until the timer fires: 16 µs.
const TIMER_DELAY: u64 = 1000;

fn take_timer_irq() {
    let gic = A64::gic_version();
    value("gic_version", gic.into());
    qemu_harness::gic::init(gic, A64::gicv3_cpu());
    let cval = CNTVCT_EL0::read().bits() + TIMER_DELAY;
    let not_early = AtomicBool::new(true);
    // The interrupt is level: the handler masks it at the timer, and checks it is due.
    let mut hook = || {
        if CNTVCT_EL0::read().bits() < cval {
            not_early.store(false, Ordering::SeqCst);
        }
        CNTV_CTL_EL0::write(
            CntvCtl::DEFAULT
                .with(CntvCtl::ENABLE, true)
                .with(CntvCtl::IMASK, true),
        );
    };
    // SAFETY: `hook` outlives its use: TICK is cleared below, with IRQs masked again.
    unsafe { TICK.set(&mut hook) };
    let before = TIMER_IRQS.load(Ordering::SeqCst);
    CNTV_CVAL_EL0::write(CntvCval::DEFAULT.with(CntvCval::COMPAREVALUE, cval));
    CNTV_CTL_EL0::write(CntvCtl::DEFAULT.with(CntvCtl::ENABLE, true));
    DAIF::modify(|v| v.with(Daif::I, daif::F::Unmasked));
    isb();
    let mut spins = 0u32;
    while TIMER_IRQS.load(Ordering::SeqCst) == before {
        spins += 1;
        if spins == 10_000_000 {
            fail(format_args!("no timer interrupt"));
        }
        core::hint::spin_loop();
    }
    DAIF::modify(|v| v.with(Daif::I, daif::F::Masked));
    isb();
    TICK.clear();
    CNTV_CTL_EL0::write(CntvCtl::DEFAULT);
    value(
        "timer_irqs",
        (TIMER_IRQS.load(Ordering::SeqCst) - before).into(),
    );
    value("timer_intid", LAST_INTID.load(Ordering::SeqCst).into());
    value("timer_not_early", not_early.load(Ordering::SeqCst).into());
}
