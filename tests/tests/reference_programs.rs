//! Everyday code no longer than on the crates users would pick instead, and no slower: each
//! reference program in `tests/reference/programs/` is written twice, on this project's crates
//! (`ours.rs`) and on the anchor's (`anchor.rs`), as a user writes it. This test
//! - checks both files are formatted by rustfmt (so neither is shortened by hand),
//! - counts their characters as a reader sees them (every line trimmed, blank lines and comments
//!   left out) and requires ours to be no longer,
//! - builds them for the target in release mode and requires the same instructions: the same
//!   instructions once register names are set aside, with every system-register access, memory
//!   access, barrier and branch in the same order (the compiler may schedule the arithmetic
//!   between them differently; a Thumb load from a literal pool is compared by the word it loads,
//!   since the pool's order is the compiler's choice),
//! - prints the counts (`codegen/benches/reference.sh` runs it for the benchmark report).
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::disasm;

/// A reference program: where its two versions are, what they are built into, and the functions
/// to compare (ours, the anchor's).
struct Program {
    name: &'static str,
    anchor: &'static str,
    folder: &'static str,
    target: &'static str,
    crate_dir: &'static str,
    lib: &'static str,
    functions: &'static [(&'static str, &'static str)],
    /// A crate the program's crate depends on, generated first into its `target/<name>`: the
    /// description, the patch and the crate's name.
    generated: Option<(&'static str, &'static str, &'static str)>,
}

const PROGRAMS: &[Program] = &[
    Program {
        name: "EL2→EL1 drop and MMU set-up",
        anchor: "aarch64-cpu 11.2.0",
        folder: "boot",
        target: "aarch64-unknown-none",
        crate_dir: "aarch64",
        lib: "reference_programs_aarch64",
        functions: &[
            ("el2_to_el1_ours", "el2_to_el1_anchor"),
            ("mmu_on_ours", "mmu_on_anchor"),
        ],
        generated: None,
    },
    Program {
        name: "cycles and one event around a function",
        anchor: "aarch64-cpu 11.2.0 and asm! (it has no PMU registers)",
        folder: "pmu",
        target: "aarch64-unknown-none",
        crate_dir: "aarch64",
        lib: "reference_programs_aarch64",
        functions: &[("count_ours", "count_anchor")],
        generated: None,
    },
    Program {
        name: "blinky on rp2040",
        anchor: "rp2040-pac 0.6.0 (svd2rust)",
        folder: "blinky",
        target: "thumbv6m-none-eabi",
        crate_dir: "rp2040",
        lib: "reference_programs_rp2040",
        functions: &[("blinky_ours", "blinky_anchor")],
        generated: Some((
            "descriptions/third-party/cmsis-svd-data/RaspberryPi/rp2040.svd",
            "tests/patches/rp2040.toml",
            "rp2040",
        )),
    },
];

/// Generates `(description, patch, name)`'s crate into `<crate_dir>/target/<name>`, where the
/// reference crate's `Cargo.toml` finds it.
fn generate(crate_dir: &Path, (description, patch, name): (&str, &str, &str)) {
    let out = crate_dir.join("target").join(name);
    let run = Command::new(integration_tests::codegen_binary())
        .current_dir(integration_tests::root())
        .args([
            "generate",
            description,
            "--patch",
            patch,
            "--name",
            name,
            "--force",
            "-o",
        ])
        .arg(&out)
        .output()
        .expect("the generator runs");
    assert!(
        run.status.success(),
        "generating {name} from {description}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference")
}

/// Lines and characters of a program as a reader sees it: each line trimmed, blank lines and
/// `//` comment lines left out.
fn size(source: &str) -> (usize, usize) {
    let lines: Vec<&str> = source
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect();
    (lines.len(), lines.iter().map(|l| l.chars().count()).sum())
}

fn rustfmt_clean(file: &Path) {
    let out = Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run rustfmt (`rustup component add rustfmt`): {e}"));
    assert!(
        out.status.success(),
        "{} is not as rustfmt formats it (run `rustfmt --edition 2021` on it):\n{}",
        file.display(),
        String::from_utf8_lossy(&out.stdout)
    );
}

/// An instruction with its register names set aside (`mov x9, #0x3` → `mov R, #0x3`).
fn without_registers(insn: &str) -> String {
    insn.split([' ', ','])
        .filter(|t| !t.is_empty())
        .map(|t| {
            let bare = t.trim_matches(|c| matches!(c, '[' | ']' | '{' | '}' | '!'));
            let register = bare.len() > 1
                && matches!(bare.as_bytes()[0], b'x' | b'w' | b'r')
                && bare[1..].bytes().all(|b| b.is_ascii_digit());
            if register || bare == "xzr" || bare == "wzr" {
                t.replace(bare, "R")
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The instructions whose order is the program's meaning: system-register accesses, memory
/// accesses, barriers, branches and returns.
fn ordered(insn: &str) -> bool {
    let mnemonic = insn.split_whitespace().next().unwrap_or("");
    matches!(
        mnemonic,
        "mrs"
            | "msr"
            | "mrc"
            | "mcr"
            | "mrrc"
            | "mcrr"
            | "isb"
            | "dsb"
            | "dmb"
            | "eret"
            | "ret"
            | "blr"
            | "bl"
            | "b"
            | "bx"
            | "wfi"
            | "wfe"
            | "sev"
    ) || mnemonic.starts_with("ldr")
        || mnemonic.starts_with("str")
        || mnemonic.starts_with("ldp")
        || mnemonic.starts_with("stp")
}

/// Why two bodies are not the same program, if they are not.
fn differs(ours: &[String], anchor: &[String]) -> Option<String> {
    let normal =
        |body: &[String]| -> Vec<String> { body.iter().map(|i| without_registers(i)).collect() };
    let (mut a, mut b) = (normal(ours), normal(anchor));
    let (seq_a, seq_b): (Vec<&String>, Vec<&String>) = (
        a.iter().filter(|i| ordered(i)).collect(),
        b.iter().filter(|i| ordered(i)).collect(),
    );
    if seq_a != seq_b {
        return Some(format!(
            "register accesses, memory accesses, barriers or branches differ:\n  ours:   {seq_a:?}\n  anchor: {seq_b:?}"
        ));
    }
    a.sort();
    b.sort();
    (a != b).then(|| format!("the instructions differ:\n  ours:   {a:?}\n  anchor: {b:?}"))
}

#[test]
fn ours_is_no_longer_and_compiles_to_the_same_instructions() {
    for program in PROGRAMS {
        integration_tests::require_target(program.target);
    }
    let mut archives: BTreeMap<(&str, &str), PathBuf> = BTreeMap::new();
    let mut report = String::from(
        "| program | anchor | ours: lines, characters | anchor: lines, characters | instructions |\n|---|---|---|---|---|\n",
    );
    let mut failures = Vec::new();
    for p in PROGRAMS {
        let folder = reference().join("programs").join(p.folder);
        let (ours_file, anchor_file) = (folder.join("ours.rs"), folder.join("anchor.rs"));
        rustfmt_clean(&ours_file);
        rustfmt_clean(&anchor_file);
        let read = |f: &Path| std::fs::read_to_string(f).unwrap();
        let (ours, anchor) = (size(&read(&ours_file)), size(&read(&anchor_file)));
        if ours.1 > anchor.1 {
            failures.push(format!(
                "{}: ours is {} characters, the anchor's {}",
                p.name, ours.1, anchor.1
            ));
        }
        let archive = archives
            .entry((p.crate_dir, p.target))
            .or_insert_with(|| {
                let dir = reference().join(p.crate_dir);
                if let Some(generated) = p.generated {
                    generate(&dir, generated);
                }
                disasm::build_staticlib(&dir, p.target, p.lib)
            })
            .clone();
        let symbols: Vec<String> = p
            .functions
            .iter()
            .flat_map(|(o, a)| [o.to_string(), a.to_string()])
            .collect();
        let bodies = disasm::bodies(p.target, &archive, &symbols);
        let mut count = 0;
        for (o, a) in p.functions {
            let (Some(ob), Some(ab)) = (bodies.get(*o), bodies.get(*a)) else {
                failures.push(format!(
                    "{}: {o} or {a} is missing from the disassembly",
                    p.name
                ));
                continue;
            };
            count += ob.len();
            if let Some(why) = differs(ob, ab) {
                failures.push(format!(
                    "{}: {o} and {a} are not the same instructions: {why}\n{}\n{}",
                    p.name,
                    disasm::listing(o, ob),
                    disasm::listing(a, ab)
                ));
            }
        }
        report.push_str(&format!(
            "| {} | {} | {}, {} | {}, {} | {count}, the same |\n",
            p.name, p.anchor, ours.0, ours.1, anchor.0, anchor.1
        ));
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}\n\n{report}", failures.join("\n\n"));
}

#[test]
fn registers_are_set_aside_and_the_order_kept() {
    assert_eq!(without_registers("mov x9, #0x3"), "mov R #0x3");
    assert_eq!(
        without_registers("ldp x30, x19, [sp], #0x10"),
        "ldp R R [sp] #0x10"
    );
    assert_eq!(
        without_registers("str w8, [x0, #0xe04]"),
        "str R [R #0xe04]"
    );
    let body = |s: &[&str]| s.iter().map(|i| i.to_string()).collect::<Vec<_>>();
    let a = body(&[
        "mov w9, #0x3",
        "mov x8, xzr",
        "msr CNTHCTL_EL2, x9",
        "msr CNTVOFF_EL2, x8",
    ]);
    let b = body(&[
        "mov w8, #0x3",
        "msr CNTHCTL_EL2, x8",
        "mov x9, xzr",
        "msr CNTVOFF_EL2, x9",
    ]);
    assert_eq!(differs(&a, &b), None);
    let swapped = body(&[
        "mov w8, #0x3",
        "msr CNTVOFF_EL2, x9",
        "mov x9, xzr",
        "msr CNTHCTL_EL2, x8",
    ]);
    assert!(differs(&a, &swapped).is_some());
    let more = body(&[
        "mov w9, #0x3",
        "mov x8, xzr",
        "msr CNTHCTL_EL2, x9",
        "msr CNTVOFF_EL2, x8",
        "nop",
    ]);
    assert!(differs(&a, &more).is_some());
    assert_eq!(size("use x;\n\n// a comment\n    fn f() {}\n"), (2, 15));
}
