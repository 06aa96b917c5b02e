//! The generated C headers (`generated/<crate>/include/<crate>/*.h`): every header of every crate
//! compiles, all in one translation unit, with the host's `gcc -std=c99 -Wall -Wextra -pedantic
//! -Werror` and with Debian's Arm cross compilers, where every `static inline` accessor is emitted
//! and its `mrs`/`msr`, `mrc`/`mcr`, `mrrc`/`mcrr` disassembled; and a C program run on the host
//! checks the masks, shifts, widths, enumerated values, reserved masks, resets, offsets and
//! addresses the headers define against the generated Rust crates (by probing their value types)
//! and against the IR of every description. A missing compiler fails the test with the package
//! to install (`bash tests/docs/install.sh` installs them all).
use armreg_rt::{Layout, Reset};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use armreg_codegen::ir::{FieldAccess, SysRegPath};
use armreg_codegen::pipeline::{self, Report};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The compiler `name` from `PATH`, or a failure naming the Debian package that brings it.
fn compiler(name: &str, package: &str) -> PathBuf {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "`{name}` is not installed: the C header tests need it. Run `bash tests/docs/install.sh` \
                 (or `apt-get install {package}`)"
            )
        })
}

/// Every generated header as (its include directory, the name to `#include`).
fn headers() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for krate in fs::read_dir(root().join("generated")).unwrap().flatten() {
        let include = krate.path().join("include");
        for dir in fs::read_dir(&include).into_iter().flatten().flatten() {
            for h in fs::read_dir(dir.path()).unwrap().flatten() {
                let name = format!(
                    "{}/{}",
                    dir.file_name().to_string_lossy(),
                    h.file_name().to_string_lossy()
                );
                out.push((include.clone(), name));
            }
        }
    }
    out.sort();
    out
}

fn include_flags() -> Vec<String> {
    let mut dirs: Vec<PathBuf> = headers().into_iter().map(|(d, _)| d).collect();
    dirs.dedup();
    dirs.iter().map(|d| format!("-I{}", d.display())).collect()
}

fn includes() -> String {
    headers()
        .iter()
        .map(|(_, h)| format!("#include <{h}>\n"))
        .collect()
}

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const STRICT: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"];

/// The headers' C spelling of a name (the sanitising the Rust names get, upper case).
fn c_name(name: &str) -> String {
    let s: String = name
        .replace("<n>", "")
        .chars()
        .map(|c| match c {
            '-' | '.' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// A field's mask, found by setting each bit of a raw value and asking the Rust getter whether
/// the field saw it: the generated value type's own idea of where the field is.
fn probe(bits: u32, getter: impl Fn(u64) -> u64) -> u64 {
    (0..bits)
        .filter(|b| getter(1 << b) != 0)
        .fold(0, |m, b| m | 1 << b)
}

/// Checks of a C expression against a value, as lines of the C program.
#[derive(Default)]
struct Checks(String);

impl Checks {
    fn num(&mut self, expr: &str, want: u64) {
        let _ = writeln!(
            self.0,
            "    check(\"{expr}\", (uint64_t)({expr}), UINT64_C({want:#x}));"
        );
    }
    fn text(&mut self, expr: &str, want: &str) {
        let _ = writeln!(self.0, "    check_text(\"{expr}\", {expr}, \"{want}\");");
    }
    /// A field read through its getter: mask and shift.
    fn field(&mut self, name: &str, bits: u32, getter: impl Fn(u64) -> u64) {
        let mask = probe(bits, getter);
        assert_ne!(mask, 0, "{name}: the probe found no bit");
        self.num(&format!("{name}_MASK"), mask);
        self.num(&format!("{name}_SHIFT"), mask.trailing_zeros().into());
        self.num(&format!("{name}_WIDTH"), mask.count_ones().into());
    }
}

/// Values read from the generated Rust crates, covering each crate with headers, both widths of
/// layout, fields above bit 31, write-only fields (by writing them), enumerated values,
/// reserved masks, resets, block offsets, strides, counts, instance bases and encodings.
fn rust_checks(c: &mut Checks) {
    use arm_pmuv3::{PmCounterMask, Pmccfiltr, Pmcr, Pmdevtype, Pmevtyper, Pmselr, Pmuserenr};
    macro_rules! get {
        ($name:literal, $ty:ty, $raw:ty, $field:ident) => {
            c.field($name, <$raw>::BITS, |b| {
                <$ty>::from_bits_retain(b as $raw).get(<$ty>::$field) as u64
            })
        };
    }
    get!("ARM_PMUV3_PMCR_E", Pmcr, u64, E);
    get!("ARM_PMUV3_PMCR_N", Pmcr, u64, N);
    get!("ARM_PMUV3_PMCR_IDCODE", Pmcr, u64, IDCODE);
    get!("ARM_PMUV3_PMCR_FZS", Pmcr, u64, FZS);
    get!("ARM_PMUV3_PMCR_LP", Pmcr, u64, LP);
    c.field(
        "ARM_PMUV3_PMCR_IMP",
        64,
        |b| match Pmcr::from_bits_retain(b).get(Pmcr::IMP) {
            Ok(v) => v.bits().into(),
            Err(raw) => raw.into(),
        },
    );
    // Write-1 actions have no getter: their setter shows where they are.
    c.num(
        "ARM_PMUV3_PMCR_P_MASK",
        Pmcr::from_bits_retain(0).with(Pmcr::P, true).bits(),
    );
    c.num(
        "ARM_PMUV3_PMCR_C_MASK",
        Pmcr::from_bits_retain(0).with(Pmcr::C, true).bits(),
    );
    c.num(
        "ARM_PMUV3_PMCR_IMP_ARM",
        arm_pmuv3::pmcr::Imp::Arm.bits().into(),
    );
    get!("ARM_PMUV3_PMEVTYPER_EVTCOUNT", Pmevtyper, u32, EVTCOUNT);
    get!("ARM_PMUV3_PMEVTYPER_P", Pmevtyper, u32, P);
    get!("ARM_PMUV3_PMEVTYPER_U", Pmevtyper, u32, U);
    get!("ARM_PMUV3_PMEVTYPER_NSH", Pmevtyper, u32, NSH);
    get!("ARM_PMUV3_PMEVTYPER_MT", Pmevtyper, u32, MT);
    get!("ARM_PMUV3_PMCCFILTR_P", Pmccfiltr, u32, P);
    get!("ARM_PMUV3_PMCCFILTR_NSH", Pmccfiltr, u32, NSH);
    get!("ARM_PMUV3_PM_COUNTER_MASK_C", PmCounterMask, u32, C);
    get!("ARM_PMUV3_PM_COUNTER_MASK_P30", PmCounterMask, u32, P30);
    get!("ARM_PMUV3_PMUSERENR_EN", Pmuserenr, u32, EN);
    get!("ARM_PMUV3_PMSELR_SEL", Pmselr, u32, SEL);
    c.num("ARM_PMUV3_PMCR_RES0", Pmcr::INFO.res0);
    c.num("ARM_PMUV3_PMCR_RES1", Pmcr::INFO.res1);
    c.num("ARM_PMUV3_PMDEVTYPE_RESET", Pmdevtype::RESET.bits().into());
    c.num(
        "ARM_PMUV3_PMDEVARCH_RESET",
        arm_pmuv3::Pmdevarch::RESET.bits().into(),
    );
    use arm_pmuv3::mmio::PmuExt32;
    // Offsets are the addresses of the registers of a block at 0 (never accessed).
    // SAFETY: no register of the block is read or written.
    let ext32 = unsafe { PmuExt32::new(0) };
    c.num("ARM_PMUV3_PMU_EXT32_SIZE", PmuExt32::SIZE as u64);
    c.num(
        "ARM_PMUV3_PMU_EXT32_PMCR_OFFSET",
        ext32.pmcr().addr() as u64,
    );
    c.num(
        "ARM_PMUV3_PMU_EXT32_PMCCNTR_OFFSET",
        ext32.pmccntr().addr() as u64,
    );
    c.num(
        "ARM_PMUV3_PMU_EXT32_PMEVTYPER_OFFSET",
        ext32.pmevtyper().at::<0>().addr() as u64,
    );
    c.num(
        "ARM_PMUV3_PMU_EXT32_PMEVTYPER_STRIDE",
        PmuExt32::PMEVTYPER_STRIDE as u64,
    );
    c.num(
        "ARM_PMUV3_PMU_EXT32_PMEVTYPER_COUNT",
        PmuExt32::PMEVTYPER_COUNT as u64,
    );
    c.text(
        "ARM_PMUV3_PMCCFILTR_EL0_ENCODING",
        &arm_pmuv3::aarch64::PMCCFILTR_EL0::PATH.to_string(),
    );
    c.text(
        "ARM_PMUV3_PMCCFILTR_ENCODING",
        &arm_pmuv3::aarch32::PMCCFILTR::PATH.to_string(),
    );
    c.num(
        "ARM_PMUV3_PMEVTYPER_EL0_COUNT",
        arm_pmuv3::aarch64::PMEVTYPER_EL0::COUNT as u64,
    );

    get!(
        "ARM_GENERIC_TIMER_REGS_CNTFRQ_CLOCKFREQ",
        arm_generic_timer_regs::Cntfrq,
        u64,
        CLOCKFREQ
    );
    c.num(
        "ARM_GENERIC_TIMER_REGS_CNTFRQ_RES0",
        arm_generic_timer_regs::Cntfrq::INFO.res0,
    );
    c.text(
        "ARM_GENERIC_TIMER_REGS_CNTVCT_ENCODING",
        &arm_generic_timer_regs::aarch32::CNTVCT::PATH.to_string(),
    );

    get!(
        "ARM_DSU_PMU_CLUSTERPMCR_N",
        arm_dsu_pmu::Clusterpmcr,
        u32,
        N
    );
    get!(
        "ARM_DSU_PMU_CLUSTERPMCR_IMP",
        arm_dsu_pmu::Clusterpmcr,
        u32,
        IMP
    );
    get!(
        "ARM_DSU_PMU_MMIO_DSU_PMCR_E",
        arm_dsu_pmu_mmio::DsuPmcr,
        u32,
        E
    );
    use arm_dsu_pmu_mmio::mmio::DsuPmuMmio;
    // SAFETY: as above, only addresses are taken.
    let dsu = unsafe { DsuPmuMmio::new(0) };
    c.num(
        "ARM_DSU_PMU_MMIO_DSU_PMU_MMIO_PMCNTENSET_OFFSET",
        dsu.pmcntenset().addr() as u64,
    );

    get!("TI_AM62L_PMU_PMCR_LC", ti_am62l_pmu::Pmcr, u32, LC);
    get!("TI_AM62L_PMU_PMCR_DP", ti_am62l_pmu::Pmcr, u32, DP);
    c.num(
        "TI_AM62L_PMU_PMU_CPU0_BASE",
        ti_am62l_pmu::mmio::PMU_CPU0_BASE as u64,
    );
    c.num(
        "TI_AM62L_PMU_PMU_CPU1_BASE",
        ti_am62l_pmu::mmio::PMU_CPU1_BASE as u64,
    );
    c.num(
        "TI_AM62L_PMU_PMU_PMEVCNTR1_OFFSET",
        // SAFETY: as above, only an address is taken.
        unsafe { ti_am62l_pmu::mmio::Pmu::new(0) }
            .pmevcntr1()
            .addr() as u64,
    );
}

/// Every field, enumerated value, reserved mask, offset and encoding of every description, as
/// its IR gives it.
fn ir_checks(c: &mut Checks) -> usize {
    let mut report = Report::default();
    let loaded = pipeline::load_manifest(
        &root().join("descriptions/manifest.toml"),
        false,
        &mut report,
    )
    .unwrap_or_else(|| panic!("the manifest does not load:\n{}", report.render()));
    let mut devices = 0;
    for l in &loaded {
        let d = &l.device;
        if d.layouts.is_empty() {
            continue;
        }
        devices += 1;
        let p = c_name(&d.name);
        for layout in &d.layouts {
            let ln = format!("{p}_{}", c_name(&layout.name));
            let mut res0 = 0;
            for f in &layout.fields {
                match f.access {
                    FieldAccess::Res0 => res0 |= f.mask(),
                    FieldAccess::Res1 => {}
                    _ => {
                        let fname = format!("{ln}_{}", c_name(&f.name));
                        c.num(&format!("{fname}_MASK"), f.mask());
                        c.num(&format!("{fname}_SHIFT"), f.lsb.into());
                        for e in &f.enums {
                            let v = c_name(&e.name);
                            let v = if ["SHIFT", "WIDTH", "MASK", "GET", "PREP"]
                                .contains(&v.as_str())
                            {
                                format!("{v}_")
                            } else {
                                v
                            };
                            c.num(&format!("{fname}_{v}"), e.value);
                        }
                    }
                }
            }
            c.num(&format!("{ln}_RES0"), res0);
            c.num(&format!("{ln}_WIDTH"), layout.width.into());
        }
        for r in &d.sysregs {
            let encoding = r.path.to_string();
            c.text(&format!("{p}_{}_ENCODING", c_name(&r.name)), &encoding);
            if matches!(r.path, SysRegPath::A32Wide { .. }) {
                assert!(encoding.starts_with('p'));
            }
        }
        for b in &d.blocks {
            let bn = format!("{p}_{}", c_name(&b.name));
            c.num(&format!("{bn}_SIZE"), b.size);
            for r in &b.registers {
                c.num(&format!("{bn}_{}_OFFSET", c_name(&r.name)), r.offset);
            }
        }
        for i in &d.instances {
            c.num(&format!("{p}_{}_BASE", c_name(&i.name)), i.base);
        }
    }
    devices
}

const CHECK_MAIN: &str = r#"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static unsigned checks, failures;

static void check(const char *what, uint64_t c, uint64_t want)
{
    checks++;
    if (c != want) {
        failures++;
        printf("MISMATCH %s: the header says %#" PRIx64 ", expected %#" PRIx64 "\n", what, c, want);
    }
}

static void check_text(const char *what, const char *c, const char *want)
{
    checks++;
    if (strcmp(c, want) != 0) {
        failures++;
        printf("MISMATCH %s: the header says \"%s\", expected \"%s\"\n", what, c, want);
    }
}
"#;

#[test]
fn c_headers_compile_on_the_host_and_agree_with_rust() {
    let gcc = compiler("gcc", "gcc");
    let headers = headers();
    assert!(
        headers.len() >= 10,
        "expected the generated crates' headers, found {headers:?}"
    );
    let mut checks = Checks::default();
    rust_checks(&mut checks);
    let devices = ir_checks(&mut checks);
    assert!(devices >= 5, "only {devices} descriptions with layouts");

    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("checks.c");
    fs::write(
        &source,
        format!(
            "{}{CHECK_MAIN}\nint main(void)\n{{\n{}    printf(\"%u checks, %u mismatches\\n\", checks, failures);\n    return failures != 0;\n}}\n",
            includes(),
            checks.0
        ),
    )
    .unwrap();
    let exe = dir.path().join("checks");
    run(Command::new(&gcc)
        .args(STRICT)
        .args(include_flags())
        .arg(&source)
        .arg("-o")
        .arg(&exe));
    let out = Command::new(&exe).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "the C headers disagree with the Rust crates or the IR:\n{stdout}"
    );
    assert!(stdout.contains(" 0 mismatches"), "{stdout}");
}

/// Compiles every header for an Arm target with every accessor emitted, and returns the
/// disassembly.
fn cross_compile(cc: &str, package: &str, objdump: &str, extra: &[&str]) -> String {
    let cc = compiler(cc, package);
    let objdump = compiler(objdump, &package.replace("gcc-", "binutils-"));
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("headers.c");
    fs::write(&source, includes()).unwrap();
    let object = dir.path().join("headers.o");
    // Freestanding: these compilers come without a C library, and the headers are for firmware
    // and kernels anyway. `-fkeep-inline-functions` emits every `static inline` accessor, so the
    // assembler sees every instruction the headers spell.
    run(Command::new(&cc)
        .args(STRICT)
        .args(["-O2", "-ffreestanding", "-fkeep-inline-functions", "-c"])
        .args(extra)
        .args(include_flags())
        .arg(&source)
        .arg("-o")
        .arg(&object));
    run(Command::new(&objdump).arg("-d").arg(&object))
}

/// The instructions of the function `name` in an objdump listing.
fn body<'a>(listing: &'a str, name: &str) -> &'a str {
    let start = listing
        .find(&format!("<{name}>:"))
        .unwrap_or_else(|| panic!("`{name}` is not in the object"));
    let rest = &listing[start..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

#[test]
fn c_headers_compile_for_aarch64_with_mrs_msr() {
    let listing = cross_compile(
        "aarch64-linux-gnu-gcc",
        "gcc-aarch64-linux-gnu",
        "aarch64-linux-gnu-objdump",
        &[],
    );
    let read = body(&listing, "arm_pmuv3_pmccfiltr_el0_read");
    assert!(read.contains("mrs\tx0, pmccfiltr_el0"), "{read}");
    let write = body(&listing, "arm_pmuv3_pmcr_el0_write");
    assert!(write.contains("msr\tpmcr_el0, x0"), "{write}");
    let timer = body(&listing, "arm_generic_timer_regs_cntvct_el0_read");
    assert!(timer.contains("mrs\tx0, cntvct_el0"), "{timer}");
    // An array: one instruction per element behind a switch on the index.
    let array = body(&listing, "arm_pmuv3_pmevtyper_el0_write");
    assert!(array.contains("pmevtyper30_el0"), "{array}");
    let mmio = body(&listing, "arm_pmuv3_pmu_ext32_pmcr_read");
    assert!(mmio.contains("ldr\tw0, [x0, #3588]"), "{mmio}");
}

#[test]
fn c_headers_compile_for_aarch32_with_mrc_mcr_mrrc() {
    let listing = cross_compile(
        "arm-linux-gnueabihf-gcc",
        "gcc-arm-linux-gnueabihf",
        "arm-linux-gnueabihf-objdump",
        &["-marm"],
    );
    let read = body(&listing, "arm_pmuv3_pmccfiltr_read");
    assert!(read.contains("mrc\t15, 0, r0, cr14, cr15, {7}"), "{read}");
    let write = body(&listing, "arm_pmuv3_pmcr_write");
    assert!(write.contains("mcr\t15, 0, r0, cr9, cr12, {0}"), "{write}");
    let wide = body(&listing, "arm_generic_timer_regs_cntvct_read");
    assert!(wide.contains("mrrc\t15, 1, r0, r1, cr14"), "{wide}");
}
