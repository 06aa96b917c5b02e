//! The PMU driver on emulated Arm CPUs.
//!
//! Builds the firmware in `tests/qemu/` (one image per architecture, running the test named on
//! its command line), boots every test on every CPU model under QEMU with `-icount shift=0` (so
//! every count is exact and repeatable), with a deadline after which QEMU is killed, and compares
//! every value the guest reports with the value expected here. QEMU and the rustup targets are not
//! installed by this test (`tests/qemu/install.sh` does that); if QEMU is missing the test fails.
//!
//! Expected values come from measurements of QEMU 7.2 (Debian `qemu-system-arm`: PMCR reset, N,
//! PMCEID per model) and from the architecture (instruction counts of the loops, ESR of a trapped
//! access); the PMU versions and the one-instruction overhead were measured on QEMU 7.2 too and are
//! explained where they are set.
//! A value the guest reports but nothing here checks is a failure too.
//!
//! `pmu_sequence` (AArch64 models) is the differential check of the generated behavioural model
//! of the external PMU view against QEMU's PMU: see `qemu/differential.rs`.
//!
//! `bringup` (its own test, `bringup_under_qemu`) is a kernel's first steps on the AArch64 models
//! through the generated `aarch64-sysregs` accessors: the drop from EL3 or EL2, a `brk` through
//! VBAR_EL1 decoded from ESR_EL1, the MMU and caches over an identity map, the virtual timer's
//! interrupt through the GICv3 CPU interface, and the ID registers' feature fields.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The differential check of the generated model against QEMU.
#[path = "qemu/differential.rs"]
mod differential;
/// The differential check's register sequence, shared with the firmware.
#[path = "../qemu/harness/src/sequence.rs"]
mod sequence;

/// A boot-run-exit takes ~0.1 s; a guest still running after this is hung.
const DEADLINE: Duration = Duration::from_secs(30);

/// Instructions `measure` counts besides the closure: the PMCNTENCLR write that stops the counters
/// (the PMCNTENSET write that starts them is not counted). Both states, every model.
const MEASURE_OVERHEAD: u64 = 1;
/// The same for hand-written assembly reading the counter before and after the work: the first
/// read itself.
const ASM_OVERHEAD: u64 = 1;

/// The loop `spin::<K>()` / `El0Task::Spin(K)` runs: `mov` + K x (`subs`, branch), or for the EL0
/// task K x (`subs`, branch) + `svc`.
const fn loop_len(k: u64) -> u64 {
    2 * k + 1
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Arch {
    A64,
    A32,
}

impl Arch {
    fn name(self) -> &'static str {
        match self {
            Arch::A64 => "aarch64",
            Arch::A32 => "aarch32",
        }
    }
    fn qemu(self) -> &'static str {
        match self {
            Arch::A64 => "qemu-system-aarch64",
            Arch::A32 => "qemu-system-arm",
        }
    }
    /// The Rust target its firmware builds for (`.cargo/config.toml`).
    fn target(self) -> &'static str {
        match self {
            Arch::A64 => "aarch64-unknown-none",
            Arch::A32 => "armv7a-none-eabi",
        }
    }
    fn crate_dir(self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("qemu")
            .join(self.name())
    }
    fn bin(self) -> &'static str {
        match self {
            Arch::A64 => "pmu-tests-aarch64",
            Arch::A32 => "pmu-tests-aarch32",
        }
    }
}

/// What QEMU 7.2 implements for one CPU model (measured on Debian's `qemu-system-arm` 7.2, versions
/// included).
#[derive(Clone, Copy, Debug)]
struct Cpu {
    arch: Arch,
    name: &'static str,
    pmcr: u64,
    n: u64,
    /// 0xMm for PMUvM.m: ID_AA64DFR0_EL1.PMUVer / ID_DFR0.PerfMon as the driver decodes it.
    version: u64,
    /// PMCEID0/1; `None` where the driver does not read them (Armv7 PMUv2: Undefined in QEMU).
    pmceid: Option<(u64, u64)>,
    /// MIDR as QEMU 7.2 presents it.
    midr: u64,
    /// The core Arm's data names for that MIDR, with the file of its events; `None` for the
    /// AArch64 `max`, whose MIDR (implementer 0) names no core.
    core: Option<(&'static str, &'static str)>,
}

const CPUS: [Cpu; 6] = [
    Cpu {
        arch: Arch::A64,
        name: "cortex-a53",
        pmcr: 0x4103_3000,
        n: 6,
        version: 0x30,
        pmceid: Some((0x20101, 0)),
        midr: 0x410F_D034,
        core: Some(("Cortex-A53", "cortex-a53")),
    },
    Cpu {
        arch: Arch::A64,
        name: "cortex-a72",
        pmcr: 0x4102_3000,
        n: 6,
        version: 0x30,
        pmceid: Some((0x20101, 0)),
        midr: 0x410F_D083,
        core: Some(("Cortex-A72", "cortex-a72")),
    },
    Cpu {
        arch: Arch::A64,
        name: "max",
        pmcr: 0x4101_3000,
        n: 6,
        // QEMU 7.2's `max` has FEAT_PMUv3p5 (PMUVer 6).
        version: 0x35,
        pmceid: Some((0x20101, 0x1000_0018)),
        // Implementer 0 ("reserved for software use"), part 0x051: no core of Arm's data.
        midr: 0x000F_0510,
        core: None,
    },
    Cpu {
        arch: Arch::A32,
        name: "cortex-a15",
        pmcr: 0x410f_3000,
        n: 6,
        // ID_DFR0.PerfMon 2: an Armv7 PMUv2.
        version: 0x20,
        pmceid: None,
        midr: 0x414F_C0F0,
        core: Some(("Cortex-A15", "cortex-a15")),
    },
    Cpu {
        arch: Arch::A32,
        name: "cortex-a7",
        pmcr: 0x4107_2000,
        n: 4,
        version: 0x20,
        pmceid: None,
        midr: 0x410F_C075,
        core: Some(("Cortex-A7", "cortex-a7")),
    },
    Cpu {
        arch: Arch::A32,
        name: "max",
        pmcr: 0x4101_3000,
        n: 6,
        version: 0x35,
        pmceid: Some((0x20101, 0x1000_0018)),
        // QEMU's AArch32 `max` presents a Cortex-A57 r1p0.
        midr: 0x411F_D070,
        core: Some(("Cortex-A57", "cortex-a57")),
    },
];

/// One boot: a test on a CPU model with machine options.
#[derive(Clone, Debug)]
struct Run {
    test: &'static str,
    cpu: Cpu,
    machine: &'static str,
}

fn runs() -> Vec<Run> {
    let mut runs = Vec::new();
    for cpu in CPUS {
        let mut add = |test, machine| runs.push(Run { test, cpu, machine });
        for test in [
            "discover",
            "inst_retired",
            "sw_incr",
            "filter_el1",
            "el0",
            "timer",
            "errors",
            "detect",
            "mux",
            "mux_timer",
            "rotate_cost",
            "drop_then_session",
        ] {
            add(test, "virt");
        }
        for machine in ["virt", "virt,gic-version=3"] {
            add("overflow", machine);
            add("sampling", machine);
        }
        match cpu.arch {
            Arch::A64 => {
                add("pmu_sequence", "virt");
                add("boot", "virt,virtualization=on");
                add("boot", "virt,secure=on");
                add("boot", "virt,secure=on,virtualization=on");
            }
            Arch::A32 => add("mrrc_trap", "virt"),
        }
    }
    runs
}

/// The bring-up runs (`bringup_under_qemu`): the AArch64 models, started at EL3 (with and without
/// EL2) and at EL2, on a GICv3 so the timer interrupt goes through the system-register CPU
/// interface.
fn bringup_runs() -> Vec<Run> {
    let mut runs = Vec::new();
    for cpu in CPUS.into_iter().filter(|cpu| cpu.arch == Arch::A64) {
        for machine in [
            "virt,secure=on,virtualization=on,gic-version=3",
            "virt,secure=on,gic-version=3",
            "virt,virtualization=on,gic-version=3",
        ] {
            runs.push(Run {
                test: "bringup",
                cpu,
                machine,
            });
        }
    }
    runs
}

// ---------------------------------------------------------------------------------------------
// Expected values
// ---------------------------------------------------------------------------------------------

/// The values a run reported, consumed as they are checked.
struct Values {
    map: BTreeMap<String, u64>,
    texts: BTreeMap<String, String>,
    problems: Vec<String>,
}

impl Values {
    fn take(&mut self, key: &str) -> Option<u64> {
        let v = self.map.remove(key);
        if v.is_none() {
            self.problems.push(format!("{key}: not reported"));
        }
        v
    }

    fn expect(&mut self, key: &str, want: u64) {
        if let Some(got) = self.take(key) {
            if got != want {
                self.problems.push(format!(
                    "{key} = {got} ({got:#x}), expected {want} ({want:#x})"
                ));
            }
        }
    }

    fn expect_text(&mut self, key: &str, want: &str) {
        match self.texts.remove(key) {
            Some(got) if got == want => {}
            Some(got) => self
                .problems
                .push(format!("{key} = {got:?}, expected {want:?}")),
            None => self.problems.push(format!("{key}: not reported")),
        }
    }

    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.problems.push(what());
        }
    }

    /// A 128-bit value reported as `<key>_lo_<i>` and `<key>_hi_<i>`.
    fn take_u128(&mut self, key: &str, i: usize) -> Option<u128> {
        let lo = self.take(&format!("{key}_lo_{i}"))?;
        let hi = self.take(&format!("{key}_hi_{i}"))?;
        Some(u128::from(hi) << 64 | u128::from(lo))
    }
}

fn check(run: &Run, v: &mut Values) {
    let cpu = run.cpu;
    let a64 = cpu.arch == Arch::A64;
    match run.test {
        "discover" => {
            v.expect("pmcr", cpu.pmcr);
            v.expect("n", cpu.n);
            v.expect("version", cpu.version);
            // AArch32 reaches the cycle counter with the 32-bit MRC (the 64-bit MRRC is Undefined
            // in QEMU 7.2), so the driver makes it overflow at 32 bits.
            v.expect("cycle_bits", if a64 { 64 } else { 32 });
            match cpu.pmceid {
                Some((p0, p1)) => {
                    v.expect("events_known", 1);
                    v.expect("pmceid0", p0);
                    v.expect("pmceid1", p1);
                }
                None => v.expect("events_known", 0),
            }
        }
        "inst_retired" => {
            v.expect("measure_empty", MEASURE_OVERHEAD);
            v.expect("measure_empty_cycles", MEASURE_OVERHEAD);
            v.expect("asm_empty", ASM_OVERHEAD);
            for k in [1, 100, 1000] {
                v.expect(&format!("measure_{k}"), loop_len(k) + MEASURE_OVERHEAD);
                // With -icount shift=0 a cycle is an instruction.
                v.expect(
                    &format!("measure_cycles_{k}"),
                    loop_len(k) + MEASURE_OVERHEAD,
                );
                v.expect(&format!("asm_{k}"), loop_len(k) + ASM_OVERHEAD);
            }
        }
        "sw_incr" => {
            v.expect("sw_7", 7);
            v.expect("frozen_sw", 7);
            v.expect("frozen_inst_delta", 0);
            v.expect("frozen_cycles_delta", 0);
            v.expect("sw_restarted", 8);
        }
        "filter_el1" => {
            v.expect("p1_instructions", 0);
            v.expect("p1_cycles", 0);
            v.expect("p0_instructions", loop_len(1000) + MEASURE_OVERHEAD);
            v.expect("p0_cycles", loop_len(1000) + MEASURE_OVERHEAD);
        }
        "el0" => {
            v.expect("userenr_en", 1);
            for k in [10, 1000] {
                // Only the EL0 task counts under P = 1: the loop and its `svc`.
                v.expect(&format!("el0_inst_{k}"), loop_len(k));
                v.expect(&format!("el0_traps_{k}"), 0);
            }
            v.expect("en_read_traps", 0);
            v.expect("noen_read_traps", 1);
            if a64 {
                // ESR_EL1: EC 0x18 (trapped MRS/MSR), IL, ISS = MRS x0, PMCCNTR_EL0
                // (Op0 3, Op2 0, Op1 3, CRn 9, Rt 0, CRm 13, read).
                let iss = 3 << 20 | 3 << 14 | 9 << 10 | 13 << 1 | 1;
                v.expect("noen_syndrome", 0x18 << 26 | 1 << 25 | iss);
                v.expect("noen_mode", 0);
            } else {
                // An Undefined Instruction exception from User mode, at MRC p15,0,r0,c9,c13,0.
                v.expect("noen_syndrome", 0xEE19_0F1D);
                v.expect("noen_mode", 0x10);
            }
        }
        "overflow" => {
            v.expect(
                "gic",
                if run.machine.contains("gic-version=3") {
                    3
                } else {
                    2
                },
            );
            v.expect("sw_irqs", 1);
            v.expect("intid", 23);
            v.expect("sw_total", 0xFFFF_FFFE + 5);
            v.expect("ovs_after", 0);
            let window = loop_len(1000) + MEASURE_OVERHEAD;
            v.expect("inst_control", window);
            v.expect("inst_wrap_irqs", 1);
            v.expect("inst_wrap_delta", window);
            v.expect("cycles_control", window);
            // 64-bit on AArch64 (PMCR.LC = 1): no overflow at 2^32; 32-bit on AArch32.
            v.expect("cycles_wrap_irqs", if a64 { 0 } else { 1 });
            v.expect("cycles_wrap_delta", window);
            v.expect("ovs_end", 0);
        }
        "sampling" => {
            v.expect("total", 35);
            v.expect("irqs", 3);
            v.expect("samples", 3);
            v.expect("dropped", 0);
            for i in 0..3 {
                v.expect(&format!("sample_total_{i}"), 10 * (i + 1));
                v.expect(&format!("sample_counter_{i}"), 0);
                v.expect(&format!("sample_pc_set_{i}"), 1);
            }
        }
        "timer" => check_timer(v),
        "errors" => {
            if cpu.pmceid.is_some() {
                // L1D_CACHE (0x04) is not in QEMU's PMCEID0.
                v.expect("l1d_cache", 2);
                v.expect("l1d_cache_1", 0x04);
            } else {
                // Without PMCEID the driver cannot tell, and accepts it.
                v.expect("l1d_cache", 0);
            }
            v.expect("chained", 2);
            v.expect("chained_1", 0x1E);
            v.expect("out_of_range", 4);
            v.expect("out_of_range_1", cpu.n);
            v.expect("out_of_range_2", cpu.n);
            v.expect("allocated", cpu.n);
            v.expect("exhausted", 3);
            v.expect("cycles_swinc_wrong_kind", 1);
        }
        "boot" => {
            let el2 = run.machine.contains("virtualization=on");
            v.expect(
                "boot_el",
                if run.machine.contains("secure=on") {
                    3
                } else {
                    2
                },
            );
            v.expect("el", 1);
            // EL2 reserves the top two counters (MDCR_EL2.HPMN = N - 2): EL1 reads PMCR.N = 4.
            v.expect("el2_n", if el2 { cpu.n } else { 0 });
            v.expect("hpmn", if el2 { cpu.n - 2 } else { 0 });
            let n = if el2 { cpu.n - 2 } else { cpu.n };
            v.expect("n", n);
            v.expect("out_of_range", 4);
            v.expect("out_of_range_1", n);
            v.expect("out_of_range_2", n);
            v.expect("measure_empty", MEASURE_OVERHEAD);
            v.expect("measure_1000", loop_len(1000) + MEASURE_OVERHEAD);
            v.expect("p1_instructions", 0);
        }
        "pmu_sequence" => differential::check(&cpu, v),
        "bringup" => check_bringup(run, v),
        "detect" => check_detect(cpu, v),
        "mux" => check_mux(cpu, v),
        "mux_timer" => check_mux_timer(cpu, v),
        "rotate_cost" => check_rotate_cost(cpu, v),
        "drop_then_session" => {
            v.expect("measured", loop_len(100) + MEASURE_OVERHEAD);
            v.expect("counters", cpu.n);
        }
        "mrrc_trap" => {
            v.expect("mrrc_traps", 1);
            if let Some(insn) = v.take("mrrc_insn") {
                // MRRC p15, 0, <Rt>, <Rt2>, c9: cond 1100 0101 Rt2 Rt 1111 0000 1001.
                v.check(insn & 0x0FF0_0FFF == 0x0C50_0F09, || {
                    format!("mrrc_insn {insn:#010x} is not MRRC p15, 0, Rt, Rt2, c9")
                });
            }
            v.expect("mrrc_mode", 0x13);
            v.expect("cycle_bits", 32);
            let window = loop_len(1000) + MEASURE_OVERHEAD;
            v.expect("cycles_control", window);
            v.expect("cycles_wrap_delta", window);
            v.expect("traps_after_driver", 1);
        }
        other => v.problems.push(format!("no expectations for test {other}")),
    }
}

/// ID_AA64 fields `bringup` decodes through the generated enums (their raw values), as QEMU 7.2
/// presents each AArch64 model (measured on Debian's 7.2.22).
struct IdFields {
    /// ID_AA64DFR0_EL1.PMUVer: 1 = PMUv3, 6 = FEAT_PMUv3p5.
    pmuver: u64,
    /// ID_AA64PFR0_EL1.FP and AdvSIMD: 0 = implemented, 1 = with half precision.
    fp: u64,
    /// ID_AA64MMFR0_EL1.PARange: 2 = 40 bits, 4 = 44 bits, 6 = 52 bits (FEAT_LPA).
    parange: u64,
    /// ID_AA64MMFR0_EL1.TGran4: 0 = 4 KiB granule, 1 = with 52-bit addresses (FEAT_LPA2).
    tgran4: u64,
}

fn id_fields(cpu: Cpu) -> IdFields {
    match cpu.name {
        "cortex-a53" => IdFields {
            pmuver: 1,
            fp: 0,
            parange: 2,
            tgran4: 0,
        },
        "cortex-a72" => IdFields {
            pmuver: 1,
            fp: 0,
            parange: 4,
            tgran4: 0,
        },
        "max" => IdFields {
            pmuver: 6,
            fp: 1,
            parange: 6,
            tgran4: 1,
        },
        other => panic!("no ID fields for {other}"),
    }
}

fn check_bringup(run: &Run, v: &mut Values) {
    let cpu = run.cpu;
    let secure = run.machine.contains("secure=on");
    let el2 = run.machine.contains("virtualization=on");
    v.expect("boot_el", if secure { 3 } else { 2 });
    v.expect("current_el", 1);
    v.expect("midr_implementer", cpu.midr >> 24);
    // 0xD03 (Cortex-A53), 0xD08 (Cortex-A72), 0x051 (`max`).
    v.expect("midr_part", cpu.midr >> 4 & 0xFFF);
    // One CPU: affinity 0.0.0.0.
    v.expect("mpidr_aff", 0);
    let ids = id_fields(cpu);
    // `max` must have FEAT_PMUv3p5 or later; the exact value is QEMU 7.2's.
    if cpu.name == "max" {
        v.check(ids.pmuver >= 6, || "max: PMUVer below 6".into());
    }
    v.expect("pmuver", ids.pmuver);
    // QEMU hides EL2 and EL3 when the machine does not enable them; where present, all three
    // models have them in both states (2).
    v.expect("el2", if el2 { 2 } else { 0 });
    v.expect("el3", if secure { 2 } else { 0 });
    v.expect("fp", ids.fp);
    v.expect("advsimd", ids.fp);
    // The GICv3 system-register interface (gic-version=3).
    v.expect("gic", 1);
    v.expect("gic_version", 3);
    v.expect("parange", ids.parange);
    v.expect("tgran4", ids.tgran4);
    // `brk #0x42`: EC BRK64, the immediate in the ISS, a 32-bit instruction, ELR at the `brk`.
    v.expect("vbar_ok", 1);
    v.expect("esr_ec", 0x3C);
    v.expect("esr_iss", 0x42);
    v.expect("esr_il", 1);
    v.expect("brk_elr_ok", 1);
    v.expect("sctlr_m", 1);
    v.expect("sctlr_c", 1);
    v.expect("sctlr_i", 1);
    v.expect("mmu_readback_ok", 1);
    // One virtual timer interrupt (PPI 11), not before its compare value.
    v.expect("timer_irqs", 1);
    v.expect("timer_intid", 27);
    v.expect("timer_not_early", 1);
}

/// The cores whose events the firmware is built with (`tests/qemu/harness/Cargo.toml`).
const FIRMWARE_SETS: [&str; 4] = ["cortex-a53", "cortex-a72", "cortex-a15", "cortex-a7"];

/// Events with a code in one file of Arm's data, read here with serde_json.
fn arm_data_events(file: &str) -> Vec<u64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../descriptions/third-party/arm-data/pmu")
        .join(format!("{file}.json"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["code"].as_u64())
        .collect()
}

fn check_detect(cpu: Cpu, v: &mut Values) {
    v.expect("midr", cpu.midr);
    v.expect("implementer", cpu.midr >> 24);
    v.expect("part", cpu.midr >> 4 & 0xFFF);
    v.expect("n", cpu.n);
    v.expect("inst_retired_code", 0x08);
    // The event found by name at run time counts what the constant counts: the loop and the
    // three instructions between PMCR.E set and clear around it (the call of the loop and the
    // returns), as QEMU 7.2 counts them.
    v.expect("by_name", loop_len(1000) + 3);
    v.expect("by_constant", loop_len(1000) + 3);
    match cpu.core {
        Some((name, file)) => {
            v.expect("known", 1);
            v.expect_text("name", name);
            // Arm's data gives these cores the counter counts QEMU 7.2 gives them (PMCR.N).
            v.expect("expected_counters", cpu.n);
            if FIRMWARE_SETS.contains(&file) {
                v.expect("source", 1);
                v.expect("offered", arm_data_events(file).len() as u64);
            } else {
                // A core the firmware has no set for falls back to the common events.
                v.expect("source", 2);
                v.expect("offered", common_offered(cpu));
            }
        }
        None => {
            v.expect("known", 0);
            v.expect_text("name", "-");
            v.expect("expected_counters", 0xFF);
            v.expect("source", 2);
            v.expect("offered", common_offered(cpu));
        }
    }
}

/// The common Armv8 events whose PMCEID bit the model sets.
fn common_offered(cpu: Cpu) -> u64 {
    let (p0, p1) = cpu.pmceid.unwrap_or((0, 0));
    arm_data_events("common_armv8")
        .into_iter()
        .filter(|&code| match code {
            0..=0x1F => p0 >> code & 1 == 1,
            0x20..=0x3F => p1 >> (code - 0x20) & 1 == 1,
            _ => false,
        })
        .count() as u64
}

/// The multiplexing runs (`mux` and `mux_timer` in the harness): eleven events over a workload
/// of `chunks` of `spin::<iterations>()` and a software increment each.
#[derive(Clone, Copy)]
struct MuxWorkload {
    chunks: u64,
    iterations: u64,
}

/// `mux`: 48 chunks of `spin::<10000>()`, a rotation after each.
const MUX: MuxWorkload = MuxWorkload {
    chunks: 48,
    iterations: 10_000,
};
/// `mux_timer`: 4,800 chunks of `spin::<100>()`, rotated by the timer.
const MUX_TIMER: MuxWorkload = MuxWorkload {
    chunks: 4_800,
    iterations: 100,
};
/// At most this many instructions of each rotation (the call into `rotate` up to its PMCNTENCLR,
/// from its PMCNTENSET back to the workload) and of the workload's own loop land in the counted
/// windows besides the chunks; measured on QEMU 7.2: 35-38.
const MUX_EDGE: u64 = 64;

fn check_mux(cpu: Cpu, v: &mut Values) {
    v.expect("rotations", MUX.chunks);
    // A rotation after each chunk: the rotation period is a chunk, and the one increment of each
    // period is counted or not as a whole, so SW_INCR is off by at most one.
    let period = loop_len(MUX.iterations);
    check_mux_events(cpu, v, MUX, period, MUX_EDGE, |_, _| 1);
}

/// At most this many instructions of each timer interrupt land in the counted windows: the
/// exception entry and return, the GIC acknowledge and end, the hook, `rotate` outside its
/// stopped window, and the timer's re-arm. Measured on QEMU 7.2 as the estimates' excess over
/// the exact counts per interrupt: 111-112 (AArch32), 164 (AArch64).
const MUX_IRQ_EDGE: u64 = 256;

fn check_mux_timer(cpu: Cpu, v: &mut Values) {
    v.expect("cntfrq", 62_500_000);
    let (Some(tick), Some(irqs), Some(rotations)) =
        (v.take("tick"), v.take("timer_irqs"), v.take("rotations"))
    else {
        return;
    };
    // `-icount shift=0`: a nanosecond per instruction, 16 instructions per 62.5 MHz tick. The
    // period runs from each re-arm, at the end of the handler.
    let period = tick * 1_000_000_000 / 62_500_000;
    let Some(&inst) = v.map.get("exact_inst") else {
        return;
    };
    // Every interrupt came while the session counted, and rotated it once.
    v.check(rotations == irqs, || {
        format!("{rotations} rotations for {irqs} timer interrupts")
    });
    let expected = inst / period;
    v.check(irqs.abs_diff(expected) <= expected / 10 + 1, || {
        format!(
            "{irqs} timer interrupts over {inst} instructions with a {period}-instruction period"
        )
    });
    // SW_INCR comes every chunk, at a fixed place in it, while the timer cuts the run anywhere:
    // each window it counted in holds its share of increments give or take one, and there are
    // at most `irqs + 1` windows, so the estimate is off by at most that many increments scaled
    // by enabled / running.
    check_mux_events(
        cpu,
        v,
        MUX_TIMER,
        period,
        MUX_IRQ_EDGE,
        move |enabled, running| (irqs + 1) * enabled / running.max(1) + 1,
    );
}

/// Rotations `rotate_cost` times back to back, for each number of events.
const ROTATIONS: u64 = 64;
/// The most instructions one `rotate` may cost, whatever the number of events and counters (it
/// moves one counter on). Measured on QEMU 7.2: 166 (AArch64), 298 (AArch32: each counter access
/// selects the counter through PMSELR and puts the selection back).
const ROTATE_BUDGET: u64 = 400;

/// One `rotate` with 8, 10 and 16 events on the PMU's counters costs at most
/// [`ROTATE_BUDGET`] instructions, the same for every number of events.
fn check_rotate_cost(cpu: Cpu, v: &mut Values) {
    let mut costs = Vec::new();
    for n in [8, 10, 16] {
        v.expect(&format!("rotations_{n}"), ROTATIONS);
        v.expect(&format!("held_{n}"), cpu.n);
        let Some(cycles) = v.take(&format!("rotate_cycles_{n}")) else {
            continue;
        };
        let per = cycles / ROTATIONS;
        v.check(per <= ROTATE_BUDGET, || {
            format!("one rotate with {n} events costs {per} instructions (budget {ROTATE_BUDGET})")
        });
        costs.push(per);
    }
    v.check(costs.windows(2).all(|w| w[0] == w[1]), || {
        format!("rotate costs {costs:?} instructions for 8, 10 and 16 events: not one figure")
    });
    println!(
        "rotate on {} {}: {costs:?} instructions for 8, 10, 16 events",
        cpu.arch.name(),
        cpu.name
    );
}

/// The per-event checks of both multiplexing runs: every event QEMU implements is scaled and
/// within `exact × edge / period` of its exact count (the instructions each rotation adds to the
/// counted windows, over the rotation period; SW_INCR within `sw_slack(enabled, running)` more),
/// counted part of the time in proportion to its share of the counters; the others give no
/// number.
fn check_mux_events(
    cpu: Cpu,
    v: &mut Values,
    workload: MuxWorkload,
    period: u64,
    edge: u64,
    sw_slack: impl Fn(u64, u64) -> u64,
) {
    v.expect("counters", cpu.n);
    v.expect("exact_sw", workload.chunks);
    let (Some(inst), Some(cycles)) = (v.take("exact_inst"), v.take("exact_cycles")) else {
        return;
    };
    // With -icount shift=0 a cycle is an instruction; the chunks are the bulk of the count.
    v.check(inst == cycles, || {
        format!("exact_inst {inst} != exact_cycles {cycles}")
    });
    let work = workload.chunks * loop_len(workload.iterations);
    v.check(inst >= work && inst - work <= workload.chunks * 16, || {
        format!("exact_inst {inst}: the chunks alone are {work}")
    });
    let _ = v.take("cycles");
    let tolerance = |exact: u64| exact * edge / period;
    let pmceid = cpu.pmceid.is_some();
    // (exact figure, estimate tolerance) of the events the run implements, by index.
    let chunks = workload.chunks;
    let implemented = [inst, inst, inst, inst, chunks, chunks];
    // What the session schedules: every event PMCEID does not rule out.
    let scheduled = if pmceid { 7 } else { 11 };
    let share = cpu.n * 1000 / scheduled;
    for i in 0..11u64 {
        let key = |k: &str| format!("{k}_{i}");
        let (Some(state), Some(count), Some(estimate), Some(enabled), Some(running)) = (
            v.take(&key("state")),
            v.take(&key("count")),
            v.take(&key("estimate")),
            v.take(&key("enabled")),
            v.take(&key("running")),
        ) else {
            continue;
        };
        match implemented.get(i as usize) {
            Some(&exact) => {
                let tol = if i >= 4 {
                    sw_slack(enabled, running) + tolerance(exact)
                } else {
                    tolerance(exact)
                };
                v.check(state == 1, || {
                    format!("event {i}: state {state}, expected scaled (1)")
                });
                v.check(estimate.abs_diff(exact) <= tol, || {
                    format!("event {i}: estimate {estimate}, exact {exact}, tolerance {tol}")
                });
                v.check(count < exact, || {
                    format!("event {i}: counted {count} of {exact}: was it ever off?")
                });
                // Counted its share of the time, give or take a group.
                let permille = running * 1000 / enabled.max(1);
                v.check(permille.abs_diff(share) <= 1000 / scheduled, || {
                    format!("event {i}: counted {permille}‰ of the time, its share is {share}‰")
                });
            }
            // INST_RETIRED at EL0 only, while everything runs at EL1: a real zero where PMCEID
            // says INST_RETIRED counts; without PMCEID the driver cannot tell it from an event
            // the PMU does not implement, and gives no number.
            None if i == 6 => {
                if pmceid {
                    v.check(state == 1 && estimate == 0, || {
                        format!("event 6: state {state}, estimate {estimate}")
                    });
                } else {
                    v.check(state == 4, || {
                        format!("event 6: state {state}, expected none seen (4)")
                    });
                }
            }
            // L1D_CACHE, BR_MIS_PRED, MEM_ACCESS, BUS_ACCESS: QEMU does not implement them. With
            // PMCEID they are never scheduled; without, they are scheduled and report nothing.
            None => {
                let want = if pmceid { 3 } else { 4 };
                v.check(state == want && count == 0 && estimate == 0, || {
                    format!("event {i}: state {state} count {count}, expected state {want}")
                });
                if pmceid {
                    v.check(enabled == 0 && running == 0, || {
                        format!("event {i}: scheduled though unsupported")
                    });
                }
            }
        }
    }
}

fn check_timer(v: &mut Values) {
    v.expect("cntfrq", 62_500_000);
    v.expect("backwards", 0);
    v.expect("advanced", 1);
    v.expect("physical_not_behind", 1);
    if let (Some(first), Some(last)) = (v.take("ticks_first"), v.take("ticks_last")) {
        v.check(last > first, || {
            format!("CNTVCT went from {first} to {last}")
        });
    }
    // The host reference: exact 128-bit arithmetic, with a division.
    let exact = |ticks: u64, freq: u128| u128::from(ticks) * 1_000_000_000 / freq;
    for i in 0..4 {
        let (Some(ticks), Some(ns)) = (
            v.take(&format!("conv_ticks_{i}")),
            v.take_u128("conv_ns", i),
        ) else {
            continue;
        };
        // 62.5 MHz divides 10^9: the conversion is exact.
        let want = exact(ticks, 62_500_000);
        v.check(ns == want, || {
            format!("to_ns({ticks}) = {ns} at 62.5 MHz, expected {want}")
        });
    }
    for i in 0..2 {
        let (Some(ticks), Some(fast), Some(precise)) = (
            v.take(&format!("odd_ticks_{i}")),
            v.take_u128("odd_fast", i),
            v.take_u128("odd_exact", i),
        ) else {
            continue;
        };
        let want = exact(ticks, 19_200_000);
        v.check(precise == want, || {
            format!("to_ns_exact({ticks}) = {precise} at 19.2 MHz, expected {want}")
        });
        v.check(fast <= want && want - fast <= 1, || {
            format!("to_ns({ticks}) = {fast} at 19.2 MHz, not within 1 ns below {want}")
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Building and booting
// ---------------------------------------------------------------------------------------------

/// Fails the test, with what to do, if a QEMU binary is missing.
fn require_qemu(arch: Arch) {
    let qemu = arch.qemu();
    match Command::new(qemu).arg("--version").output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "`{qemu} --version` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => panic!(
            "{qemu} cannot run ({e}): the QEMU tests need it. Run `bash tests/qemu/install.sh`"
        ),
    }
}

/// Builds the firmware image for `arch`; its path.
fn build(arch: Arch) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // The image builds with its own settings (`.cargo/config.toml`: target, linker script), not
    // with whatever the outer cargo passed to this test.
    let out = Command::new(cargo)
        .current_dir(arch.crate_dir())
        .args([
            "build",
            "--release",
            "--message-format=json-render-diagnostics",
        ])
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "building the {} firmware failed (is the rustup target installed? tests/qemu/install.sh)",
        arch.name()
    );
    integration_tests::executable(&out.stdout, arch.bin())
        .unwrap_or_else(|| panic!("cargo did not report the {} image", arch.bin()))
}

/// What one boot gave.
struct Outcome {
    /// The exit status, or `None` when the deadline killed QEMU.
    status: Option<i32>,
    output: String,
    elapsed: Duration,
}

fn boot(run: &Run, image: &Path) -> Outcome {
    let start = Instant::now();
    let finished = integration_tests::run_with_deadline(
        Command::new(run.cpu.arch.qemu())
            .args(["-M", run.machine, "-cpu", run.cpu.name])
            .args(["-nographic", "-nic", "none", "-icount", "shift=0"])
            .args(["-semihosting-config", "enable=on,target=native"])
            .arg("-kernel")
            .arg(image)
            .args(["-append", &format!("test={}", run.test)]),
        DEADLINE,
    );
    Outcome {
        status: finished.status,
        output: finished.output,
        elapsed: start.elapsed(),
    }
}

/// The verdict on one boot: `Ok` or what went wrong.
fn judge(run: &Run, outcome: &Outcome) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    match outcome.status {
        Some(0) => {}
        Some(code) => problems.push(format!("exit status {code}")),
        None => problems.push(format!("killed after the {DEADLINE:?} deadline")),
    }
    let mut values = Values {
        map: BTreeMap::new(),
        texts: BTreeMap::new(),
        problems: Vec::new(),
    };
    for line in outcome.output.lines() {
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("value"), Some(key), Some(num)) => match num.parse() {
                Ok(n) => {
                    values.map.insert(key.to_string(), n);
                }
                Err(_) => problems.push(format!("unparsable line {line:?}")),
            },
            (Some("text"), Some(key), Some(text)) => {
                values.texts.insert(key.to_string(), text.to_string());
            }
            (Some("fail"), ..) => problems.push(format!("guest: {line}")),
            _ => {}
        }
    }
    if outcome.status == Some(0) {
        check(run, &mut values);
        for key in values.map.keys().chain(values.texts.keys()) {
            values
                .problems
                .push(format!("{key}: reported but not checked"));
        }
    }
    problems.extend(values.problems);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

#[test]
fn pmu_driver_under_qemu() {
    run_all(&[Arch::A64, Arch::A32], &runs());
}

/// `bringup` alone (`cargo test --test qemu -- bringup`): the AArch64 image's bring-up through
/// the generated `aarch64-sysregs` accessors.
#[test]
fn bringup_under_qemu() {
    run_all(&[Arch::A64], &bringup_runs());
}

/// Builds the images of `arches`, boots every run and checks what it reported.
fn run_all(arches: &[Arch], runs: &[Run]) {
    let started = Instant::now();
    for &arch in arches {
        require_qemu(arch);
        integration_tests::require_target(arch.target());
    }
    let images: BTreeMap<&str, PathBuf> = arches
        .iter()
        .map(|&arch| (arch.name(), build(arch)))
        .collect();
    let built = started.elapsed();

    // Boot the runs on as many threads as there are cores.
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(run) = runs.get(i) else { break };
                let outcome = boot(run, &images[run.cpu.arch.name()]);
                let verdict = judge(run, &outcome);
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, outcome, verdict));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, ..)| *i);

    println!();
    println!(
        "{:<8} {:<17} {:<11} {:<46} {:<6} {:>6}",
        "state", "test", "cpu", "machine", "result", "ms"
    );
    let mut failures = Vec::new();
    for (i, outcome, verdict) in &results {
        let run = &runs[*i];
        println!(
            "{:<8} {:<17} {:<11} {:<46} {:<6} {:>6}",
            run.cpu.arch.name(),
            run.test,
            run.cpu.name,
            run.machine,
            if verdict.is_ok() { "pass" } else { "FAIL" },
            outcome.elapsed.as_millis()
        );
        if let Err(problems) = verdict {
            failures.push(format!(
                "{} {} on {} ({}):\n    {}\n  guest output:\n{}",
                run.cpu.arch.name(),
                run.test,
                run.cpu.name,
                run.machine,
                problems.join("\n    "),
                outcome.output
            ));
        }
    }
    println!(
        "\n{} QEMU runs, {} failed; build {:.1} s, total (build + runs) {:.1} s",
        results.len(),
        failures.len(),
        built.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} QEMU runs failed:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}
