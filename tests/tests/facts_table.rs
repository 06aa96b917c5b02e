//! An independent table of encodings, offsets and field positions, typed in by hand from
//! `/work/shared/FACTS.md` (§1 memory-mapped view, §2 system-register encodings, §3 field layouts,
//! §5 QEMU reset values), checked against the generated crates.
//!
//! Nothing here is derived from `descriptions/` or from the generated code: when the two disagree,
//! the test fails and FACTS.md is the side to believe.

use armreg_rt::{IndexOutOfRange, Layout, SysRegPath, Value, Word};

use arm_dsu_pmu as dsu;
use arm_generic_timer as timer;
use arm_pmuv3 as pmu;
use pmu::mmio::PmuExt32;

// ---------------------------------------------------------------------------------------------
// Encodings written the way FACTS.md writes them, parsed into `SysRegPath`.
// ---------------------------------------------------------------------------------------------

/// `"S3"`, `"C12"`, `"p15"`, `"c9"`, `"0"` → the number.
fn num(s: &str) -> u8 {
    let digits = s
        .trim()
        .trim_start_matches(|c: char| c.is_ascii_alphabetic());
    digits
        .parse()
        .unwrap_or_else(|_| panic!("bad number {s:?}"))
}

/// `"S3_3_C9_C12_0"` → AArch64 path.
fn a64(enc: &str) -> SysRegPath {
    let p: Vec<&str> = enc.split('_').collect();
    assert_eq!(p.len(), 5, "bad AArch64 encoding {enc:?}");
    SysRegPath::A64 {
        op0: num(p[0]),
        op1: num(p[1]),
        crn: num(p[2]),
        crm: num(p[3]),
        op2: num(p[4]),
    }
}

/// `"p15, 0, c9, c12, 0"` → AArch32 MRC/MCR path; `"p15, 0, c9"` → MRRC/MCRR path.
fn a32(enc: &str) -> SysRegPath {
    let p: Vec<&str> = enc.split(',').collect();
    match p.len() {
        5 => SysRegPath::A32 {
            coproc: num(p[0]),
            opc1: num(p[1]),
            crn: num(p[2]),
            crm: num(p[3]),
            opc2: num(p[4]),
        },
        3 => SysRegPath::A32Wide {
            coproc: num(p[0]),
            opc1: num(p[1]),
            crm: num(p[2]),
        },
        _ => panic!("bad AArch32 encoding {enc:?}"),
    }
}

fn check_paths(table: &[(&str, SysRegPath, &str)], parse: fn(&str) -> SysRegPath) {
    for &(name, generated, expected) in table {
        assert_eq!(
            generated,
            parse(expected),
            "{name}: generated {generated} but FACTS.md says {expected}"
        );
    }
}

#[test]
fn helpers_parse_the_facts_notation() {
    assert_eq!(
        a64("S3_4_C1_C1_1"),
        SysRegPath::A64 {
            op0: 3,
            op1: 4,
            crn: 1,
            crm: 1,
            op2: 1
        }
    );
    assert_eq!(
        a32("p15, 1, c14"),
        SysRegPath::A32Wide {
            coproc: 15,
            opc1: 1,
            crm: 14
        }
    );
    assert_eq!(
        a32("p15, 0, c14, c15, 7").to_string(),
        "p15, 0, c14, c15, 7"
    );
    assert_eq!(a64("S3_3_C14_C15_7").to_string(), "S3_3_C14_C15_7");
}

// ---------------------------------------------------------------------------------------------
// FACTS.md §2: system-register encodings.
// ---------------------------------------------------------------------------------------------

#[test]
fn pmuv3_aarch64_encodings() {
    use pmu::aarch64::*;
    let table: &[(&str, SysRegPath, &str)] = &[
        ("PMCR_EL0", PMCR_EL0::PATH, "S3_3_C9_C12_0"),
        ("PMCNTENSET_EL0", PMCNTENSET_EL0::PATH, "S3_3_C9_C12_1"),
        ("PMCNTENCLR_EL0", PMCNTENCLR_EL0::PATH, "S3_3_C9_C12_2"),
        ("PMOVSCLR_EL0", PMOVSCLR_EL0::PATH, "S3_3_C9_C12_3"),
        ("PMSWINC_EL0", PMSWINC_EL0::PATH, "S3_3_C9_C12_4"),
        ("PMSELR_EL0", PMSELR_EL0::PATH, "S3_3_C9_C12_5"),
        ("PMCEID0_EL0", PMCEID0_EL0::PATH, "S3_3_C9_C12_6"),
        ("PMCEID1_EL0", PMCEID1_EL0::PATH, "S3_3_C9_C12_7"),
        ("PMCCNTR_EL0", PMCCNTR_EL0::PATH, "S3_3_C9_C13_0"),
        ("PMXEVTYPER_EL0", PMXEVTYPER_EL0::PATH, "S3_3_C9_C13_1"),
        ("PMXEVCNTR_EL0", PMXEVCNTR_EL0::PATH, "S3_3_C9_C13_2"),
        ("PMUSERENR_EL0", PMUSERENR_EL0::PATH, "S3_3_C9_C14_0"),
        ("PMOVSSET_EL0", PMOVSSET_EL0::PATH, "S3_3_C9_C14_3"),
        ("PMINTENSET_EL1", PMINTENSET_EL1::PATH, "S3_0_C9_C14_1"),
        ("PMINTENCLR_EL1", PMINTENCLR_EL1::PATH, "S3_0_C9_C14_2"),
        ("PMMIR_EL1", PMMIR_EL1::PATH, "S3_0_C9_C14_6"),
        ("PMCCFILTR_EL0", PMCCFILTR_EL0::PATH, "S3_3_C14_C15_7"),
        ("MDCR_EL2", MDCR_EL2::PATH, "S3_4_C1_C1_1"),
        ("MDCR_EL3", MDCR_EL3::PATH, "S3_6_C1_C3_1"),
    ];
    check_paths(table, a64);
}

#[test]
fn pmuv3_aarch64_event_arrays_all_31_elements() {
    use pmu::aarch64::{PMEVCNTR_EL0, PMEVTYPER_EL0};
    assert_eq!(PMEVCNTR_EL0::COUNT, 31);
    assert_eq!(PMEVTYPER_EL0::COUNT, 31);
    for n in 0..31usize {
        // PMEVCNTR<n>_EL0: S3_3_C14_C(8+(n>>3))_(n&7); PMEVTYPER<n>_EL0: S3_3_C14_C(12+(n>>3))_(n&7)
        let cnt = format!("S3_3_C14_C{}_{}", 8 + (n >> 3), n & 7);
        let typ = format!("S3_3_C14_C{}_{}", 12 + (n >> 3), n & 7);
        assert_eq!(PMEVCNTR_EL0::path(n), Some(a64(&cnt)), "PMEVCNTR{n}_EL0");
        assert_eq!(PMEVTYPER_EL0::path(n), Some(a64(&typ)), "PMEVTYPER{n}_EL0");
    }
    assert_eq!(PMEVCNTR_EL0::path(31), None);
    assert_eq!(PMEVTYPER_EL0::path(31), None);
    // Spot checks written out in full.
    assert_eq!(PMEVCNTR_EL0::path(0), Some(a64("S3_3_C14_C8_0")));
    assert_eq!(PMEVCNTR_EL0::path(30), Some(a64("S3_3_C14_C11_6")));
    assert_eq!(PMEVTYPER_EL0::path(5), Some(a64("S3_3_C14_C12_5")));
    assert_eq!(PMEVTYPER_EL0::path(30), Some(a64("S3_3_C14_C15_6")));
}

#[test]
fn pmuv3_aarch32_encodings() {
    use pmu::aarch32::*;
    let table: &[(&str, SysRegPath, &str)] = &[
        ("PMCR", PMCR::PATH, "p15, 0, c9, c12, 0"),
        ("PMCNTENSET", PMCNTENSET::PATH, "p15, 0, c9, c12, 1"),
        ("PMCNTENCLR", PMCNTENCLR::PATH, "p15, 0, c9, c12, 2"),
        ("PMOVSR", PMOVSR::PATH, "p15, 0, c9, c12, 3"),
        ("PMSWINC", PMSWINC::PATH, "p15, 0, c9, c12, 4"),
        ("PMSELR", PMSELR::PATH, "p15, 0, c9, c12, 5"),
        ("PMCEID0", PMCEID0::PATH, "p15, 0, c9, c12, 6"),
        ("PMCEID1", PMCEID1::PATH, "p15, 0, c9, c12, 7"),
        ("PMCCNTR", PMCCNTR::PATH, "p15, 0, c9, c13, 0"),
        ("PMXEVTYPER", PMXEVTYPER::PATH, "p15, 0, c9, c13, 1"),
        ("PMXEVCNTR", PMXEVCNTR::PATH, "p15, 0, c9, c13, 2"),
        ("PMUSERENR", PMUSERENR::PATH, "p15, 0, c9, c14, 0"),
        ("PMINTENSET", PMINTENSET::PATH, "p15, 0, c9, c14, 1"),
        ("PMINTENCLR", PMINTENCLR::PATH, "p15, 0, c9, c14, 2"),
        ("PMOVSSET", PMOVSSET::PATH, "p15, 0, c9, c14, 3"),
        ("PMCEID2", PMCEID2::PATH, "p15, 0, c9, c14, 4"),
        ("PMCEID3", PMCEID3::PATH, "p15, 0, c9, c14, 5"),
        ("PMMIR", PMMIR::PATH, "p15, 0, c9, c14, 6"),
        ("PMCCFILTR", PMCCFILTR::PATH, "p15, 0, c14, c15, 7"),
        // 64-bit form: MRRC/MCRR p15, 0, Rt, Rt2, c9
        ("PMCCNTR (64-bit)", PMCCNTR64::PATH, "p15, 0, c9"),
    ];
    check_paths(table, a32);
}

#[test]
fn pmuv3_aarch32_event_arrays_all_31_elements() {
    use pmu::aarch32::{PMEVCNTR, PMEVTYPER};
    assert_eq!(PMEVCNTR::COUNT, 31);
    assert_eq!(PMEVTYPER::COUNT, 31);
    for m in 0..31usize {
        // PMEVCNTR<m>: c14, c8+(m>>3), m&7; PMEVTYPER<m>: c14, c12+(m>>3), m&7
        let cnt = format!("p15, 0, c14, c{}, {}", 8 + (m >> 3), m & 7);
        let typ = format!("p15, 0, c14, c{}, {}", 12 + (m >> 3), m & 7);
        assert_eq!(PMEVCNTR::path(m), Some(a32(&cnt)), "PMEVCNTR{m}");
        assert_eq!(PMEVTYPER::path(m), Some(a32(&typ)), "PMEVTYPER{m}");
    }
    assert_eq!(PMEVCNTR::path(31), None);
    assert_eq!(PMEVTYPER::path(31), None);
}

#[test]
fn generic_timer_encodings() {
    use timer::{aarch32 as t32, aarch64 as t64};
    check_paths(
        &[
            ("CNTFRQ_EL0", t64::CNTFRQ_EL0::PATH, "S3_3_C14_C0_0"),
            ("CNTPCT_EL0", t64::CNTPCT_EL0::PATH, "S3_3_C14_C0_1"),
            ("CNTVCT_EL0", t64::CNTVCT_EL0::PATH, "S3_3_C14_C0_2"),
        ],
        a64,
    );
    check_paths(
        &[
            ("CNTFRQ", t32::CNTFRQ::PATH, "p15, 0, c14, c0, 0"),
            // MRRC p15, 0, …, c14 and MRRC p15, 1, …, c14
            ("CNTPCT", t32::CNTPCT::PATH, "p15, 0, c14"),
            ("CNTVCT", t32::CNTVCT::PATH, "p15, 1, c14"),
        ],
        a32,
    );
}

#[test]
fn dsu_cluster_pmu_encodings() {
    use dsu::aarch32 as a32r;
    use dsu::aarch64 as a64r;
    // (name, AArch64 path, AArch32 path, FACTS AArch64 encoding, FACTS AArch32 encoding)
    #[rustfmt::skip]
    let table: &[(&str, SysRegPath, SysRegPath, &str, &str)] = &[
        ("CLUSTERPMCR", a64r::CLUSTERPMCR_EL1::PATH, a32r::CLUSTERPMCR::PATH, "S3_0_C15_C5_0", "p15, 0, c15, c5, 0"),
        ("CLUSTERPMCNTENSET", a64r::CLUSTERPMCNTENSET_EL1::PATH, a32r::CLUSTERPMCNTENSET::PATH, "S3_0_C15_C5_1", "p15, 0, c15, c5, 1"),
        ("CLUSTERPMCNTENCLR", a64r::CLUSTERPMCNTENCLR_EL1::PATH, a32r::CLUSTERPMCNTENCLR::PATH, "S3_0_C15_C5_2", "p15, 0, c15, c5, 2"),
        ("CLUSTERPMOVSSET", a64r::CLUSTERPMOVSSET_EL1::PATH, a32r::CLUSTERPMOVSSET::PATH, "S3_0_C15_C5_3", "p15, 0, c15, c5, 3"),
        ("CLUSTERPMOVSCLR", a64r::CLUSTERPMOVSCLR_EL1::PATH, a32r::CLUSTERPMOVSCLR::PATH, "S3_0_C15_C5_4", "p15, 0, c15, c5, 4"),
        ("CLUSTERPMSELR", a64r::CLUSTERPMSELR_EL1::PATH, a32r::CLUSTERPMSELR::PATH, "S3_0_C15_C5_5", "p15, 0, c15, c5, 5"),
        ("CLUSTERPMINTENSET", a64r::CLUSTERPMINTENSET_EL1::PATH, a32r::CLUSTERPMINTENSET::PATH, "S3_0_C15_C5_6", "p15, 0, c15, c5, 6"),
        ("CLUSTERPMINTENCLR", a64r::CLUSTERPMINTENCLR_EL1::PATH, a32r::CLUSTERPMINTENCLR::PATH, "S3_0_C15_C5_7", "p15, 0, c15, c5, 7"),
        ("CLUSTERPMCCNTR", a64r::CLUSTERPMCCNTR_EL1::PATH, a32r::CLUSTERPMCCNTR::PATH, "S3_0_C15_C6_0", "p15, 0, c15, c6, 0"),
        ("CLUSTERPMXEVTYPER", a64r::CLUSTERPMXEVTYPER_EL1::PATH, a32r::CLUSTERPMXEVTYPER::PATH, "S3_0_C15_C6_1", "p15, 0, c15, c6, 1"),
        ("CLUSTERPMXEVCNTR", a64r::CLUSTERPMXEVCNTR_EL1::PATH, a32r::CLUSTERPMXEVCNTR::PATH, "S3_0_C15_C6_2", "p15, 0, c15, c6, 2"),
        ("CLUSTERPMMDCR", a64r::CLUSTERPMMDCR_EL1::PATH, a32r::CLUSTERPMMDCR::PATH, "S3_0_C15_C6_3", "p15, 0, c15, c6, 3"),
        ("CLUSTERPMCEID0", a64r::CLUSTERPMCEID0_EL1::PATH, a32r::CLUSTERPMCEID0::PATH, "S3_0_C15_C6_4", "p15, 0, c15, c6, 4"),
        ("CLUSTERPMCEID1", a64r::CLUSTERPMCEID1_EL1::PATH, a32r::CLUSTERPMCEID1::PATH, "S3_0_C15_C6_5", "p15, 0, c15, c6, 5"),
    ];
    for &(name, p64, p32, e64, e32) in table {
        assert_eq!(
            p64,
            a64(e64),
            "{name}_EL1: generated {p64}, FACTS.md says {e64}"
        );
        assert_eq!(
            p32,
            a32(e32),
            "{name} (AArch32): generated {p32}, FACTS.md says {e32}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// FACTS.md §1: the EXT32 memory-mapped view.
// ---------------------------------------------------------------------------------------------

#[test]
fn pmuv3_ext32_offsets() {
    // A real 4 KiB frame, so every handle points into memory we own (nothing is accessed here).
    let mut frame = vec![0u32; 1024];
    let base = frame.as_mut_ptr() as usize;
    // SAFETY: `frame` is a 4 KiB, 4-byte-aligned buffer that outlives `b`; no access is made.
    let b = unsafe { PmuExt32::new(base) };
    assert_eq!(b.base(), base);
    assert_eq!(PmuExt32::SIZE, 0x1000);

    // (name, address of the generated handle, FACTS.md offset)
    #[rustfmt::skip]
    let table: &[(&str, usize, usize)] = &[
        ("PMCCNTR",      b.pmccntr().addr(),      0x0F8),
        ("PMCCFILTR",    b.pmccfiltr().addr(),    0x47C),
        ("PMCNTENSET",   b.pmcntenset().addr(),   0xC00),
        ("PMCNTENCLR",   b.pmcntenclr().addr(),   0xC20),
        ("PMINTENSET",   b.pmintenset().addr(),   0xC40),
        ("PMINTENCLR",   b.pmintenclr().addr(),   0xC60),
        ("PMOVSCLR",     b.pmovsclr().addr(),     0xC80),
        ("PMSWINC",      b.pmswinc().addr(),      0xCA0),
        ("PMOVSSET",     b.pmovsset().addr(),     0xCC0),
        ("PMCFGR",       b.pmcfgr().addr(),       0xE00),
        ("PMCR",         b.pmcr().addr(),         0xE04),
        ("PMIIDR",       b.pmiidr().addr(),       0xE08),
        ("PMMIR",        b.pmmir().addr(),        0xE40),
        ("PMITCTRL",     b.pmitctrl().addr(),     0xF00),
        ("PMDEVAFF0",    b.pmdevaff0().addr(),    0xFA8),
        ("PMDEVAFF1",    b.pmdevaff1().addr(),    0xFAC),
        ("PMLAR",        b.pmlar().addr(),        0xFB0),
        ("PMLSR",        b.pmlsr().addr(),        0xFB4),
        ("PMAUTHSTATUS", b.pmauthstatus().addr(), 0xFB8),
        ("PMDEVARCH",    b.pmdevarch().addr(),    0xFBC),
        ("PMDEVID",      b.pmdevid().addr(),      0xFC8),
        ("PMDEVTYPE",    b.pmdevtype().addr(),    0xFCC),
        ("PMPIDR4",      b.pmpidr4().addr(),      0xFD0),
    ];
    for &(name, addr, expected) in table {
        assert_eq!(
            addr - base,
            expected,
            "{name} handle offset: {:#x}, FACTS.md says {expected:#x}",
            addr - base
        );
    }

    // Arrays: (name, offset of element 0, STRIDE, COUNT, element address fn, expected offset of element n)
    type Elem<'a> = &'a dyn Fn(usize) -> Result<usize, IndexOutOfRange>;
    type Row<'a> = (
        &'a str,
        usize,
        usize,
        usize,
        Elem<'a>,
        fn(usize) -> usize,
        usize,
    );
    #[rustfmt::skip]
    let arrays: &[Row<'_>] = &[
        ("PMEVCNTR", b.pmevcntr(0).unwrap().addr() - base, PmuExt32::PMEVCNTR_STRIDE, PmuExt32::PMEVCNTR_COUNT,
            &|n| b.pmevcntr(n).map(|r| r.addr()), |n| 8 * n /* 0x000 + 8n */, 31),
        ("PMEVTYPER", b.pmevtyper(0).unwrap().addr() - base, PmuExt32::PMEVTYPER_STRIDE, PmuExt32::PMEVTYPER_COUNT,
            &|n| b.pmevtyper(n).map(|r| r.addr()), |n| 0x400 + 4 * n, 31),
        ("PMCEID", b.pmceid(0).unwrap().addr() - base, PmuExt32::PMCEID_STRIDE, PmuExt32::PMCEID_COUNT,
            &|n| b.pmceid(n).map(|r| r.addr()), |n| [0xE20, 0xE24, 0xE28, 0xE2C][n], 4),
        ("PMPIDR", b.pmpidr(0).unwrap().addr() - base, PmuExt32::PMPIDR_STRIDE, PmuExt32::PMPIDR_COUNT,
            &|n| b.pmpidr(n).map(|r| r.addr()), |n| [0xFE0, 0xFE4, 0xFE8, 0xFEC][n], 4),
        ("PMCIDR", b.pmcidr(0).unwrap().addr() - base, PmuExt32::PMCIDR_STRIDE, PmuExt32::PMCIDR_COUNT,
            &|n| b.pmcidr(n).map(|r| r.addr()), |n| [0xFF0, 0xFF4, 0xFF8, 0xFFC][n], 4),
    ];
    for (name, offset, stride, count, elem, expected, facts_count) in arrays {
        assert_eq!(count, facts_count, "{name}_COUNT");
        for n in 0..*facts_count {
            let want = expected(n);
            assert_eq!(
                offset + n * stride,
                want,
                "{name}<{n}> from element 0 and STRIDE"
            );
            assert_eq!(
                elem(n).map(|a| a - base),
                Ok(want),
                "{name}<{n}> handle offset"
            );
        }
        assert_eq!(
            elem(*facts_count),
            Err(IndexOutOfRange {
                index: *facts_count,
                count: *facts_count
            }),
            "{name}<{facts_count}> must be out of range"
        );
    }

    // PMEVCNTR<n>: low word at 0x000 + 8n, high word at +4 (n = 0..30); PMCCNTR hi at 0x0FC.
    assert_eq!(b.pmevcntr_n::<30>().addr() - base, 0x0F0);
    assert_eq!(b.pmevtyper_n::<30>().addr() - base, 0x478);
    assert_eq!(b.pmceid_n::<3>().addr() - base, 0xE2C);
    assert_eq!(b.pmpidr_n::<0>().addr() - base, 0xFE0);
    assert_eq!(b.pmcidr_n::<3>().addr() - base, 0xFFC);
    assert_eq!(b.pmccntr().addr() - base + 4, 0x0FC);
}

// ---------------------------------------------------------------------------------------------
// FACTS.md §1 and §3: field positions.
// ---------------------------------------------------------------------------------------------

/// A generated value seen through 64 bits.
trait Raw: Copy {
    fn raw(bits: u64) -> Self;
    fn bits64(self) -> u64;
}
impl<L: Layout> Raw for Value<L> {
    fn raw(bits: u64) -> Self {
        Value::from_bits_retain(L::Raw::from_u64(bits))
    }
    fn bits64(self) -> u64 {
        self.bits().to_u64()
    }
}

type Setter<L> = (&'static str, fn(Value<L>) -> Value<L>, u64);
type Getter<L> = (&'static str, fn(Value<L>) -> u64, u64);

/// Each builder, applied to a zero value, must give exactly the field's mask.
fn sets<L: Layout>(reg: &str, cases: &[Setter<L>]) {
    for &(field, set, mask) in cases {
        let got = set(Value::raw(0)).bits64();
        assert_eq!(
            got, mask,
            "{reg}.{field}: builder on zero gives {got:#x}, FACTS.md says {mask:#x}"
        );
    }
}

/// Each getter reads the whole field from a value that has only the field's bits set, and zero
/// from a value that has every other bit set.
fn gets<L: Layout>(reg: &str, cases: &[Getter<L>]) {
    for &(field, get, mask) in cases {
        let ones = mask >> mask.trailing_zeros();
        assert_eq!(
            get(Value::raw(mask)),
            ones,
            "{reg}.{field}: getter on {mask:#x}"
        );
        assert_eq!(
            get(Value::raw(!mask)),
            0,
            "{reg}.{field}: getter on !{mask:#x}"
        );
    }
}

const fn bits(hi: u32, lo: u32) -> u64 {
    ((u64::MAX >> (63 - hi)) >> lo) << lo
}

/// PMCR bits [9:0] common to the AArch64, AArch32 and external views.
macro_rules! pmcr_low_fields {
    ($t:ty) => {{
        let name = stringify!($t);
        sets::<$t>(
            name,
            &[
                ("E", |v| v.with(<$t>::E, true), 1 << 0),
                ("P", |v| v.with(<$t>::P, true), 1 << 1),
                ("C", |v| v.with(<$t>::C, true), 1 << 2),
                ("D", |v| v.with(<$t>::D, true), 1 << 3),
                ("X", |v| v.with(<$t>::X, true), 1 << 4),
                ("DP", |v| v.with(<$t>::DP, true), 1 << 5),
                ("LC", |v| v.with(<$t>::LC, true), 1 << 6),
                ("LP", |v| v.with(<$t>::LP, true), 1 << 7),
                ("FZO", |v| v.with(<$t>::FZO, true), 1 << 9),
            ],
        );
        gets::<$t>(
            name,
            &[
                // P and C are write-1 actions that read as 0: they have no getter.
                ("E", |v| v.get(<$t>::E).into(), 1 << 0),
                ("D", |v| v.get(<$t>::D).into(), 1 << 3),
                ("X", |v| v.get(<$t>::X).into(), 1 << 4),
                ("DP", |v| v.get(<$t>::DP).into(), 1 << 5),
                ("LC", |v| v.get(<$t>::LC).into(), 1 << 6),
                ("LP", |v| v.get(<$t>::LP).into(), 1 << 7),
                ("FZO", |v| v.get(<$t>::FZO).into(), 1 << 9),
            ],
        );
    }};
}

/// PMCR bits [31:11], read-only in the system-register views.
macro_rules! pmcr_id_fields {
    ($t:ty) => {
        gets::<$t>(
            stringify!($t),
            &[
                ("N", |v| v.get(<$t>::N).into(), bits(15, 11)),
                ("IDCODE", |v| v.get(<$t>::IDCODE).into(), bits(23, 16)),
                (
                    "IMP",
                    |v| v.get(<$t>::IMP).map_or_else(u64::from, |i| i.bits().into()),
                    bits(31, 24),
                ),
            ],
        );
    };
}

#[test]
fn pmcr_fields() {
    pmcr_low_fields!(pmu::Pmcr);
    pmcr_id_fields!(pmu::Pmcr);
    sets::<pmu::Pmcr>(
        "Pmcr",
        &[("FZS", |v| v.with(pmu::Pmcr::FZS, true), 1 << 32)],
    );
    gets::<pmu::Pmcr>(
        "Pmcr",
        &[("FZS", |v| v.get(pmu::Pmcr::FZS).into(), 1 << 32)],
    );
    pmcr_low_fields!(pmu::PmcrA32);
    pmcr_id_fields!(pmu::PmcrA32);

    // The example from the brief, literally.
    assert_eq!(
        pmu::Pmcr::from_bits_retain(0)
            .with(pmu::Pmcr::LC, true)
            .bits(),
        1 << 6
    );
    assert_eq!(pmu::Pmcr::DEFAULT.with(pmu::Pmcr::LC, true).bits(), 1 << 6);

    // FACTS.md §5: PMCR reset values measured on QEMU 7.2: (value, N, IDCODE), IMP = 0x41 (Arm).
    for (reset, n, idcode) in [
        (0x4103_3000u32, 6u8, 0x03u8), // cortex-a53
        (0x4101_3000, 6, 0x01),        // cortex-a57, max
        (0x4102_3000, 6, 0x02),        // cortex-a72
        (0x410b_3000, 6, 0x0b),        // cortex-a76
        (0x410c_3000, 6, 0x0c),        // neoverse-n1
        (0x410f_3000, 6, 0x0f),        // arm cortex-a15
        (0x4107_2000, 4, 0x07),        // arm cortex-a7
    ] {
        let v = pmu::Pmcr::from_bits_retain(reset.into());
        assert_eq!(v.get(pmu::Pmcr::N), n, "PMCR {reset:#x}.N");
        assert_eq!(v.get(pmu::Pmcr::IDCODE), idcode, "PMCR {reset:#x}.IDCODE");
        assert_eq!(
            v.get(pmu::Pmcr::IMP),
            Ok(pmu::pmcr::Imp::Arm),
            "PMCR {reset:#x}.IMP"
        );
        assert!(!v.get(pmu::Pmcr::E) && !v.get(pmu::Pmcr::LC) && !v.get(pmu::Pmcr::FZS));
        let a = pmu::PmcrA32::from_bits_retain(reset);
        assert_eq!(
            (a.get(pmu::PmcrA32::N), a.get(pmu::PmcrA32::IDCODE)),
            (n, idcode),
            "AArch32 PMCR {reset:#x}"
        );
        assert_eq!(a.get(pmu::PmcrA32::IMP), Ok(pmu::pmcr_a32::Imp::Arm));
    }
}

#[test]
fn pmcr_external_view_fields() {
    // §1: externally bits [31:11] are RAZ/WI (N comes from PMCFGR.N); bits [9:0] keep their places.
    pmcr_low_fields!(pmu::PmcrExt);
    let all = pmu::PmcrExt::from_bits(u32::MAX);
    assert!(
        all.get(pmu::PmcrExt::E)
            && all.get(pmu::PmcrExt::D)
            && all.get(pmu::PmcrExt::X)
            && all.get(pmu::PmcrExt::DP)
            && all.get(pmu::PmcrExt::LC)
            && all.get(pmu::PmcrExt::LP)
            && all.get(pmu::PmcrExt::FZO)
    );
    let none = pmu::PmcrExt::from_bits(!0x2FF);
    assert!(
        !(none.get(pmu::PmcrExt::E)
            || none.get(pmu::PmcrExt::D)
            || none.get(pmu::PmcrExt::X)
            || none.get(pmu::PmcrExt::DP)
            || none.get(pmu::PmcrExt::LC)
            || none.get(pmu::PmcrExt::LP)
            || none.get(pmu::PmcrExt::FZO))
    );
    let epc = pmu::PmcrExt::from_bits_retain(0)
        .with(pmu::PmcrExt::E, true)
        .with(pmu::PmcrExt::P, true)
        .with(pmu::PmcrExt::C, true);
    assert_eq!(epc.bits(), 0b111);
}

/// The event-filter bits shared by PMEVTYPER<n> and PMCCFILTR (no MT here: PMCCFILTR lacks it).
macro_rules! filter_fields {
    ($t:ty) => {{
        let name = stringify!($t);
        sets::<$t>(
            name,
            &[
                ("P", |v| v.with(<$t>::P, true), 1 << 31),
                ("U", |v| v.with(<$t>::U, true), 1 << 30),
                ("NSK", |v| v.with(<$t>::NSK, true), 1 << 29),
                ("NSU", |v| v.with(<$t>::NSU, true), 1 << 28),
                ("NSH", |v| v.with(<$t>::NSH, true), 1 << 27),
                ("M", |v| v.with(<$t>::M, true), 1 << 26),
                ("SH", |v| v.with(<$t>::SH, true), 1 << 24),
                ("RLK", |v| v.with(<$t>::RLK, true), 1 << 22),
                ("RLU", |v| v.with(<$t>::RLU, true), 1 << 21),
                ("RLH", |v| v.with(<$t>::RLH, true), 1 << 20),
            ],
        );
        gets::<$t>(
            name,
            &[
                ("P", |v| v.get(<$t>::P).into(), 1 << 31),
                ("U", |v| v.get(<$t>::U).into(), 1 << 30),
                ("NSK", |v| v.get(<$t>::NSK).into(), 1 << 29),
                ("NSU", |v| v.get(<$t>::NSU).into(), 1 << 28),
                ("NSH", |v| v.get(<$t>::NSH).into(), 1 << 27),
                ("M", |v| v.get(<$t>::M).into(), 1 << 26),
                ("SH", |v| v.get(<$t>::SH).into(), 1 << 24),
                ("RLK", |v| v.get(<$t>::RLK).into(), 1 << 22),
                ("RLU", |v| v.get(<$t>::RLU).into(), 1 << 21),
                ("RLH", |v| v.get(<$t>::RLH).into(), 1 << 20),
            ],
        );
    }};
}

#[test]
fn pmevtyper_and_pmccfiltr_fields() {
    use pmu::{Pmccfiltr, Pmevtyper};
    filter_fields!(Pmevtyper);
    sets::<Pmevtyper>(
        "Pmevtyper",
        &[
            ("MT", |v| v.with(Pmevtyper::MT, true), 1 << 25),
            (
                "evtCount",
                |v| v.with(Pmevtyper::EVTCOUNT, u16::MAX),
                bits(15, 0),
            ),
        ],
    );
    gets::<Pmevtyper>(
        "Pmevtyper",
        &[
            ("MT", |v| v.get(Pmevtyper::MT).into(), 1 << 25),
            (
                "evtCount",
                |v| v.get(Pmevtyper::EVTCOUNT).into(),
                bits(15, 0),
            ),
        ],
    );
    // Every described field at once: bit 23 (T, old spec only) and [19:16] stay clear.
    let all = Pmevtyper::from_bits_retain(0)
        .with(Pmevtyper::P, true)
        .with(Pmevtyper::U, true)
        .with(Pmevtyper::NSK, true)
        .with(Pmevtyper::NSU, true)
        .with(Pmevtyper::NSH, true)
        .with(Pmevtyper::M, true)
        .with(Pmevtyper::MT, true)
        .with(Pmevtyper::SH, true)
        .with(Pmevtyper::RLK, true)
        .with(Pmevtyper::RLU, true)
        .with(Pmevtyper::RLH, true)
        .with(Pmevtyper::EVTCOUNT, 0xFFFF);
    assert_eq!(all.bits(), 0xFF70_FFFF);
    // An event number (FACTS §4: 0x11 CPU_CYCLES) counted at EL0 only: P (exclude EL1) set.
    let v = Pmevtyper::DEFAULT
        .with(Pmevtyper::EVTCOUNT, 0x11)
        .with(Pmevtyper::P, true);
    assert_eq!(v.bits(), 0x8000_0011);
    assert_eq!(
        Pmevtyper::from_bits_retain(0x8000_0011).get(Pmevtyper::EVTCOUNT),
        0x11
    );

    filter_fields!(Pmccfiltr);
    let all = Pmccfiltr::from_bits_retain(0)
        .with(Pmccfiltr::P, true)
        .with(Pmccfiltr::U, true)
        .with(Pmccfiltr::NSK, true)
        .with(Pmccfiltr::NSU, true)
        .with(Pmccfiltr::NSH, true)
        .with(Pmccfiltr::M, true)
        .with(Pmccfiltr::SH, true)
        .with(Pmccfiltr::RLK, true)
        .with(Pmccfiltr::RLU, true)
        .with(Pmccfiltr::RLH, true);
    assert_eq!(
        all.bits(),
        0xFD70_0000,
        "PMCCFILTR has no MT and no evtCount"
    );
}

#[test]
fn pmuserenr_fields() {
    sets::<pmu::Pmuserenr>(
        "Pmuserenr",
        &[
            ("EN", |v| v.with(pmu::Pmuserenr::EN, true), 1 << 0),
            ("SW", |v| v.with(pmu::Pmuserenr::SW, true), 1 << 1),
            ("CR", |v| v.with(pmu::Pmuserenr::CR, true), 1 << 2),
            ("ER", |v| v.with(pmu::Pmuserenr::ER, true), 1 << 3),
            ("UEN", |v| v.with(pmu::Pmuserenr::UEN, true), 1 << 4),
            ("IR", |v| v.with(pmu::Pmuserenr::IR, true), 1 << 5),
            ("TID", |v| v.with(pmu::Pmuserenr::TID, true), 1 << 6),
        ],
    );
    gets::<pmu::Pmuserenr>(
        "Pmuserenr",
        &[
            ("EN", |v| v.get(pmu::Pmuserenr::EN).into(), 1 << 0),
            ("SW", |v| v.get(pmu::Pmuserenr::SW).into(), 1 << 1),
            ("CR", |v| v.get(pmu::Pmuserenr::CR).into(), 1 << 2),
            ("ER", |v| v.get(pmu::Pmuserenr::ER).into(), 1 << 3),
            ("UEN", |v| v.get(pmu::Pmuserenr::UEN).into(), 1 << 4),
            ("IR", |v| v.get(pmu::Pmuserenr::IR).into(), 1 << 5),
            ("TID", |v| v.get(pmu::Pmuserenr::TID).into(), 1 << 6),
        ],
    );
    // AArch32: UEN and IR do not exist.
    sets::<pmu::PmuserenrA32>(
        "PmuserenrA32",
        &[
            ("EN", |v| v.with(pmu::PmuserenrA32::EN, true), 1 << 0),
            ("SW", |v| v.with(pmu::PmuserenrA32::SW, true), 1 << 1),
            ("CR", |v| v.with(pmu::PmuserenrA32::CR, true), 1 << 2),
            ("ER", |v| v.with(pmu::PmuserenrA32::ER, true), 1 << 3),
            ("TID", |v| v.with(pmu::PmuserenrA32::TID, true), 1 << 6),
        ],
    );
    gets::<pmu::PmuserenrA32>(
        "PmuserenrA32",
        &[
            ("EN", |v| v.get(pmu::PmuserenrA32::EN).into(), 1 << 0),
            ("SW", |v| v.get(pmu::PmuserenrA32::SW).into(), 1 << 1),
            ("CR", |v| v.get(pmu::PmuserenrA32::CR).into(), 1 << 2),
            ("ER", |v| v.get(pmu::PmuserenrA32::ER).into(), 1 << 3),
            ("TID", |v| v.get(pmu::PmuserenrA32::TID).into(), 1 << 6),
        ],
    );
}

/// C[31] = cycle counter, P<n>[n] = event counter n.
macro_rules! counter_mask_fields {
    ($t:ty) => {{
        let cases: &[(&str, fn(Value<$t>) -> Value<$t>, fn(Value<$t>) -> bool, u64)] = &[
            (
                "P0",
                |v| v.with(<$t>::P0, true),
                |v| v.get(<$t>::P0),
                1 << 0,
            ),
            (
                "P1",
                |v| v.with(<$t>::P1, true),
                |v| v.get(<$t>::P1),
                1 << 1,
            ),
            (
                "P2",
                |v| v.with(<$t>::P2, true),
                |v| v.get(<$t>::P2),
                1 << 2,
            ),
            (
                "P3",
                |v| v.with(<$t>::P3, true),
                |v| v.get(<$t>::P3),
                1 << 3,
            ),
            (
                "P4",
                |v| v.with(<$t>::P4, true),
                |v| v.get(<$t>::P4),
                1 << 4,
            ),
            (
                "P5",
                |v| v.with(<$t>::P5, true),
                |v| v.get(<$t>::P5),
                1 << 5,
            ),
            (
                "P6",
                |v| v.with(<$t>::P6, true),
                |v| v.get(<$t>::P6),
                1 << 6,
            ),
            (
                "P7",
                |v| v.with(<$t>::P7, true),
                |v| v.get(<$t>::P7),
                1 << 7,
            ),
            (
                "P8",
                |v| v.with(<$t>::P8, true),
                |v| v.get(<$t>::P8),
                1 << 8,
            ),
            (
                "P9",
                |v| v.with(<$t>::P9, true),
                |v| v.get(<$t>::P9),
                1 << 9,
            ),
            (
                "P10",
                |v| v.with(<$t>::P10, true),
                |v| v.get(<$t>::P10),
                1 << 10,
            ),
            (
                "P11",
                |v| v.with(<$t>::P11, true),
                |v| v.get(<$t>::P11),
                1 << 11,
            ),
            (
                "P12",
                |v| v.with(<$t>::P12, true),
                |v| v.get(<$t>::P12),
                1 << 12,
            ),
            (
                "P13",
                |v| v.with(<$t>::P13, true),
                |v| v.get(<$t>::P13),
                1 << 13,
            ),
            (
                "P14",
                |v| v.with(<$t>::P14, true),
                |v| v.get(<$t>::P14),
                1 << 14,
            ),
            (
                "P15",
                |v| v.with(<$t>::P15, true),
                |v| v.get(<$t>::P15),
                1 << 15,
            ),
            (
                "P16",
                |v| v.with(<$t>::P16, true),
                |v| v.get(<$t>::P16),
                1 << 16,
            ),
            (
                "P17",
                |v| v.with(<$t>::P17, true),
                |v| v.get(<$t>::P17),
                1 << 17,
            ),
            (
                "P18",
                |v| v.with(<$t>::P18, true),
                |v| v.get(<$t>::P18),
                1 << 18,
            ),
            (
                "P19",
                |v| v.with(<$t>::P19, true),
                |v| v.get(<$t>::P19),
                1 << 19,
            ),
            (
                "P20",
                |v| v.with(<$t>::P20, true),
                |v| v.get(<$t>::P20),
                1 << 20,
            ),
            (
                "P21",
                |v| v.with(<$t>::P21, true),
                |v| v.get(<$t>::P21),
                1 << 21,
            ),
            (
                "P22",
                |v| v.with(<$t>::P22, true),
                |v| v.get(<$t>::P22),
                1 << 22,
            ),
            (
                "P23",
                |v| v.with(<$t>::P23, true),
                |v| v.get(<$t>::P23),
                1 << 23,
            ),
            (
                "P24",
                |v| v.with(<$t>::P24, true),
                |v| v.get(<$t>::P24),
                1 << 24,
            ),
            (
                "P25",
                |v| v.with(<$t>::P25, true),
                |v| v.get(<$t>::P25),
                1 << 25,
            ),
            (
                "P26",
                |v| v.with(<$t>::P26, true),
                |v| v.get(<$t>::P26),
                1 << 26,
            ),
            (
                "P27",
                |v| v.with(<$t>::P27, true),
                |v| v.get(<$t>::P27),
                1 << 27,
            ),
            (
                "P28",
                |v| v.with(<$t>::P28, true),
                |v| v.get(<$t>::P28),
                1 << 28,
            ),
            (
                "P29",
                |v| v.with(<$t>::P29, true),
                |v| v.get(<$t>::P29),
                1 << 29,
            ),
            (
                "P30",
                |v| v.with(<$t>::P30, true),
                |v| v.get(<$t>::P30),
                1 << 30,
            ),
            ("C", |v| v.with(<$t>::C, true), |v| v.get(<$t>::C), 1 << 31),
        ];
        let name = stringify!($t);
        for &(field, set, get, mask) in cases {
            assert_eq!(set(Value::<$t>::raw(0)).bits64(), mask, "{name}.{field}");
            assert!(get(Value::<$t>::raw(mask)), "{name}.{field} getter");
            assert!(
                !get(Value::<$t>::raw(!mask)),
                "{name}.{field} getter on !mask"
            );
        }
        cases.len()
    }};
}

#[test]
fn counter_mask_fields() {
    assert_eq!(counter_mask_fields!(pmu::PmCounterMask), 32);
    assert_eq!(counter_mask_fields!(dsu::ClusterpmCounterMask), 32);
}

#[test]
fn pmcfgr_fields() {
    gets::<pmu::Pmcfgr>(
        "Pmcfgr",
        &[
            ("N", |v| v.get(pmu::Pmcfgr::N).into(), bits(7, 0)),
            ("SIZE", |v| v.get(pmu::Pmcfgr::SIZE).into(), bits(13, 8)),
            ("CC", |v| v.get(pmu::Pmcfgr::CC).into(), 1 << 14),
            ("CCD", |v| v.get(pmu::Pmcfgr::CCD).into(), 1 << 15),
            ("EX", |v| v.get(pmu::Pmcfgr::EX).into(), 1 << 16),
            ("NA", |v| v.get(pmu::Pmcfgr::NA).into(), 1 << 17),
            ("WT", |v| v.get(pmu::Pmcfgr::WT).into(), 1 << 18),
            ("UEN", |v| v.get(pmu::Pmcfgr::UEN).into(), 1 << 19),
            ("FZO", |v| v.get(pmu::Pmcfgr::FZO).into(), 1 << 21),
            ("SS", |v| v.get(pmu::Pmcfgr::SS).into(), 1 << 22),
            ("NCG", |v| v.get(pmu::Pmcfgr::NCG).into(), bits(31, 28)),
        ],
    );
    // AM62L (FACTS §1): 6 event counters, read from PMCFGR.N.
    assert_eq!(pmu::Pmcfgr::from_bits_retain(6).get(pmu::Pmcfgr::N), 6);
}

#[test]
fn lock_and_authentication_fields() {
    gets::<pmu::Pmlsr>(
        "Pmlsr",
        &[
            ("SLI", |v| v.get(pmu::Pmlsr::SLI).into(), 1 << 0),
            ("SLK", |v| v.get(pmu::Pmlsr::SLK).into(), 1 << 1),
            ("nTT", |v| v.get(pmu::Pmlsr::NTT).into(), 1 << 2),
        ],
    );
    // AM62L PMLSR reset 0x3: lock implemented and locked.
    let l = pmu::Pmlsr::from_bits_retain(0x3);
    assert!(l.get(pmu::Pmlsr::SLI) && l.get(pmu::Pmlsr::SLK) && !l.get(pmu::Pmlsr::NTT));

    sets::<pmu::Pmlar>(
        "Pmlar",
        &[
            ("KEY", |v| v.with(pmu::Pmlar::KEY, u32::MAX), bits(31, 0)),
            (
                "KEY=unlock",
                |v| v.with(pmu::Pmlar::KEY, 0xC5AC_CE55),
                0xC5AC_CE55,
            ),
        ],
    );

    gets::<pmu::Pmauthstatus>(
        "Pmauthstatus",
        &[
            (
                "NSID",
                |v| v.get(pmu::Pmauthstatus::NSID).into(),
                bits(1, 0),
            ),
            (
                "NSNID",
                |v| v.get(pmu::Pmauthstatus::NSNID).into(),
                bits(3, 2),
            ),
            ("SID", |v| v.get(pmu::Pmauthstatus::SID).into(), bits(5, 4)),
            (
                "SNID",
                |v| v.get(pmu::Pmauthstatus::SNID).into(),
                bits(7, 6),
            ),
            (
                "RLID",
                |v| v.get(pmu::Pmauthstatus::RLID).into(),
                bits(13, 12),
            ),
            (
                "RLNID",
                |v| v.get(pmu::Pmauthstatus::RLNID).into(),
                bits(15, 14),
            ),
            (
                "RTID",
                |v| v.get(pmu::Pmauthstatus::RTID).into(),
                bits(25, 24),
            ),
            (
                "RTNID",
                |v| v.get(pmu::Pmauthstatus::RTNID).into(),
                bits(27, 26),
            ),
        ],
    );
}

#[test]
fn device_identification_fields() {
    gets::<pmu::Pmdevarch>(
        "Pmdevarch",
        &[
            (
                "ARCHPART",
                |v| v.get(pmu::Pmdevarch::ARCHPART).into(),
                bits(11, 0),
            ),
            (
                "ARCHVER",
                |v| v.get(pmu::Pmdevarch::ARCHVER).into(),
                bits(15, 12),
            ),
            (
                "REVISION",
                |v| v.get(pmu::Pmdevarch::REVISION).into(),
                bits(19, 16),
            ),
            (
                "PRESENT",
                |v| v.get(pmu::Pmdevarch::PRESENT).into(),
                1 << 20,
            ),
            (
                "ARCHITECT",
                |v| v.get(pmu::Pmdevarch::ARCHITECT).into(),
                bits(31, 21),
            ),
        ],
    );
    // ARCHITECT=0x23B, PRESENT=1, REVISION=0, ARCHVER=2, ARCHPART=0xA16 → 0x47702A16.
    assert_eq!(
        (0x23B << 21) | (1 << 20) | (2 << 12) | 0xA16,
        0x4770_2A16u32
    );
    let r = pmu::Pmdevarch::RESET;
    assert_eq!(r.bits(), 0x4770_2A16);
    assert_eq!(r.get(pmu::Pmdevarch::ARCHITECT), 0x23B);
    assert!(r.get(pmu::Pmdevarch::PRESENT));
    assert_eq!(r.get(pmu::Pmdevarch::REVISION), 0);
    assert_eq!(r.get(pmu::Pmdevarch::ARCHVER), 2);
    assert_eq!(r.get(pmu::Pmdevarch::ARCHPART), 0xA16);

    gets::<pmu::Pmdevtype>(
        "Pmdevtype",
        &[
            ("MAJOR", |v| v.get(pmu::Pmdevtype::MAJOR).into(), bits(3, 0)),
            ("SUB", |v| v.get(pmu::Pmdevtype::SUB).into(), bits(7, 4)),
        ],
    );
    let t = pmu::Pmdevtype::RESET;
    assert_eq!(t.bits(), 0x16);
    assert_eq!(
        (t.get(pmu::Pmdevtype::SUB), t.get(pmu::Pmdevtype::MAJOR)),
        (1, 6)
    );
}

#[test]
fn cntfrq_fields() {
    use timer::{Cntfrq, CntfrqA32};
    assert_eq!(
        Cntfrq::RES0,
        0xFFFF_FFFF_0000_0000,
        "CNTFRQ_EL0 bits [63:32] are RES0"
    );
    sets::<Cntfrq>(
        "Cntfrq",
        &[(
            "ClockFreq",
            |v| v.with(Cntfrq::CLOCKFREQ, u32::MAX),
            bits(31, 0),
        )],
    );
    gets::<Cntfrq>(
        "Cntfrq",
        &[(
            "ClockFreq",
            |v| v.get(Cntfrq::CLOCKFREQ).into(),
            bits(31, 0),
        )],
    );
    sets::<CntfrqA32>(
        "CntfrqA32",
        &[(
            "ClockFreq",
            |v| v.with(CntfrqA32::CLOCKFREQ, u32::MAX),
            bits(31, 0),
        )],
    );
    gets::<CntfrqA32>(
        "CntfrqA32",
        &[(
            "ClockFreq",
            |v| v.get(CntfrqA32::CLOCKFREQ).into(),
            bits(31, 0),
        )],
    );
    // QEMU: 62,500,000 on every model; from_bits drops RES0 bits.
    assert_eq!(
        Cntfrq::from_bits(0xFFFF_FFFF_0000_0000 | 62_500_000).bits(),
        62_500_000
    );
    assert_eq!(
        Cntfrq::from_bits_retain(62_500_000).get(Cntfrq::CLOCKFREQ),
        62_500_000
    );
}

#[test]
fn mdcr_fields() {
    use pmu::{MdcrEl2, MdcrEl3};
    sets::<MdcrEl2>(
        "MdcrEl2",
        &[
            ("HPMN", |v| v.with(MdcrEl2::HPMN, u8::MAX), bits(4, 0)),
            ("TPMCR", |v| v.with(MdcrEl2::TPMCR, true), 1 << 5),
            ("TPM", |v| v.with(MdcrEl2::TPM, true), 1 << 6),
            ("HPME", |v| v.with(MdcrEl2::HPME, true), 1 << 7),
            ("HPMD", |v| v.with(MdcrEl2::HPMD, true), 1 << 17),
            ("HCCD", |v| v.with(MdcrEl2::HCCD, true), 1 << 23),
        ],
    );
    gets::<MdcrEl2>(
        "MdcrEl2",
        &[
            ("HPMN", |v| v.get(MdcrEl2::HPMN).into(), bits(4, 0)),
            ("TPMCR", |v| v.get(MdcrEl2::TPMCR).into(), 1 << 5),
            ("TPM", |v| v.get(MdcrEl2::TPM).into(), 1 << 6),
            ("HPME", |v| v.get(MdcrEl2::HPME).into(), 1 << 7),
            ("HPMD", |v| v.get(MdcrEl2::HPMD).into(), 1 << 17),
            ("HCCD", |v| v.get(MdcrEl2::HCCD).into(), 1 << 23),
        ],
    );
    sets::<MdcrEl3>(
        "MdcrEl3",
        &[
            ("SPME", |v| v.with(MdcrEl3::SPME, true), 1 << 17),
            ("SCCD", |v| v.with(MdcrEl3::SCCD, true), 1 << 23),
        ],
    );
    gets::<MdcrEl3>(
        "MdcrEl3",
        &[
            ("SPME", |v| v.get(MdcrEl3::SPME).into(), 1 << 17),
            ("SCCD", |v| v.get(MdcrEl3::SCCD).into(), 1 << 23),
        ],
    );
}

#[test]
fn clusterpmcr_fields() {
    use dsu::Clusterpmcr;
    sets::<Clusterpmcr>(
        "Clusterpmcr",
        &[
            ("E", |v| v.with(Clusterpmcr::E, true), 1 << 0),
            ("P", |v| v.with(Clusterpmcr::P, true), 1 << 1),
            ("C", |v| v.with(Clusterpmcr::C, true), 1 << 2),
        ],
    );
    gets::<Clusterpmcr>(
        "Clusterpmcr",
        &[
            ("E", |v| v.get(Clusterpmcr::E).into(), 1 << 0),
            ("N", |v| v.get(Clusterpmcr::N).into(), bits(15, 11)),
            (
                "IDCODE",
                |v| v.get(Clusterpmcr::IDCODE).into(),
                bits(23, 16),
            ),
            ("IMP", |v| v.get(Clusterpmcr::IMP).into(), bits(31, 24)),
        ],
    );
}
