//! The PMU seeds against Arm's machine-readable architecture specification (AARCHMRS, BSD
//! release 2024-12, vendored in `descriptions/third-party/aarchmrs/` and read by the generator's
//! own frontend), register by register and field by field:
//!
//! - `arm-pmuv3`: its AArch64 system registers (encoding, array count, access, width, and every
//!   named field's bits, name and access), its AArch32 ones likewise, and its memory-mapped view
//!   `PMU_EXT32` against Arm's `PMU` block in its 32-bit view (offset, width, access, fields);
//! - `ti-am62l-pmu`: its memory-mapped PMU frame against the same block.
//!
//! Registers are matched by name (Arm's `_EL0`/`_EL1` suffixes dropped in the memory-mapped
//! view, where TI and this description leave them out), else by encoding or offset. Fields are
//! compared by their bits; a field Arm's data gives in parts (`evtCount[15:10]`,
//! `evtCount[9:0]`) is compared whole. Arm's data gives fields no access of their own: a field
//! is as its register's accessors allow, a constant is read-only; so only a field this side
//! lets software write (or read) where Arm's data does not is an access difference. Bits that
//! read as zero and ignore writes are reserved on both sides, named or not; one field of a seed
//! over several of Arm's (a whole-register `VALUE`) is one difference, `field-coarse`.
//!
//! Every difference is listed; one the reviewed allowlist (`tests/cross-check/pmu-arm-data.toml`,
//! each entry with its reason) does not explain fails the test, and so does an entry that
//! explains nothing any more.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use armreg_codegen::frontend::Format;
use armreg_codegen::ir::{Block, Device, Field, FieldAccess, Layout, RegAccess, SysRegPath};
use serde::Deserialize;

const RELEASE: &str = "third-party/aarchmrs/AARCHMRS_BSD_A_profile-2024-12.tar.gz";

/// Arm's 32-bit external view of the PMU, as the frontend lowers the `PMU` register block.
const ARM_BLOCK: &str = "PMU_EXT32";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allowlist {
    #[serde(default)]
    allow: Vec<Allow>,
}

/// One reviewed difference, or several of one kind: `register` or `registers` names them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allow {
    seed: String,
    view: String,
    #[serde(default)]
    register: Option<String>,
    #[serde(default)]
    registers: Vec<String>,
    kind: String,
    /// The bits (`"63:32"`) a field kind is about; none explains every field of that kind.
    #[serde(default)]
    field: Option<String>,
    reason: String,
}

impl Allow {
    fn names(&self) -> Vec<&str> {
        self.register
            .iter()
            .map(String::as_str)
            .chain(self.registers.iter().map(String::as_str))
            .collect()
    }

    fn explains(&self, d: &Difference) -> bool {
        self.seed == d.seed
            && self.view == d.view
            && self.kind == d.kind
            && self.names().contains(&d.register.as_str())
            && (self.field.is_none() || self.field == d.field)
    }
}

/// One difference: the seed, the view (`aarch64`, `aarch32`, `mmio`), the register (this side's
/// name), its kind, the field's bits (for field kinds), and what it is.
#[derive(Clone)]
struct Difference {
    seed: &'static str,
    view: &'static str,
    register: String,
    kind: &'static str,
    field: Option<String>,
    text: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A crate's device, read and validated from the inputs the manifest lists.
fn seed(name: &str) -> Device {
    integration_tests::manifest_device(name)
}

/// Arm's data, through the generator's frontend.
fn arm() -> Device {
    let path = root().join("descriptions").join(RELEASE);
    assert!(
        path.is_file(),
        "Arm's release is missing: {}",
        path.display()
    );
    let mut sources = armreg_codegen::diagnostic::Sources::default();
    armreg_codegen::frontend::parse(Format::Aarchmrs, RELEASE, &path, "", &mut sources)
        .unwrap_or_else(|d| panic!("Arm's data does not lower: {d:?}"))
        .0
}

/// A field as compared: its name, and what software may do with it.
#[derive(Clone)]
struct Named {
    name: String,
    readable: bool,
    writable: bool,
}

/// A layout's named fields, `(lsb, width) → field`, with a field given in parts (`X_LO`/`X_HI`,
/// `X_15_10`/`X_9_0`) joined when its parts are adjacent.
fn fields(layout: &Layout) -> BTreeMap<(u32, u32), Named> {
    let base = |f: &Field| -> String {
        let n = f.name.as_str();
        if let Some(b) = n.strip_suffix("_LO").or_else(|| n.strip_suffix("_HI")) {
            return b.to_string();
        }
        let parts: Vec<&str> = n.rsplitn(3, '_').collect();
        if let [lo, hi, b] = parts.as_slice() {
            if lo.parse::<u32>().is_ok() && hi.parse::<u32>().is_ok() {
                return b.to_string();
            }
        }
        n.to_string()
    };
    // Bits that read as zero and ignore writes are reserved on both sides, named or not (Arm's
    // `RAZ-WI_31_31`, this description's PMCR.N in the external view).
    let named: Vec<&Field> = layout
        .fields
        .iter()
        .filter(|f| !f.is_reserved() && f.access != FieldAccess::RazWi)
        .collect();
    let mut out = BTreeMap::new();
    let mut groups: BTreeMap<String, Vec<&Field>> = BTreeMap::new();
    for f in &named {
        groups.entry(base(f)).or_default().push(f);
    }
    for (b, mut parts) in groups {
        parts.sort_by_key(|f| f.lsb);
        let adjacent = parts.len() > 1
            && parts.windows(2).all(|w| w[0].lsb + w[0].width == w[1].lsb)
            && parts.iter().all(|f| f.name != b);
        if adjacent {
            let lsb = parts[0].lsb;
            let width = parts.iter().map(|f| f.width).sum();
            out.insert(
                (lsb, width),
                Named {
                    name: b,
                    readable: parts.iter().all(|f| f.access.readable()),
                    writable: parts.iter().all(|f| f.access.writable()),
                },
            );
        } else {
            for f in parts {
                out.insert(
                    (f.lsb, f.width),
                    Named {
                        name: f.name.clone(),
                        readable: f.access.readable(),
                        writable: f.access.writable(),
                    },
                );
            }
        }
    }
    out
}

fn bits((lsb, width): (u32, u32)) -> String {
    if width == 1 {
        lsb.to_string()
    } else {
        format!("{}:{lsb}", lsb + width - 1)
    }
}

/// A register's access with the set/clear views as what they are on the bus: read and write.
fn plain(access: &RegAccess) -> RegAccess {
    match access {
        RegAccess::Set { .. } | RegAccess::Clear { .. } => RegAccess::Rw,
        other => other.clone(),
    }
}

/// Collects the differences of one seed and view.
struct Diff<'a> {
    seed: &'static str,
    view: &'static str,
    out: &'a mut Vec<Difference>,
}

impl Diff<'_> {
    fn add(&mut self, register: &str, kind: &'static str, field: Option<String>, text: String) {
        self.out.push(Difference {
            seed: self.seed,
            view: self.view,
            register: register.to_string(),
            kind,
            field,
            text,
        });
    }

    /// Width, and every named field's bits, name and access.
    fn layouts(&mut self, register: &str, mine: &Layout, theirs: &Layout) -> usize {
        if mine.width != theirs.width {
            self.add(
                register,
                "width",
                None,
                format!("ours {} bits, Arm's {}", mine.width, theirs.width),
            );
        }
        let (mine, theirs) = (fields(mine), fields(theirs));
        // One field of ours over several of Arm's (`VALUE` [31:0] over PMMIR's `SLOTS`,
        // `BUS_SLOTS`, ...): the finer layout is not described here; one difference.
        let inside =
            |(lsb, width): (u32, u32), (l, w): (u32, u32)| l >= lsb && l + w <= lsb + width;
        let mut covered = Vec::new();
        for (at, m) in &mine {
            let under: Vec<_> = theirs
                .iter()
                .filter(|(t, _)| *t != at && inside(*at, **t))
                .collect();
            if under.is_empty() || theirs.contains_key(at) {
                continue;
            }
            let names: Vec<&str> = under.iter().map(|(_, t)| t.name.as_str()).collect();
            self.add(
                register,
                "field-coarse",
                Some(bits(*at)),
                format!(
                    "ours has `{}` over [{}], where Arm's data has {}",
                    m.name,
                    bits(*at),
                    names.join(", ")
                ),
            );
            covered.push(*at);
            covered.extend(under.iter().map(|(t, _)| **t));
        }
        for (at, t) in theirs.iter().filter(|(at, _)| !covered.contains(at)) {
            match mine.get(at) {
                None => self.add(
                    register,
                    "field-missing",
                    Some(bits(*at)),
                    format!(
                        "Arm's data has `{}` at [{}]; ours has no field there",
                        t.name,
                        bits(*at)
                    ),
                ),
                Some(m) => {
                    if !m.name.eq_ignore_ascii_case(&t.name) {
                        self.add(
                            register,
                            "field-name",
                            Some(bits(*at)),
                            format!(
                                "[{}] is `{}` here, `{}` in Arm's data",
                                bits(*at),
                                m.name,
                                t.name
                            ),
                        );
                    }
                    if (m.writable && !t.writable) || (m.readable && !t.readable) {
                        self.add(
                            register,
                            "field-access",
                            Some(bits(*at)),
                            format!(
                                "`{}` is {}{} here; Arm's data has it {}{}",
                                m.name,
                                if m.readable {
                                    "readable"
                                } else {
                                    "not readable"
                                },
                                if m.writable {
                                    ", writable"
                                } else {
                                    ", not writable"
                                },
                                if t.readable {
                                    "readable"
                                } else {
                                    "not readable"
                                },
                                if t.writable {
                                    ", writable"
                                } else {
                                    ", not writable"
                                },
                            ),
                        );
                    }
                }
            }
        }
        for (at, m) in mine
            .iter()
            .filter(|(at, _)| !theirs.contains_key(at) && !covered.contains(at))
        {
            self.add(
                register,
                "field-extra",
                Some(bits(*at)),
                format!(
                    "ours has `{}` at [{}]; Arm's data has no field there",
                    m.name,
                    bits(*at)
                ),
            );
        }
        theirs.len()
    }
}

/// Figures of one comparison: registers matched, Arm's fields compared.
#[derive(Default)]
struct Counted {
    registers: usize,
    fields: usize,
}

/// The seed's system registers of one state against Arm's: by name and encoding, else by
/// encoding (a name difference), else by name (an encoding difference).
fn sysregs(ours: &Device, arm: &Device, aarch64: bool, d: &mut Diff) -> Counted {
    let state = |p: &SysRegPath| matches!(p, SysRegPath::A64 { .. }) == aarch64;
    let mut counted = Counted::default();
    let theirs: Vec<_> = arm
        .sysregs
        .iter()
        .filter(|r| r.view.is_none() && state(&r.path))
        .collect();
    for mine in ours
        .sysregs
        .iter()
        .filter(|r| r.view.is_none() && state(&r.path))
    {
        let by_both = theirs
            .iter()
            .find(|t| t.name == mine.name && t.path == mine.path);
        let by_path = theirs.iter().find(|t| t.path == mine.path);
        let by_name = theirs.iter().find(|t| t.name == mine.name);
        let Some(t) = by_both.or(by_path).or(by_name) else {
            d.add(
                &mine.name,
                "absent",
                None,
                format!(
                    "Arm's data has no register `{}` nor one at {}",
                    mine.name, mine.path
                ),
            );
            continue;
        };
        counted.registers += 1;
        if t.name != mine.name {
            d.add(
                &mine.name,
                "name",
                None,
                format!(
                    "Arm's data calls the register at {} `{}`",
                    mine.path, t.name
                ),
            );
        }
        if t.path != mine.path {
            d.add(
                &mine.name,
                "encoding",
                None,
                format!("ours {}, Arm's {}", mine.path, t.path),
            );
        }
        if t.count != mine.count {
            d.add(
                &mine.name,
                "count",
                None,
                format!("ours {:?} elements, Arm's {:?}", mine.count, t.count),
            );
        }
        if plain(&mine.access) != t.access {
            d.add(
                &mine.name,
                "access",
                None,
                format!("ours {:?}, Arm's {:?}", mine.access, t.access),
            );
        }
        let (Some(ml), Some(tl)) = (ours.layout(&mine.layout.name), arm.layout(&t.layout.name))
        else {
            panic!("{}: a layout is missing", mine.name);
        };
        counted.fields += d.layouts(&mine.name, ml, tl);
    }
    counted
}

/// One register of a block, an array's elements one by one: its canonical name (upper case,
/// without Arm's `_EL0`/`_EL1`), offset, access and layout, and the register it is of.
struct Element<'a> {
    canonical: String,
    register: &'a str,
    offset: u64,
    access: RegAccess,
    layout: &'a str,
}

fn canonical(name: &str) -> String {
    let upper = name.to_ascii_uppercase();
    for suffix in ["_EL0", "_EL1", "_EL2", "_EL3"] {
        if let Some(cut) = upper.find(suffix) {
            let mut out = upper[..cut].to_string();
            out.push_str(&upper[cut + suffix.len()..]);
            return out;
        }
    }
    upper
}

fn elements(block: &Block) -> Vec<Element<'_>> {
    let mut out = Vec::new();
    for r in &block.registers {
        let (count, stride) = r.array.as_ref().map_or((1, 0), |a| (a.count, a.stride));
        for k in 0..count {
            let name = if r.array.is_some() {
                r.name.replace("<n>", &k.to_string())
            } else {
                r.name.clone()
            };
            out.push(Element {
                canonical: canonical(&name),
                register: &r.name,
                offset: r.offset + u64::from(k) * stride,
                access: plain(&r.access),
                layout: &r.layout.name,
            });
        }
    }
    out
}

/// A seed's memory-mapped block against Arm's, element by element: by name, else by offset.
/// An array's elements differ alike: each difference is kept once per register.
fn block(ours: &Device, mine: &Block, arm: &Device, theirs: &Block, d: &mut Diff) -> Counted {
    let mut counted = Counted::default();
    let arms = elements(theirs);
    let before = d.out.len();
    let mut matched = Vec::new();
    for m in elements(mine) {
        let by_name = arms.iter().find(|t| t.canonical == m.canonical);
        let by_offset = arms.iter().find(|t| t.offset == m.offset);
        let Some(t) = by_name.or(by_offset) else {
            d.add(
                m.register,
                "absent",
                None,
                format!(
                    "Arm's {ARM_BLOCK} has no `{}` nor a register at {:#05x}",
                    m.canonical, m.offset
                ),
            );
            continue;
        };
        matched.push(t.canonical.clone());
        counted.registers += 1;
        if t.canonical != m.canonical {
            d.add(
                m.register,
                "name",
                None,
                format!(
                    "Arm's data calls the register at {:#05x} `{}`",
                    m.offset, t.canonical
                ),
            );
        }
        if t.offset != m.offset {
            d.add(
                m.register,
                "offset",
                None,
                format!(
                    "`{}` is at {:#05x} here, at {:#05x} in Arm's data",
                    m.canonical, m.offset, t.offset
                ),
            );
        }
        if t.access != m.access {
            d.add(
                m.register,
                "access",
                None,
                format!("ours {:?}, Arm's {:?}", m.access, t.access),
            );
        }
        let (Some(ml), Some(tl)) = (ours.layout(m.layout), arm.layout(t.layout)) else {
            panic!("{}: a layout is missing", m.register);
        };
        counted.fields += d.layouts(m.register, ml, tl);
    }
    for t in arms.iter().filter(|t| !matched.contains(&t.canonical)) {
        d.add(
            t.register,
            "missing",
            None,
            format!(
                "Arm's {ARM_BLOCK} has `{}` at {:#05x}; ours has no register of that name",
                t.canonical, t.offset
            ),
        );
    }
    // Once per register, kind and field.
    let mut seen = Vec::new();
    let mut kept = Vec::new();
    for x in d.out.drain(before..) {
        let key = (x.register.clone(), x.kind, x.field.clone());
        if !seen.contains(&key) {
            seen.push(key);
            kept.push(x);
        }
    }
    d.out.extend(kept);
    counted
}

#[test]
fn pmu_seeds_agree_with_arms_data() {
    let arm = arm();
    let pmuv3 = seed("arm-pmuv3");
    let am62l = seed("ti-am62l-pmu");
    let arm_block = arm
        .blocks
        .iter()
        .find(|b| b.name == ARM_BLOCK)
        .unwrap_or_else(|| panic!("Arm's data lowers no block `{ARM_BLOCK}`"));
    let mut differences = Vec::new();
    let mut figures = String::new();
    let mut check =
        |seed: &'static str, view: &'static str, run: &mut dyn FnMut(&mut Diff) -> Counted| {
            let mut d = Diff {
                seed,
                view,
                out: &mut differences,
            };
            let before = d.out.len();
            let c = run(&mut d);
            assert!(c.registers > 0, "{seed} {view}: nothing was compared");
            writeln!(
                figures,
                "  {seed} {view}: {} registers, {} of Arm's fields compared, {} differences",
                c.registers,
                c.fields,
                d.out.len() - before
            )
            .unwrap();
        };
    check("arm-pmuv3", "aarch64", &mut |d| {
        sysregs(&pmuv3, &arm, true, d)
    });
    check("arm-pmuv3", "aarch32", &mut |d| {
        sysregs(&pmuv3, &arm, false, d)
    });
    let ext32 = pmuv3
        .blocks
        .iter()
        .find(|b| b.name == "PMU_EXT32")
        .expect("arm-pmuv3 describes PMU_EXT32");
    check("arm-pmuv3", "mmio", &mut |d| {
        block(&pmuv3, ext32, &arm, arm_block, d)
    });
    assert_eq!(
        am62l.blocks.len(),
        1,
        "ti-am62l-pmu has one block, its PMU frame"
    );
    let frame = &am62l.blocks[0];
    check("ti-am62l-pmu", "mmio", &mut |d| {
        block(&am62l, frame, &arm, arm_block, d)
    });

    let allowlist: Allowlist = toml::from_str(
        &std::fs::read_to_string(root().join("tests/cross-check/pmu-arm-data.toml")).unwrap(),
    )
    .unwrap();
    let mut unexplained = String::new();
    for d in &differences {
        if !allowlist.allow.iter().any(|a| a.explains(d)) {
            writeln!(
                unexplained,
                "  {} {} {} {}{}: {}",
                d.seed,
                d.view,
                d.register,
                d.kind,
                d.field
                    .as_deref()
                    .map(|f| format!(" [{f}]"))
                    .unwrap_or_default(),
                d.text
            )
            .unwrap();
        }
    }
    let mut stale = String::new();
    for a in &allowlist.allow {
        assert!(
            !a.reason.trim().is_empty(),
            "{:?}: an entry needs its reason",
            a.names()
        );
        assert!(!a.names().is_empty(), "an entry names no register");
        for name in a.names() {
            if !differences
                .iter()
                .any(|d| d.register == name && a.explains(d))
            {
                writeln!(
                    stale,
                    "  {} {} {name} {} {:?}",
                    a.seed, a.view, a.kind, a.field
                )
                .unwrap();
            }
        }
    }
    println!(
        "PMU seeds against Arm's AARCHMRS 2024-12 ({} differences, {} allowed):\n{figures}",
        differences.len(),
        differences.len() - unexplained.lines().count()
    );
    assert!(
        unexplained.is_empty(),
        "differences from Arm's data the allowlist (tests/cross-check/pmu-arm-data.toml) does not explain:\n{unexplained}"
    );
    assert!(
        stale.is_empty(),
        "allowlist entries that explain no difference any more:\n{stale}"
    );
}

/// The comparison finds what it is meant to: a field moved, a register moved, a width changed.
#[test]
fn a_changed_description_is_a_difference() {
    let arm = arm();
    let arm_block = arm.blocks.iter().find(|b| b.name == ARM_BLOCK).unwrap();
    let mut pmuv3 = seed("arm-pmuv3");
    let mut base = Vec::new();
    let ext32 = pmuv3
        .blocks
        .iter()
        .find(|b| b.name == "PMU_EXT32")
        .unwrap()
        .clone();
    block(
        &pmuv3,
        &ext32,
        &arm,
        arm_block,
        &mut Diff {
            seed: "s",
            view: "mmio",
            out: &mut base,
        },
    );
    // PMCR moved by a word; PMLSR.SLK moved a bit up.
    let mut moved = ext32.clone();
    moved
        .registers
        .iter_mut()
        .find(|r| r.name == "PMCR")
        .unwrap()
        .offset += 4;
    let pmlsr = pmuv3
        .layouts
        .iter_mut()
        .find(|l| l.name == "PMLSR")
        .unwrap();
    pmlsr
        .fields
        .iter_mut()
        .find(|f| f.name == "SLK")
        .unwrap()
        .lsb = 3;
    let mut after = Vec::new();
    block(
        &pmuv3,
        &moved,
        &arm,
        arm_block,
        &mut Diff {
            seed: "s",
            view: "mmio",
            out: &mut after,
        },
    );
    let new: Vec<String> = after
        .iter()
        .filter(|a| {
            !base
                .iter()
                .any(|b| b.register == a.register && b.kind == a.kind && b.field == a.field)
        })
        .map(|d| format!("{} {} {:?}", d.register, d.kind, d.field))
        .collect();
    assert!(new.contains(&"PMCR offset None".to_string()), "{new:?}");
    assert!(
        new.contains(&"PMLSR field-missing Some(\"1\")".to_string()),
        "{new:?}"
    );
    assert!(
        new.contains(&"PMLSR field-extra Some(\"3\")".to_string()),
        "{new:?}"
    );
    // A system register made read-only where Arm's data has it read-write.
    let mut before = Vec::new();
    sysregs(
        &pmuv3,
        &arm,
        true,
        &mut Diff {
            seed: "s",
            view: "aarch64",
            out: &mut before,
        },
    );
    assert!(!before
        .iter()
        .any(|d| d.register == "PMCR_EL0" && d.kind == "access"));
    pmuv3
        .sysregs
        .iter_mut()
        .find(|r| r.name == "PMCR_EL0")
        .unwrap()
        .access = RegAccess::Ro;
    let mut after = Vec::new();
    sysregs(
        &pmuv3,
        &arm,
        true,
        &mut Diff {
            seed: "s",
            view: "aarch64",
            out: &mut after,
        },
    );
    assert!(after
        .iter()
        .any(|d| d.register == "PMCR_EL0" && d.kind == "access"));
}
