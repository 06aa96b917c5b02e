//! Read-modify-writes and the flag helpers, on the models (every field's rule applied bit by bit)
//! and on an emulated system register.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use armreg_rt::model::{Access, Op};
use armreg_rt::{Const, Layout, UInt, Value};

use super::aarch64::TEST_ERRSTATUS_EL1;
use super::mmio::Uart;
use super::model::UartModel;
use super::{Ctrl, Errstatus, Events, Fifo, Kinds, Status, Strobe};

/// What the hardware holds in a register, by its description name.
fn held(model: &UartModel, register: &str) -> u64 {
    model.hardware(|hw| hw.get(register))
}

fn raise(model: &UartModel, register: &str, bits: u64) {
    model.hardware(|hw| {
        let now = hw.get(register);
        hw.set(register, now | bits);
    });
}

/// The values the program wrote to `register`, in order.
fn writes(model: &UartModel, register: &str) -> Vec<u64> {
    model
        .log()
        .iter()
        .filter(|a: &&Access| a.op == Op::Write && a.register == register)
        .map(|a| a.value)
        .collect()
}

/// The UART: with an overrun pending, enabling the interrupt must not acknowledge it.
#[test]
fn enabling_the_interrupt_leaves_a_pending_overrun_pending() {
    let model = UartModel::new();
    let uart: Uart<_> = model.block();
    raise(&model, "STATUS", 0b0110); // RXNE and OVR
    uart.status().modify(|v| v.with(Status::IE, true));
    let now = uart.status().read();
    assert!(
        now.get(Status::OVR),
        "the overrun is still pending: {now:?}"
    );
    assert!(now.get(Status::IE) && now.get(Status::RXNE));
    // What went on the bus: IE, 0 in both write-1-to-clear flags, and RXNE as read (read-only:
    // the hardware ignores it).
    assert_eq!(writes(&model, "STATUS"), [0b1_0010]);
}

/// Acknowledging one flag is one call, which leaves the other flag pending and the ordinary
/// fields (IE, DIV) as they were.
#[test]
fn clearing_one_flag_leaves_the_others_and_the_ordinary_fields() {
    let model = UartModel::new();
    let uart: Uart<_> = model.block();
    uart.status().write(
        Status::DEFAULT
            .with(Status::IE, true)
            .with(Status::DIV, Const::<5>),
    );
    raise(&model, "STATUS", 0b1100); // OVR and FE
    uart.status().clear_flag(Status::OVR);
    let now = uart.status().read();
    assert!(!now.get(Status::OVR), "OVR acknowledged: {now:?}");
    assert!(now.get(Status::FE), "FE still pending: {now:?}");
    assert!(now.get(Status::IE));
    assert_eq!(now.get(Status::DIV), 5);
    assert_eq!(writes(&model, "STATUS").last(), Some(&0x0514));
}

/// The documented way to build a whole value, `DEFAULT.with(..)`, acknowledges only the flag it
/// names; `write` writes exactly what it is given, so IE goes with it (as its docs say).
#[test]
fn writing_a_whole_value_acts_only_on_the_flags_it_sets() {
    let model = UartModel::new();
    let uart: Uart<_> = model.block();
    raise(&model, "STATUS", 0b1100);
    uart.status().write(Status::DEFAULT.with(Status::OVR, true));
    let now = uart.status().read();
    assert!(!now.get(Status::OVR) && now.get(Status::FE), "{now:?}");
}

/// A flag the hardware raises between the read and the write of a `modify` (a hook after the
/// read), and one pending before it, are not cleared by the write: the write carries 0 in every
/// write-1-to-clear flag, not the flags as read.
#[test]
fn a_flag_raised_between_the_read_and_the_write_survives() {
    let model = UartModel::new();
    let uart: Uart<_> = model.block();
    raise(&model, "STATUS", 0b0100); // OVR, pending before the read
    model.on_read(|hw, read| {
        if read.register == "STATUS" {
            let now = hw.get("STATUS");
            hw.set("STATUS", now | 0b1000); // FE, raised after the value was read
        }
    });
    uart.status().modify(|v| v.with(Status::IE, true));
    let now = held(&model, "STATUS");
    assert_eq!(
        now & 0b1100,
        0b1100,
        "OVR, and FE raised mid-modify, pending: {now:#x}"
    );
    assert_eq!(now & 0b1_0000, 0b1_0000, "IE set: {now:#x}");
}

/// The same through a `modify` that reads the flag and acknowledges it on purpose: what the
/// closure sets acts, nothing else does.
#[test]
fn a_closure_acknowledges_what_it_sets() {
    let model = UartModel::new();
    let uart: Uart<_> = model.block();
    raise(&model, "STATUS", 0b1100);
    let pending = uart.status().read();
    uart.status().modify(|v| {
        v.with(Status::IE, true)
            .with(Status::FE, pending.get(Status::FE))
    });
    let now = uart.status().read();
    assert!(now.get(Status::OVR) && !now.get(Status::FE), "{now:?}");
}

/// Every write side effect the IR knows, in one register: a `modify` of the ordinary field
/// leaves each of them exactly as the hardware had it, whichever state that is.
#[test]
fn modify_leaves_every_kind_of_side_effect_field_alone() {
    for state in [0u64, 0b11_1111] {
        let model = UartModel::new();
        let regs: Uart<_> = model.block();
        model.hardware(|hw| hw.set("KINDS", state));
        regs.kinds().modify(|v| v.with(Kinds::MODE, Const::<2>));
        let now = held(&model, "KINDS");
        assert_eq!(now & 0b11_1111, state, "state {state:#x} kept: {now:#x}");
        assert_eq!(now >> 8 & 0b11, 2, "MODE written: {now:#x}");
        // The write: MODE, the write-0 bits 1, the write-1 bits (and GO) 0.
        assert_eq!(writes(&model, "KINDS"), [0x200 | 0b11_1000]);
        // GO, the write-1 action, was not triggered.
        assert_eq!(
            model
                .take_log()
                .iter()
                .filter(|a| a.op == Op::Write)
                .count(),
            1
        );
    }
}

/// Each helper acts on its one field alone, and only on a field of its kind (the wrong kind is
/// a compile error: `tests/access-rules/flag_helper_needs_its_kind.rs`).
#[test]
fn each_helper_acts_on_its_field_alone() {
    let model = UartModel::new();
    let regs: Uart<_> = model.block();
    let actions = std::sync::Arc::new(AtomicU64::new(0));
    let seen = actions.clone();
    model.on_write(move |_, write| {
        seen.fetch_or(write.actions, Ordering::SeqCst);
    });
    let kinds = regs.kinds();
    kinds.modify(|v| v.with(Kinds::MODE, Const::<1>));
    let start = 0b00_1001; // W1C and W0C set
    model.hardware(|hw| hw.set("KINDS", start | 0x100));
    let mode = |m: &UartModel| held(m, "KINDS") & 0x300;
    kinds.clear_flag(Kinds::W1C);
    assert_eq!(held(&model, "KINDS") & 0b11_1111, 0b00_1000);
    kinds.clear_flag(Kinds::W0C);
    assert_eq!(held(&model, "KINDS") & 0b11_1111, 0);
    kinds.set_flag(Kinds::W1S);
    kinds.set_flag(Kinds::W0S);
    assert_eq!(held(&model, "KINDS") & 0b11_1111, 0b01_0010);
    kinds.toggle_flag(Kinds::W1T);
    kinds.toggle_flag(Kinds::W0T);
    assert_eq!(held(&model, "KINDS") & 0b11_1111, 0b11_0110);
    kinds.toggle_flag(Kinds::W0T);
    assert_eq!(held(&model, "KINDS") & 0b11_1111, 0b01_0110);
    assert_eq!(actions.load(Ordering::SeqCst), 0, "GO not triggered yet");
    kinds.trigger(Kinds::GO);
    assert_eq!(actions.load(Ordering::SeqCst), 0b100_0000, "GO triggered");
    assert_eq!(mode(&model), 0x100, "MODE kept through every helper");
}

/// A register of flags alone stores nothing a write must carry over: acknowledging one is a
/// write, with no read before it.
#[test]
fn acknowledging_in_a_register_of_flags_alone_reads_nothing() {
    let model = UartModel::new();
    let regs: Uart<_> = model.block();
    raise(&model, "EVENTS", 0b11);
    model.take_log();
    regs.events().clear_flag(Events::DONE);
    let log = model.take_log();
    assert_eq!(log.len(), 1, "one access: {log:?}");
    assert_eq!((log[0].op, log[0].value), (Op::Write, 0b01));
    assert_eq!(held(&model, "EVENTS") & 0b11, 0b10, "ERROR still pending");
}

/// Where some field acts on any write (write-clear, write-set), no read-modify-write leaves it
/// alone: there is no `modify`, and `modify_with_side_effects` says what it does (and still
/// keeps the write-1/write-0 fields of the register neutral).
#[test]
fn a_register_whose_every_write_acts_is_modified_by_name() {
    let model = UartModel::new();
    let regs: Uart<_> = model.block();
    raise(&model, "STROBE", 0b01); // BUSY
    regs.strobe()
        .modify_with_side_effects(|v| v.with(Strobe::EN, true));
    let now = regs.strobe().read();
    assert!(!now.get(Strobe::BUSY), "any write clears BUSY: {now:?}");
    assert!(now.get(Strobe::READY), "any write sets READY: {now:?}");
    assert!(now.get(Strobe::EN));
}

/// A read with a side effect is written `read_with_side_effects`, and does what the
/// description says: reading the FIFO's data clears it (the model's read-to-clear rule).
#[test]
fn a_read_with_a_side_effect_says_so_and_acts() {
    let model = UartModel::new();
    let regs: Uart<_> = model.block();
    model.hardware(|hw| hw.set("RXDATA", 0x41));
    let first = regs.rxdata().read_with_side_effects();
    assert_eq!(first.get(Fifo::DATA), 0x41);
    assert_eq!(regs.rxdata().read_with_side_effects().get(Fifo::DATA), 0);
    // A register-level read action (the description's register, not its field) is named too.
    model.hardware(|hw| hw.set("DR", 0x42));
    assert_eq!(regs.dr().read_with_side_effects().get(Fifo::DATA), 0x42);
    // A read/write register whose field clears on read: read and modify by name.
    model.hardware(|hw| hw.set("CTRL", 0x0700));
    regs.ctrl()
        .modify_with_side_effects(|v| v.with(Ctrl::EN, true));
    assert_eq!(
        held(&model, "CTRL"),
        0x01,
        "HITS cleared by the read, EN written"
    );
}

/// `write_from_reset` starts from the reset value with every side-effect field neutral.
#[test]
fn neutral_values_and_defaults_are_what_the_masks_say() {
    assert_eq!(
        Kinds::DEFAULT.bits(),
        0b11_1000,
        "write-0 fields 1 in DEFAULT"
    );
    let read = Value::<Kinds>::from_bits_retain(0x37F);
    assert_eq!(read.neutral().bits(), 0x300 | 0b11_1000);
    let _ = Kinds::DEFAULT.with(Kinds::MODE, UInt::truncating(0b111));
    assert_eq!(
        Kinds::DEFAULT
            .with(Kinds::MODE, UInt::try_from(3u8).unwrap())
            .get(Kinds::MODE),
        3
    );
    assert!(UInt::<u8, 2>::try_from(4u8).is_err());
}

/// The emulated system register: what each accessor wrote.
static SYSREG: Mutex<(u64, Vec<u64>)> = Mutex::new((0, Vec::new()));

fn emulated_read(_: armreg_rt::SysRegPath) -> u64 {
    SYSREG.lock().unwrap().0
}

fn emulated_write(_: armreg_rt::SysRegPath, value: u64) {
    let mut reg = SYSREG.lock().unwrap();
    reg.1.push(value);
    // The register's rules: V is write-1-to-clear, EN stored.
    let v = reg.0 & 1 & !(value & 1);
    reg.0 = v | (value & 0b10);
}

static HANDLER: armreg_rt::host::Handler = armreg_rt::host::Handler {
    read: emulated_read,
    write: emulated_write,
};

/// System registers follow the same rules: `modify` writes 0 to the pending V flag, and
/// `clear_flag` acknowledges it and keeps EN.
#[test]
fn a_system_register_is_modified_and_acknowledged_alike() {
    armreg_rt::host::install(&HANDLER);
    *SYSREG.lock().unwrap() = (0b01, Vec::new());
    TEST_ERRSTATUS_EL1::modify(|v| v.with(Errstatus::EN, true));
    assert_eq!(SYSREG.lock().unwrap().0, 0b11, "V still pending, EN set");
    TEST_ERRSTATUS_EL1::clear_flag(Errstatus::V);
    let (now, written) = SYSREG.lock().unwrap().clone();
    assert_eq!(now, 0b10, "V acknowledged, EN kept");
    assert_eq!(written, [0b10, 0b11]);
    armreg_rt::host::uninstall();
}
