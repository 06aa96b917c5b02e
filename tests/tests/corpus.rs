//! Real register descriptions written by others, end to end.
//!
//! Each input goes through `armreg-codegen generate` in lenient mode (vendor defects are repaired
//! with warnings), into a folder outside the repository, as a user would run it; every generated
//! crate must then pass `cargo clippy -- -D warnings` for the host, `aarch64-unknown-none` and
//! `thumbv7em-none-eabihf` as it is (its `armreg-rt` dependency found by the path the generator
//! wrote). For the largest file (nrf52840) the test also prints the generation's wall time and
//! peak memory, the generated lines, and the release build time of the crate.
//!
//! The inputs: the two CMSIS-SVD files the repository carries (`descriptions/third-party/`), and
//! Linux's `arch/arm64/tools/sysreg`, which it may not carry (GPL-2.0): `tests/linux/extract.sh`
//! extracts it from Debian's `linux-source-6.12` into `target/linux-6.12/`. A missing input is a
//! failure, not a skip: this test exists to prove the toolchain on those files.
//!
//! The crates are written to `armreg-corpus-<hash of the checkout's path>/` in the system's
//! temporary folder, outside any workspace as a user's would be, and share one target directory,
//! `target/corpus`, so the runtime is built once per target; as the generator rewrites only files
//! whose content changes, a second run rebuilds nothing that did not change. The targets of a
//! crate are checked at the same time (cargo locks each target's build directory separately).
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// (path under the repository, crate name)
const INPUTS: &[(&str, &str)] = &[
    (
        "descriptions/third-party/cmsis-svd-data/RaspberryPi/rp2040.svd",
        "rp2040",
    ),
    (
        "descriptions/third-party/cmsis-svd-data/Nordic/nrf52840.svd",
        "nrf52840",
    ),
    ("target/linux-6.12/arch/arm64/tools/sysreg", "linux-sysreg"),
];

/// The largest input, measured in detail.
const LARGEST: &str = "nrf52840";

const TARGETS: [Option<&str>; 3] = [
    None,
    Some("aarch64-unknown-none"),
    Some("thumbv7em-none-eabihf"),
];

/// Runs `cmd` to completion; returns its output, wall time and peak resident memory in KiB
/// (from the kernel's accounting of the reaped child).
fn run_measured(cmd: &mut Command) -> (Output, Duration, u64) {
    use std::io::Read;
    let started = Instant::now();
    // Reaped with `wait4` below, which also gives its resource use.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    // Read both pipes while the child runs, so that a full pipe cannot stall it.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let mut err = Vec::new();
    let _ = stderr.read_to_end(&mut err);
    let out = out_reader.join().unwrap_or_default();
    let mut status = 0;
    // SAFETY: `rusage` is plain integers, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: `pid` is our own child, not yet reaped (`child.wait()` is never called), and both
    // pointers are to live locals of the right types.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    assert_eq!(reaped, pid, "wait4 on the child failed");
    let status = std::os::unix::process::ExitStatusExt::from_raw(status);
    (
        Output {
            status,
            stdout: out,
            stderr: err,
        },
        elapsed,
        usage.ru_maxrss.max(0) as u64,
    )
}

/// `cargo <args>` in the generated crate `dir`, with the corpus target directory and none of the
/// outer build's flags.
fn cargo_in(dir: &Path, target_dir: &Path, args: &[&str]) -> Command {
    let mut cmd = integration_tests::cargo_in(dir);
    cmd.args(args).env("CARGO_TARGET_DIR", target_dir);
    cmd
}

fn lines_in(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            n += lines_in(&path);
        } else if path.extension().is_some_and(|e| e == "rs") {
            n += std::fs::read_to_string(&path).map_or(0, |t| t.lines().count());
        }
    }
    n
}

fn tail(text: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(text);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

struct Row {
    name: &'static str,
    file: PathBuf,
    warnings: usize,
    lines: usize,
    gen_time: Duration,
    gen_kib: u64,
    /// Per target: passed, time.
    checks: Vec<(bool, Duration)>,
}

#[test]
fn corpus_generates_crates_that_build_warning_free() {
    for target in TARGETS.into_iter().flatten() {
        integration_tests::require_target(target);
    }
    let root = integration_tests::root();
    let missing: Vec<&str> = INPUTS
        .iter()
        .map(|(input, _)| *input)
        .filter(|input| !root.join(input).is_file())
        .collect();
    assert!(
        missing.is_empty(),
        "inputs are missing: {missing:?}. The Linux file comes from Debian's linux-source-6.12: \
         run `bash tests/linux/extract.sh`. This test proves the toolchain on these files and fails \
         rather than pass without them."
    );
    let target_dir = integration_tests::target_subdir("corpus");
    let codegen = integration_tests::codegen_binary();
    let tree = integration_tests::scratch("corpus");
    std::fs::create_dir_all(&tree).expect("the temporary folder is writable");
    let mut failures = Vec::new();
    let mut rows = Vec::new();
    for &(input, name) in INPUTS {
        let file = root.join(input);
        let out_dir = tree.join(name);
        let (out, gen_time, gen_kib) = run_measured(
            Command::new(&codegen)
                .current_dir(&root)
                .arg("generate")
                .arg(&file)
                .arg("-o")
                .arg(&out_dir),
        );
        if !out.status.success() {
            failures.push(format!(
                "codegen generate {} failed:\n{}",
                file.display(),
                tail(&out.stderr, 60)
            ));
            continue;
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        rows.push(Row {
            name,
            file,
            warnings: stderr.lines().filter(|l| l.starts_with("warning[")).count(),
            lines: lines_in(&out_dir),
            gen_time,
            gen_kib,
            checks: Vec::new(),
        });
    }
    for row in &mut rows {
        let out_dir = tree.join(row.name);
        let checks: Vec<(bool, Duration, Output)> = std::thread::scope(|s| {
            let handles: Vec<_> = TARGETS
                .iter()
                .map(|target| {
                    let (out_dir, target_dir) = (&out_dir, &target_dir);
                    s.spawn(move || {
                        let mut args = vec!["clippy", "--quiet", "--offline"];
                        if let Some(t) = target {
                            args.extend(["--target", t]);
                        }
                        args.extend(["--", "-D", "warnings"]);
                        let started = Instant::now();
                        let out = cargo_in(out_dir, target_dir, &args)
                            .output()
                            .expect("cargo runs");
                        (out.status.success(), started.elapsed(), out)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("the check thread finishes"))
                .collect()
        });
        for (target, (ok, _, out)) in TARGETS.iter().zip(&checks) {
            if !ok {
                failures.push(format!(
                    "`cargo clippy -- -D warnings` of the crate generated from {} failed for {}:\n{}",
                    row.file.display(),
                    target.unwrap_or("the host"),
                    tail(&out.stderr, 60)
                ));
            }
        }
        row.checks = checks.into_iter().map(|(ok, t, _)| (ok, t)).collect();
    }

    let mut report = String::from(
        "\ncorpus (codegen in the dev profile; clippy for the host and both Arm targets at once)\n\
         file            warnings    lines   gen s  gen MiB  host  aarch64  thumbv7em  clippy s\n",
    );
    for r in &rows {
        let mark = |i: usize| match r.checks.get(i) {
            Some((true, _)) => "ok",
            Some((false, _)) => "FAIL",
            None => "-",
        };
        let clippy = r.checks.iter().map(|c| c.1).max().unwrap_or_default();
        let _ = writeln!(
            report,
            "{:<15} {:>8} {:>8} {:>7.2} {:>8.0}  {:<4}  {:<7}  {:<9}  {:>8.1}",
            r.name,
            r.warnings,
            r.lines,
            r.gen_time.as_secs_f64(),
            r.gen_kib as f64 / 1024.0,
            mark(0),
            mark(1),
            mark(2),
            clippy.as_secs_f64()
        );
    }
    if let Some(r) = rows.iter().find(|r| r.name == LARGEST) {
        let dir = tree.join(LARGEST);
        // Measured from scratch every time (the runtime stays built).
        let _ = cargo_in(
            &dir,
            &target_dir,
            &["clean", "--release", "--quiet", "-p", LARGEST],
        )
        .output();
        let started = Instant::now();
        let out = cargo_in(
            &dir,
            &target_dir,
            &["build", "--release", "--quiet", "--offline"],
        )
        .output()
        .expect("cargo runs");
        let release = started.elapsed();
        if !out.status.success() {
            failures.push(format!(
                "the release build of {LARGEST} failed:\n{}",
                tail(&out.stderr, 60)
            ));
        }
        let _ = writeln!(
            report,
            "\n{LARGEST}: generation {:.2} s wall, peak memory {:.0} MiB, {} generated lines; release build of the crate {:.1} s",
            r.gen_time.as_secs_f64(),
            r.gen_kib as f64 / 1024.0,
            r.lines,
            release.as_secs_f64()
        );
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
