//! Cortex-M firmware on a generated crate with its `rt` feature, under QEMU's `microbit` machine
//! (an nRF51822: Cortex-M0, `thumbv6m-none-eabi`).
//!
//! The crate is generated from the vendored `nrf51.svd` into `tests/cortex-m/nrf51/` (not
//! committed), as a user would with `generate`; the firmware `tests/cortex-m/armreg/` depends on
//! it by path from outside this workspace with `features = ["rt", "cortex-m",
//! "critical-section", ...]`, so linking it proves that the crate's `__INTERRUPTS`, `device.x`
//! and build script work with cortex-m-rt's `link.x`. The firmware starts TIMER0, takes its
//! COMPARE[0] interrupt through `#[interrupt]` ten times, prints the count on the UART and exits
//! through semihosting; the test boots it and checks the line.
//!
//! The same program on `nrf51-pac` (svd2rust's crate, `tests/cortex-m/svd2rust/`) is built and
//! booted too, and the two `.text` sizes (and vector tables) compared: the generated crate may
//! cost at most 3 % more. Both are built `--locked` from the committed `tests/cortex-m/Cargo.lock`.
//! QEMU and the `thumbv6m-none-eabi` target are installed by `tests/qemu/install.sh` and
//! `tests/run.sh`; when either is missing the test fails.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use integration_tests::{cargo_in, codegen_binary, executable, root, run_with_deadline};

/// A boot, ten 1 ms interrupts and the exit take well under a second.
const DEADLINE: Duration = Duration::from_secs(30);
/// What the firmware prints: the ten interrupts it waited for, counted by the handler.
const LINE: &str = "timer0: 10 interrupts";

fn firmware_dir() -> PathBuf {
    root().join("tests/cortex-m")
}

/// Builds both firmwares in release; the executable of each package, by name.
fn build() -> Vec<(String, PathBuf)> {
    let out = cargo_in(&firmware_dir())
        .args([
            "build",
            "--release",
            "--locked",
            "--message-format=json-render-diagnostics",
        ])
        .env(
            "CARGO_TARGET_DIR",
            integration_tests::target_subdir("cortex-m"),
        )
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "building tests/cortex-m failed (is thumbv6m-none-eabi installed? `rustup target add thumbv6m-none-eabi`)"
    );
    ["timer-irq-armreg", "timer-irq-svd2rust"]
        .into_iter()
        .map(|name| {
            let exe = executable(&out.stdout, name)
                .unwrap_or_else(|| panic!("cargo names the {name} executable"));
            (name.to_string(), exe)
        })
        .collect()
}

/// The size of each named section of a 32-bit little-endian ELF file.
fn section_sizes(elf: &Path) -> Vec<(String, u32)> {
    let data = std::fs::read(elf).unwrap();
    assert_eq!(
        &data[..6],
        b"\x7fELF\x01\x01",
        "{}: not ELF32 LE",
        elf.display()
    );
    let u16_at = |at: usize| u16::from_le_bytes([data[at], data[at + 1]]) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
    let (shoff, shentsize, shnum, shstrndx) = (
        u32_at(0x20) as usize,
        u16_at(0x2E),
        u16_at(0x30),
        u16_at(0x32),
    );
    let header = |i: usize| shoff + i * shentsize;
    let strtab = u32_at(header(shstrndx) + 0x10) as usize;
    (0..shnum)
        .map(|i| {
            let name_at = strtab + u32_at(header(i)) as usize;
            let end = data[name_at..].iter().position(|&b| b == 0).unwrap();
            let name = String::from_utf8_lossy(&data[name_at..name_at + end]).into_owned();
            (name, u32_at(header(i) + 0x14))
        })
        .collect()
}

fn section(sizes: &[(String, u32)], name: &str) -> u32 {
    sizes
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no {name} section"))
        .1
}

#[test]
fn timer_interrupts_on_the_microbit() {
    if let Err(e) = Command::new("qemu-system-arm").arg("--version").output() {
        panic!("qemu-system-arm cannot run ({e}): install it with tests/qemu/install.sh");
    }
    // The crate, as `generate` writes it for a user.
    let krate = firmware_dir().join("nrf51");
    let run = Command::new(codegen_binary())
        .current_dir(root())
        .args([
            "generate",
            "descriptions/third-party/cmsis-svd-data/Nordic/nrf51.svd",
            "-o",
        ])
        .arg(&krate)
        .args(["--name", "nrf51", "--force"])
        .output()
        .expect("the generator runs");
    assert!(
        run.status.success(),
        "generate nrf51: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    // `rt` and `cortex-m` are off by default, and their crates optional: a crate not on
    // cortex-m-rt does not depend on it.
    let manifest: toml::Table = std::fs::read_to_string(krate.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let default = manifest["features"]["default"].as_array().unwrap();
    assert!(!default.iter().any(|f| f.as_str() == Some("rt")));
    for dep in ["cortex-m", "cortex-m-rt"] {
        assert_eq!(
            manifest["dependencies"][dep]["optional"].as_bool(),
            Some(true),
            "{dep} is not optional"
        );
    }
    let device_x = std::fs::read_to_string(krate.join("device.x")).unwrap();
    assert!(
        device_x.contains("PROVIDE(TIMER0 = DefaultHandler);"),
        "{device_x}"
    );

    let mut text = Vec::new();
    for (name, exe) in build() {
        let run = run_with_deadline(
            Command::new("qemu-system-arm")
                .args(["-M", "microbit", "-nographic", "-monitor", "none"])
                .args(["-semihosting-config", "enable=on,target=native"])
                .arg("-kernel")
                .arg(&exe),
            DEADLINE,
        );
        println!("{name}: {}", run.output.trim());
        assert_eq!(
            run.status,
            Some(0),
            "{name} did not exit through semihosting with success:\n{}",
            run.output
        );
        assert!(
            run.output.lines().any(|l| l.trim() == LINE),
            "{name} printed no `{LINE}`:\n{}",
            run.output
        );
        let sizes = section_sizes(&exe);
        text.push((
            name,
            section(&sizes, ".text"),
            section(&sizes, ".vector_table"),
        ));
    }
    let (ours, theirs) = (&text[0], &text[1]);
    println!(
        ".text: {} B on the generated crate, {} B on nrf51-pac; vector table {} B and {} B",
        ours.1, theirs.1, ours.2, theirs.2
    );
    // The same vector table: 16 exceptions and 26 interrupt entries (nRF51's highest is SWI5, 25),
    // each a word, with one reserved entry (5).
    assert_eq!(ours.2, theirs.2, "the vector tables differ in length");
    assert_eq!(ours.2, (16 + 26) * 4);
    assert!(
        u64::from(ours.1) * 100 <= u64::from(theirs.1) * 103,
        "the firmware on the generated crate has {} B of .text, on nrf51-pac {} B: more than 3 % more",
        ours.1,
        theirs.1
    );
}
