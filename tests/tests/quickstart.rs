//! The bare-metal quick start (`pmu-driver/examples/qemu-aarch64`, `qemu-aarch32`) as a user runs
//! it: the folder copied out of the repository, its two dependencies pointed at the crates here
//! by path, built with its own `.cargo/config.toml`, and booted with the exact QEMU command line
//! its runner gives, at every exception level the start-up code handles. What it prints is what
//! its README and the driver's documentation say it prints.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use integration_tests::{cargo_in, executable, root, run_with_deadline, scratch, target_subdir};

/// A guest still running after this is hung.
const DEADLINE: Duration = Duration::from_secs(30);

/// Copies the example `name` to a folder outside the repository, its dependencies by absolute
/// path, with the workspace's lock file so that the build resolves offline to the versions
/// tested here.
fn copy_out(name: &str) -> PathBuf {
    let from = root().join("pmu-driver/examples").join(name);
    let to = scratch(&format!("quickstart-{name}"));
    if to.exists() {
        std::fs::remove_dir_all(&to).expect("clear the previous copy");
    }
    copy_dir(&from, &to);
    let manifest = to.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).expect("the example's Cargo.toml");
    let repo = root();
    let text = text
        .replace(
            "path = \"../../../generated/",
            &format!("path = \"{}/generated/", repo.display()),
        )
        .replace(
            "path = \"../..\"",
            &format!("path = \"{}\"", repo.join("pmu-driver").display()),
        );
    assert!(!text.contains("\"../"), "a relative path is left:\n{text}");
    std::fs::write(&manifest, text).expect("write the Cargo.toml");
    std::fs::copy(repo.join("Cargo.lock"), to.join("Cargo.lock")).expect("copy Cargo.lock");
    to
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    for entry in std::fs::read_dir(from).expect("read the example") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().expect("a name");
        if name == "target" || name == "Cargo.lock" {
            continue;
        }
        if path.is_dir() {
            copy_dir(&path, &to.join(name));
        } else {
            std::fs::copy(&path, to.join(name)).expect("copy a file");
        }
    }
}

/// Builds the copy (`cargo build --release`, as the user's `cargo run --release` does) and
/// returns the program and the runner command line of its `.cargo/config.toml`.
fn build(dir: &Path, bin: &str) -> (PathBuf, Vec<String>) {
    let config: toml::Table = std::fs::read_to_string(dir.join(".cargo/config.toml"))
        .expect("the example's .cargo/config.toml")
        .parse()
        .expect("it is TOML");
    let target = config["build"]["target"].as_str().expect("build.target");
    let runner = config["target"][target]["runner"]
        .as_str()
        .expect("a runner");
    let runner: Vec<String> = runner.split_whitespace().map(String::from).collect();
    // What the user needs installed, each named with its install command before anything runs.
    integration_tests::require_target(target);
    integration_tests::require_program(&runner[0], "bash tests/qemu/install.sh");
    let out = cargo_in(dir)
        .args([
            "build",
            "--release",
            "--offline",
            "--message-format=json-render-diagnostics",
        ])
        .env("CARGO_TARGET_DIR", target_subdir("quickstart"))
        .env("RUSTFLAGS", "-D warnings")
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "building the quick start in {} failed",
        dir.display()
    );
    let program = executable(&out.stdout, bin)
        .unwrap_or_else(|| panic!("cargo did not name the {bin} program"));
    (program, runner)
}

/// Boots `program` with the runner's command line, the machine options replaced by `machine`.
fn boot(program: &Path, runner: &[String], machine: &str) -> String {
    let mut args = runner.to_vec();
    let m = args
        .iter()
        .position(|a| a == "-M")
        .expect("the runner names a machine");
    args[m + 1] = machine.to_string();
    let finished = run_with_deadline(
        Command::new(&args[0]).args(&args[1..]).arg(program),
        DEADLINE,
    );
    assert_eq!(
        finished.status,
        Some(0),
        "{} on {machine}: exit status {:?} (None: killed at the deadline)\n{}",
        program.display(),
        finished.status,
        finished.output
    );
    finished.output
}

/// The count on the line `<count>  <what>` of a measurement.
fn count(output: &str, what: &str) -> u64 {
    output
        .lines()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            let n = words.next()?.parse().ok()?;
            (words.next() == Some(what)).then_some(n)
        })
        .unwrap_or_else(|| panic!("no `{what}` count in:\n{output}"))
}

/// The line of the output that starts (after its padding) with `start`, without the padding.
fn line<'a>(output: &'a str, start: &str) -> &'a str {
    output
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?} in:\n{output}"))
}

/// The sum over 4,096 numbers: a load, an add, a compare and a branch each, give or take what
/// the compiler makes of the loop; exact under `-icount shift=0` (a cycle per instruction).
fn check_measurement(output: &str) {
    assert_eq!(line(output, "sum "), "sum 8386560");
    let (cycles, instructions) = (count(output, "cycles"), count(output, "instructions"));
    assert_eq!(cycles, instructions, "{output}");
    assert!((2 * 4096..6 * 4096).contains(&instructions), "{output}");
}

#[test]
fn the_aarch64_quick_start_runs_from_outside_the_workspace() {
    let dir = copy_out("qemu-aarch64");
    let (program, runner) = build(&dir, "pmu-quickstart-aarch64");
    // At EL1 (QEMU's default), and from EL2 and EL3 as boards start.
    for machine in ["virt", "virt,virtualization=on", "virt,secure=on"] {
        let out = boot(&program, &runner, machine);
        assert_eq!(line(&out, "Cortex-A53"), "Cortex-A53: PMUv3, 6 counters");
        // QEMU's PMCEID0 rules L1D_CACHE_REFILL out, and the error says so.
        assert_eq!(
            line(&out, "L1D_CACHE_REFILL (0x0003)"),
            "L1D_CACHE_REFILL (0x0003): PMCEID0 bit 3 is clear on this PMU"
        );
        check_measurement(&out);
        // The session the measurer left its counters to.
        assert_eq!(
            line(&out, "<not supported>  L1D_CACHE_REFILL"),
            "<not supported>  L1D_CACHE_REFILL         (not counted by this PMU: PMCEID0 bit 3 is clear)"
        );
        assert!(
            line(&out, "8 events on").starts_with("8 events on 6 counters"),
            "{out}"
        );
    }
}

#[test]
fn the_aarch32_quick_start_runs_from_outside_the_workspace() {
    let dir = copy_out("qemu-aarch32");
    let (program, runner) = build(&dir, "pmu-quickstart-aarch32");
    // In SVC mode (QEMU's default), and from Hyp mode.
    for machine in ["virt", "virt,virtualization=on"] {
        let out = boot(&program, &runner, machine);
        assert_eq!(line(&out, "Cortex-A15"), "Cortex-A15: PMUv2, 6 counters");
        check_measurement(&out);
        // No PMCEID: the refills are counted, read 0, and the zero is flagged.
        assert_eq!(
            line(&out, "0  L1D_CACHE_REFILL"),
            "0  L1D_CACHE_REFILL  (may not be real: the PMU has no PMCEID bit to say it counts this event)"
        );
        assert_eq!(
            line(&out, "8 events on"),
            "8 events on 6 counters, 64 rotations"
        );
    }
}
