//! The generated crates checked against an independent table of facts: system-register encodings,
//! the offsets of the memory-mapped (EXT32) PMU view, field positions and access per register view,
//! and reset values measured on QEMU 7.2.
//!
//! The table is `tests/facts/registers.toml`, read when the tests run. It was typed in from the
//! primary sources each of its rows names in its `source` (a section and register of the Arm ARM
//! DDI0487, a Linux header or driver, QEMU 7.2's source, or the QEMU measurements of
//! `tests/tests/qemu.rs`). Nothing in it is derived from `descriptions/` or from the generated code;
//! the generated side is reached only through the generated API (`PMCR_EL0::PATH`, a block handle's
//! `addr()`, `value.with(Layout::FIELD, ..)` and `value.get(..)`). When the two disagree the test
//! fails, quoting the row and its source, and the cited source decides which side is wrong.
//!
//! No row may sit unused: each test asserts that the rows for the registers it covers are exactly
//! the rows it checked, and `every_row_is_checked_by_a_test` fails on a row of a register no test
//! covers.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use armreg_rt::field::{FieldRead, FieldWrite, ReadOnly, WriteOnly};
use armreg_rt::{Field, IndexOutOfRange, Layout, Reset, SysRegPath, Value, Word};
use serde::Deserialize;

use arm_dsu_pmu as dsu;
use arm_generic_timer_regs as timer;
use arm_pmuv3 as pmu;
use pmu::mmio::PmuExt32;

/// The table, as error messages name it.
const TABLE: &str = "tests/facts/registers.toml";

// ---------------------------------------------------------------------------------------------
// The table: one struct per array of tables (see the file's header for what each row means).
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    encoding: Vec<EncodingRow>,
    encoding_array: Vec<EncodingArrayRow>,
    block: Vec<BlockRow>,
    offset: Vec<OffsetRow>,
    offset_array: Vec<OffsetArrayRow>,
    field: Vec<FieldRow>,
    reserved: Vec<ReservedRow>,
    enum_value: Vec<EnumRow>,
    composite: Vec<CompositeRow>,
    decode: Vec<DecodeRow>,
    qemu_reset: Vec<QemuRow>,
}

/// A system register's encoding; with `index`, one element of a register array.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EncodingRow {
    register: String,
    index: Option<usize>,
    encoding: String,
    source: String,
}

/// A register array: element n is `first` with n\[4:3\] added to CRm and n\[2:0\] to op2, n < count.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EncodingArrayRow {
    register: String,
    first: String,
    count: usize,
    source: String,
}

/// A memory-mapped block's size.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockRow {
    block: String,
    size: usize,
    source: String,
}

/// A register's offset in the EXT32 block (`word = "high"`: the upper word of a 64-bit register;
/// `index`: one element of an array).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OffsetRow {
    register: String,
    index: Option<usize>,
    word: Option<String>,
    offset: usize,
    source: String,
}

/// A register array of the EXT32 block: element n at `first + n * stride`, n < count.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OffsetArrayRow {
    register: String,
    first: usize,
    stride: usize,
    count: usize,
    source: String,
}

/// A field of a register view: `bits` is `"hi:lo"` or `"bit"`; `"n"` with `count` for `P<n>`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldRow {
    register: String,
    field: String,
    bits: String,
    count: Option<u32>,
    access: String,
    source: String,
}

/// Reserved bits of a view: `kind` is `RES0` or `RAZ/WI`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReservedRow {
    register: String,
    bits: String,
    kind: String,
    source: String,
}

/// A named value of a field.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnumRow {
    register: String,
    field: String,
    value: u64,
    name: String,
    source: String,
}

/// A value built field by field from zero (or from the view's `DEFAULT`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompositeRow {
    register: String,
    start: Option<String>,
    fields: BTreeMap<String, u64>,
    value: u64,
    source: String,
}

/// A register value a source gives, with the field values it holds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecodeRow {
    register: String,
    value: u64,
    fields: BTreeMap<String, u64>,
    #[serde(default)]
    reset_constant: bool,
    source: String,
}

/// A reset value on QEMU 7.2, decoded through each of `views`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QemuRow {
    target: String,
    cpu: String,
    register: String,
    value: u64,
    views: Vec<String>,
    fields: BTreeMap<String, u64>,
    source: String,
}

fn table() -> &'static Table {
    static PARSED: OnceLock<Table> = OnceLock::new();
    PARSED.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/facts/registers.toml");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
        toml::from_str(&text).unwrap_or_else(|e| panic!("{TABLE}: {e}"))
    })
}

/// A row of the table, as a test records that it checked it: (array of tables, position).
type RowId = (&'static str, usize);

/// The rows of `rows` whose key `pick` accepts, as row ids.
fn rows_where<T>(name: &'static str, rows: &[T], pick: impl Fn(&T) -> bool) -> BTreeSet<RowId> {
    rows.iter()
        .enumerate()
        .filter(|(_, r)| pick(r))
        .map(|(i, _)| (name, i))
        .collect()
}

/// The group's completeness check: the rows for the registers it covers are the rows it checked.
fn assert_all_rows_checked(group: &str, covered: &BTreeSet<RowId>, checked: &BTreeSet<RowId>) {
    let unchecked: Vec<_> = covered.difference(checked).collect();
    assert!(
        unchecked.is_empty(),
        "{group}: rows of {TABLE} for registers this test covers were not checked: {unchecked:?}"
    );
    let stray: Vec<_> = checked.difference(covered).collect();
    assert!(
        stray.is_empty(),
        "{group}: checked rows outside the registers it covers: {stray:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The table's notations.
// ---------------------------------------------------------------------------------------------

/// `"S3"`, `"C12"`, `"p15"`, `"c9"`, `"0"` → the number.
fn num(s: &str) -> u8 {
    let digits = s
        .trim()
        .trim_start_matches(|c: char| c.is_ascii_alphabetic());
    digits
        .parse()
        .unwrap_or_else(|_| panic!("bad number {s:?} in {TABLE}"))
}

/// `"S3_3_C9_C12_0"` → AArch64 path.
fn a64(enc: &str) -> SysRegPath {
    let p: Vec<&str> = enc.split('_').collect();
    assert_eq!(p.len(), 5, "bad AArch64 encoding {enc:?} in {TABLE}");
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
        _ => panic!("bad AArch32 encoding {enc:?} in {TABLE}"),
    }
}

/// Either notation.
fn encoding(enc: &str) -> SysRegPath {
    if enc.trim_start().starts_with('S') {
        a64(enc)
    } else {
        a32(enc)
    }
}

/// Element `n` of a register array whose element 0 is `first`: n\[4:3\] added to CRm, n\[2:0\] to
/// op2 (the rule of PMEVCNTR<n> and PMEVTYPER<n> in both states).
fn element(first: SysRegPath, n: usize) -> SysRegPath {
    let high = u8::try_from(n >> 3).expect("array index");
    let low = u8::try_from(n & 7).expect("array index");
    match first {
        SysRegPath::A64 {
            op0,
            op1,
            crn,
            crm,
            op2,
        } => SysRegPath::A64 {
            op0,
            op1,
            crn,
            crm: crm + high,
            op2: op2 + low,
        },
        SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm,
            opc2,
        } => SysRegPath::A32 {
            coproc,
            opc1,
            crn,
            crm: crm + high,
            opc2: opc2 + low,
        },
        SysRegPath::A32Wide { .. } => panic!("{first}: a 64-bit AArch32 path has no arrays"),
    }
}

/// `"15:11"` → (lsb 11, width 5); `"6"` → (6, 1).
fn bit_range(bits: &str) -> (u32, u32) {
    let parse = |s: &str| -> u32 {
        s.trim()
            .parse()
            .unwrap_or_else(|_| panic!("bad bits {bits:?} in {TABLE}"))
    };
    let (hi, lo) = match bits.split_once(':') {
        Some((hi, lo)) => (parse(hi), parse(lo)),
        None => (parse(bits), parse(bits)),
    };
    assert!(lo <= hi && hi < 64, "bad bits {bits:?} in {TABLE}");
    (lo, hi - lo + 1)
}

/// `width` ones shifted up to `lsb`.
fn mask(lsb: u32, width: u32) -> u64 {
    (u64::MAX >> (64 - width)) << lsb
}

#[test]
fn helpers_parse_the_table_notation() {
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
    assert_eq!(encoding("p15, 0, c9").to_string(), "p15, 0, c9");
    assert_eq!(element(a64("S3_3_C14_C8_0"), 30), a64("S3_3_C14_C11_6"));
    assert_eq!(
        element(a32("p15, 0, c14, c12, 0"), 13),
        a32("p15, 0, c14, c13, 5")
    );
    assert_eq!(bit_range("15:11"), (11, 5));
    assert_eq!(bit_range("32"), (32, 1));
    assert_eq!(mask(0, 64), u64::MAX);
    assert_eq!(mask(28, 4), 0xF000_0000);
}

// ---------------------------------------------------------------------------------------------
// System-register encodings: [[encoding]] and [[encoding_array]].
// ---------------------------------------------------------------------------------------------

/// How a register is reached, as the notation of its encoding says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Form {
    /// AArch64 `MRS`/`MSR`.
    Sys,
    /// AArch32 `MRC`/`MCR`.
    Mrc,
    /// AArch32 `MRRC`/`MCRR`.
    Mrrc,
}

impl std::fmt::Display for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Sys => "MRS/MSR",
            Self::Mrc => "MRC/MCR",
            Self::Mrrc => "MRRC/MCRR",
        })
    }
}

impl Form {
    fn of(path: &SysRegPath) -> Self {
        match path {
            SysRegPath::A64 { .. } => Self::Sys,
            SysRegPath::A32 { .. } => Self::Mrc,
            SysRegPath::A32Wide { .. } => Self::Mrrc,
        }
    }
}

/// A generated register's path, under the name and form the table gives it.
struct Sys {
    register: &'static str,
    form: Form,
    path: SysRegPath,
}

fn sys(register: &'static str, path: SysRegPath) -> Sys {
    Sys {
        register,
        form: Form::Sys,
        path,
    }
}

fn mrc(register: &'static str, path: SysRegPath) -> Sys {
    Sys {
        register,
        form: Form::Mrc,
        path,
    }
}

fn mrrc(register: &'static str, path: SysRegPath) -> Sys {
    Sys {
        register,
        form: Form::Mrrc,
        path,
    }
}

/// A generated register array: its `COUNT` and `path(n)`.
struct SysArray {
    register: &'static str,
    count: usize,
    path: fn(usize) -> Option<SysRegPath>,
}

/// Every `[[encoding]]` row (without `index`) for the registers of `regs` against the generated
/// path.
fn check_encodings(group: &str, regs: &[Sys]) {
    let t = table();
    let names: BTreeSet<&str> = regs.iter().map(|r| r.register).collect();
    let covered = rows_where("encoding", &t.encoding, |r| {
        r.index.is_none() && names.contains(r.register.as_str())
    });
    let mut checked = BTreeSet::new();
    let mut reached = BTreeSet::new();
    for &(_, i) in &covered {
        let row = &t.encoding[i];
        let want = encoding(&row.encoding);
        let form = Form::of(&want);
        let Some(reg) = regs
            .iter()
            .find(|r| r.register == row.register && r.form == form)
        else {
            panic!(
                "{group}: {TABLE} says {} is reached with {form} as {} ({}), but the test has no \
                 generated {form} path for it",
                row.register, row.encoding, row.source
            );
        };
        assert_eq!(
            reg.path, want,
            "{}: generated {} but {TABLE} says {} ({})",
            row.register, reg.path, row.encoding, row.source
        );
        assert!(
            reached.insert((reg.register, form)),
            "{TABLE} has two {form} encodings for {}",
            row.register
        );
        checked.insert(("encoding", i));
    }
    for r in regs {
        assert!(
            reached.contains(&(r.register, r.form)),
            "{group}: the test checks {} ({}, generated {}) but {TABLE} has no row for it",
            r.register,
            r.form,
            r.path
        );
    }
    assert_all_rows_checked(group, &covered, &checked);
}

/// Every `[[encoding_array]]` row for the arrays of `arrays` against `COUNT` and each element's
/// generated path, and every `[[encoding]]` row with an `index` for them.
fn check_encoding_arrays(group: &str, arrays: &[SysArray]) {
    let t = table();
    let names: BTreeSet<&str> = arrays.iter().map(|a| a.register).collect();
    let covered_arrays = rows_where("encoding_array", &t.encoding_array, |r| {
        names.contains(r.register.as_str())
    });
    let covered_elements = rows_where("encoding", &t.encoding, |r| {
        r.index.is_some() && names.contains(r.register.as_str())
    });
    let mut checked = BTreeSet::new();
    for a in arrays {
        let rows: Vec<usize> = covered_arrays
            .iter()
            .map(|&(_, i)| i)
            .filter(|&i| t.encoding_array[i].register == a.register)
            .collect();
        let [i] = rows[..] else {
            panic!(
                "{group}: {TABLE} must have one [[encoding_array]] row for {}, it has {}",
                a.register,
                rows.len()
            );
        };
        let row = &t.encoding_array[i];
        let first = encoding(&row.first);
        assert_eq!(
            a.count, row.count,
            "{}: generated COUNT {} but {TABLE} says {} elements ({})",
            a.register, a.count, row.count, row.source
        );
        for n in 0..row.count {
            let want = element(first, n);
            assert_eq!(
                (a.path)(n),
                Some(want),
                "{}, element {n}: generated {:?} but {TABLE} says {want} (element 0 {}, {})",
                a.register,
                (a.path)(n).map(|p| p.to_string()),
                row.first,
                row.source
            );
        }
        assert_eq!(
            (a.path)(row.count),
            None,
            "{}: element {} must not exist: {TABLE} says {} elements ({})",
            a.register,
            row.count,
            row.count,
            row.source
        );
        checked.insert(("encoding_array", i));

        // Elements the table writes out in full.
        for &(_, e) in &covered_elements {
            let el = &t.encoding[e];
            if el.register != a.register {
                continue;
            }
            let n = el.index.expect("an element row");
            let want = encoding(&el.encoding);
            assert_eq!(
                element(first, n),
                want,
                "{TABLE} disagrees with itself: {}, element {n} is {} ({}), but the array row's \
                 rule gives {}",
                a.register,
                el.encoding,
                el.source,
                element(first, n)
            );
            assert_eq!(
                (a.path)(n),
                Some(want),
                "{}, element {n}: generated {:?} but {TABLE} says {} ({})",
                a.register,
                (a.path)(n).map(|p| p.to_string()),
                el.encoding,
                el.source
            );
            checked.insert(("encoding", e));
        }
    }
    let covered = covered_arrays.union(&covered_elements).copied().collect();
    assert_all_rows_checked(group, &covered, &checked);
}

fn pmuv3_aarch64_paths() -> Vec<Sys> {
    use pmu::aarch64::*;
    vec![
        sys("MIDR_EL1", MIDR_EL1::PATH),
        sys("PMCR_EL0", PMCR_EL0::PATH),
        sys("PMCNTENSET_EL0", PMCNTENSET_EL0::PATH),
        sys("PMCNTENCLR_EL0", PMCNTENCLR_EL0::PATH),
        sys("PMOVSCLR_EL0", PMOVSCLR_EL0::PATH),
        sys("PMSWINC_EL0", PMSWINC_EL0::PATH),
        sys("PMSELR_EL0", PMSELR_EL0::PATH),
        sys("PMCEID0_EL0", PMCEID0_EL0::PATH),
        sys("PMCEID1_EL0", PMCEID1_EL0::PATH),
        sys("PMCCNTR_EL0", PMCCNTR_EL0::PATH),
        sys("PMXEVTYPER_EL0", PMXEVTYPER_EL0::PATH),
        sys("PMXEVCNTR_EL0", PMXEVCNTR_EL0::PATH),
        sys("PMUSERENR_EL0", PMUSERENR_EL0::PATH),
        sys("PMOVSSET_EL0", PMOVSSET_EL0::PATH),
        sys("PMINTENSET_EL1", PMINTENSET_EL1::PATH),
        sys("PMINTENCLR_EL1", PMINTENCLR_EL1::PATH),
        sys("PMMIR_EL1", PMMIR_EL1::PATH),
        sys("PMCCFILTR_EL0", PMCCFILTR_EL0::PATH),
        sys("MDCR_EL2", MDCR_EL2::PATH),
        sys("MDCR_EL3", MDCR_EL3::PATH),
    ]
}

fn pmuv3_aarch64_arrays() -> Vec<SysArray> {
    use pmu::aarch64::{PMEVCNTR_EL0, PMEVTYPER_EL0};
    vec![
        SysArray {
            register: "PMEVCNTR<n>_EL0",
            count: PMEVCNTR_EL0::COUNT,
            path: PMEVCNTR_EL0::path,
        },
        SysArray {
            register: "PMEVTYPER<n>_EL0",
            count: PMEVTYPER_EL0::COUNT,
            path: PMEVTYPER_EL0::path,
        },
    ]
}

fn pmuv3_aarch32_paths() -> Vec<Sys> {
    use pmu::aarch32::*;
    vec![
        mrc("MIDR", MIDR::PATH),
        mrc("PMCR", PMCR::PATH),
        mrc("PMCNTENSET", PMCNTENSET::PATH),
        mrc("PMCNTENCLR", PMCNTENCLR::PATH),
        mrc("PMOVSR", PMOVSR::PATH),
        mrc("PMSWINC", PMSWINC::PATH),
        mrc("PMSELR", PMSELR::PATH),
        mrc("PMCEID0", PMCEID0::PATH),
        mrc("PMCEID1", PMCEID1::PATH),
        mrc("PMCCNTR", PMCCNTR::PATH),
        mrc("PMXEVTYPER", PMXEVTYPER::PATH),
        mrc("PMXEVCNTR", PMXEVCNTR::PATH),
        mrc("PMUSERENR", PMUSERENR::PATH),
        mrc("PMINTENSET", PMINTENSET::PATH),
        mrc("PMINTENCLR", PMINTENCLR::PATH),
        mrc("PMOVSSET", PMOVSSET::PATH),
        mrc("PMCEID2", PMCEID2::PATH),
        mrc("PMCEID3", PMCEID3::PATH),
        mrc("PMMIR", PMMIR::PATH),
        mrc("PMCCFILTR", PMCCFILTR::PATH),
        // The 64-bit form: MRRC/MCRR p15, 0, Rt, Rt2, c9.
        mrrc("PMCCNTR", PMCCNTR64::PATH),
    ]
}

fn pmuv3_aarch32_arrays() -> Vec<SysArray> {
    use pmu::aarch32::{PMEVCNTR, PMEVTYPER};
    vec![
        SysArray {
            register: "PMEVCNTR<n>",
            count: PMEVCNTR::COUNT,
            path: PMEVCNTR::path,
        },
        SysArray {
            register: "PMEVTYPER<n>",
            count: PMEVTYPER::COUNT,
            path: PMEVTYPER::path,
        },
    ]
}

fn generic_timer_paths() -> Vec<Sys> {
    use timer::{aarch32 as t32, aarch64 as t64};
    vec![
        sys("CNTFRQ_EL0", t64::CNTFRQ_EL0::PATH),
        sys("CNTPCT_EL0", t64::CNTPCT_EL0::PATH),
        sys("CNTVCT_EL0", t64::CNTVCT_EL0::PATH),
        mrc("CNTFRQ", t32::CNTFRQ::PATH),
        // MRRC p15, 0, …, c14 and MRRC p15, 1, …, c14
        mrrc("CNTPCT", t32::CNTPCT::PATH),
        mrrc("CNTVCT", t32::CNTVCT::PATH),
        sys("CNTV_CTL_EL0", t64::CNTV_CTL_EL0::PATH),
        sys("CNTV_TVAL_EL0", t64::CNTV_TVAL_EL0::PATH),
        mrc("CNTV_CTL", t32::CNTV_CTL::PATH),
        mrc("CNTV_TVAL", t32::CNTV_TVAL::PATH),
    ]
}

fn dsu_cluster_pmu_paths() -> Vec<Sys> {
    use dsu::aarch32 as a32r;
    use dsu::aarch64 as a64r;
    vec![
        sys("CLUSTERPMCR_EL1", a64r::CLUSTERPMCR_EL1::PATH),
        sys("CLUSTERPMCNTENSET_EL1", a64r::CLUSTERPMCNTENSET_EL1::PATH),
        sys("CLUSTERPMCNTENCLR_EL1", a64r::CLUSTERPMCNTENCLR_EL1::PATH),
        sys("CLUSTERPMOVSSET_EL1", a64r::CLUSTERPMOVSSET_EL1::PATH),
        sys("CLUSTERPMOVSCLR_EL1", a64r::CLUSTERPMOVSCLR_EL1::PATH),
        sys("CLUSTERPMSELR_EL1", a64r::CLUSTERPMSELR_EL1::PATH),
        sys("CLUSTERPMINTENSET_EL1", a64r::CLUSTERPMINTENSET_EL1::PATH),
        sys("CLUSTERPMINTENCLR_EL1", a64r::CLUSTERPMINTENCLR_EL1::PATH),
        sys("CLUSTERPMCCNTR_EL1", a64r::CLUSTERPMCCNTR_EL1::PATH),
        sys("CLUSTERPMXEVTYPER_EL1", a64r::CLUSTERPMXEVTYPER_EL1::PATH),
        sys("CLUSTERPMXEVCNTR_EL1", a64r::CLUSTERPMXEVCNTR_EL1::PATH),
        sys("CLUSTERPMMDCR_EL1", a64r::CLUSTERPMMDCR_EL1::PATH),
        sys("CLUSTERPMCEID0_EL1", a64r::CLUSTERPMCEID0_EL1::PATH),
        sys("CLUSTERPMCEID1_EL1", a64r::CLUSTERPMCEID1_EL1::PATH),
        mrc("CLUSTERPMCR", a32r::CLUSTERPMCR::PATH),
        mrc("CLUSTERPMCNTENSET", a32r::CLUSTERPMCNTENSET::PATH),
        mrc("CLUSTERPMCNTENCLR", a32r::CLUSTERPMCNTENCLR::PATH),
        mrc("CLUSTERPMOVSSET", a32r::CLUSTERPMOVSSET::PATH),
        mrc("CLUSTERPMOVSCLR", a32r::CLUSTERPMOVSCLR::PATH),
        mrc("CLUSTERPMSELR", a32r::CLUSTERPMSELR::PATH),
        mrc("CLUSTERPMINTENSET", a32r::CLUSTERPMINTENSET::PATH),
        mrc("CLUSTERPMINTENCLR", a32r::CLUSTERPMINTENCLR::PATH),
        mrc("CLUSTERPMCCNTR", a32r::CLUSTERPMCCNTR::PATH),
        mrc("CLUSTERPMXEVTYPER", a32r::CLUSTERPMXEVTYPER::PATH),
        mrc("CLUSTERPMXEVCNTR", a32r::CLUSTERPMXEVCNTR::PATH),
        mrc("CLUSTERPMMDCR", a32r::CLUSTERPMMDCR::PATH),
        mrc("CLUSTERPMCEID0", a32r::CLUSTERPMCEID0::PATH),
        mrc("CLUSTERPMCEID1", a32r::CLUSTERPMCEID1::PATH),
    ]
}

/// One test per group of registers, and the list of groups the completeness check walks (one list,
/// so a group cannot have a test without being counted, or the reverse).
macro_rules! encoding_tests {
    (
        registers { $($test:ident => $paths:ident,)* }
        arrays { $($atest:ident => $arrays:ident,)* }
    ) => {
        $(
            #[test]
            fn $test() {
                check_encodings(stringify!($test), &$paths());
            }
        )*
        $(
            #[test]
            fn $atest() {
                check_encoding_arrays(stringify!($atest), &$arrays());
            }
        )*
        const ENCODING_GROUPS: &[fn() -> Vec<Sys>] = &[$($paths),*];
        const ARRAY_GROUPS: &[fn() -> Vec<SysArray>] = &[$($arrays),*];
    };
}

encoding_tests! {
    registers {
        pmuv3_aarch64_encodings => pmuv3_aarch64_paths,
        pmuv3_aarch32_encodings => pmuv3_aarch32_paths,
        generic_timer_encodings => generic_timer_paths,
        dsu_cluster_pmu_encodings => dsu_cluster_pmu_paths,
    }
    arrays {
        pmuv3_aarch64_event_arrays_all_31_elements => pmuv3_aarch64_arrays,
        pmuv3_aarch32_event_arrays_all_31_elements => pmuv3_aarch32_arrays,
    }
}

// ---------------------------------------------------------------------------------------------
// The EXT32 memory-mapped view: [[block]], [[offset]] and [[offset_array]].
// ---------------------------------------------------------------------------------------------

/// A register of the block under the key the table gives it: (register, index, word).
type OffsetKey = (&'static str, Option<usize>, Option<&'static str>);

/// `PMCCNTR`, `PMCCNTR (high word)`, `PMEVCNTR<n>[30]`.
fn offset_name((register, index, word): (&str, Option<usize>, Option<&str>)) -> String {
    let index = index.map(|n| format!("[{n}]")).unwrap_or_default();
    let word = word.map(|w| format!(" ({w} word)")).unwrap_or_default();
    format!("{register}{index}{word}")
}

/// A register array of the block: its element 0, `STRIDE`, `COUNT` and checked element accessor.
struct Ext32Array<'a> {
    register: &'static str,
    first: usize,
    stride: usize,
    count: usize,
    element: Box<dyn Fn(usize) -> Result<usize, IndexOutOfRange> + 'a>,
}

/// The address of every generated register handle of the block (the high word of a 64-bit
/// register is the word above its handle's address: low word first).
fn ext32_registers(b: &PmuExt32) -> Vec<(OffsetKey, usize)> {
    vec![
        (("PMCCNTR", None, None), b.pmccntr().addr()),
        (("PMCCNTR", None, Some("high")), b.pmccntr().addr() + 4),
        (("PMCCFILTR", None, None), b.pmccfiltr().addr()),
        (("PMCNTENSET", None, None), b.pmcntenset().addr()),
        (("PMCNTENCLR", None, None), b.pmcntenclr().addr()),
        (("PMINTENSET", None, None), b.pmintenset().addr()),
        (("PMINTENCLR", None, None), b.pmintenclr().addr()),
        (("PMOVSCLR", None, None), b.pmovsclr().addr()),
        (("PMSWINC", None, None), b.pmswinc().addr()),
        (("PMOVSSET", None, None), b.pmovsset().addr()),
        (("PMCFGR", None, None), b.pmcfgr().addr()),
        (("PMCR", None, None), b.pmcr().addr()),
        (("PMIIDR", None, None), b.pmiidr().addr()),
        (("PMMIR", None, None), b.pmmir().addr()),
        (("PMITCTRL", None, None), b.pmitctrl().addr()),
        (("PMDEVAFF0", None, None), b.pmdevaff0().addr()),
        (("PMDEVAFF1", None, None), b.pmdevaff1().addr()),
        (("PMLAR", None, None), b.pmlar().addr()),
        (("PMLSR", None, None), b.pmlsr().addr()),
        (("PMAUTHSTATUS", None, None), b.pmauthstatus().addr()),
        (("PMDEVARCH", None, None), b.pmdevarch().addr()),
        (("PMDEVID", None, None), b.pmdevid().addr()),
        (("PMDEVTYPE", None, None), b.pmdevtype().addr()),
        (("PMPIDR4", None, None), b.pmpidr4().addr()),
        // Elements through the accessors whose index is checked when the test is compiled.
        (
            ("PMEVCNTR<n>", Some(30), None),
            b.pmevcntr().at::<30>().addr(),
        ),
        (
            ("PMEVTYPER<n>", Some(30), None),
            b.pmevtyper().at::<30>().addr(),
        ),
        (("PMCEID<n>", Some(3), None), b.pmceid().at::<3>().addr()),
        (("PMPIDR<n>", Some(0), None), b.pmpidr().at::<0>().addr()),
        (("PMCIDR<n>", Some(3), None), b.pmcidr().at::<3>().addr()),
    ]
}

fn ext32_arrays(b: &PmuExt32) -> Vec<Ext32Array<'_>> {
    let at = |r: Result<usize, IndexOutOfRange>| r.expect("element 0 exists");
    vec![
        Ext32Array {
            register: "PMEVCNTR<n>",
            first: at(b.pmevcntr().try_at(0).map(|r| r.addr())),
            stride: PmuExt32::PMEVCNTR_STRIDE,
            count: PmuExt32::PMEVCNTR_COUNT,
            element: Box::new(|n| b.pmevcntr().try_at(n).map(|r| r.addr())),
        },
        Ext32Array {
            register: "PMEVTYPER<n>",
            first: at(b.pmevtyper().try_at(0).map(|r| r.addr())),
            stride: PmuExt32::PMEVTYPER_STRIDE,
            count: PmuExt32::PMEVTYPER_COUNT,
            element: Box::new(|n| b.pmevtyper().try_at(n).map(|r| r.addr())),
        },
        Ext32Array {
            register: "PMCEID<n>",
            first: at(b.pmceid().try_at(0).map(|r| r.addr())),
            stride: PmuExt32::PMCEID_STRIDE,
            count: PmuExt32::PMCEID_COUNT,
            element: Box::new(|n| b.pmceid().try_at(n).map(|r| r.addr())),
        },
        Ext32Array {
            register: "PMPIDR<n>",
            first: at(b.pmpidr().try_at(0).map(|r| r.addr())),
            stride: PmuExt32::PMPIDR_STRIDE,
            count: PmuExt32::PMPIDR_COUNT,
            element: Box::new(|n| b.pmpidr().try_at(n).map(|r| r.addr())),
        },
        Ext32Array {
            register: "PMCIDR<n>",
            first: at(b.pmcidr().try_at(0).map(|r| r.addr())),
            stride: PmuExt32::PMCIDR_STRIDE,
            count: PmuExt32::PMCIDR_COUNT,
            element: Box::new(|n| b.pmcidr().try_at(n).map(|r| r.addr())),
        },
    ]
}

/// The generated blocks and their sizes.
fn ext32_blocks() -> Vec<(&'static str, usize)> {
    vec![("PMU EXT32", PmuExt32::SIZE)]
}

/// Runs `f` on a block handle over a real 4 KiB frame, so every handle points into memory the test
/// owns (nothing is accessed).
fn with_ext32<R>(f: impl FnOnce(&PmuExt32, usize) -> R) -> R {
    let mut frame = vec![0u32; 1024];
    let base = frame.as_mut_ptr() as usize;
    // SAFETY: `frame` is a 4 KiB, 4-byte-aligned buffer that outlives the handle; no access is made.
    let b = unsafe { PmuExt32::new(base) };
    assert_eq!(b.base(), base);
    let r = f(&b, base);
    drop(frame);
    r
}

#[test]
fn pmuv3_ext32_offsets() {
    let t = table();
    let mut checked = BTreeSet::new();

    let blocks = ext32_blocks();
    for (i, row) in t.block.iter().enumerate() {
        let Some(&(_, size)) = blocks.iter().find(|(name, _)| *name == row.block) else {
            panic!(
                "{TABLE} has a block {:?} ({}) the test has no generated block for",
                row.block, row.source
            );
        };
        assert_eq!(
            size, row.size,
            "{}: generated SIZE {size:#x} but {TABLE} says {:#x} ({})",
            row.block, row.size, row.source
        );
        checked.insert(("block", i));
    }
    for (name, _) in &blocks {
        assert!(
            t.block.iter().any(|r| r.block == *name),
            "the test checks block {name} but {TABLE} has no [[block]] row for it"
        );
    }

    with_ext32(|b, base| {
        let registers = ext32_registers(b);
        let mut reached = BTreeSet::new();
        for (i, row) in t.offset.iter().enumerate() {
            let key = (row.register.as_str(), row.index, row.word.as_deref());
            let name = offset_name(key);
            let Some(&(_, addr)) = registers.iter().find(|(k, _)| *k == key) else {
                panic!(
                    "{TABLE} gives {name} at {:#x} ({}), but the test reaches no generated \
                     handle for it",
                    row.offset, row.source
                );
            };
            assert_eq!(
                addr - base,
                row.offset,
                "{name}: generated handle at offset {:#x} but {TABLE} says {:#x} ({})",
                addr - base,
                row.offset,
                row.source
            );
            assert!(reached.insert(key), "{TABLE} has two rows for {name}");
            checked.insert(("offset", i));
        }
        for (key, _) in &registers {
            assert!(
                reached.contains(key),
                "the test checks {} but {TABLE} has no [[offset]] row for it",
                offset_name(*key)
            );
        }

        let arrays = ext32_arrays(b);
        for a in &arrays {
            let rows: Vec<usize> = (0..t.offset_array.len())
                .filter(|&i| t.offset_array[i].register == a.register)
                .collect();
            let [i] = rows[..] else {
                panic!(
                    "{TABLE} must have one [[offset_array]] row for {}, it has {}",
                    a.register,
                    rows.len()
                );
            };
            let row = &t.offset_array[i];
            let want = |n: usize| row.first + n * row.stride;
            assert_eq!(
                a.count, row.count,
                "{}: generated COUNT {} but {TABLE} says {} ({})",
                a.register, a.count, row.count, row.source
            );
            for n in 0..row.count {
                assert_eq!(
                    a.first - base + n * a.stride,
                    want(n),
                    "{}<{n}> from element 0 and STRIDE {:#x}: {:#x} but {TABLE} says {:#x} ({})",
                    a.register,
                    a.stride,
                    a.first - base + n * a.stride,
                    want(n),
                    row.source
                );
                assert_eq!(
                    (a.element)(n).map(|addr| addr - base),
                    Ok(want(n)),
                    "{}<{n}> handle offset, but {TABLE} says {:#x} ({})",
                    a.register,
                    want(n),
                    row.source
                );
            }
            assert_eq!(
                (a.element)(row.count),
                Err(IndexOutOfRange {
                    index: row.count,
                    count: row.count
                }),
                "{}<{}> must be out of range: {TABLE} says {} elements ({})",
                a.register,
                row.count,
                row.count,
                row.source
            );
            // Elements written out in full agree with the array's row.
            for el in t.offset.iter().filter(|r| r.register == a.register) {
                let n = el.index.expect("an element of an array has an index");
                assert!(
                    n < row.count && el.offset == want(n),
                    "{TABLE} disagrees with itself: {}<{n}> at {:#x} ({}), the array row gives {:#x}",
                    a.register,
                    el.offset,
                    el.source,
                    want(n)
                );
            }
            checked.insert(("offset_array", i));
        }
        for (i, row) in t.offset_array.iter().enumerate() {
            assert!(
                arrays.iter().any(|a| a.register == row.register),
                "{TABLE} has an array {} ({}) the test reaches no generated array for",
                row.register,
                row.source
            );
            assert!(checked.contains(&("offset_array", i)));
        }
    });

    // A 64-bit register's high word is 4 bytes above its low word.
    for high in t
        .offset
        .iter()
        .filter(|r| r.word.as_deref() == Some("high"))
    {
        let low = t
            .offset
            .iter()
            .find(|r| r.register == high.register && r.word.is_none() && r.index == high.index)
            .unwrap_or_else(|| {
                panic!("{TABLE}: {} has a high word but no low word", high.register)
            });
        assert_eq!(
            low.offset + 4,
            high.offset,
            "{TABLE} disagrees with itself: {} low word {:#x}, high word {:#x}",
            high.register,
            low.offset,
            high.offset
        );
    }

    // This test covers the three arrays of tables whole.
    let covered = rows_where("block", &t.block, |_| true)
        .into_iter()
        .chain(rows_where("offset", &t.offset, |_| true))
        .chain(rows_where("offset_array", &t.offset_array, |_| true))
        .collect();
    assert_all_rows_checked("pmuv3_ext32_offsets", &covered, &checked);
}

// ---------------------------------------------------------------------------------------------
// Register views: [[field]], [[reserved]], [[enum_value]], [[composite]], [[decode]] and
// [[qemu_reset]], checked through the generated `with` and `get`.
// ---------------------------------------------------------------------------------------------

/// A generated value seen through 64 bits.
trait Raw: Copy {
    fn raw(bits: u64) -> Self;
    fn reserved(bits: u64) -> Self;
    fn bits64(self) -> u64;
}

impl<L: Layout> Raw for Value<L> {
    /// Every bit kept (`from_bits_retain`).
    fn raw(bits: u64) -> Self {
        Value::from_bits_retain(L::Raw::from_u64(bits))
    }
    /// Reserved bits forced (`from_bits`).
    fn reserved(bits: u64) -> Self {
        Value::from_bits(L::Raw::from_u64(bits))
    }
    fn bits64(self) -> u64 {
        self.bits().to_u64()
    }
}

/// What a generated getter read: the field's bits, and the name of the value if it is a named one.
struct Read {
    bits: u64,
    name: Option<String>,
}

/// A getter's result as [`Read`].
trait Decoded {
    fn decoded(self) -> Read;
}

impl Decoded for bool {
    fn decoded(self) -> Read {
        Read {
            bits: self.into(),
            name: None,
        }
    }
}

macro_rules! decoded_int {
    ($($t:ty),*) => {$(
        impl Decoded for $t {
            fn decoded(self) -> Read {
                Read { bits: self.into(), name: None }
            }
        }
    )*};
}
decoded_int!(u8, u16, u32, u64);

/// An enumerated field (PMCR.IMP, MIDR.Implementer): a named value, or the bits no value is
/// named for.
macro_rules! decoded_enum {
    ($($t:ty),*) => {$(
        impl Decoded for Result<$t, u8> {
            fn decoded(self) -> Read {
                match self {
                    Ok(v) => Read {
                        bits: v.bits().into(),
                        name: Some(format!("{v:?}")),
                    },
                    Err(bits) => Read {
                        bits: bits.into(),
                        name: None,
                    },
                }
            }
        }
    )*};
}
decoded_enum!(pmu::pmcr::Imp, pmu::midr::Implementer);

/// A field value from the table's integer (bits above the field's width are the builder's to drop).
trait FromTable {
    fn from_table(x: u64) -> Self;
}

impl FromTable for bool {
    fn from_table(x: u64) -> Self {
        x != 0
    }
}

macro_rules! from_table_int {
    ($($t:ty),*) => {$(
        impl FromTable for $t {
            fn from_table(x: u64) -> Self {
                x as $t
            }
        }
    )*};
}
from_table_int!(u8, u16, u32, u64);

/// A narrow integer field takes the table's value only if it fits: a value too wide for the
/// generated field is a disagreement the test reports, never one it truncates away.
impl<T: FromTable + armreg_rt::Word, const N: u32> FromTable for armreg_rt::UInt<T, N>
where
    armreg_rt::UInt<T, N>: TryFrom<T, Error = armreg_rt::field::TooWide>,
{
    fn from_table(x: u64) -> Self {
        Self::try_from(T::from_table(x))
            .unwrap_or_else(|e| panic!("the table's value does not fit the field: {e}"))
    }
}

/// How a field may be reached, as the generated field's type allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    ReadWrite,
    ReadOnly,
    WriteOnly,
}

impl Access {
    /// The table's `access`: `w1` (write 1 to act, reads as 0) has no reader, as `wo`.
    fn from_table(access: &str) -> Self {
        match access {
            "rw" => Self::ReadWrite,
            "ro" => Self::ReadOnly,
            "wo" | "w1" => Self::WriteOnly,
            other => panic!("bad access {other:?} in {TABLE}"),
        }
    }
}

type Setter<L> = Box<dyn Fn(Value<L>, u64) -> Value<L>>;
type Getter<L> = Box<dyn Fn(Value<L>) -> Read>;

/// A generated field under the name the table gives it: `value.with(FIELD, x)` and `value.get(FIELD)`.
struct Acc<L: Layout> {
    name: &'static str,
    access: Access,
    set: Option<Setter<L>>,
    get: Option<Getter<L>>,
}

/// A field that is read and written.
fn rw<L, R, W, K: 'static>(name: &'static str, f: Field<L, R, W, K>) -> Acc<L>
where
    L: Layout,
    R: FieldRead + 'static,
    R::Value: Decoded,
    W: FieldWrite + FromTable + 'static,
{
    Acc {
        name,
        access: Access::ReadWrite,
        set: Some(Box::new(move |v, x| v.with(f, W::from_table(x)))),
        get: Some(Box::new(move |v| v.get(f).decoded())),
    }
}

/// A read-only field: its type has no writer.
fn ro<L, R, K: 'static>(name: &'static str, f: Field<L, R, ReadOnly, K>) -> Acc<L>
where
    L: Layout,
    R: FieldRead + 'static,
    R::Value: Decoded,
{
    Acc {
        name,
        access: Access::ReadOnly,
        set: None,
        get: Some(Box::new(move |v| v.get(f).decoded())),
    }
}

/// A write-only field (or a write-1 action that reads as 0): its type has no reader, so a getter
/// for it does not compile.
fn wo<L, W, K: 'static>(name: &'static str, f: Field<L, WriteOnly, W, K>) -> Acc<L>
where
    L: Layout,
    W: FieldWrite + FromTable + 'static,
{
    Acc {
        name,
        access: Access::WriteOnly,
        set: Some(Box::new(move |v, x| v.with(f, W::from_table(x)))),
        get: None,
    }
}

/// A generated layout under the register name the table gives the view.
struct View<L: Layout> {
    register: &'static str,
    /// The layout's `DEFAULT`.
    default: Value<L>,
    /// The layout's `RESET`, where the generated crate has one.
    reset: Option<Value<L>>,
    fields: Vec<Acc<L>>,
}

/// A view, whatever its layout.
trait ViewCheck {
    fn register(&self) -> &'static str;
    /// Checks every row of the table for this view; returns the rows checked.
    fn check(&self) -> BTreeSet<RowId>;
}

fn view<L: Layout>(
    register: &'static str,
    default: Value<L>,
    reset: Option<Value<L>>,
    fields: Vec<Acc<L>>,
) -> Box<dyn ViewCheck> {
    Box::new(View {
        register,
        default,
        reset,
        fields,
    })
}

/// A field as the table gives it.
struct FieldFact<'t> {
    lsb: u32,
    width: u32,
    bits: String,
    access: &'t str,
    source: &'t str,
    row: usize,
}

impl FieldFact<'_> {
    fn mask(&self) -> u64 {
        mask(self.lsb, self.width)
    }
}

/// The `[[field]]` rows of `register`, `P<n>` rows expanded to P0, P1, ….
fn field_facts<'t>(t: &'t Table, register: &str) -> BTreeMap<String, FieldFact<'t>> {
    let mut facts = BTreeMap::new();
    for (row_index, row) in t.field.iter().enumerate() {
        if row.register != register {
            continue;
        }
        let expanded: Vec<(String, u32, u32, String)> = match row.count {
            Some(count) => {
                assert!(
                    row.field.contains("<n>") && row.bits == "n",
                    "{TABLE}: {register}.{} has a count: its name needs <n> and its bits \"n\"",
                    row.field
                );
                (0..count)
                    .map(|n| {
                        (
                            row.field.replace("<n>", &n.to_string()),
                            n,
                            1,
                            n.to_string(),
                        )
                    })
                    .collect()
            }
            None => {
                let (lsb, width) = bit_range(&row.bits);
                vec![(row.field.clone(), lsb, width, row.bits.clone())]
            }
        };
        for (name, lsb, width, bits) in expanded {
            let fact = FieldFact {
                lsb,
                width,
                bits,
                access: &row.access,
                source: &row.source,
                row: row_index,
            };
            assert!(
                facts.insert(name.clone(), fact).is_none(),
                "{TABLE} lists {register}.{name} twice"
            );
        }
    }
    facts
}

impl<L: Layout> View<L> {
    fn field(&self, name: &str) -> &Acc<L> {
        self.fields
            .iter()
            .find(|a| a.name == name)
            .unwrap_or_else(|| panic!("{}.{name}: not a field the test reaches", self.register))
    }

    /// Setters on zero, given every bit of the table's field, give exactly the field's bits; getters read the whole field from a value
    /// with only the field's bits set, and nothing from a value with every other bit set.
    fn check_field(&self, acc: &Acc<L>, fact: &FieldFact<'_>) {
        let (reg, field, source) = (self.register, acc.name, fact.source);
        let (bits, m) = (&fact.bits, fact.mask());
        assert_eq!(
            acc.access,
            Access::from_table(fact.access),
            "{reg}.{field}: the generated field is {:?} but {TABLE} says {} ({source})",
            acc.access,
            fact.access
        );
        if let Some(set) = &acc.set {
            // Every bit the table gives the field: a generated field narrower than the table's
            // refuses the value (`FromTable` for `UInt`), one wider sets fewer bits than `m`.
            let got = set(Value::raw(0), m >> fact.lsb).bits64();
            assert_eq!(
                got, m,
                "{reg}.{field}: builder on zero gives {got:#x} but {TABLE} says bits [{bits}] = \
                 {m:#x} ({source})"
            );
        }
        if let Some(get) = &acc.get {
            let ones = m >> fact.lsb;
            let got = get(Value::raw(m)).bits;
            assert_eq!(
                got, ones,
                "{reg}.{field}: getter on {m:#x} reads {got:#x} but {TABLE} says bits [{bits}] \
                 ({source})"
            );
            let got = get(Value::raw(!m)).bits;
            assert_eq!(
                got, 0,
                "{reg}.{field}: getter on !{m:#x} reads {got:#x} but {TABLE} says the field is \
                 bits [{bits}] and nothing else ({source})"
            );
        }
    }

    /// `fields` (from the table) compose to `value`, and the generated getters read them, every
    /// other field as its bits in `value`, and named values by their names.
    fn check_decode(
        &self,
        t: &Table,
        facts: &BTreeMap<String, FieldFact<'_>>,
        what: &str,
        value: u64,
        fields: &BTreeMap<String, u64>,
        source: &str,
    ) {
        let reg = self.register;
        let mut composed = 0;
        for (name, &x) in fields {
            let fact = facts.get(name).unwrap_or_else(|| {
                panic!("{TABLE}: {what} names {reg}.{name}, which has no [[field]] row")
            });
            assert!(
                x <= fact.mask() >> fact.lsb,
                "{TABLE}: {what}: {name} = {x:#x} does not fit bits [{}]",
                fact.bits
            );
            composed |= x << fact.lsb;
        }
        assert_eq!(
            composed, value,
            "{TABLE} disagrees with itself: {what}: the fields {fields:?} make {composed:#x}, not \
             {value:#x} ({source})"
        );
        let v = Value::<L>::raw(value);
        for acc in &self.fields {
            let Some(get) = &acc.get else { continue };
            let fact = &facts[acc.name];
            let want = fields
                .get(acc.name)
                .copied()
                .unwrap_or((value & fact.mask()) >> fact.lsb);
            let got = get(v);
            assert_eq!(
                got.bits, want,
                "{what}: {reg}.{} reads {:#x} from {value:#x} but {TABLE} says {want:#x} ({source})",
                acc.name, got.bits
            );
            for e in t
                .enum_value
                .iter()
                .filter(|e| e.register == reg && e.field == acc.name && e.value == got.bits)
            {
                assert_eq!(
                    got.name.as_deref(),
                    Some(e.name.as_str()),
                    "{what}: {reg}.{} = {:#x} decodes as {} but {TABLE} names it {} ({})",
                    acc.name,
                    got.bits,
                    got.name.as_deref().unwrap_or("no named value"),
                    e.name,
                    e.source
                );
            }
        }
    }
}

impl<L: Layout> ViewCheck for View<L> {
    fn register(&self) -> &'static str {
        self.register
    }

    fn check(&self) -> BTreeSet<RowId> {
        let t = table();
        let reg = self.register;
        let facts = field_facts(t, reg);
        let mut checked = BTreeSet::new();

        // The fields: the table's and the test's are the same set.
        let ours: BTreeSet<&str> = self.fields.iter().map(|a| a.name).collect();
        assert_eq!(ours.len(), self.fields.len(), "{reg}: a field listed twice");
        let theirs: BTreeSet<&str> = facts.keys().map(String::as_str).collect();
        let missing: Vec<_> = theirs.difference(&ours).collect();
        assert!(
            missing.is_empty(),
            "{reg}: {TABLE} lists fields {missing:?} the test does not check"
        );
        let extra: Vec<_> = ours.difference(&theirs).collect();
        assert!(
            extra.is_empty(),
            "{reg}: the test checks fields {extra:?} but {TABLE} has no [[field]] row for them"
        );
        for acc in &self.fields {
            let fact = &facts[acc.name];
            self.check_field(acc, fact);
            checked.insert(("field", fact.row));
        }

        // Every field at once: all ones read whole, a value without any field's bits reads zero.
        let fields_mask = facts.values().fold(0, |m, f| m | f.mask());
        for acc in &self.fields {
            let Some(get) = &acc.get else { continue };
            let fact = &facts[acc.name];
            let got = get(Value::<L>::reserved(u64::MAX)).bits;
            assert_eq!(
                got,
                fact.mask() >> fact.lsb,
                "{reg}.{}: getter on from_bits(all ones) reads {got:#x}, not the whole field \
                 [{}] ({})",
                acc.name,
                fact.bits,
                fact.source
            );
            let got = get(Value::<L>::reserved(!fields_mask)).bits;
            assert_eq!(
                got, 0,
                "{reg}.{}: getter on from_bits({:#x}), which has no bit of any field {TABLE} \
                 lists, reads {got:#x} ({})",
                acc.name, !fields_mask, fact.source
            );
        }

        // Reserved bits.
        let mut res0 = None;
        for (i, row) in t.reserved.iter().enumerate() {
            if row.register != reg {
                continue;
            }
            let (lsb, width) = bit_range(&row.bits);
            let m = mask(lsb, width);
            assert_eq!(
                fields_mask & m,
                0,
                "{TABLE} disagrees with itself: {reg} bits [{}] are {} but hold a field",
                row.bits,
                row.kind
            );
            match row.kind.as_str() {
                "RES0" => *res0.get_or_insert(0) |= m,
                "RAZ/WI" => {
                    for acc in &self.fields {
                        let Some(get) = &acc.get else { continue };
                        let got = get(Value::<L>::reserved(m)).bits;
                        assert_eq!(
                            got, 0,
                            "{reg}.{}: reads {got:#x} from bits [{}], which {TABLE} says are \
                             RAZ/WI ({})",
                            acc.name, row.bits, row.source
                        );
                    }
                }
                other => panic!("bad reserved kind {other:?} in {TABLE}"),
            }
            checked.insert(("reserved", i));
        }
        if let Some(res0) = res0 {
            assert_eq!(
                L::INFO.res0.to_u64(),
                res0,
                "{reg}: generated RES0 {:#x} but {TABLE} says {res0:#x}",
                L::INFO.res0.to_u64()
            );
        }
        let res0 = res0.unwrap_or(0);

        // Named values.
        for (i, row) in t.enum_value.iter().enumerate() {
            if row.register != reg {
                continue;
            }
            let fact = facts.get(&row.field).unwrap_or_else(|| {
                panic!(
                    "{TABLE}: [[enum_value]] for {reg}.{}, which has no [[field]] row",
                    row.field
                )
            });
            let get = self.field(&row.field).get.as_ref().unwrap_or_else(|| {
                panic!(
                    "{TABLE}: [[enum_value]] for {reg}.{}, which cannot be read",
                    row.field
                )
            });
            let got = get(Value::raw(row.value << fact.lsb));
            assert!(
                got.bits == row.value && got.name.as_deref() == Some(row.name.as_str()),
                "{reg}.{}: {:#x} decodes as {} ({:#x}) but {TABLE} names it {} ({})",
                row.field,
                row.value,
                got.name.as_deref().unwrap_or("no named value"),
                got.bits,
                row.name,
                row.source
            );
            checked.insert(("enum_value", i));
        }

        // Values built field by field.
        for (i, row) in t.composite.iter().enumerate() {
            if row.register != reg {
                continue;
            }
            let what = format!("{reg} built from {:?}", row.fields);
            let start = match row.start.as_deref() {
                None | Some("zero") => Value::raw(0),
                Some("DEFAULT") => self.default,
                Some(other) => panic!("bad start {other:?} in {TABLE}"),
            };
            let mut v = start;
            for (name, &x) in &row.fields {
                let set = self
                    .field(name)
                    .set
                    .as_ref()
                    .unwrap_or_else(|| panic!("{TABLE}: {what}: {name} cannot be written"));
                v = set(v, x);
            }
            assert_eq!(
                v.bits64(),
                row.value,
                "{what} from {}: {:#x} but {TABLE} says {:#x} ({})",
                row.start.as_deref().unwrap_or("zero"),
                v.bits64(),
                row.value,
                row.source
            );
            self.check_decode(t, &facts, &what, row.value, &row.fields, &row.source);
            checked.insert(("composite", i));
        }

        // Values a source gives.
        let mut reset_rows = 0;
        for (i, row) in t.decode.iter().enumerate() {
            if row.register != reg {
                continue;
            }
            let what = format!("{reg} = {:#x}", row.value);
            self.check_decode(t, &facts, &what, row.value, &row.fields, &row.source);
            if row.reset_constant {
                let reset = self.reset.unwrap_or_else(|| {
                    panic!("{reg}: {TABLE} says RESET is {:#x} ({}), but the generated view has no RESET", row.value, row.source)
                });
                assert_eq!(
                    reset.bits64(),
                    row.value,
                    "{reg}: generated RESET {:#x} but {TABLE} says {:#x} ({})",
                    reset.bits64(),
                    row.value,
                    row.source
                );
                reset_rows += 1;
            }
            checked.insert(("decode", i));
        }
        if self.reset.is_some() {
            assert_eq!(
                reset_rows, 1,
                "{reg}: the generated view has a RESET; {TABLE} must give it in one [[decode]] row \
                 with reset_constant = true"
            );
        }

        // Reset values measured on (or read from) QEMU.
        for (i, row) in t.qemu_reset.iter().enumerate() {
            if !row.views.iter().any(|v| v == reg) {
                continue;
            }
            let what = format!(
                "{reg}: QEMU {} -cpu {} {} reset {:#x}",
                row.target, row.cpu, row.register, row.value
            );
            self.check_decode(t, &facts, &what, row.value, &row.fields, &row.source);
            let kept = Value::<L>::reserved(row.value | res0).bits64();
            assert_eq!(
                kept,
                row.value,
                "{what}: from_bits({:#x}) gives {kept:#x}: only the RES0 bits {TABLE} lists may \
                 drop ({})",
                row.value | res0,
                row.source
            );
            checked.insert(("qemu_reset", i));
        }
        checked
    }
}

/// Runs every view of a group, then checks that the rows for its registers are the rows checked.
fn check_views(group: &str, views: &[Box<dyn ViewCheck>]) {
    let t = table();
    let registers: BTreeSet<&str> = views.iter().map(|v| v.register()).collect();
    assert_eq!(registers.len(), views.len(), "{group}: a view listed twice");
    let mut checked = BTreeSet::new();
    for v in views {
        checked.extend(v.check());
    }
    let mine = |r: &String| registers.contains(r.as_str());
    let covered = [
        rows_where("field", &t.field, |r| mine(&r.register)),
        rows_where("reserved", &t.reserved, |r| mine(&r.register)),
        rows_where("enum_value", &t.enum_value, |r| mine(&r.register)),
        rows_where("composite", &t.composite, |r| mine(&r.register)),
        rows_where("decode", &t.decode, |r| mine(&r.register)),
        rows_where("qemu_reset", &t.qemu_reset, |r| r.views.iter().any(mine)),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert_all_rows_checked(group, &covered, &checked);
}

/// PMCR bits \[9:0\], common to the AArch64, AArch32 and external views: P and C are write-1
/// actions that read as 0, so they have no getter.
macro_rules! pmcr_low_fields {
    ($t:ty) => {
        vec![
            rw("E", <$t>::E),
            wo("P", <$t>::P),
            wo("C", <$t>::C),
            rw("D", <$t>::D),
            rw("X", <$t>::X),
            rw("DP", <$t>::DP),
            rw("LC", <$t>::LC),
            rw("LP", <$t>::LP),
            rw("FZO", <$t>::FZO),
        ]
    };
}

/// PMCR bits \[31:11\], read-only in the system-register views.
macro_rules! pmcr_id_fields {
    ($t:ty) => {
        vec![
            ro("N", <$t>::N),
            ro("IDCODE", <$t>::IDCODE),
            ro("IMP", <$t>::IMP),
        ]
    };
}

fn pmcr_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::{Pmcr, PmcrA32};
    let mut a64 = pmcr_low_fields!(Pmcr);
    a64.extend(pmcr_id_fields!(Pmcr));
    a64.push(rw("FZS", Pmcr::FZS));
    let mut a32 = pmcr_low_fields!(PmcrA32);
    a32.extend(pmcr_id_fields!(PmcrA32));
    vec![
        view("PMCR_EL0", Pmcr::DEFAULT, None, a64),
        view("PMCR", PmcrA32::DEFAULT, None, a32),
    ]
}

fn pmcr_external_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::PmcrExt;
    vec![view(
        "PMCR_EL0 (external)",
        PmcrExt::DEFAULT,
        None,
        pmcr_low_fields!(PmcrExt),
    )]
}

/// The event-filter bits shared by PMEVTYPER<n> and PMCCFILTR (no MT here: PMCCFILTR lacks it).
macro_rules! filter_fields {
    ($t:ty) => {
        vec![
            rw("P", <$t>::P),
            rw("U", <$t>::U),
            rw("NSK", <$t>::NSK),
            rw("NSU", <$t>::NSU),
            rw("NSH", <$t>::NSH),
            rw("M", <$t>::M),
            rw("SH", <$t>::SH),
            rw("RLK", <$t>::RLK),
            rw("RLU", <$t>::RLU),
            rw("RLH", <$t>::RLH),
        ]
    };
}

fn filter_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::{Pmccfiltr, Pmevtyper};
    let mut evtyper = filter_fields!(Pmevtyper);
    evtyper.push(rw("MT", Pmevtyper::MT));
    evtyper.push(rw("evtCount", Pmevtyper::EVTCOUNT));
    vec![
        view("PMEVTYPER<n>_EL0", Pmevtyper::DEFAULT, None, evtyper),
        view(
            "PMCCFILTR_EL0",
            Pmccfiltr::DEFAULT,
            None,
            filter_fields!(Pmccfiltr),
        ),
    ]
}

fn pmuserenr_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::{Pmuserenr, PmuserenrA32};
    vec![
        view(
            "PMUSERENR_EL0",
            Pmuserenr::DEFAULT,
            None,
            vec![
                rw("EN", Pmuserenr::EN),
                rw("SW", Pmuserenr::SW),
                rw("CR", Pmuserenr::CR),
                rw("ER", Pmuserenr::ER),
                rw("UEN", Pmuserenr::UEN),
                rw("IR", Pmuserenr::IR),
                rw("TID", Pmuserenr::TID),
            ],
        ),
        // AArch32: UEN and IR do not exist.
        view(
            "PMUSERENR",
            PmuserenrA32::DEFAULT,
            None,
            vec![
                rw("EN", PmuserenrA32::EN),
                rw("SW", PmuserenrA32::SW),
                rw("CR", PmuserenrA32::CR),
                rw("ER", PmuserenrA32::ER),
                rw("TID", PmuserenrA32::TID),
            ],
        ),
    ]
}

/// C\[31\] = cycle counter, P<n>\[n\] = event counter n.
macro_rules! counter_mask_fields {
    ($t:ty) => {
        vec![
            rw("P0", <$t>::P0),
            rw("P1", <$t>::P1),
            rw("P2", <$t>::P2),
            rw("P3", <$t>::P3),
            rw("P4", <$t>::P4),
            rw("P5", <$t>::P5),
            rw("P6", <$t>::P6),
            rw("P7", <$t>::P7),
            rw("P8", <$t>::P8),
            rw("P9", <$t>::P9),
            rw("P10", <$t>::P10),
            rw("P11", <$t>::P11),
            rw("P12", <$t>::P12),
            rw("P13", <$t>::P13),
            rw("P14", <$t>::P14),
            rw("P15", <$t>::P15),
            rw("P16", <$t>::P16),
            rw("P17", <$t>::P17),
            rw("P18", <$t>::P18),
            rw("P19", <$t>::P19),
            rw("P20", <$t>::P20),
            rw("P21", <$t>::P21),
            rw("P22", <$t>::P22),
            rw("P23", <$t>::P23),
            rw("P24", <$t>::P24),
            rw("P25", <$t>::P25),
            rw("P26", <$t>::P26),
            rw("P27", <$t>::P27),
            rw("P28", <$t>::P28),
            rw("P29", <$t>::P29),
            rw("P30", <$t>::P30),
            rw("C", <$t>::C),
        ]
    };
}

/// The layout PMCNTENSET/CLR, PMINTENSET/CLR and PMOVSSET/CLR share, and the cluster PMU's.
fn counter_mask_views() -> Vec<Box<dyn ViewCheck>> {
    use dsu::ClusterpmCounterMask;
    use pmu::PmCounterMask;
    vec![
        view(
            "PMCNTENSET_EL0",
            PmCounterMask::DEFAULT,
            None,
            counter_mask_fields!(PmCounterMask),
        ),
        view(
            "CLUSTERPMCNTENSET_EL1",
            ClusterpmCounterMask::DEFAULT,
            None,
            counter_mask_fields!(ClusterpmCounterMask),
        ),
    ]
}

fn pmcfgr_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::Pmcfgr;
    vec![view(
        "PMCFGR",
        Pmcfgr::DEFAULT,
        None,
        vec![
            ro("N", Pmcfgr::N),
            ro("SIZE", Pmcfgr::SIZE),
            ro("CC", Pmcfgr::CC),
            ro("CCD", Pmcfgr::CCD),
            ro("EX", Pmcfgr::EX),
            ro("NA", Pmcfgr::NA),
            ro("WT", Pmcfgr::WT),
            ro("UEN", Pmcfgr::UEN),
            ro("FZO", Pmcfgr::FZO),
            ro("SS", Pmcfgr::SS),
            ro("NCG", Pmcfgr::NCG),
        ],
    )]
}

fn lock_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::{Pmauthstatus, Pmlar, Pmlsr};
    vec![
        view(
            "PMLSR",
            Pmlsr::DEFAULT,
            None,
            vec![
                ro("SLI", Pmlsr::SLI),
                ro("SLK", Pmlsr::SLK),
                ro("nTT", Pmlsr::NTT),
            ],
        ),
        view("PMLAR", Pmlar::DEFAULT, None, vec![wo("KEY", Pmlar::KEY)]),
        view(
            "PMAUTHSTATUS",
            Pmauthstatus::DEFAULT,
            None,
            vec![
                ro("NSID", Pmauthstatus::NSID),
                ro("NSNID", Pmauthstatus::NSNID),
                ro("SID", Pmauthstatus::SID),
                ro("SNID", Pmauthstatus::SNID),
                ro("RLID", Pmauthstatus::RLID),
                ro("RLNID", Pmauthstatus::RLNID),
                ro("RTID", Pmauthstatus::RTID),
                ro("RTNID", Pmauthstatus::RTNID),
            ],
        ),
    ]
}

fn device_identification_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::{Pmdevarch, Pmdevtype};
    vec![
        view(
            "PMDEVARCH",
            Pmdevarch::DEFAULT,
            Some(Pmdevarch::RESET),
            vec![
                ro("ARCHPART", Pmdevarch::ARCHPART),
                ro("ARCHVER", Pmdevarch::ARCHVER),
                ro("REVISION", Pmdevarch::REVISION),
                ro("PRESENT", Pmdevarch::PRESENT),
                ro("ARCHITECT", Pmdevarch::ARCHITECT),
            ],
        ),
        view(
            "PMDEVTYPE",
            Pmdevtype::DEFAULT,
            Some(Pmdevtype::RESET),
            vec![ro("MAJOR", Pmdevtype::MAJOR), ro("SUB", Pmdevtype::SUB)],
        ),
    ]
}

fn cntfrq_views() -> Vec<Box<dyn ViewCheck>> {
    use timer::{Cntfrq, CntfrqA32};
    vec![
        view(
            "CNTFRQ_EL0",
            Cntfrq::DEFAULT,
            None,
            vec![rw("ClockFreq", Cntfrq::CLOCKFREQ)],
        ),
        view(
            "CNTFRQ",
            CntfrqA32::DEFAULT,
            None,
            vec![rw("ClockFreq", CntfrqA32::CLOCKFREQ)],
        ),
    ]
}

fn cntv_ctl_views() -> Vec<Box<dyn ViewCheck>> {
    use timer::CntvCtl;
    vec![view(
        "CNTV_CTL_EL0",
        CntvCtl::DEFAULT,
        None,
        vec![
            rw("ENABLE", CntvCtl::ENABLE),
            rw("IMASK", CntvCtl::IMASK),
            ro("ISTATUS", CntvCtl::ISTATUS),
        ],
    )]
}

fn midr_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::Midr;
    vec![view(
        "MIDR_EL1",
        Midr::DEFAULT,
        None,
        vec![
            ro("Revision", Midr::REVISION),
            ro("PartNum", Midr::PARTNUM),
            ro("Architecture", Midr::ARCHITECTURE),
            ro("Variant", Midr::VARIANT),
            ro("Implementer", Midr::IMPLEMENTER),
        ],
    )]
}

fn mdcr_views() -> Vec<Box<dyn ViewCheck>> {
    use pmu::{MdcrEl2, MdcrEl3};
    vec![
        view(
            "MDCR_EL2",
            MdcrEl2::DEFAULT,
            None,
            vec![
                rw("HPMN", MdcrEl2::HPMN),
                rw("TPMCR", MdcrEl2::TPMCR),
                rw("TPM", MdcrEl2::TPM),
                rw("HPME", MdcrEl2::HPME),
                rw("HPMD", MdcrEl2::HPMD),
                rw("HCCD", MdcrEl2::HCCD),
            ],
        ),
        view(
            "MDCR_EL3",
            MdcrEl3::DEFAULT,
            None,
            vec![rw("SPME", MdcrEl3::SPME), rw("SCCD", MdcrEl3::SCCD)],
        ),
    ]
}

fn clusterpmcr_views() -> Vec<Box<dyn ViewCheck>> {
    use dsu::Clusterpmcr;
    vec![view(
        "CLUSTERPMCR_EL1",
        Clusterpmcr::DEFAULT,
        None,
        vec![
            rw("E", Clusterpmcr::E),
            wo("P", Clusterpmcr::P),
            wo("C", Clusterpmcr::C),
            ro("N", Clusterpmcr::N),
            ro("IDCODE", Clusterpmcr::IDCODE),
            ro("IMP", Clusterpmcr::IMP),
        ],
    )]
}

/// One test per group of views, and the list of groups the completeness check walks.
macro_rules! view_tests {
    ($($test:ident => $views:ident,)*) => {
        $(
            #[test]
            fn $test() {
                check_views(stringify!($test), &$views());
            }
        )*
        const VIEW_GROUPS: &[fn() -> Vec<Box<dyn ViewCheck>>] = &[$($views),*];
    };
}

view_tests! {
    pmcr_fields => pmcr_views,
    pmcr_external_view_fields => pmcr_external_views,
    pmevtyper_and_pmccfiltr_fields => filter_views,
    pmuserenr_fields => pmuserenr_views,
    counter_mask_fields => counter_mask_views,
    pmcfgr_fields => pmcfgr_views,
    lock_and_authentication_fields => lock_views,
    device_identification_fields => device_identification_views,
    cntfrq_fields => cntfrq_views,
    cntv_ctl_fields => cntv_ctl_views,
    midr_fields => midr_views,
    mdcr_fields => mdcr_views,
    clusterpmcr_fields => clusterpmcr_views,
}

// ---------------------------------------------------------------------------------------------
// No row unused.
// ---------------------------------------------------------------------------------------------

/// Every row of the table belongs to a register some test covers (and each test, above, checks
/// every row of the registers it covers).
#[test]
fn every_row_is_checked_by_a_test() {
    let t = table();
    let mut unused = Vec::new();

    let registers: BTreeSet<&str> = ENCODING_GROUPS
        .iter()
        .flat_map(|g| g())
        .map(|s| s.register)
        .collect();
    let arrays: BTreeSet<&str> = ARRAY_GROUPS
        .iter()
        .flat_map(|g| g())
        .map(|a| a.register)
        .collect();
    for row in &t.encoding {
        let covered = match row.index {
            None => registers.contains(row.register.as_str()),
            Some(_) => arrays.contains(row.register.as_str()),
        };
        if !covered {
            unused.push(format!("[[encoding]] {} ({})", row.register, row.source));
        }
    }
    for row in &t.encoding_array {
        if !arrays.contains(row.register.as_str()) {
            unused.push(format!(
                "[[encoding_array]] {} ({})",
                row.register, row.source
            ));
        }
    }

    let blocks: BTreeSet<&str> = ext32_blocks().into_iter().map(|(name, _)| name).collect();
    for row in &t.block {
        if !blocks.contains(row.block.as_str()) {
            unused.push(format!("[[block]] {} ({})", row.block, row.source));
        }
    }
    let (offsets, offset_arrays) = with_ext32(|b, _| {
        let offsets: BTreeSet<OffsetKey> = ext32_registers(b).into_iter().map(|(k, _)| k).collect();
        let arrays: BTreeSet<&str> = ext32_arrays(b).iter().map(|a| a.register).collect();
        (offsets, arrays)
    });
    for row in &t.offset {
        let key = (row.register.as_str(), row.index, row.word.as_deref());
        if !offsets.contains(&key) {
            unused.push(format!("[[offset]] {} ({})", offset_name(key), row.source));
        }
    }
    for row in &t.offset_array {
        if !offset_arrays.contains(row.register.as_str()) {
            unused.push(format!(
                "[[offset_array]] {} ({})",
                row.register, row.source
            ));
        }
    }

    let views: BTreeSet<&str> = VIEW_GROUPS
        .iter()
        .flat_map(|g| g())
        .map(|v| v.register())
        .collect();
    let mut view_row = |table: &str, register: &str, what: &str, source: &str| {
        if !views.contains(register) {
            unused.push(format!("[[{table}]] {register}{what} ({source})"));
        }
    };
    for r in &t.field {
        view_row("field", &r.register, &format!(".{}", r.field), &r.source);
    }
    for r in &t.reserved {
        view_row(
            "reserved",
            &r.register,
            &format!(" [{}]", r.bits),
            &r.source,
        );
    }
    for r in &t.enum_value {
        view_row(
            "enum_value",
            &r.register,
            &format!(".{}", r.field),
            &r.source,
        );
    }
    for r in &t.composite {
        view_row(
            "composite",
            &r.register,
            &format!(" {:#x}", r.value),
            &r.source,
        );
    }
    for r in &t.decode {
        view_row(
            "decode",
            &r.register,
            &format!(" {:#x}", r.value),
            &r.source,
        );
    }
    for r in &t.qemu_reset {
        assert!(
            r.views.contains(&r.register),
            "{TABLE}: QEMU -cpu {} {}: the register read must be one of its views {:?}",
            r.cpu,
            r.register,
            r.views
        );
        for v in &r.views {
            view_row("qemu_reset", v, &format!(" -cpu {}", r.cpu), &r.source);
        }
    }

    assert!(
        unused.is_empty(),
        "rows of {TABLE} no test checks:\n  {}",
        unused.join("\n  ")
    );
}
