//! The engine's rules on a hand-written block that has one of each.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::vec::Vec;

use super::*;
use crate::mmio::{Reg, Ro, Rw, SetView};
use crate::Layout;

const KEY: u64 = 0xC5AC_CE55;

static T: BlockSpec = BlockSpec {
    name: "T",
    size: 0x100,
    bus_bytes: 4,
    registers: &[
        // E[0] rw, P[1]/C[2] write-1 actions, ID[7:4] ro (reset 5), RES1[8], W1C[10], W1S[11],
        // ONCE[15:12] rw-once; bits 9 and 31:16 described by no field.
        RegSpec {
            name: "CTRL",
            offset: 0x00,
            bytes: 4,
            count: 1,
            stride: 0,
            kind: RegKind::Rw,
            reset: 0x0000_0d50,
            bits: Bits {
                readable: 0x0000_fcf1,
                write: 0x1,
                action: 0x6,
                res1: 0x100,
                w1c: 0x400,
                w1s: 0x800,
                once: 0xf000,
                ..Bits::NONE
            },
        },
        RegSpec {
            name: "LSR",
            offset: 0x04,
            bytes: 4,
            count: 1,
            stride: 0,
            kind: RegKind::Ro,
            reset: 0x3,
            bits: Bits {
                readable: 0x7,
                ..Bits::NONE
            },
        },
        RegSpec {
            name: "LAR",
            offset: 0x08,
            bytes: 4,
            count: 1,
            stride: 0,
            kind: RegKind::Wo,
            reset: 0,
            bits: Bits {
                write: 0xffff_ffff,
                ..Bits::NONE
            },
        },
        RegSpec {
            name: "ENSET",
            offset: 0x10,
            bytes: 4,
            count: 1,
            stride: 0,
            kind: RegKind::Set(0),
            reset: 0,
            bits: Bits {
                readable: 0x8000_003f,
                w1s: 0x8000_003f,
                ..Bits::NONE
            },
        },
        RegSpec {
            name: "ENCLR",
            offset: 0x14,
            bytes: 4,
            count: 1,
            stride: 0,
            kind: RegKind::Clear(0),
            reset: 0,
            bits: Bits {
                readable: 0x8000_003f,
                w1c: 0x8000_003f,
                ..Bits::NONE
            },
        },
        RegSpec {
            name: "SWINC",
            offset: 0x18,
            bytes: 4,
            count: 1,
            stride: 0,
            kind: RegKind::Wo,
            reset: 0,
            bits: Bits {
                write: 0x3f,
                ..Bits::NONE
            },
        },
        RegSpec {
            name: "CNT<n>",
            offset: 0x20,
            bytes: 8,
            count: 2,
            stride: 8,
            kind: RegKind::Rw,
            reset: 0,
            bits: Bits {
                readable: u64::MAX,
                write: u64::MAX,
                ..Bits::NONE
            },
        },
        RegSpec {
            name: "RC",
            offset: 0x30,
            bytes: 4,
            count: 1,
            stride: 0,
            kind: RegKind::Rw,
            reset: 0,
            bits: Bits {
                readable: 0xff,
                write: 0xff,
                read_clear: 0xff,
                ..Bits::NONE
            },
        },
    ],
    states: &["EN"],
    lock: Some(LockSpec {
        access: 2,
        status: 1,
        key: KEY,
        locked: 0x2,
    }),
};

fn unlocked() -> Model {
    let m = Model::new(&T);
    m.store(0x08, 4, KEY);
    m.take_log();
    m
}

enum V64 {}
impl Layout for V64 {
    type Raw = u64;
    const INFO: crate::LayoutInfo<u64> = crate::LayoutInfo {
        name: "V64",
        ..crate::LayoutInfo::<u64>::PLAIN
    };
}

enum V32 {}
impl Layout for V32 {
    type Raw = u32;
    const INFO: crate::LayoutInfo<u32> = crate::LayoutInfo {
        name: "V32",
        ..crate::LayoutInfo::<u32>::PLAIN
    };
}

#[test]
fn reset_values_and_the_lock_state_at_reset() {
    let m = Model::new(&T);
    assert!(m.locked(), "LSR resets with the lock bit set");
    assert_eq!(m.load(0x04, 4), 0x3);
    // ID reads its reset, RES1 reads 1, the once bits read their reset; actions read 0.
    assert_eq!(m.load(0x00, 4), 0x0000_0d50 & 0xfcf1 | 0x100);
}

#[test]
fn writes_are_ignored_until_the_key_unlocks_and_any_other_value_locks() {
    let m = Model::new(&T);
    m.store(0x00, 4, 0x1);
    assert_eq!(m.load(0x00, 4) & 1, 0, "locked: E not written");
    m.store(0x08, 4, KEY);
    assert!(!m.locked());
    assert_eq!(m.load(0x04, 4), 0x1, "SLK reads 0 once unlocked");
    m.store(0x00, 4, 0x1);
    assert_eq!(m.load(0x00, 4) & 1, 1);
    m.store(0x08, 4, 0);
    assert!(m.locked(), "any other value locks");
    m.store(0x00, 4, 0x0);
    assert_eq!(m.load(0x00, 4) & 1, 1, "locked again: E kept");
    // Half a key is not the key.
    m.store(0x08, 2, KEY & 0xffff);
    assert!(m.locked());
    let outcomes: Vec<_> = m
        .log()
        .iter()
        .filter(|a| a.op == Op::Write)
        .map(|a| (a.register, a.outcome))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("CTRL", Outcome::Locked),
            ("LAR", Outcome::Done),
            ("CTRL", Outcome::Done),
            ("LAR", Outcome::Done),
            ("CTRL", Outcome::Locked),
            ("LAR", Outcome::Done),
        ]
    );
}

#[test]
fn read_only_registers_ignore_writes_and_write_only_ones_read_zero() {
    let m = unlocked();
    m.store(0x04, 4, 0);
    assert_eq!(m.load(0x04, 4), 0x1);
    assert_eq!(m.log()[0].outcome, Outcome::ReadOnly);
    m.store(0x18, 4, 0x5);
    assert_eq!(m.load(0x18, 4), 0);
    assert_eq!(m.hardware(|h| h.get("SWINC")), 0x5, "kept for the hooks");
}

#[test]
fn field_rules_bit_by_bit() {
    let m = unlocked();
    // Every bit written as 1: E stored, P/C act and read 0, ID kept, RES1 kept, undescribed bits
    // ignored, W1C clears, W1S sets, ONCE takes the first write.
    m.store(0x00, 4, 0xffff_ffff);
    assert_eq!(m.load(0x00, 4), 0x0000_f951);
    // Zeros: E cleared, W1C/W1S unchanged by 0, ONCE keeps its first value, RES1 still 1.
    m.store(0x00, 4, 0);
    assert_eq!(m.load(0x00, 4), 0x0000_f950);
}

#[test]
fn write_1_actions_reach_the_hooks_and_read_zero() {
    let m = unlocked();
    let seen = Arc::new(AtomicU64::new(0));
    let s = seen.clone();
    m.on_write(move |hw, w| {
        if w.register == "CTRL" && w.actions & 0x2 != 0 {
            // The counter reset PMCR.P would do.
            hw.set_n("CNT<n>", 0, 0);
            hw.set_n("CNT<n>", 1, 0);
        }
        s.fetch_or(w.actions, Ordering::SeqCst);
    });
    m.hardware(|hw| hw.set_n("CNT<n>", 1, 77));
    m.store(0x00, 4, 0x3);
    assert_eq!(seen.load(Ordering::SeqCst), 0x2);
    assert_eq!(m.hardware(|hw| hw.get_n("CNT<n>", 1)), 0);
    assert_eq!(m.load(0x00, 4) & 0x6, 0);
}

#[test]
fn set_and_clear_views_act_on_one_state() {
    let m = unlocked();
    m.store(0x10, 4, 0xffff_ffff);
    assert_eq!(
        m.load(0x14, 4),
        0x8000_003f,
        "bits beyond the fields ignored"
    );
    m.store(0x14, 4, 0x8000_0001);
    assert_eq!((m.load(0x10, 4), m.load(0x14, 4)), (0x3e, 0x3e));
    m.store(0x10, 4, 0);
    assert_eq!(
        m.load(0x10, 4),
        0x3e,
        "writing 0 to a set view does nothing"
    );
    assert_eq!(m.hardware(|h| h.get("ENCLR")), 0x3e);
    // Through typed handles.
    let set: Reg<V32, SetView, &Model> = unsafe { Reg::on(&m, 0x10, 4) };
    set.set(V32::from_bits_retain(0x8000_0000));
    assert_eq!(set.read(), V32::from_bits_retain(0x8000_003e));
}

#[test]
fn a_wide_register_on_a_narrow_bus_is_two_accesses_low_word_first() {
    let m = unlocked();
    let r: Reg<V64, Rw, &Model> = unsafe { Reg::on(&m, 0x28, 4) };
    r.write(V64::from_bits_retain(0x1122_3344_5566_7788));
    assert_eq!(r.read(), V64::from_bits_retain(0x1122_3344_5566_7788));
    let log: Vec<_> = m
        .take_log()
        .iter()
        .map(|a| (a.op, a.offset, a.value, a.index))
        .collect();
    assert_eq!(
        log,
        [
            (Op::Write, 0x28, 0x5566_7788, Some(1)),
            (Op::Write, 0x2c, 0x1122_3344, Some(1)),
            (Op::Read, 0x28, 0x5566_7788, Some(1)),
            (Op::Read, 0x2c, 0x1122_3344, Some(1)),
        ]
    );
    let ro: Reg<V32, Ro, &Model> = unsafe { Reg::on(&m, 0x04, 4) };
    assert_eq!(ro.read(), V32::from_bits_retain(1));
}

#[test]
fn read_hooks_see_each_half_of_a_wide_read() {
    let m = unlocked();
    m.hardware(|hw| hw.set_n("CNT<n>", 0, 0xFFFF_FFFF));
    // A counter carrying into its high word between the two halves of a read.
    m.on_read(|hw, r| {
        if r.register == "CNT<n>" && r.lane == 0xFFFF_FFFF {
            hw.set_n("CNT<n>", 0, 0x1_0000_0000);
        }
    });
    let r: Reg<V64, Rw, &Model> = unsafe { Reg::on(&m, 0x20, 4) };
    assert_eq!(
        r.read(),
        V64::from_bits_retain(0x1_FFFF_FFFF),
        "the torn value a single read gives"
    );
}

#[test]
fn read_to_clear() {
    let m = unlocked();
    m.store(0x30, 4, 0xab);
    assert_eq!(m.load(0x30, 4), 0xab);
    assert_eq!(m.load(0x30, 4), 0);
}

#[test]
fn reset_restores_everything_but_the_hooks() {
    let m = unlocked();
    let n = Arc::new(AtomicU64::new(0));
    let c = n.clone();
    m.on_write(move |_, _| {
        c.fetch_add(1, Ordering::SeqCst);
    });
    m.store(0x10, 4, 1);
    m.reset();
    assert!(m.locked() && m.log().is_empty());
    assert_eq!(m.load(0x10, 4), 0);
    m.store(0x08, 4, KEY);
    assert_eq!(n.load(Ordering::SeqCst), 2);
}

#[test]
#[should_panic(expected = "no register at offset 0xd00")]
fn an_access_where_nothing_is_described_panics() {
    Model::new(&T).load(0xd00, 4);
}

#[test]
#[should_panic(expected = "straddles")]
fn a_misaligned_access_panics() {
    Model::new(&T).load(0x02, 4);
}

#[test]
fn a_memory_map_routes_by_base_address() {
    let (a, b) = (unlocked(), unlocked());
    let map = System::new().map(0x7_3003_0000, &a).map(0x7_3013_0000, &b);
    let r: Reg<V32, SetView, &System<'_>> = unsafe { Reg::on(&map, 0x7_3013_0010, 4) };
    r.set(V32::from_bits_retain(0x4));
    assert_eq!((a.load(0x10, 4), b.load(0x10, 4)), (0, 4));
    assert!(a.log().iter().all(|x| x.op == Op::Read));
}

#[test]
#[should_panic(expected = "overlaps")]
fn overlapping_blocks_are_refused() {
    let (a, b) = (Model::new(&T), Model::new(&T));
    let _ = System::new().map(0x1000, &a).map(0x1080, &b);
}

/// A layout with a reset value, for `write_from_reset`.
enum Ctrl {}
impl Layout for Ctrl {
    type Raw = u32;
    const INFO: crate::LayoutInfo<u32> = crate::LayoutInfo {
        res1: 0x100,
        default: 0x100,
        reset: Some(0x0000_0d50),
        name: "Ctrl",
        fields: "e 0 1",
        ..crate::LayoutInfo::<u32>::PLAIN
    };
}
impl crate::Reset for Ctrl {}

#[test]
fn write_from_reset_starts_from_the_reset_value_and_write_from_the_value_given() {
    let m = unlocked();
    let ctrl: Reg<Ctrl, Rw, &Model> = unsafe { Reg::on(&m, 0x00, 4) };
    let e = crate::Field::<Ctrl, bool, bool>::new(0, 1);
    ctrl.write_from_reset(|v| v.with(e, true));
    // svd2rust's `write`: every field not set keeps its reset value.
    assert_eq!(m.log().last().map(|a| a.value), Some(0x0000_0d51));
    ctrl.write(crate::Value::from_bits(0).with(e, true));
    // `write` writes the value given: zeros, RES1 and E.
    assert_eq!(m.log().last().map(|a| a.value), Some(0x0000_0101));
}
