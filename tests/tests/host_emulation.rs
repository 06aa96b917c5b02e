//! Driving the generated accessors on the host.
//!
//! System-register accessors call the `armreg_rt::host` handler when the instruction is not
//! available; here that handler is a register file in a `BTreeMap` plus a log of every access, so
//! the exact sequence of reads and writes an accessor issues can be checked. Memory-mapped blocks
//! are pointed at a 4 KiB buffer and checked word by word. Paths and offsets are written out by
//! hand from the Arm ARM DDI0487 (§D24.5, §G8.4, §D24.10, §I5.2) and, for the DSU, Linux
//! `arch/arm64/include/asm/arm_dsu_pmu.h`.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use armreg_rt::host::{self, Handler};
use armreg_rt::{IndexOutOfRange, Layout, Reset, SysRegPath};

use arm_dsu_pmu as dsu;
use arm_generic_timer_regs as timer;
use arm_pmuv3 as pmu;

// ---------------------------------------------------------------------------------------------
// The emulated register file.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Read(SysRegPath),
    Write(SysRegPath, u64),
}
use Access::{Read, Write};

struct State {
    regs: BTreeMap<SysRegPath, u64>,
    log: Vec<Access>,
}

static STATE: Mutex<State> = Mutex::new(State {
    regs: BTreeMap::new(),
    log: Vec::new(),
});

/// Serialises the tests of this file: they share the one global handler and `STATE`.
static SERIAL: Mutex<()> = Mutex::new(());

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

fn emu_read(path: SysRegPath) -> u64 {
    let mut s = state();
    s.log.push(Read(path));
    s.regs.get(&path).copied().unwrap_or(0)
}

fn emu_write(path: SysRegPath, value: u64) {
    let mut s = state();
    s.log.push(Write(path, value));
    s.regs.insert(path, value);
}

static HANDLER: Handler = Handler {
    read: emu_read,
    write: emu_write,
};

/// Takes the serialising lock, installs the handler and empties the register file and log.
fn setup() -> MutexGuard<'static, ()> {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    host::install(&HANDLER);
    let mut s = state();
    s.regs.clear();
    s.log.clear();
    guard
}

fn preset(path: SysRegPath, value: u64) {
    state().regs.insert(path, value);
}

fn take_log() -> Vec<Access> {
    std::mem::take(&mut state().log)
}

fn value(path: SysRegPath) -> Option<u64> {
    state().regs.get(&path).copied()
}

const fn a64(op0: u8, op1: u8, crn: u8, crm: u8, op2: u8) -> SysRegPath {
    SysRegPath::A64 {
        op0,
        op1,
        crn,
        crm,
        op2,
    }
}

const fn a32(opc1: u8, crn: u8, crm: u8, opc2: u8) -> SysRegPath {
    SysRegPath::A32 {
        coproc: 15,
        opc1,
        crn,
        crm,
        opc2,
    }
}

const fn a32_wide(opc1: u8, crm: u8) -> SysRegPath {
    SysRegPath::A32Wide {
        coproc: 15,
        opc1,
        crm,
    }
}

// Arm ARM DDI0487 §D24.5 (AArch64 PMU), §G8.4 (AArch32 PMU), §D24.10 (generic timer); the DSU's
// CLUSTERPMCR_EL1: Linux arch/arm64/include/asm/arm_dsu_pmu.h.
const PMCR_EL0: SysRegPath = a64(3, 3, 9, 12, 0);
const PMCNTENSET_EL0: SysRegPath = a64(3, 3, 9, 12, 1);
const PMCNTENCLR_EL0: SysRegPath = a64(3, 3, 9, 12, 2);
const PMSWINC_EL0: SysRegPath = a64(3, 3, 9, 12, 4);
const PMINTENSET_EL1: SysRegPath = a64(3, 0, 9, 14, 1);
const PMEVTYPER5_EL0: SysRegPath = a64(3, 3, 14, 12, 5);
const PMEVTYPER17_EL0: SysRegPath = a64(3, 3, 14, 14, 1);
const PMEVCNTR30_EL0: SysRegPath = a64(3, 3, 14, 11, 6);
const PMCCNTR_A32: SysRegPath = a32(0, 9, 13, 0);
const PMCCNTR_A32_64: SysRegPath = a32_wide(0, 9);
const PMEVTYPER9_A32: SysRegPath = a32(0, 14, 13, 1);
const CNTFRQ_EL0: SysRegPath = a64(3, 3, 14, 0, 0);
const CNTVCT_EL0: SysRegPath = a64(3, 3, 14, 0, 2);
const CNTVCT_A32: SysRegPath = a32_wide(1, 14);
const CLUSTERPMCR_EL1: SysRegPath = a64(3, 0, 15, 5, 0);

// ---------------------------------------------------------------------------------------------
// System registers through the host handler.
// ---------------------------------------------------------------------------------------------

#[test]
fn pmcr_modify_is_one_read_and_one_write() {
    let _g = setup();
    // Cortex-A53 reset value under QEMU 7.2 (as measured by tests/tests/qemu.rs).
    preset(PMCR_EL0, 0x4103_3000);
    pmu::aarch64::PMCR_EL0::modify(|v| v.with(pmu::Pmcr::E, true).with(pmu::Pmcr::C, true));
    assert_eq!(
        take_log(),
        [Read(PMCR_EL0), Write(PMCR_EL0, 0x4103_3000 | 0b101)]
    );

    let v = pmu::aarch64::PMCR_EL0::read();
    assert_eq!(take_log(), [Read(PMCR_EL0)]);
    assert_eq!(v.get(pmu::Pmcr::N), 6);
    assert!(v.get(pmu::Pmcr::E));

    pmu::aarch64::PMCR_EL0::write(pmu::Pmcr::DEFAULT.with(pmu::Pmcr::LC, true));
    assert_eq!(take_log(), [Write(PMCR_EL0, 1 << 6)]);
}

#[test]
fn set_and_clear_views_write_only_the_mask_to_their_own_path() {
    let _g = setup();
    preset(PMCNTENSET_EL0, 0x0000_0001);
    let mask = pmu::PmCounterMask::DEFAULT
        .with(pmu::PmCounterMask::C, true)
        .with(pmu::PmCounterMask::P0, true)
        .with(pmu::PmCounterMask::P3, true);
    pmu::aarch64::PMCNTENSET_EL0::set(mask);
    assert_eq!(take_log(), [Write(PMCNTENSET_EL0, 0x8000_0009)]);

    pmu::aarch64::PMCNTENCLR_EL0::clear(
        pmu::PmCounterMask::DEFAULT.with(pmu::PmCounterMask::P3, true),
    );
    assert_eq!(take_log(), [Write(PMCNTENCLR_EL0, 1 << 3)]);

    pmu::aarch64::PMINTENSET_EL1::set(
        pmu::PmCounterMask::DEFAULT.with(pmu::PmCounterMask::C, true),
    );
    assert_eq!(take_log(), [Write(PMINTENSET_EL1, 1 << 31)]);

    // The set view reads the (emulated) state at its own path.
    preset(PMCNTENSET_EL0, 0x8000_0001);
    let state = pmu::aarch64::PMCNTENSET_EL0::read();
    assert!(
        state.get(pmu::PmCounterMask::C)
            && state.get(pmu::PmCounterMask::P0)
            && !state.get(pmu::PmCounterMask::P3)
    );
    assert_eq!(take_log(), [Read(PMCNTENSET_EL0)]);

    // Write-only PMSWINC: one write, no read.
    pmu::aarch64::PMSWINC_EL0::write(pmu::Pmswinc::DEFAULT.with(pmu::Pmswinc::P1, true));
    assert_eq!(take_log(), [Write(PMSWINC_EL0, 1 << 1)]);
}

#[test]
fn event_arrays_reach_the_element_path() {
    let _g = setup();
    let ty = pmu::Pmevtyper::DEFAULT
        .with(pmu::Pmevtyper::EVTCOUNT, 0x11)
        .with(pmu::Pmevtyper::P, true);
    pmu::aarch64::PMEVTYPER_EL0.at::<5>().write(ty);
    assert_eq!(take_log(), [Write(PMEVTYPER5_EL0, 0x8000_0011)]);
    assert_eq!(value(PMEVTYPER5_EL0), Some(0x8000_0011));

    // Run-time index: element 17 is C14_C14_1.
    assert_eq!(
        pmu::aarch64::PMEVTYPER_EL0
            .try_at(17)
            .map(|r| r.write(pmu::Pmevtyper::DEFAULT.with(pmu::Pmevtyper::EVTCOUNT, 0x08))),
        Ok(())
    );
    assert_eq!(take_log(), [Write(PMEVTYPER17_EL0, 0x08)]);

    preset(PMEVCNTR30_EL0, 0xDEAD_BEEF);
    assert_eq!(
        pmu::aarch64::PMEVCNTR_EL0
            .at::<30>()
            .read()
            .get(pmu::Pmevcntr::EVCNT),
        0xDEAD_BEEF
    );
    assert_eq!(take_log(), [Read(PMEVCNTR30_EL0)]);

    pmu::aarch64::PMEVTYPER_EL0
        .at::<5>()
        .modify(|v| v.with(pmu::Pmevtyper::U, true));
    assert_eq!(
        take_log(),
        [
            Read(PMEVTYPER5_EL0),
            Write(PMEVTYPER5_EL0, 0x8000_0011 | 1 << 30)
        ]
    );

    // AArch32 PMEVTYPER9: p15, 0, c14, c13, 1.
    pmu::aarch32::PMEVTYPER
        .at::<9>()
        .write(pmu::PmevtyperA32::DEFAULT.with(pmu::PmevtyperA32::EVTCOUNT, 0x04));
    assert_eq!(take_log(), [Write(PMEVTYPER9_A32, 0x04)]);
}

#[test]
fn out_of_range_index_is_an_error_without_any_access() {
    let _g = setup();
    assert_eq!(
        pmu::aarch64::PMEVTYPER_EL0.try_at(31).map(|r| r.read()),
        Err(IndexOutOfRange {
            index: 31,
            count: 31
        })
    );
    assert_eq!(
        pmu::aarch64::PMEVCNTR_EL0.try_at(31).map(|r| r.read()),
        Err(IndexOutOfRange {
            index: 31,
            count: 31
        })
    );
    assert_eq!(
        pmu::aarch64::PMEVCNTR_EL0
            .try_at(40)
            .map(|r| r.write(pmu::Pmevcntr::DEFAULT)),
        Err(IndexOutOfRange {
            index: 40,
            count: 31
        })
    );
    assert_eq!(
        pmu::aarch32::PMEVTYPER
            .try_at(usize::MAX)
            .map(|r| r.modify(|v| v)),
        Err(IndexOutOfRange {
            index: usize::MAX,
            count: 31
        })
    );
    assert_eq!(take_log(), []);
    assert!(state().regs.is_empty());
}

#[test]
fn aarch32_cycle_counter_32_and_64_bit_forms() {
    let _g = setup();
    preset(PMCCNTR_A32_64, 0x0000_0012_3456_789A);
    let v = pmu::aarch32::PMCCNTR64::read();
    assert_eq!(v.bits(), 0x0000_0012_3456_789A);
    assert_eq!(v.get(pmu::Pmccntr::CCNT), 0x0000_0012_3456_789A);
    assert_eq!(take_log(), [Read(PMCCNTR_A32_64)]);

    pmu::aarch32::PMCCNTR64::write(pmu::Pmccntr::from_bits_retain(u64::MAX));
    assert_eq!(take_log(), [Write(PMCCNTR_A32_64, u64::MAX)]);

    // 32-bit MRC form at c9, c13, 0.
    preset(PMCCNTR_A32, 0x89AB_CDEF);
    assert_eq!(
        pmu::aarch32::PMCCNTR::read().get(pmu::Pmccntr32::CCNT),
        0x89AB_CDEF
    );
    assert_eq!(take_log(), [Read(PMCCNTR_A32)]);
}

#[test]
fn generic_timer_counters() {
    let _g = setup();
    preset(CNTVCT_EL0, 0x0123_4567_89AB_CDEF);
    assert_eq!(
        timer::aarch64::CNTVCT_EL0::read().get(timer::Cntvct::VIRTUALCOUNT),
        0x0123_4567_89AB_CDEF
    );
    assert_eq!(take_log(), [Read(CNTVCT_EL0)]);

    preset(CNTVCT_A32, 42);
    assert_eq!(timer::aarch32::CNTVCT::read().bits(), 42);
    assert_eq!(take_log(), [Read(CNTVCT_A32)]);

    // QEMU 7.2: 62.5 MHz (as measured by tests/tests/qemu.rs).
    preset(CNTFRQ_EL0, 62_500_000);
    assert_eq!(
        timer::aarch64::CNTFRQ_EL0::read().get(timer::Cntfrq::CLOCKFREQ),
        62_500_000
    );
    assert_eq!(take_log(), [Read(CNTFRQ_EL0)]);
}

#[test]
fn dsu_cluster_pmcr_modify() {
    let _g = setup();
    // N = 6 event counters.
    preset(CLUSTERPMCR_EL1, 6 << 11);
    dsu::aarch64::CLUSTERPMCR_EL1::modify(|v| {
        v.with(dsu::Clusterpmcr::E, true)
            .with(dsu::Clusterpmcr::P, true)
    });
    assert_eq!(
        take_log(),
        [
            Read(CLUSTERPMCR_EL1),
            Write(CLUSTERPMCR_EL1, (6 << 11) | 0b11)
        ]
    );
    assert_eq!(
        dsu::aarch64::CLUSTERPMCR_EL1::read().get(dsu::Clusterpmcr::N),
        6
    );
}

#[test]
fn no_handler_panics_naming_the_register_and_the_caller() {
    let _g = setup();
    host::uninstall();
    // The hook sees where the panic points: the caller's line, not the runtime's.
    let seen: &'static Mutex<Option<(String, u32)>> = Box::leak(Box::new(Mutex::new(None)));
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let location = info.location().map(|l| (l.file().to_string(), l.line()));
        *seen.lock().unwrap() = location;
    }));
    let line = line!() + 1;
    let err = std::panic::catch_unwind(|| pmu::aarch64::PMCR_EL0::read())
        .expect_err("access without a handler must panic");
    let element = std::panic::catch_unwind(|| pmu::aarch64::PMEVCNTR_EL0.at::<3>().read())
        .expect_err("an array element without a handler must panic too");
    let element_at = seen.lock().unwrap().clone();
    std::panic::set_hook(previous);
    host::install(&HANDLER);
    let text = |err: Box<dyn std::any::Any + Send>| {
        err.downcast_ref::<String>()
            .cloned()
            .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    };
    let msg = text(err);
    assert!(msg.contains("PMCR_EL0"), "panic message: {msg:?}");
    assert!(msg.contains("S3_3_C9_C12_0"), "panic message: {msg:?}");
    assert!(msg.contains("host::install"), "panic message: {msg:?}");
    let msg = text(element);
    assert!(msg.contains("PMEVCNTR<n>_EL0"), "panic message: {msg:?}");
    assert!(msg.contains("S3_3_C14_C8_3"), "panic message: {msg:?}");
    assert_eq!(
        element_at,
        Some((file!().to_string(), line + 2)),
        "the panic must point at the caller"
    );
    assert_eq!(take_log(), []);
}

// ---------------------------------------------------------------------------------------------
// The EXT32 memory-mapped block on a host buffer.
// ---------------------------------------------------------------------------------------------

#[repr(C, align(4096))]
struct Frame([u32; 1024]);

/// Reads the word at byte offset `off` of the frame at `base`.
fn word(base: usize, off: usize) -> u32 {
    assert!(off < 0x1000 && off % 4 == 0);
    // SAFETY: `base` is a live, 4 KiB-aligned `Frame`; `off` is inside it and word-aligned.
    unsafe { ((base + off) as *const u32).read_volatile() }
}

/// Writes the word at byte offset `off` (plays the hardware's part for read-only registers).
fn poke(base: usize, off: usize, v: u32) {
    assert!(off < 0x1000 && off % 4 == 0);
    // SAFETY: as in `word`.
    unsafe { ((base + off) as *mut u32).write_volatile(v) }
}

#[test]
fn ext32_block_on_a_host_buffer() {
    let mut frame = Box::new(Frame([0; 1024]));
    let base = frame.0.as_mut_ptr() as usize;
    assert_eq!(base % 4096, 0);
    // SAFETY: `frame` is a 4 KiB buffer that outlives `b` and is only reached through `base`.
    let b = unsafe { pmu::mmio::PmuExt32::new(base) };

    // Words we expect to be non-zero at the end (byte offset → value), from the offsets of
    // Arm ARM DDI0487 §I5.2 table I5-1.
    let mut expected: BTreeMap<usize, u32> = BTreeMap::new();

    // PMCNTENSET at 0xC00 (word index 0x300).
    b.pmcntenset().set(
        pmu::PmCounterMask::DEFAULT
            .with(pmu::PmCounterMask::C, true)
            .with(pmu::PmCounterMask::P2, true),
    );
    assert_eq!(frame_word(&b, 0x300), 0x8000_0004);
    expected.insert(0xC00, 0x8000_0004);

    // PMEVTYPER<3> at 0x400 + 4*3 = 0x40C.
    let ty = pmu::Pmevtyper::DEFAULT
        .with(pmu::Pmevtyper::EVTCOUNT, 0x08)
        .with(pmu::Pmevtyper::U, true);
    b.pmevtyper().try_at(3).unwrap().write(ty);
    assert_eq!(word(base, 0x40C), 0x4000_0008);
    assert_eq!(b.pmevtyper().at::<3>().read(), ty);
    expected.insert(0x40C, 0x4000_0008);

    // PMCR at 0xE04: write, then read-modify-write.
    b.pmcr()
        .write(pmu::PmcrExt::DEFAULT.with(pmu::PmcrExt::E, true));
    assert_eq!(word(base, 0xE04), 1);
    b.pmcr().modify(|v| v.with(pmu::PmcrExt::LC, true));
    assert_eq!(word(base, 0xE04), 0x41);
    assert!(b.pmcr().read().get(pmu::PmcrExt::LC));
    expected.insert(0xE04, 0x41);

    // PMCCNTR at 0xF8: a 64-bit register, written as two 32-bit words (lo at 0xF8, hi at 0xFC).
    let cc = pmu::Pmccntr::from_bits_retain(0x1122_3344_5566_7788);
    b.pmccntr().write(cc);
    assert_eq!(word(base, 0xF8), 0x5566_7788);
    assert_eq!(word(base, 0xFC), 0x1122_3344);
    assert_eq!(b.pmccntr().read(), cc);
    expected.insert(0xF8, 0x5566_7788);
    expected.insert(0xFC, 0x1122_3344);
    // Read back whole after the "hardware" changes both halves.
    poke(base, 0xF8, 0xFFFF_FFFF);
    poke(base, 0xFC, 0x0000_0001);
    assert_eq!(b.pmccntr().read().bits(), 0x1_FFFF_FFFF);
    expected.insert(0xF8, 0xFFFF_FFFF);
    expected.insert(0xFC, 0x0000_0001);

    // PMEVCNTR<2>: lo at 0x010, hi at 0x014.
    b.pmevcntr()
        .at::<2>()
        .write(pmu::Pmevcntr::from_bits_retain(0xAAAA_BBBB_CCCC_DDDD));
    assert_eq!(
        (word(base, 0x10), word(base, 0x14)),
        (0xCCCC_DDDD, 0xAAAA_BBBB)
    );
    expected.insert(0x10, 0xCCCC_DDDD);
    expected.insert(0x14, 0xAAAA_BBBB);

    // PMCCFILTR at 0x47C, PMINTENCLR at 0xC60, PMSWINC at 0xCA0, PMLAR at 0xFB0.
    b.pmccfiltr()
        .write(pmu::Pmccfiltr::DEFAULT.with(pmu::Pmccfiltr::NSH, true));
    expected.insert(0x47C, 1 << 27);
    b.pmintenclr()
        .clear(pmu::PmCounterMask::DEFAULT.with(pmu::PmCounterMask::P30, true));
    expected.insert(0xC60, 1 << 30);
    b.pmswinc()
        .write(pmu::Pmswinc::DEFAULT.with(pmu::Pmswinc::P0, true));
    expected.insert(0xCA0, 1);
    b.pmlar()
        .write(pmu::Pmlar::DEFAULT.with(pmu::Pmlar::KEY, 0xC5AC_CE55));
    expected.insert(0xFB0, 0xC5AC_CE55);

    // Read-only registers: the "hardware" fills them in, the API decodes them.
    poke(base, 0xE00, 6); // PMCFGR.N = 6 (AM62L)
    assert_eq!(b.pmcfgr().read().get(pmu::Pmcfgr::N), 6);
    expected.insert(0xE00, 6);
    poke(base, 0xFB4, 0x3); // PMLSR: lock implemented and locked
    let lsr = b.pmlsr().read();
    assert!(lsr.get(pmu::Pmlsr::SLI) && lsr.get(pmu::Pmlsr::SLK));
    expected.insert(0xFB4, 0x3);
    poke(base, 0xFBC, 0x4770_2A16);
    assert_eq!(b.pmdevarch().read(), pmu::Pmdevarch::RESET);
    expected.insert(0xFBC, 0x4770_2A16);
    poke(base, 0xFCC, 0x16);
    assert_eq!(b.pmdevtype().read(), pmu::Pmdevtype::RESET);
    expected.insert(0xFCC, 0x16);
    poke(base, 0xE24, 0x0002_0101); // PMCEID1
    assert_eq!(
        b.pmceid().try_at(1).unwrap().read().get(pmu::Pmceid32::ID),
        0x0002_0101
    );
    expected.insert(0xE24, 0x0002_0101);

    // Nothing else in the frame was touched.
    for off in (0..0x1000).step_by(4) {
        assert_eq!(
            word(base, off),
            expected.get(&off).copied().unwrap_or(0),
            "word at offset {off:#05x}"
        );
    }
    assert!(b.pmevtyper().try_at(31).is_err() && b.pmevcntr().try_at(31).is_err());
    drop(frame);
}

/// Reads word `index` of the block (a second way to address the buffer: by word index).
fn frame_word(b: &pmu::mmio::PmuExt32, index: usize) -> u32 {
    word(b.base(), index * 4)
}
