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

use std::fmt::Write as _;
use std::path::Path;

use integration_tests::disasm;

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
    // aarch32::PMEVTYPER.at::<3>().write(PmevtyperA32::from_bits_retain(x)): one MCR.
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
    integration_tests::require_target(target);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("zero-cost");
    let archive = disasm::build_staticlib(&dir, target, "zero_cost");
    let symbols: Vec<String> = cases
        .iter()
        .flat_map(|c| [format!("gen_{}", c.name), format!("ref_{}", c.name)])
        .collect();
    let bodies = disasm::bodies(target, &archive, &symbols);

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
                disasm::listing(&gen_name, gen_body),
                disasm::listing(&ref_name, ref_body)
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
                disasm::listing(&gen_name, gen_body),
                disasm::listing(&ref_name, ref_body),
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
    let bodies = disasm::parse_disassembly(text);
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
