//! QEMU proves the encodings: every readable AArch64 system register of Arm's machine-readable
//! specification (AARCHMRS, `descriptions/third-party/aarchmrs/`), read with its generic
//! `MRS S<op0>_<op1>_C<n>_C<m>_<op2>` on emulated CPUs, at EL1, EL2 and EL3.
//!
//! The test loads the release into the IR, writes the probe firmware's register table (one
//! function with one `MRS` per non-view, readable register, every element of an array) into the
//! target folder (`target/sysreg-probe/table.rs`). The other MRS encodings Arm's data gives a
//! register (`SCTLR_EL12` and `SCTLRALIAS_EL1` of SCTLR_EL1, `CNTP_CTL_EL02` of CNTP_CTL_EL0) are
//! registers of the IR, each with its accessor's condition. It builds the firmware
//! (`tests/probe/`) and boots it under QEMU on each configuration of [`CONFIGS`]. The firmware reports, per register, the value read or the ESR of
//! the exception the read took (EC 0x00, UNDEFINED, or 0x18, a trapped MRS; any other exception
//! is "unexpected" and fails the test). An EC 0x18 trap's ISS must name the probe's encoding and
//! a read.
//!
//! What each read should do comes from the register's condition in the IR, evaluated on the
//! features the CPU reports in its ID registers (read by the same probe). Arm's condition names
//! features (`FEAT_PMUv3`); which ID register field says a feature is implemented is the data
//! file `tests/probe/features.toml`, written once, each entry citing the Arm ARM's description of
//! the field. Its entries are checked here against the IR's layout of the ID register (the
//! field's bits) and, where Arm's `Features.json` states the same equivalence, against it.
//! `HaveEL(ELn)` is decided from ID_AA64PFR0_EL1.ELn (0b0000: not implemented). A condition that
//! names a feature the file does not map, or that the IR keeps as text (`Other`), leaves the
//! register undecided: it is read, but its outcome is not judged, only counted.
//!
//! Whether the EL the probe runs at may access a register at all is decided by the name's suffix
//! (`_EL0`, none: EL1 and up; `_EL1`: EL1 and up; `_EL2`: EL2 and up; `_EL12`/`_EL02`: EL2 with
//! HCR_EL2.E2H set; `_EL3`: EL3), except where `features.toml` (`[access]`) says otherwise (SP_EL1
//! at EL2 and up, Debug-state registers never here). An inaccessible register must trap.
//! Arrays and numbered registers whose implemented count an ID register gives (PMEVCNTR<n>_EL0 and
//! PMCR_EL0.N) have an `[element]` rule there; an element beyond the count must trap, and an
//! array with no rule whose condition holds is undecided.
//!
//! So every register element is expected to read, expected to trap, or undecided; a read that
//! disagrees with its expectation is a mismatch, and every mismatch must be explained by an entry
//! of `tests/probe/allowlist.toml` (QEMU not implementing what it advertises, and the like). An
//! entry that explains nothing fails too. The counts per configuration are printed.
//!
//! QEMU and the rustup target are installed by `tests/qemu/install.sh`; if QEMU is missing the test
//! fails.
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use armreg_codegen::ir::{Condition, Device, RegAccess, SysReg, SysRegPath};
use armreg_codegen::pipeline::{self, Input, Options, Report};
use serde::Deserialize;

const RELEASE: &str = "descriptions/third-party/aarchmrs/AARCHMRS_BSD_A_profile-2024-12.tar.gz";
/// A boot takes ~0.1 s; a guest still running after this is hung.
const DEADLINE: Duration = Duration::from_secs(30);
/// The target: distinct registers that read as expected on `max`, over its runs (EL1,
/// EL2 with and without E2H, EL3). A table or a mapping gone wrong (everything expected to trap,
/// registers missing from the table) fails here; QEMU 7.2 reaches exactly 300.
const MAX_READ_TARGET: usize = 300;

/// One boot of the probe.
struct Config {
    id: &'static str,
    cpu: &'static str,
    machine: &'static str,
    /// The firmware's command line (`e2h=1`: set HCR_EL2.E2H at EL2).
    append: &'static str,
    /// The EL the probe runs at (QEMU starts the image at EL2 with `virtualization=on`, at EL3
    /// with `secure=on`).
    el: u8,
}

const CONFIGS: [Config; 8] = [
    Config {
        id: "max-el1",
        cpu: "max",
        machine: "virt,gic-version=3",
        append: "",
        el: 1,
    },
    // A GICv2 machine: no GICv3 CPU interface, so ID_AA64PFR0_EL1.GIC is 0 and the ICC_*
    // registers must trap.
    Config {
        id: "max-el1-gicv2",
        cpu: "max",
        machine: "virt",
        append: "",
        el: 1,
    },
    Config {
        id: "max-el2",
        cpu: "max",
        machine: "virt,virtualization=on,gic-version=3",
        append: "",
        el: 2,
    },
    Config {
        id: "max-el2-e2h",
        cpu: "max",
        machine: "virt,virtualization=on,gic-version=3",
        append: "e2h=1",
        el: 2,
    },
    // EL3 (Secure, SCR_EL3 as reset: no EEL2), with EL2 implemented.
    Config {
        id: "max-el3",
        cpu: "max",
        machine: "virt,secure=on,virtualization=on,gic-version=3",
        append: "",
        el: 3,
    },
    Config {
        id: "a72-el1",
        cpu: "cortex-a72",
        machine: "virt,gic-version=3",
        append: "",
        el: 1,
    },
    Config {
        id: "a72-el2",
        cpu: "cortex-a72",
        machine: "virt,virtualization=on,gic-version=3",
        append: "",
        el: 2,
    },
    Config {
        id: "a72-el3",
        cpu: "cortex-a72",
        machine: "virt,secure=on,virtualization=on,gic-version=3",
        append: "",
        el: 3,
    },
];

// ---------------------------------------------------------------------------------------------
// The data files
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Mapping {
    feature: BTreeMap<String, FeatureRule>,
    #[serde(default)]
    element: BTreeMap<String, ElementRule>,
    #[serde(default)]
    access: BTreeMap<String, AccessRule>,
}

/// A test of one ID register field: `min <= UInt(field) <= max`.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Term {
    register: String,
    field: String,
    bits: String,
    min: u64,
    #[serde(default)]
    max: Option<u64>,
}

/// A feature: one term, or `any` of groups of terms that must all hold.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FeatureRule {
    #[serde(default)]
    register: Option<String>,
    #[serde(default)]
    field: Option<String>,
    #[serde(default)]
    bits: Option<String>,
    #[serde(default)]
    min: Option<u64>,
    #[serde(default)]
    max: Option<u64>,
    #[serde(default)]
    any: Vec<Vec<Term>>,
    source: String,
}

impl FeatureRule {
    /// The rule as alternatives of conjunctions.
    fn alternatives(&self, name: &str) -> Vec<Vec<Term>> {
        match (&self.register, &self.field, &self.bits, self.min) {
            (Some(register), Some(field), Some(bits), Some(min)) => {
                assert!(self.any.is_empty(), "{name}: both a term and `any`");
                vec![vec![Term {
                    register: register.clone(),
                    field: field.clone(),
                    bits: bits.clone(),
                    min,
                    max: self.max,
                }]]
            }
            (None, None, None, None) => {
                assert!(!self.any.is_empty(), "{name}: neither a term nor `any`");
                assert!(self.max.is_none(), "{name}: `max` without a term");
                self.any.clone()
            }
            _ => panic!("{name}: a term needs register, field, bits and min"),
        }
    }
}

/// How many elements of a register family are implemented, from an ID register field.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ElementRule {
    register: String,
    field: String,
    bits: String,
    /// `"field"`: elements 0 to field - 1; `"field + 1"`: 0 to field;
    /// `"2 ^ (field - 4)"`: 0 to 2^(field - 4) - 1 (a GIC priority-bits field).
    count: String,
    source: String,
}

/// The ELs that may access a register, where the name's suffix does not say.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AccessRule {
    levels: Vec<u8>,
    /// Accessible in Secure state only (at EL3 only with SCR_EL3.EEL2 set); no run here is.
    #[serde(default)]
    secure: bool,
    /// UNDEFINED while SCR_EL3.NS is 0: at EL3 here (runs without EL3 are Non-secure).
    #[serde(default)]
    nonsecure: bool,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allowlist {
    #[serde(default)]
    allow: Vec<Allow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allow {
    /// The configurations (`CONFIGS`' ids) where it happens.
    runs: Vec<String>,
    register: String,
    /// What the mapping expects: `read` or `trap`.
    expected: String,
    reason: String,
}

fn bits(text: &str) -> (u32, u32) {
    let parse = |s: &str| s.trim().parse::<u32>().ok();
    let (hi, lo) = text
        .split_once(':')
        .and_then(|(h, l)| Some((parse(h)?, parse(l)?)))
        .unwrap_or_else(|| panic!("bits {text:?} are not `high:low`"));
    assert!(hi >= lo && hi < 64, "bits {text:?}");
    (hi, lo)
}

fn field_value(value: u64, range: &str) -> u64 {
    let (hi, lo) = bits(range);
    let width = hi - lo + 1;
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    };
    (value >> lo) & mask
}

// ---------------------------------------------------------------------------------------------
// The register table
// ---------------------------------------------------------------------------------------------

/// One `MRS` of the table: a register, or an element of an array.
struct Probe {
    /// The element's name (`PMEVCNTR3_EL0`).
    name: String,
    /// The family an `[element]` rule may name and this element's index in it: an IR array
    /// (`PMEVCNTR<n>_EL0`, n) or a numbered register (`DBGBCR<n>_EL1` for `DBGBCR3_EL1`, 3).
    family: Option<(String, u32)>,
    /// Whether the IR gives it as an array (so its implemented count is unknown without a rule).
    array: bool,
    encoding: String,
    condition: Option<Condition>,
}

fn encoding(path: SysRegPath) -> Option<String> {
    match path {
        SysRegPath::A64 {
            op0,
            op1,
            crn,
            crm,
            op2,
        } => Some(format!("S{op0}_{op1}_C{crn}_C{crm}_{op2}")),
        _ => None,
    }
}

/// `DBGBCR3_EL1` -> (`DBGBCR<n>_EL1`, 3); `TRCACATR12` -> (`TRCACATR<n>`, 12).
fn numbered(name: &str) -> Option<(String, u32)> {
    let (stem, suffix) = match name.rfind("_EL") {
        Some(i) if name[i + 3..].bytes().all(|b| b.is_ascii_digit()) => name.split_at(i),
        _ => (name, ""),
    };
    let digits = stem.len() - stem.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == stem.len() {
        return None;
    }
    let n = stem[digits..].parse().ok()?;
    Some((format!("{}<n>{suffix}", &stem[..digits]), n))
}

fn probes(device: &Device) -> Vec<Probe> {
    let mut out = Vec::new();
    for reg in &device.sysregs {
        if reg.view.is_some() || !matches!(reg.access, RegAccess::Rw | RegAccess::Ro) {
            continue;
        }
        let Some(_) = encoding(reg.path) else {
            continue;
        };
        push(reg, &mut out);
    }
    out
}

fn push(reg: &SysReg, out: &mut Vec<Probe>) {
    use armreg_codegen::ir::PathExt as _;
    match reg.count {
        None => out.push(Probe {
            name: reg.name.clone(),
            family: numbered(&reg.name),
            array: false,
            encoding: encoding(reg.path).expect("an A64 path"),
            condition: reg.condition.clone(),
        }),
        Some(count) => {
            for n in 0..count {
                let path = reg
                    .path
                    .element(n)
                    .unwrap_or_else(|| panic!("{}: element {n} leaves the encoding", reg.name));
                out.push(Probe {
                    name: reg.name.replace("<n>", &n.to_string()),
                    family: Some((reg.name.clone(), n)),
                    array: true,
                    encoding: encoding(path).expect("an A64 path"),
                    condition: reg.condition.clone(),
                });
            }
        }
    }
}

fn show(c: &Condition) -> String {
    match c {
        Condition::Feature { name } => name.clone(),
        Condition::HaveEl { level } => format!("HaveEL(EL{level})"),
        Condition::HaveAArch32 => "HaveAArch32()".into(),
        Condition::HaveAArch64 => "HaveAArch64()".into(),
        Condition::Not { of } => format!("!{}", show(of)),
        Condition::All { of } => {
            format!("({})", of.iter().map(show).collect::<Vec<_>>().join(" && "))
        }
        Condition::Any { of } => {
            format!("({})", of.iter().map(show).collect::<Vec<_>>().join(" || "))
        }
        Condition::Other { text } => text.clone(),
    }
}

/// The firmware's `table.rs`.
fn table_source(probes: &[Probe]) -> String {
    let mut s = String::new();
    s.push_str(
        "// Generated by tests/tests/sysreg_probe.rs from Arm's AARCHMRS release: one MRS per\n\
         // readable AArch64 system register (every array element). Not committed.\n\n",
    );
    for (i, p) in probes.iter().enumerate() {
        let cond = p.condition.as_ref().map_or("always".to_string(), show);
        let _ = writeln!(s, "/// {}: {cond}", p.name);
        let _ = writeln!(s, "fn r{i}() -> u64 {{\n    mrs!(\"{}\")\n}}", p.encoding);
    }
    let _ = writeln!(
        s,
        "\npub static TABLE: [super::Entry; {}] = [",
        probes.len()
    );
    for (i, p) in probes.iter().enumerate() {
        let _ = writeln!(s, "    (\"{}\", r{i}),", p.name);
    }
    s.push_str("];\n");
    s
}

// ---------------------------------------------------------------------------------------------
// Building and booting
// ---------------------------------------------------------------------------------------------

fn require_qemu() {
    match Command::new("qemu-system-aarch64").arg("--version").output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "`qemu-system-aarch64 --version` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => panic!(
            "qemu-system-aarch64 cannot run ({e}): the probe needs it. Run `bash tests/qemu/install.sh`"
        ),
    }
}

/// Builds the firmware with the table at `table`; the image's path.
fn build(table: &Path) -> PathBuf {
    let dir = integration_tests::root().join("tests/probe");
    let out = integration_tests::cargo_in(&dir)
        .args([
            "build",
            "--release",
            "--locked",
            "--message-format=json-render-diagnostics",
        ])
        .env("SYSREG_PROBE_TABLE", table)
        // The generated table and the firmware compile without a warning.
        .env("RUSTFLAGS", "-D warnings")
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "building the probe firmware failed (is the rustup target installed? tests/qemu/install.sh)"
    );
    integration_tests::executable(&out.stdout, "sysreg-probe")
        .expect("cargo did not report the sysreg-probe image")
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    Read(u64),
    Trap(u64),
    Unexpected(u64),
}

/// What one boot reported: the EL, E2H, and one outcome per probe.
struct Reported {
    el: u8,
    e2h: bool,
    outcomes: Vec<Outcome>,
}

fn boot(config: &Config, image: &Path, probes: &[Probe]) -> Result<Reported, String> {
    let finished = integration_tests::run_with_deadline(
        Command::new("qemu-system-aarch64")
            .args(["-M", config.machine, "-cpu", config.cpu])
            .args(["-nographic", "-nic", "none"])
            .args(["-semihosting-config", "enable=on,target=native"])
            .arg("-kernel")
            .arg(image)
            .args(["-append", config.append]),
        DEADLINE,
    );
    let fail = |what: String| {
        Err(format!(
            "{what}\n  guest output (tail):\n{}",
            tail(&finished.output)
        ))
    };
    match finished.status {
        Some(0) => {}
        Some(code) => return fail(format!("exit status {code}")),
        None => return fail(format!("killed after the {DEADLINE:?} deadline")),
    }
    let (mut el, mut e2h, mut end) = (None, None, false);
    let mut outcomes = vec![None; probes.len()];
    for line in finished.output.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["el", n] => el = n.parse().ok(),
            ["e2h", n] => e2h = Some(*n == "1"),
            ["count", n] if n.parse() == Ok(probes.len()) => {}
            ["count", n] => {
                return fail(format!(
                    "the image has {n} reads, the table {}",
                    probes.len()
                ))
            }
            ["end"] => end = true,
            [kind @ ("read" | "trap" | "unexpected"), index, name, value] => {
                let index: usize = index.parse().map_err(|_| format!("bad line {line:?}"))?;
                let value = u64::from_str_radix(value.trim_start_matches("0x"), 16)
                    .map_err(|_| format!("bad line {line:?}"))?;
                let Some(probe) = probes.get(index) else {
                    return fail(format!("index out of the table: {line:?}"));
                };
                if probe.name != *name {
                    return fail(format!("{line:?}: the table names {} there", probe.name));
                }
                outcomes[index] = Some(match *kind {
                    "read" => Outcome::Read(value),
                    "trap" => Outcome::Trap(value),
                    _ => Outcome::Unexpected(value),
                });
            }
            ["fail", ..] => return fail(format!("guest: {line}")),
            _ => {}
        }
    }
    let missing = outcomes.iter().filter(|o| o.is_none()).count();
    match (el, e2h, end, missing) {
        (Some(el), Some(e2h), true, 0) => Ok(Reported {
            el,
            e2h,
            outcomes: outcomes.into_iter().flatten().collect(),
        }),
        _ => fail(format!(
            "incomplete report: el {el:?}, e2h {e2h:?}, end {end}, {missing} reads missing"
        )),
    }
}

fn tail(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

// ---------------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Expect {
    Read,
    Trap(String),
    Undecided(String),
}

/// The facts one boot gives: the ID registers' (and every other) values read.
struct Machine<'a> {
    values: BTreeMap<&'a str, u64>,
    el: u8,
    e2h: bool,
}

impl Machine<'_> {
    fn field(&self, register: &str, range: &str) -> Option<u64> {
        self.values.get(register).map(|&v| field_value(v, range))
    }

    fn have_el(&self, level: u8) -> Option<bool> {
        let lo = 4 * u32::from(level);
        self.field("ID_AA64PFR0_EL1", &format!("{}:{lo}", lo + 3))
            .map(|v| v != 0)
    }
}

/// Kleene's three-valued logic: `None` is undecided.
fn eval(c: &Condition, m: &Machine, mapping: &Mapping) -> Option<bool> {
    match c {
        Condition::Feature { name } => {
            let rule = mapping.feature.get(name)?;
            let mut any = Some(false);
            for group in rule.alternatives(name) {
                let mut all = Some(true);
                for t in &group {
                    let holds = m
                        .field(&t.register, &t.bits)
                        .map(|v| v >= t.min && t.max.is_none_or(|max| v <= max));
                    all = and(all, holds);
                }
                any = or(any, all);
            }
            any
        }
        Condition::HaveEl { level } => m.have_el(*level),
        // AArch32 at some EL: an ELn field of ID_AA64PFR0_EL1 is 0b0010 (AArch64 and AArch32).
        Condition::HaveAArch32 => (0..4u8)
            .map(|l| {
                let lo = 4 * u32::from(l);
                m.field("ID_AA64PFR0_EL1", &format!("{}:{lo}", lo + 3))
                    .map(|v| v == 2)
            })
            .fold(Some(false), or),
        Condition::HaveAArch64 => Some(true),
        Condition::Not { of } => eval(of, m, mapping).map(|b| !b),
        Condition::All { of } => of.iter().map(|c| eval(c, m, mapping)).fold(Some(true), and),
        Condition::Any { of } => of.iter().map(|c| eval(c, m, mapping)).fold(Some(false), or),
        Condition::Other { .. } => None,
    }
}

fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

fn or(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// The ELs that may access `name` by its suffix, or by an `[access]` rule; `e2h` gives
/// `_EL12`/`_EL02` to EL2.
fn accessible(name: &str, el: u8, e2h: bool, mapping: &Mapping) -> bool {
    if let Some(rule) = mapping.access.get(name) {
        // No configuration runs in Secure EL1 or EL2, nor sets SCR_EL3.EEL2 (without which
        // EL3 may not access the Secure EL2 registers either); EL3 keeps SCR_EL3.NS at 0.
        return rule.levels.contains(&el) && !rule.secure && !(rule.nonsecure && el == 3);
    }
    let suffix = name.rfind("_EL").map_or("", |i| &name[i + 1..]);
    match suffix {
        "EL12" | "EL02" => el == 2 && e2h,
        "EL0" | "EL1" => el >= 1,
        "EL2" => el >= 2,
        "EL3" => el >= 3,
        // No EL suffix: PSTATE fields, FPCR, the trace unit's TRC* (EL1 and up).
        _ => el >= 1,
    }
}

fn expect(p: &Probe, m: &Machine, mapping: &Mapping) -> Expect {
    if !accessible(&p.name, m.el, m.e2h, mapping) {
        return Expect::Trap(format!("not accessible at EL{}", m.el));
    }
    let holds = match &p.condition {
        None => Some(true),
        Some(c) => eval(c, m, mapping),
    };
    match holds {
        Some(false) => return Expect::Trap("its condition is false".into()),
        None => {
            let c = p.condition.as_ref().map_or(String::new(), show);
            return Expect::Undecided(format!("condition {c} undecided"));
        }
        Some(true) => {}
    }
    let Some((family, n)) = &p.family else {
        return Expect::Read;
    };
    let Some(rule) = mapping.element.get(family) else {
        return if p.array {
            Expect::Undecided(format!("no [element] rule for {family}"))
        } else {
            Expect::Read
        };
    };
    let Some(v) = m.field(&rule.register, &rule.bits) else {
        return Expect::Undecided(format!("{} was not read", rule.register));
    };
    let count = match rule.count.as_str() {
        "field" => v,
        "field + 1" => v + 1,
        "2 ^ (field - 4)" => 1 << v.saturating_sub(4),
        other => panic!("[element] {family}: unknown count {other:?}"),
    };
    if u64::from(*n) < count {
        Expect::Read
    } else {
        Expect::Trap(format!(
            "element {n} of {count} ({}.{})",
            rule.register, rule.field
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Checks of the data files against Arm's data
// ---------------------------------------------------------------------------------------------

/// Every bit range the mapping names is that field of the register's layout in the IR.
fn check_bits(mapping: &Mapping, device: &Device, problems: &mut Vec<String>) {
    let mut terms: Vec<(String, Term)> = Vec::new();
    for (name, rule) in &mapping.feature {
        assert!(!rule.source.trim().is_empty(), "{name}: no source");
        for t in rule.alternatives(name).into_iter().flatten() {
            terms.push((name.clone(), t));
        }
    }
    for (name, rule) in &mapping.element {
        assert!(!rule.source.trim().is_empty(), "{name}: no source");
        terms.push((
            name.clone(),
            Term {
                register: rule.register.clone(),
                field: rule.field.clone(),
                bits: rule.bits.clone(),
                min: 0,
                max: None,
            },
        ));
    }
    for (name, rule) in &mapping.access {
        assert!(!rule.source.trim().is_empty(), "{name}: no source");
    }
    for (name, t) in terms {
        let layout = device
            .sysregs
            .iter()
            .find(|r| r.name == t.register && r.view.is_none())
            .and_then(|r| device.layouts.iter().find(|l| l.name == r.layout.name));
        let Some(layout) = layout else {
            problems.push(format!("{name}: no register {} in the IR", t.register));
            continue;
        };
        let (hi, lo) = bits(&t.bits);
        match layout.fields.iter().find(|f| f.name == t.field) {
            Some(f) if f.lsb == lo && f.lsb + f.width - 1 == hi => {}
            Some(f) => problems.push(format!(
                "{name}: {}.{} is bits {}:{} in the IR, the mapping says {}",
                t.register,
                t.field,
                f.lsb + f.width - 1,
                f.lsb,
                t.bits
            )),
            None => problems.push(format!("{name}: {} has no field {}", t.register, t.field)),
        }
    }
}

/// `Features.json` of the release, parsed.
struct Release {
    features: serde_json::Value,
}

fn release() -> Release {
    let path = integration_tests::root().join(RELEASE);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    for entry in archive.entries().expect("read the release") {
        let mut entry = entry.expect("read the release");
        // The release's top-level file (schema/ holds one of the same name).
        let name = entry
            .path()
            .ok()
            .map(|p| p.to_string_lossy().trim_start_matches("./").to_string());
        if name.as_deref() == Some("Features.json") {
            let mut text = String::new();
            entry.read_to_string(&mut text).expect("read Features.json");
            return Release {
                features: serde_json::from_str(&text).expect("Features.json is JSON"),
            };
        }
    }
    panic!("{RELEASE} has no Features.json")
}

/// Arm's `FEAT_AA64EL1 --> (FEAT_X <-> UInt(REG.FIELD) >= n [&& UInt(REG.FIELD) < m])`
/// constraints, as (register, field, min, max).
fn arm_equivalences(
    features: &serde_json::Value,
) -> BTreeMap<String, (String, String, u64, Option<u64>)> {
    use serde_json::Value;
    fn ident(v: &Value) -> Option<&str> {
        (v["_type"] == "AST.Identifier")
            .then(|| v["value"].as_str())
            .flatten()
    }
    fn binop<'a>(v: &'a Value, op: &str) -> Option<(&'a Value, &'a Value)> {
        (v["_type"] == "AST.BinaryOp" && v["op"] == op).then(|| (&v["left"], &v["right"]))
    }
    /// `UInt(REG.FIELD) <op> n`.
    fn compare(v: &Value, op: &str) -> Option<(String, String, u64)> {
        let (f, n) = binop(v, op)?;
        if f["_type"] != "AST.Function" || f["name"] != "UInt" {
            return None;
        }
        let field = &f["arguments"][0]["value"];
        Some((
            field["name"].as_str()?.to_string(),
            field["field"].as_str()?.to_string(),
            n["value"].as_u64()?,
        ))
    }
    let mut out = BTreeMap::new();
    let parameters = features["parameters"].as_array().expect("parameters");
    for p in parameters {
        for c in p["constraints"].as_array().into_iter().flatten() {
            let Some((el1, inner)) = binop(c, "-->") else {
                continue;
            };
            if ident(el1) != Some("FEAT_AA64EL1") {
                continue;
            }
            let Some((feat, expr)) = binop(inner, "<->") else {
                continue;
            };
            let Some(feat) = ident(feat) else { continue };
            let found = if let Some((reg, field, min)) = compare(expr, ">=") {
                Some((reg, field, min, None))
            } else if let Some((lo, hi)) = binop(expr, "&&") {
                match (compare(lo, ">="), compare(hi, "<")) {
                    (Some((r1, f1, min)), Some((r2, f2, below))) if r1 == r2 && f1 == f2 => {
                        Some((r1, f1, min, Some(below - 1)))
                    }
                    _ => None,
                }
            } else {
                None
            };
            if let Some(found) = found {
                out.entry(feat.to_string()).or_insert(found);
            }
        }
    }
    out
}

/// Every single-term feature rule Arm's data also states agrees with it; the count that do.
fn check_against_arm(
    mapping: &Mapping,
    release: &Release,
    problems: &mut Vec<String>,
) -> (usize, usize) {
    let arm = arm_equivalences(&release.features);
    let (mut agreed, mut single) = (0, 0);
    for (name, rule) in &mapping.feature {
        let alts = rule.alternatives(name);
        let [t] = alts.as_slice() else { continue };
        let [t] = t.as_slice() else { continue };
        single += 1;
        let Some((reg, field, min, max)) = arm.get(name) else {
            continue;
        };
        if (reg, field, *min, *max) == (&t.register, &t.field, t.min, t.max) {
            agreed += 1;
        } else {
            problems.push(format!(
                "{name}: the mapping says {}.{} in {}..={:?}, Arm's Features.json {reg}.{field} \
                 in {min}..={max:?}",
                t.register, t.field, t.min, t.max
            ));
        }
    }
    (agreed, single)
}

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

fn load() -> Device {
    let root = integration_tests::root();
    let inputs = [Input {
        path: root.join(RELEASE),
        shown: RELEASE.to_string(),
    }];
    let mut report = Report::default();
    let device = pipeline::load(&inputs, &Options::default(), &mut report);
    device.unwrap_or_else(|| panic!("{RELEASE} does not load: {:?}", report.diagnostics))
}

fn read_toml<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = integration_tests::root().join("tests/probe").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("tests/probe/{name}: {e}"))
}

#[derive(Default)]
struct Counts {
    read: usize,
    trapped: usize,
    undecided: usize,
    undecided_read: usize,
    mismatches: usize,
    allowed: usize,
    unexpected: usize,
    /// Traps with EC 0x18, whose ISS names the encoding the MRS used: all checked.
    iss_checked: usize,
}

/// The encoding and direction an EC 0x18 ESR's ISS names (Arm ARM DDI0487, ESR_ELx, ISS encoding
/// for an exception from MSR, MRS or System instruction execution in AArch64 state): Op0 21:20,
/// Op2 19:17, Op1 16:14, CRn 13:10, Rt 9:5, CRm 4:1, Direction 0 (1: a read).
fn iss_encoding(esr: u64) -> (String, bool) {
    let f = |lo: u32, width: u32| (esr >> lo) & ((1 << width) - 1);
    (
        format!(
            "S{}_{}_C{}_C{}_{}",
            f(20, 2),
            f(14, 3),
            f(10, 4),
            f(1, 4),
            f(17, 3)
        ),
        f(0, 1) == 1,
    )
}

#[test]
fn sysreg_probe_under_qemu() {
    let started = Instant::now();
    require_qemu();
    integration_tests::require_target("aarch64-unknown-none");

    let device = load();
    let release = release();
    let probes = probes(&device);
    let mapping: Mapping = read_toml("features.toml");
    let allowlist: Allowlist = read_toml("allowlist.toml");
    let mut problems = Vec::new();

    check_bits(&mapping, &device, &mut problems);
    let (agreed, single) = check_against_arm(&mapping, &release, &mut problems);

    // Which features the conditions name, weighted by register elements, and which are mapped.
    let mut named: BTreeMap<String, usize> = BTreeMap::new();
    for p in &probes {
        if let Some(c) = &p.condition {
            let features: BTreeSet<&str> = c.features().into_iter().collect();
            for f in features {
                *named.entry(f.to_string()).or_default() += 1;
            }
        }
    }
    for f in mapping.feature.keys() {
        if !named.contains_key(f) {
            problems.push(format!(
                "features.toml maps {f}, which no register condition names"
            ));
        }
    }
    let mapped_regs: usize = named
        .iter()
        .filter(|(f, _)| mapping.feature.contains_key(*f))
        .map(|(_, n)| n)
        .sum();
    let unmapped: Vec<&String> = named
        .keys()
        .filter(|f| !mapping.feature.contains_key(*f))
        .collect();

    // The table and the image.
    let dir = integration_tests::target_subdir("sysreg-probe");
    std::fs::create_dir_all(&dir).expect("create the table's folder");
    let table = dir.join("table.rs");
    let source = table_source(&probes);
    if std::fs::read_to_string(&table).ok().as_deref() != Some(source.as_str()) {
        std::fs::write(&table, &source).expect("write the table");
    }
    let image = build(&table);
    let built = started.elapsed();

    let mut report = String::new();
    let _ = writeln!(
        report,
        "{} register elements probed ({} registers of the IR, aliases such as SCTLR_EL12 among \
         them); features.toml maps {} of the {} features \
         the conditions name ({} of their elements' mentions), {agreed} of its {single} \
         single-field rules also stated by Arm's Features.json and equal; unmapped: {}",
        probes.len(),
        device
            .sysregs
            .iter()
            .filter(|r| r.view.is_none()
                && matches!(r.access, RegAccess::Rw | RegAccess::Ro)
                && encoding(r.path).is_some())
            .count(),
        mapping.feature.len(),
        named.len(),
        mapped_regs,
        unmapped
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        report,
        "\n{:<14} {:<11} {:>3} {:>6} {:>8} {:>10} {:>11} {:>8} {:>11} {:>9}",
        "run",
        "cpu",
        "EL",
        "read",
        "trapped",
        "undecided",
        "mismatches",
        "allowed",
        "unexpected",
        "ISS ok"
    );

    let mut used: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut max_read: BTreeSet<&str> = BTreeSet::new();
    let mut details = String::new();
    for config in &CONFIGS {
        let reported = match boot(config, &image, &probes) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{}: {e}", config.id));
                continue;
            }
        };
        if reported.el != config.el {
            problems.push(format!(
                "{}: ran at EL{}, expected EL{}",
                config.id, reported.el, config.el
            ));
        }
        if reported.e2h != (config.append == "e2h=1") {
            problems.push(format!("{}: E2H {}", config.id, reported.e2h));
        }
        let machine = Machine {
            values: probes
                .iter()
                .zip(&reported.outcomes)
                .filter_map(|(p, o)| match o {
                    Outcome::Read(v) => Some((p.name.as_str(), *v)),
                    _ => None,
                })
                .collect(),
            el: reported.el,
            e2h: reported.e2h,
        };
        let mut c = Counts::default();
        let mut lists: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (p, outcome) in probes.iter().zip(&reported.outcomes) {
            let expected = expect(p, &machine, &mapping);
            if let Outcome::Unexpected(esr) = outcome {
                c.unexpected += 1;
                problems.push(format!(
                    "{}: {} took an unexpected exception, ESR {esr:#x} (EC {:#x})",
                    config.id,
                    p.name,
                    (esr >> 26) & 0x3f
                ));
                continue;
            }
            if let Outcome::Trap(esr) = outcome {
                if (esr >> 26) & 0x3f == 0x18 {
                    let (named, read) = iss_encoding(*esr);
                    if named == p.encoding && read {
                        c.iss_checked += 1;
                    } else {
                        problems.push(format!(
                            "{}: {} ({}) trapped with ESR {esr:#x}, whose ISS names {named} \
                             (read: {read})",
                            config.id, p.name, p.encoding
                        ));
                    }
                }
            }
            let (wanted, mismatch) = match (&expected, outcome) {
                (Expect::Read, Outcome::Read(_)) => {
                    c.read += 1;
                    if config.cpu == "max" {
                        max_read.insert(&p.name);
                    }
                    continue;
                }
                (Expect::Trap(_), Outcome::Trap(_)) => {
                    c.trapped += 1;
                    continue;
                }
                (Expect::Undecided(why), o) => {
                    c.undecided += 1;
                    let did = match o {
                        Outcome::Read(v) => {
                            c.undecided_read += 1;
                            format!("read {v:#x}")
                        }
                        _ => "trapped".to_string(),
                    };
                    lists
                        .entry("undecided")
                        .or_default()
                        .push(format!("{}: {why}; {did}", p.name));
                    continue;
                }
                (Expect::Read, Outcome::Trap(esr)) => (
                    "read",
                    format!("{}: expected to read, trapped (ESR {esr:#x})", p.name),
                ),
                (Expect::Trap(why), Outcome::Read(v)) => (
                    "trap",
                    format!("{}: expected to trap ({why}), read {v:#x}", p.name),
                ),
                _ => unreachable!("unexpected outcomes are counted above"),
            };
            c.mismatches += 1;
            let allowed = allowlist.allow.iter().position(|a| {
                a.register == p.name
                    && a.expected == wanted
                    && a.runs.iter().any(|r| r == config.id)
            });
            match allowed {
                Some(i) => {
                    c.allowed += 1;
                    used.insert((i, config.id.to_string()));
                    lists
                        .entry("allowed mismatches")
                        .or_default()
                        .push(mismatch);
                }
                None => {
                    problems.push(format!("{}: {mismatch} (not in allowlist.toml)", config.id));
                    lists.entry("MISMATCHES").or_default().push(mismatch);
                }
            }
        }
        let _ = writeln!(
            report,
            "{:<14} {:<11} {:>3} {:>6} {:>8} {:>10} {:>11} {:>8} {:>11} {:>9}",
            config.id,
            config.cpu,
            reported.el,
            c.read,
            c.trapped,
            format!("{} ({} read)", c.undecided, c.undecided_read),
            c.mismatches,
            c.allowed,
            c.unexpected,
            c.iss_checked
        );
        for (what, list) in lists {
            let _ = writeln!(details, "\n{} {what}:\n  {}", config.id, list.join("\n  "));
        }
    }
    // Every allowlist entry explains a mismatch in every run it names.
    for (i, a) in allowlist.allow.iter().enumerate() {
        assert!(
            !a.reason.trim().is_empty(),
            "allowlist: {} has no reason",
            a.register
        );
        for run in &a.runs {
            if !CONFIGS.iter().any(|c| c.id == run) {
                problems.push(format!("allowlist: {} names no run {run}", a.register));
            } else if !used.contains(&(i, run.clone())) {
                problems.push(format!(
                    "allowlist: {} (expected {}) on {run} explains nothing any more",
                    a.register, a.expected
                ));
            }
        }
    }
    let _ = writeln!(
        report,
        "\n{} distinct registers read as expected on max over its runs (target {MAX_READ_TARGET}); \
         build {:.1} s, total {:.1} s",
        max_read.len(),
        built.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    println!("{report}{details}");
    if max_read.len() < MAX_READ_TARGET {
        problems.push(format!(
            "only {} distinct registers read as expected on max (target {MAX_READ_TARGET})",
            max_read.len()
        ));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}
