//! Zero cost, proven by a test: generated accessors compile to exactly the instructions a
//! hand-written `asm!` gives.
//!
//! The fixture crate `tests/zero-cost` holds pairs of `#[no_mangle]` functions, `gen_<case>` (through a
//! generated accessor) and `ref_<case>` (hand-written `asm!`, or a volatile access for MMIO). This test
//! builds it in release mode for `aarch64-unknown-none` and `armv7a-none-eabi`, disassembles it with
//! `llvm-objdump`, and checks for every case that
//! - the body of `gen_<case>` is instruction for instruction the body of `ref_<case>`, and
//! - the body is the expected short listing (e.g. one `mrs` and `ret`), so the reference itself is
//!   known to be minimal.
//!
//! A missing target or `llvm-objdump` is a failure, not a skip: install them with
//! `rustup target add aarch64-unknown-none armv7a-none-eabi` and `rustup component add llvm-tools`.
//!
//! Notes on what the disassembly looks like:
//! - LLVM's function merging may make `ref_<case>` an alias of an identical `gen_<case>` (both labels
//!   at one address); the parser gives every label of such a group the same body.
//! - `armv7a-none-eabi` sets `frame-pointer = always` in its target spec (stable rustc cannot lower
//!   that), so every function there, generated or hand-written, is wrapped in the frame record
//!   `push {r11, lr}; mov r11, sp; ...; pop {r11, pc}`. The gen/ref comparison is on the whole body;
//!   the absolute check reads that exact wrapper as a plain `...; bx lr`.

use std::collections::BTreeMap;
use std::env;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One gen/ref pair and the listings its body may have (any one of them), one pattern per
/// instruction. Patterns are matched token by token (tokens split at blanks and commas): `*` matches
/// any token, `A|B` either spelling (so a system register matches by name or by `S3_...` encoding),
/// case-insensitively.
struct Case {
    name: &'static str,
    expect: &'static [&'static [&'static str]],
}

const AARCH64: &str = "aarch64-unknown-none";
const ARMV7A: &str = "armv7a-none-eabi";

const AARCH64_CASES: &[Case] = &[
    // PMCCNTR_EL0::read().bits()
    Case {
        name: "pmccntr_read",
        expect: &[&["mrs x0, PMCCNTR_EL0|S3_3_C9_C13_0", "ret"]],
    },
    // CNTVCT_EL0::read().bits() (arm-generic-timer-regs)
    Case {
        name: "cntvct_read",
        expect: &[&["mrs x0, CNTVCT_EL0|S3_3_C14_C0_2", "ret"]],
    },
    // PMCR_EL0::modify(|v| v.with(Pmcr::E, true).with(Pmcr::C, true)): read, clear the write-1
    // actions P and C (bits 2:1) so that only what the closure sets acts, OR in 0b101, write.
    // Masking and OR are one bit-field insert of 0b101 into bits 2:0 (`bfxil`), or the AND and
    // the ORR: no instruction beyond them.
    Case {
        name: "pmcr_modify",
        expect: &[
            &[
                "mrs *, PMCR_EL0|S3_3_C9_C12_0",
                "mov *, #0x5|#5",
                "bfxil *, *, #0, #3",
                "msr PMCR_EL0|S3_3_C9_C12_0, *",
                "ret",
            ],
            &[
                "mrs *, PMCR_EL0|S3_3_C9_C12_0",
                "and *, *, #0xfffffffffffffff9",
                "orr *, *, #0x5|#5",
                "msr PMCR_EL0|S3_3_C9_C12_0, *",
                "ret",
            ],
        ],
    },
    // PMCR_EL0::trigger(Pmcr::P): read, P set and C cleared (one bit-field insert of 0b01 into
    // bits 2:1, or the AND and the ORR), write.
    Case {
        name: "pmcr_trigger",
        expect: &[
            &[
                "mrs *, PMCR_EL0|S3_3_C9_C12_0",
                "mov *, #0x1|#1",
                "bfi *, *, #1, #2",
                "msr PMCR_EL0|S3_3_C9_C12_0, *",
                "ret",
            ],
            &[
                "mrs *, PMCR_EL0|S3_3_C9_C12_0",
                "and *, *, #0xfffffffffffffff9",
                "orr *, *, #0x2|#2",
                "msr PMCR_EL0|S3_3_C9_C12_0, *",
                "ret",
            ],
        ],
    },
    // PMEVTYPER_EL0.at::<3>().write(Pmevtyper::from_bits_retain(x)), x: u32. The 32-bit value is
    // zero-extended into the 64-bit register (AAPCS64 leaves the upper half of x0 unspecified).
    Case {
        name: "pmevtyper3_write",
        expect: &[
            &["msr PMEVTYPER3_EL0|S3_3_C14_C12_3, x0", "ret"],
            &["mov *, w0", "msr PMEVTYPER3_EL0|S3_3_C14_C12_3, *", "ret"],
        ],
    },
    // PMEVCNTR_EL0.at::<30>().read().bits(): the index carried into CRm by the assembler.
    Case {
        name: "pmevcntr30_read",
        expect: &[&["mrs x0, PMEVCNTR30_EL0|S3_3_C14_C11_6", "ret"]],
    },
    // aarch64_sysregs::aarch64::SCTLR_EL1::modify(|v| v.with(M).with(C).with(I)): mrs, the or
    // of 0x1005 (not one logical immediate: a mov and an orr), msr.
    Case {
        name: "sctlr_el1_mmu_on",
        expect: &[&[
            "mrs *, SCTLR_EL1|S3_0_C1_C0_0",
            "mov *, #0x1005|#4101",
            "orr *, *, *",
            "msr SCTLR_EL1|S3_0_C1_C0_0, *",
            "ret",
        ]],
    },
    // aarch64_sysregs::aarch64::ICH_LR_EL2.at::<13>().read().bits(): one mrs.
    Case {
        name: "ich_lr13_read",
        expect: &[&["mrs x0, ICH_LR13_EL2|S3_4_C12_C13_5", "ret"]],
    },
    // PmuExt32::new(base).pmcntenset().set(mask): one 32-bit store at base + 0xC00.
    Case {
        name: "mmio_pmcntenset_set",
        expect: &[&["str w1, [x0, #0xc00]", "ret"]],
    },
    // PmuExt32::new(base).pmevtyper().at::<3>().write(v): one 32-bit store at base + 0x40C.
    Case {
        name: "mmio_pmevtyper3_write",
        expect: &[&["str w1, [x0, #0x40c]", "ret"]],
    },
    // armreg_rt::asm::dsb(Ish) then isb(): the two instructions.
    Case {
        name: "isb_dsb_ish",
        expect: &[&["dsb ish", "isb", "ret"]],
    },
    // armreg_rt::asm::eret(): the instruction (LLVM may put its trap for "unreachable" after
    // it, in the hand-written function too).
    Case {
        name: "eret",
        expect: &[&["eret"], &["eret", "brk #0x1"]],
    },
    // PmuExt32::new(base).pmcr().modify(|v| v.with(PmcrExt::E, true)): one load at base +
    // 0xE04, the write-1 actions P and C cleared and E set (one AND with a constant and one
    // ORR, or a bit-field insert), one store.
    Case {
        name: "mmio_pmcr_modify",
        expect: &[
            &[
                "ldr *, [x0, #0xe04]",
                "and *, *, #0xfffffff8|#0xfffffff9",
                "orr *, *, #0x1|#1",
                "str *, [x0, #0xe04]",
                "ret",
            ],
            &[
                "ldr *, [x0, #0xe04]",
                "mov *, #0x1|#1",
                "bfxil *, *, #0, #3",
                "str *, [x0, #0xe04]",
                "ret",
            ],
        ],
    },
];

const ARMV7A_CASES: &[Case] = &[
    // aarch32::PMCCNTR64::read().bits(): MRRC p15, 0, <lo>, <hi>, c9 straight into the return pair.
    Case {
        name: "pmccntr64_read",
        expect: &[&["mrrc p15, #0x0|#0|0, r0, r1, c9", "bx lr"]],
    },
    // aarch32::CNTVCT::read().bits() (arm-generic-timer-regs): MRRC p15, 1, <lo>, <hi>, c14.
    Case {
        name: "cntvct_read",
        expect: &[&["mrrc p15, #0x1|#1|1, r0, r1, c14", "bx lr"]],
    },
    // aarch32::PMCR::modify(|v| v.with(Pmcr::E, true).with(Pmcr::C, true)): MRC, the write-1
    // actions P and C cleared and 0b101 put in (a bit-field insert of a constant, or the BIC
    // and the ORR), MCR.
    Case {
        name: "pmcr_modify",
        expect: &[
            &[
                "mov *, #5|#0x5",
                "mrc p15, #0x0|#0|0, *, c9, c12, #0x0|#0|0",
                "bfi *, *, #0, #3",
                "mcr p15, #0x0|#0|0, *, c9, c12, #0x0|#0|0",
                "bx lr",
            ],
            &[
                "mrc p15, #0x0|#0|0, *, c9, c12, #0x0|#0|0",
                "bic *, *, #6|#0x6",
                "orr *, *, #5|#0x5",
                "mcr p15, #0x0|#0|0, *, c9, c12, #0x0|#0|0",
                "bx lr",
            ],
        ],
    },
    // aarch32::PMEVTYPER.at::<3>().write(Pmevtyper::from_bits_retain(x)): one MCR.
    Case {
        name: "pmevtyper3_write",
        expect: &[&["mcr p15, #0x0|#0|0, r0, c14, c12, #0x3|#3|3", "bx lr"]],
    },
    // aarch32::PMEVCNTR.at::<30>().read().bits(): one MRC, c11 and 6 from the index.
    Case {
        name: "pmevcntr30_read",
        expect: &[&["mrc p15, #0x0|#0|0, r0, c14, c11, #0x6|#6|6", "bx lr"]],
    },
    // PmuExt32::new(base).pmcntenset().set(mask): one store at base + 0xC00.
    Case {
        name: "mmio_pmcntenset_set",
        expect: &[&["str r1, [r0, #0xc00]", "bx lr"]],
    },
    // PmuExt32::new(base).pmevtyper().at::<3>().write(v): one store at base + 0x40C.
    Case {
        name: "mmio_pmevtyper3_write",
        expect: &[&["str r1, [r0, #0x40c]", "bx lr"]],
    },
    // armreg_rt::asm::dsb(Sy): the one instruction.
    Case {
        name: "dsb_sy",
        expect: &[&["dsb sy", "bx lr"]],
    },
    // PmuExt32::new(base).pmcr().modify(|v| v.with(PmcrExt::E, true)): one load, the write-1
    // actions cleared (BIC #6) and E set (ORR #1), one store.
    Case {
        name: "mmio_pmcr_modify",
        expect: &[
            &[
                "ldr *, [r0, #0xe04]",
                "bic *, *, #6|#0x6",
                "orr *, *, #1|#0x1",
                "str *, [r0, #0xe04]",
                "bx lr",
            ],
            &[
                "mov *, #1|#0x1",
                "ldr *, [r0, #0xe04]",
                "bfi *, *, #0, #3",
                "str *, [r0, #0xe04]",
                "bx lr",
            ],
            &[
                "ldr *, [r0, #0xe04]",
                "mov *, #1|#0x1",
                "bfi *, *, #0, #3",
                "str *, [r0, #0xe04]",
                "bx lr",
            ],
        ],
    },
];

#[test]
fn aarch64_accessors_compile_to_the_hand_written_instructions() {
    check_target(AARCH64, AARCH64_CASES);
}

#[test]
fn armv7a_accessors_compile_to_the_hand_written_instructions() {
    check_target(ARMV7A, ARMV7A_CASES);
}

fn check_target(target: &str, cases: &[Case]) {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = rustc_output(&rustc, &["--print", "sysroot"]);
    let sysroot = PathBuf::from(sysroot.trim());
    assert!(
        sysroot
            .join("lib/rustlib")
            .join(target)
            .join("lib")
            .is_dir(),
        "the Rust target `{target}` is not installed in {} (needed by the zero-cost test): \
         run `rustup target add {target}`",
        sysroot.display()
    );
    let objdump = llvm_objdump(&rustc, &sysroot);

    let archive = build_fixture(target);
    let symbols: Vec<String> = cases
        .iter()
        .flat_map(|c| [format!("gen_{}", c.name), format!("ref_{}", c.name)])
        .collect();
    let out = Command::new(&objdump)
        .arg("--disassemble")
        .arg("--no-show-raw-insn")
        .arg(format!("--disassemble-symbols={}", symbols.join(",")))
        .arg(&archive)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", objdump.display()));
    // The archive also holds `core` and `compiler_builtins`; objdump warns on stderr, once per
    // member, about the symbols that member lacks. Only the exit status and stdout matter.
    assert!(
        out.status.success(),
        "{} failed on {}:\n{}",
        objdump.display(),
        archive.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut bodies = parse_disassembly(&String::from_utf8_lossy(&out.stdout));
    // Identical functions are merged into aliases (rustc's default `merge-functions`): the
    // disassembly then labels the shared body with one of the two names. A pair at the same
    // place is one body, the strongest form of "the same instructions".
    let places = symbol_places(&objdump, &archive);
    for case in cases {
        let (g, r) = (format!("gen_{}", case.name), format!("ref_{}", case.name));
        if places.contains_key(&g) && places.get(&g) == places.get(&r) {
            match (bodies.get(&g).cloned(), bodies.get(&r).cloned()) {
                (Some(body), None) => {
                    bodies.insert(r, body);
                }
                (None, Some(body)) => {
                    bodies.insert(g, body);
                }
                _ => {}
            }
        }
    }

    let mut report = String::new();
    let mut failures = Vec::new();
    for case in cases {
        let gen_name = format!("gen_{}", case.name);
        let ref_name = format!("ref_{}", case.name);
        let (Some(gen_body), Some(ref_body)) = (bodies.get(&gen_name), bodies.get(&ref_name))
        else {
            failures.push(format!(
                "{target} {}: symbol(s) missing from the disassembly of {} (found: {:?})",
                case.name,
                archive.display(),
                bodies.keys().collect::<Vec<_>>()
            ));
            continue;
        };
        let _ = writeln!(report, "{target} {}: {}", case.name, gen_body.join("; "));
        if gen_body.is_empty() || gen_body != ref_body {
            failures.push(format!(
                "{target} {}: the generated accessor does not compile to the hand-written instructions\n\
                 {}\n{}",
                case.name,
                listing(&gen_name, gen_body),
                listing(&ref_name, ref_body)
            ));
            continue;
        }
        let core = match target {
            ARMV7A => strip_a32_frame_record(gen_body),
            _ => gen_body.clone(),
        };
        if !case
            .expect
            .iter()
            .any(|pattern| matches_listing(pattern, &core))
        {
            let expected: Vec<String> = case
                .expect
                .iter()
                .map(|p| format!("    one of: {}", p.join("; ")))
                .collect();
            failures.push(format!(
                "{target} {}: gen and ref agree but are not the expected listing\n{}\n{}\n  expected (after \
                 the frame record, if any):\n{}",
                case.name,
                listing(&gen_name, gen_body),
                listing(&ref_name, ref_body),
                expected.join("\n")
            ));
        }
    }
    println!("{report}");
    assert!(
        failures.is_empty(),
        "zero-cost check failed for {target}:\n\n{}\n\nall observed listings:\n{report}",
        failures.join("\n\n")
    );
}

/// Where each global function of `archive` is: (archive member, section, address), from the
/// symbol table.
fn symbol_places(
    objdump: &Path,
    archive: &Path,
) -> std::collections::HashMap<String, (String, String, String)> {
    let out = Command::new(objdump)
        .arg("--syms")
        .arg(archive)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", objdump.display()));
    let mut places = std::collections::HashMap::new();
    let mut member = String::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(m) = line.strip_suffix(':') {
            member = m.to_string();
            continue;
        }
        // `<address> g     F <section>\t<size> <name>`
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() >= 6 && fields[1] == "g" && fields[2] == "F" {
            let name = fields[fields.len() - 1].to_string();
            places.insert(
                name,
                (member.clone(), fields[3].to_string(), fields[0].to_string()),
            );
        }
    }
    places
}

/// Builds `tests/zero-cost` for `target` and returns the static library it produced.
fn build_fixture(target: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("zero-cost");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(&cargo);
    cmd.current_dir(&dir).args([
        "build",
        "--release",
        "--offline",
        "--target",
        target,
        "--message-format=json-render-diagnostics",
    ]);
    // The outer `cargo test` (or the user) may set these; the fixture must be built with its own
    // profile and nothing else.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_BUILD_TARGET",
    ] {
        cmd.env_remove(var);
    }
    let target_flags = format!(
        "CARGO_TARGET_{}_RUSTFLAGS",
        target.to_uppercase().replace('-', "_")
    );
    cmd.env_remove(target_flags);
    for (key, _) in env::vars_os() {
        if key.to_string_lossy().starts_with("CARGO_PROFILE_") {
            cmd.env_remove(key);
        }
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run {} in {}: {e}",
            cargo.to_string_lossy(),
            dir.display()
        )
    });
    assert!(
        out.status.success(),
        "building {} for {target} failed (is the target installed? `rustup target add {target}`):\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut archives = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        for file in msg["filenames"].as_array().into_iter().flatten() {
            if let Some(file) = file.as_str() {
                if file.ends_with("libzero_cost.a") {
                    archives.push(PathBuf::from(file));
                }
            }
        }
    }
    match archives.as_slice() {
        [one] => one.clone(),
        other => panic!(
            "expected one libzero_cost.a from the build of {} for {target}, got {other:?}",
            dir.display()
        ),
    }
}

fn rustc_output(rustc: &OsString, args: &[&str]) -> String {
    let out = Command::new(rustc)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", rustc.to_string_lossy()));
    assert!(
        out.status.success(),
        "{} {args:?} failed:\n{}",
        rustc.to_string_lossy(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `llvm-objdump` from the `llvm-tools` rustup component, else the one on `PATH`.
fn llvm_objdump(rustc: &OsString, sysroot: &Path) -> PathBuf {
    let version = rustc_output(rustc, &["-vV"]);
    let host = version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap_or("x86_64-unknown-linux-gnu")
        .trim();
    let bundled = sysroot
        .join("lib/rustlib")
        .join(host)
        .join("bin")
        .join(format!("llvm-objdump{}", env::consts::EXE_SUFFIX));
    if bundled.is_file() {
        return bundled;
    }
    let on_path = PathBuf::from("llvm-objdump");
    let works = Command::new(&on_path)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        works,
        "llvm-objdump not found (looked for {} and for `llvm-objdump` on PATH), needed by the \
         zero-cost test: run `rustup component add llvm-tools`",
        bundled.display()
    );
    on_path
}

/// Function bodies by symbol name from `llvm-objdump -d --no-show-raw-insn` output, each instruction
/// normalised to `mnemonic operands` (no address, encoding, comment or symbolic annotation). Labels
/// that share an address (aliases) all get the body that follows them.
fn parse_disassembly(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut bodies = BTreeMap::new();
    let mut labels: Vec<String> = Vec::new();
    let mut body: Vec<String> = Vec::new();
    let mut flush = |labels: &mut Vec<String>, body: &mut Vec<String>| {
        for label in labels.drain(..) {
            bodies.entry(label).or_insert_with(|| body.clone());
        }
        body.clear();
    };
    for line in text.lines() {
        if let Some(name) = label_of(line) {
            if !body.is_empty() {
                flush(&mut labels, &mut body);
            }
            labels.push(name.to_owned());
        } else if let Some(insn) = instruction_of(line) {
            body.push(insn);
        } else if !line.trim().is_empty() {
            // A section or archive-member header ends the current function.
            flush(&mut labels, &mut body);
        }
    }
    flush(&mut labels, &mut body);
    bodies
}

/// `0000000000000000 <name>:` gives `name`.
fn label_of(line: &str) -> Option<&str> {
    let (addr, rest) = line.split_once(' ')?;
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    rest.strip_prefix('<')?.strip_suffix(">:")
}

/// `       8:      \tmrs\tx0, CNTVCT_EL0 // comment` gives `mrs x0, CNTVCT_EL0`.
fn instruction_of(line: &str) -> Option<String> {
    if !line.starts_with([' ', '\t']) {
        return None;
    }
    let (addr, text) = line.trim_start().split_once(':')?;
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut text = text.to_owned();
    for comment in ["//", "\t@", " @", ";"] {
        if let Some(i) = text.find(comment) {
            text.truncate(i);
        }
    }
    // Drop `<symbol+off>` annotations: they name the function (gen_ vs ref_), not the instruction.
    while let (Some(start), Some(end)) = (text.find('<'), text.find('>')) {
        if end < start {
            break;
        }
        text.replace_range(start..=end, "");
    }
    let mut words = text.split_whitespace();
    let mnemonic = words.next()?;
    let operands: Vec<&str> = words.collect();
    Some(if operands.is_empty() {
        mnemonic.to_owned()
    } else {
        format!("{mnemonic} {}", operands.join(" "))
    })
}

/// The AArch32 frame record `push {r11, lr}; mov r11, sp; BODY; pop {r11, pc}` read as
/// `BODY; bx lr` (see the module comment); any other listing is returned as it is.
fn strip_a32_frame_record(body: &[String]) -> Vec<String> {
    match body {
        [push, mov, inner @ .., pop]
            if push == "push {r11, lr}" && mov == "mov r11, sp" && pop == "pop {r11, pc}" =>
        {
            let mut core = inner.to_vec();
            core.push("bx lr".to_owned());
            core
        }
        _ => body.to_vec(),
    }
}

fn tokens(s: &str) -> Vec<&str> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect()
}

fn matches_listing(pattern: &[&str], body: &[String]) -> bool {
    pattern.len() == body.len()
        && pattern.iter().zip(body).all(|(p, insn)| {
            let (p, i) = (tokens(p), tokens(insn));
            p.len() == i.len()
                && p.iter()
                    .zip(&i)
                    .all(|(p, i)| *p == "*" || p.split('|').any(|alt| alt.eq_ignore_ascii_case(i)))
        })
}

fn listing(name: &str, body: &[String]) -> String {
    let mut s = format!("  {name}:");
    if body.is_empty() {
        s.push_str(" (empty)");
    }
    for insn in body {
        let _ = write!(s, "\n    {insn}");
    }
    s
}

#[test]
fn parser_reads_aliases_and_separate_functions() {
    let text = "\
lib.a(x.o):\tfile format elf64-littleaarch64

Disassembly of section .text.gen_a:

0000000000000000 <gen_a>:
0000000000000000 <ref_a>:
       0:      \tmrs\tx0, CNTVCT_EL0
       4:      \tret

Disassembly of section .text.gen_b:

0000000000000000 <gen_b>:
       0:      \tmov\tw9, #0x5                // =5
       4:      \tb\t0x0 <gen_b>
";
    let bodies = parse_disassembly(text);
    assert_eq!(bodies["gen_a"], ["mrs x0, CNTVCT_EL0", "ret"]);
    assert_eq!(bodies["ref_a"], bodies["gen_a"]);
    assert_eq!(bodies["gen_b"], ["mov w9, #0x5", "b 0x0"]);
    assert!(matches_listing(
        &["mrs x0, CNTVCT_EL0|S3_3_C14_C0_2", "ret"],
        &bodies["ref_a"]
    ));
    assert!(!matches_listing(
        &["mrs x0, PMCCNTR_EL0", "ret"],
        &bodies["ref_a"]
    ));
    let framed: Vec<String> = [
        "push {r11, lr}",
        "mov r11, sp",
        "mrrc p15, #0x0, r0, r1, c9",
        "pop {r11, pc}",
    ]
    .map(String::from)
    .to_vec();
    assert_eq!(
        strip_a32_frame_record(&framed),
        ["mrrc p15, #0x0, r0, r1, c9", "bx lr"]
    );
}
