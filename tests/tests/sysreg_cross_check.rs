//! The `aarch64-sysregs` description against Linux 6.12's `arch/arm64/tools/sysreg`, for every
//! register both describe: the same encoding, and the same named fields at the same bits (the
//! names compared without case). Linux's file comes from Debian's `linux-source-6.12`
//! (`tests/linux/extract.sh`, into `target/linux-6.12/`); it is read by the generator's own
//! frontend, and the crate's inputs as the manifest lists them.
//!
//! Fields the crate takes from Arm's machine-readable data (AARCHMRS 2024-12, newer than Linux
//! 6.12) where Linux has none are not differences here: the overlay pass checks them against
//! Arm's data.
//!
//! Every difference is listed; one that the reviewed allowlist (`tests/cross-check/sysregs.toml`,
//! each entry with its reason) does not explain fails the test, and so does an entry that explains
//! nothing any more. Registers only one side has are counted, not failed: the coverage table in
//! the README gives them.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use armreg_codegen::frontend::Format;
use armreg_codegen::ir::{Device, Layout, SysRegPath};
use serde::Deserialize;

const CRATE: &str = "aarch64-sysregs";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allowlist {
    #[serde(default)]
    allow: Vec<Allow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Allow {
    register: String,
    kind: String,
    /// The bits (`"31:26"`) or the field's name the entry is about, for field kinds.
    #[serde(default)]
    field: Option<String>,
    reason: String,
}

/// One difference: the register, its kind, the field it is about (if any), and what it is.
struct Difference {
    register: String,
    kind: &'static str,
    field: Option<String>,
    text: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The crate's device, read and validated from the inputs the manifest lists.
fn ours() -> Device {
    integration_tests::manifest_device(CRATE)
}

/// Linux 6.12's sysreg file, through the generator's frontend.
fn linux() -> Device {
    let linux = root().join("target/linux-6.12");
    assert!(
        linux.join(".complete").is_file(),
        "the Linux 6.12 files are missing: expected them in {} (run `bash tests/linux/extract.sh`)",
        linux.display()
    );
    let path = linux.join("arch/arm64/tools/sysreg");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut sources = armreg_codegen::diagnostic::Sources::default();
    let parsed =
        armreg_codegen::frontend::parse(Format::LinuxSysreg, "sysreg", &path, &text, &mut sources);
    parsed
        .unwrap_or_else(|d| panic!("Linux's sysreg does not parse: {d:?}"))
        .0
}

/// A layout's named fields: `(lsb, width) → name`.
fn fields(layout: &Layout) -> BTreeMap<(u32, u32), String> {
    layout
        .fields
        .iter()
        .filter(|f| !f.is_reserved())
        .map(|f| ((f.lsb, f.width), f.name.clone()))
        .collect()
}

fn bits((lsb, width): (u32, u32)) -> String {
    if width == 1 {
        lsb.to_string()
    } else {
        format!("{}:{lsb}", lsb + width - 1)
    }
}

/// Every difference between the registers both describe, and the registers compared.
fn differences(ours: &Device, linux: &Device) -> (Vec<Difference>, usize, usize) {
    let mut out = Vec::new();
    let (mut registers, mut compared_fields) = (0, 0);
    for theirs in linux
        .sysregs
        .iter()
        .filter(|r| matches!(r.path, SysRegPath::A64 { .. }))
    {
        let Some(mine) = ours
            .sysregs
            .iter()
            .find(|r| r.name == theirs.name && r.view.is_none())
        else {
            continue;
        };
        registers += 1;
        let mut diff = |kind, field: Option<String>, text: String| {
            out.push(Difference {
                register: theirs.name.clone(),
                kind,
                field,
                text,
            })
        };
        if mine.path != theirs.path {
            diff(
                "encoding",
                None,
                format!("ours {}, Linux {}", mine.path, theirs.path),
            );
        }
        let (Some(my_layout), Some(their_layout)) = (
            ours.layout(&mine.layout.name),
            linux.layout(&theirs.layout.name),
        ) else {
            continue;
        };
        if my_layout.width != their_layout.width {
            diff(
                "width",
                None,
                format!(
                    "ours {} bits, Linux {}",
                    my_layout.width, their_layout.width
                ),
            );
        }
        let (mine, theirs) = (fields(my_layout), fields(their_layout));
        for (at, name) in &theirs {
            compared_fields += 1;
            match mine.get(at) {
                None => diff(
                    "field-missing",
                    Some(bits(*at)),
                    format!(
                        "Linux has `{name}` at [{}]; ours has no field there",
                        bits(*at)
                    ),
                ),
                Some(my_name) if !my_name.eq_ignore_ascii_case(name) => diff(
                    "field-name",
                    Some(bits(*at)),
                    format!("[{}] is `{my_name}` here, `{name}` in Linux", bits(*at)),
                ),
                Some(_) => {}
            }
        }
        // A field only Arm's data gives (the crate is generated from it, 2024-12, newer than
        // Linux 6.12) is checked against Arm's data by the overlay pass, not here.
        let from_arm = |at: &(u32, u32)| {
            my_layout
                .fields
                .iter()
                .any(|f| (f.lsb, f.width) == *at && f.pos.file.ends_with("Registers.json"))
        };
        for (at, name) in mine
            .iter()
            .filter(|(at, _)| !theirs.contains_key(at) && !from_arm(at))
        {
            diff(
                "field-extra",
                Some(bits(*at)),
                format!(
                    "ours has `{name}` at [{}]; Linux has no field there",
                    bits(*at)
                ),
            );
        }
    }
    (out, registers, compared_fields)
}

#[test]
fn aarch64_sysregs_agree_with_linux() {
    let ours = ours();
    let linux = linux();
    let allowlist: Allowlist = toml::from_str(
        &std::fs::read_to_string(root().join("tests/cross-check/sysregs.toml")).unwrap(),
    )
    .unwrap();
    let (differences, registers, fields) = differences(&ours, &linux);
    let explains = |a: &Allow, d: &Difference| {
        a.register == d.register && a.kind == d.kind && (a.field.is_none() || a.field == d.field)
    };
    let mut unexplained = String::new();
    for d in &differences {
        if !allowlist.allow.iter().any(|a| explains(a, d)) {
            writeln!(unexplained, "  {} {}: {}", d.register, d.kind, d.text).unwrap();
        }
    }
    let mut stale = String::new();
    for a in &allowlist.allow {
        assert!(
            !a.reason.trim().is_empty(),
            "{}: an entry needs its reason",
            a.register
        );
        if !differences.iter().any(|d| explains(a, d)) {
            writeln!(stale, "  {} {} {:?}", a.register, a.kind, a.field).unwrap();
        }
    }
    let a64 = |d: &Device| {
        d.sysregs
            .iter()
            .filter(|r| matches!(r.path, SysRegPath::A64 { .. }) && r.view.is_none())
            .count()
    };
    println!(
        "{CRATE} against Linux 6.12 sysreg: {registers} registers in both ({} ours, {} Linux's), \
         {fields} Linux fields compared, {} differences, {} allowed",
        a64(&ours),
        a64(&linux),
        differences.len(),
        differences.len() - unexplained.lines().count(),
    );
    assert!(
        unexplained.is_empty(),
        "differences from Linux the allowlist (tests/cross-check/sysregs.toml) does not explain:\n{unexplained}"
    );
    assert!(
        stale.is_empty(),
        "allowlist entries that explain no difference any more:\n{stale}"
    );
    assert!(
        registers > 0,
        "no register is in both: the comparison compared nothing"
    );
}
