//! The command line end to end, in a scratch repository: regenerate, check for drift, determinism,
//! and that a failing run leaves what was written before untouched.
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GOOD: &str = r#"
[device]
name = "demo"
doc = "A demo device"

[[layout]]
name = "CTRL"
width = 32
fields = [
  { name = "EN", bits = "0", reset = 0 },
  { name = "MODE", bits = "3:1", reset = 2, enum = [
      { name = "OFF", value = 0 }, { name = "SLOW", value = 2 },
  ] },
]

[[sysreg]]
name = "CTRL_EL1"
layout = "CTRL"
a64 = "S3_0_C15_C0_0"

[[block]]
name = "REGS"
size = 0x100

[[block.register]]
name = "CTRL"
layout = "CTRL"
offset = 0x10
"#;

fn codegen(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
        .current_dir(root)
        .args(args)
        .output()
        .expect("codegen runs")
}

/// A scratch repository with a manifest naming `descriptions` (name, text) pairs.
fn repo(descriptions: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("descriptions")).unwrap();
    let mut manifest = String::new();
    for (name, text) in descriptions {
        fs::write(dir.path().join(format!("descriptions/{name}.toml")), text).unwrap();
        manifest.push_str(&format!(
            "[[crate]]\nname = \"{name}\"\ninputs = [\"{name}.toml\"]\nc_headers = true\nmodels = true\n\n"
        ));
    }
    fs::write(dir.path().join("descriptions/manifest.toml"), manifest).unwrap();
    dir
}

/// Every file under `dir` with its bytes, sorted.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn regenerate_check_and_drift() {
    let repo = repo(&[("demo", GOOD)]);
    let root = repo.path();

    let first = codegen(root, &[]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.contains("created"), "prints what it wrote: {stdout}");
    let generated = snapshot(&root.join("generated"));
    let names: Vec<_> = generated
        .iter()
        .map(|(p, _)| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "generated/demo/Cargo.toml",
            "generated/demo/README.md",
            "generated/demo/include/demo/aarch64.h",
            "generated/demo/include/demo/layouts.h",
            "generated/demo/include/demo/regs.h",
            "generated/demo/src/aarch64.rs",
            "generated/demo/src/diagrams.rs",
            "generated/demo/src/layouts/mod.rs",
            "generated/demo/src/lib.rs",
            "generated/demo/src/mmio/mod.rs",
            "generated/demo/src/mmio/regs.rs",
            "generated/demo/src/model/mod.rs",
            "generated/demo/src/model/regs.rs",
        ]
    );
    for (path, bytes) in &generated {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            text.lines().next().unwrap().contains("Do not edit"),
            "{} has no banner",
            path.display()
        );
    }

    // A second run is byte-identical and writes nothing.
    let second = codegen(root, &[]);
    assert!(second.status.success());
    assert!(String::from_utf8_lossy(&second.stdout).contains("nothing changed"));
    assert_eq!(snapshot(&root.join("generated")), generated);

    let check = codegen(root, &["--check"]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    // Editing a generated file is drift, named by --check; --check writes nothing.
    let edited = root.join("generated/demo/src/layouts/mod.rs");
    let mut text = fs::read_to_string(&edited).unwrap();
    text.push_str("// hand edit\n");
    fs::write(&edited, &text).unwrap();
    fs::write(root.join("generated/demo/src/extra.rs"), "// stray\n").unwrap();
    let check = codegen(root, &["--check"]);
    assert_eq!(check.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(
        stderr.contains("differs: ") && stderr.contains("generated/demo/src/layouts/mod.rs"),
        "{stderr}"
    );
    assert!(stderr.contains("generated/demo/src/extra.rs"), "{stderr}");
    assert_eq!(fs::read_to_string(&edited).unwrap(), text);

    // Regenerating repairs the drift.
    assert!(codegen(root, &[]).status.success());
    assert_eq!(snapshot(&root.join("generated")), generated);
}

#[test]
fn a_failing_run_writes_nothing() {
    let broken = GOOD.replace("bits = \"3:1\"", "bits = \"3:0\"");
    let repo = repo(&[("demo", GOOD)]);
    let root = repo.path();
    assert!(codegen(root, &[]).status.success());
    let before = snapshot(&root.join("generated"));

    // The description changes in a way that would change the output, and a second crate is
    // broken: the whole run fails and the first crate's old output stays as it was.
    let changed = GOOD.replace("A demo device", "A changed device");
    fs::write(root.join("descriptions/demo.toml"), changed).unwrap();
    fs::write(
        root.join("descriptions/other.toml"),
        broken.replace("\"demo\"", "\"other\""),
    )
    .unwrap();
    let manifest = root.join("descriptions/manifest.toml");
    let mut m = fs::read_to_string(&manifest).unwrap();
    m.push_str("[[crate]]\nname = \"other\"\ninputs = [\"other.toml\"]\n");
    fs::write(&manifest, m).unwrap();

    let run = codegen(root, &[]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("error[no_overlapping_fields]"), "{stderr}");
    assert!(stderr.contains("--> descriptions/other.toml:"), "{stderr}");
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert_eq!(snapshot(&root.join("generated")), before);
}

#[test]
fn generate_one_crate_without_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("demo.toml");
    fs::write(&input, GOOD).unwrap();
    let out = dir.path().join("out/demo-regs");
    let run = codegen(
        dir.path(),
        &["generate", "demo.toml", "-o", "out/demo-regs"],
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let cargo = fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert!(cargo.contains("name = \"demo-regs\""), "{cargo}");

    // A broken input leaves the existing crate as it was.
    let before = snapshot(&out);
    fs::write(&input, GOOD.replace("width = 32", "width = 33")).unwrap();
    let run = codegen(
        dir.path(),
        &["generate", "demo.toml", "-o", "out/demo-regs"],
    );
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("--> demo.toml:8:9"), "{stderr}");
    assert_eq!(snapshot(&out), before);
}

#[test]
fn dump_ir_is_deterministic_json() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("demo.toml"), GOOD).unwrap();
    let a = codegen(dir.path(), &["dump-ir", "demo.toml"]);
    let b = codegen(dir.path(), &["dump-ir", "demo.toml"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let json: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(json["layouts"][0]["fields"][1]["name"], "MODE");
    assert_eq!(json["layouts"][0]["fields"][1]["pos"]["line"], 11);
    assert_eq!(json["sysregs"][0]["path"]["kind"], "a64");
}

#[test]
fn missing_root_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let run = codegen(dir.path(), &[]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no descriptions/manifest.toml"));
}

#[test]
fn unknown_arch_std_event_names_file_and_position() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = codegen(dir, &["dump-ir", "tests/perf/arch/arm64/vendor/core"]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr
            .starts_with("error[arch_std_events_resolve]: unknown `ArchStdEvent` \"INST_RETIRD\""),
        "{stderr}"
    );
    assert!(
        stderr.contains("--> tests/perf/arch/arm64/vendor/core/pipeline.json:6:25"),
        "{stderr}"
    );
}

#[test]
fn a_core_folder_resolves_against_the_arch_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = tempfile::tempdir().unwrap();
    let core = fixture.path().join("arch/arm64/vendor/core");
    fs::create_dir_all(&core).unwrap();
    let src = dir.join("tests/perf/arch/arm64");
    fs::copy(
        src.join("common-and-microarch.json"),
        fixture.path().join("arch/arm64/common-and-microarch.json"),
    )
    .unwrap();
    fs::copy(
        src.join("mapfile.csv"),
        fixture.path().join("arch/arm64/mapfile.csv"),
    )
    .unwrap();
    fs::write(
        core.join("pipeline.json"),
        "[{\"ArchStdEvent\": \"CPU_CYCLES\"}, {\"ArchStdEvent\": \"INST_RETIRED\"}]",
    )
    .unwrap();
    let run = codegen(fixture.path(), &["dump-ir", "arch/arm64/vendor/core"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let events = json["events"].as_array().unwrap();
    let codes: Vec<_> = events
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["code"].as_u64().unwrap()))
        .collect();
    assert_eq!(codes, [("INST_RETIRED", 8), ("CPU_CYCLES", 0x11)]);
    assert_eq!(json["event_pmu"], "pmuv3");
}

#[test]
fn version_and_help_say_what_the_command_does() {
    let dir = tempfile::tempdir().unwrap();
    let version = codegen(dir.path(), &["--version"]);
    assert!(version.status.success());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("armreg-codegen {}", env!("CARGO_PKG_VERSION"))
    );
    let help = String::from_utf8_lossy(&codegen(dir.path(), &["--help"]).stdout).into_owned();
    assert!(
        help.contains(
            "With no subcommand, regenerates every crate that descriptions/manifest.toml lists"
        ),
        "{help}"
    );
    for sub in ["generate", "dump-ir", "doc"] {
        let out = codegen(dir.path(), &[sub, "--help"]);
        assert!(out.status.success(), "{sub} --help");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("Example") && text.contains(&format!("armreg-codegen {sub}")),
            "`{sub} --help` has no example:\n{text}"
        );
    }
}

/// The dependency line of `name` in a generated Cargo.toml.
fn dependency_line<'a>(cargo: &'a str, name: &str) -> &'a str {
    cargo
        .lines()
        .find(|l| l.starts_with(&format!("{name} = ")))
        .unwrap_or_else(|| panic!("no {name} dependency in:\n{cargo}"))
}

#[test]
fn generated_crates_depend_by_version_and_by_a_path_that_resolves() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("demo.toml"), GOOD).unwrap();
    let run = codegen(
        dir.path(),
        &["generate", "demo.toml", "-o", "deep/down/regs"],
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = dir.path().join("deep/down/regs");
    let cargo = fs::read_to_string(out.join("Cargo.toml")).unwrap();
    let line = dependency_line(&cargo, "armreg-rt");
    assert!(
        line.contains(&format!("version = \"{}\"", env!("CARGO_PKG_VERSION"))),
        "{line}"
    );
    // The path leads from the crate to the runtime of the tree the generator was built from.
    let path = line
        .split("path = \"")
        .nth(1)
        .unwrap()
        .trim_end_matches("\" }");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime");
    assert_eq!(
        out.join(path).canonicalize().unwrap(),
        runtime.canonicalize().unwrap(),
        "{line}"
    );

    // A version of one's choice, and a runtime elsewhere.
    let elsewhere = dir.path().join("vendor/armreg-rt");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::write(
        elsewhere.join("Cargo.toml"),
        "[package]\nname = \"armreg-rt\"\nversion = \"0.9.0\"\n",
    )
    .unwrap();
    let run = codegen(
        dir.path(),
        &[
            "generate",
            "demo.toml",
            "-o",
            "deep/down/regs",
            "--runtime-path",
            "vendor/armreg-rt",
            "--runtime-version",
            "0.9",
        ],
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let cargo = fs::read_to_string(out.join("Cargo.toml")).unwrap();
    assert_eq!(
        dependency_line(&cargo, "armreg-rt"),
        "armreg-rt = { version = \"0.9\", path = \"../../../vendor/armreg-rt\" }"
    );

    // A runtime path that holds no runtime is refused, naming the flag.
    let run = codegen(
        dir.path(),
        &["generate", "demo.toml", "-o", "x", "--runtime-path", "deep"],
    );
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("--runtime-path deep: no armreg-rt crate")
    );
    assert!(!dir.path().join("x").exists());
}

#[test]
fn generate_never_replaces_a_file_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("demo.toml"), GOOD).unwrap();
    // The user's own crate, and the crate generated into it.
    let krate = dir.path().join("mine");
    fs::create_dir_all(krate.join("src")).unwrap();
    fs::write(krate.join("Cargo.toml"), "[package]\nname = \"mine\"\n").unwrap();
    fs::write(krate.join("src/lib.rs"), "// my code\n").unwrap();
    fs::write(krate.join("notes.txt"), "mine too\n").unwrap();
    let before = snapshot(&krate);
    let run = codegen(&krate, &["generate", "../demo.toml", "-o", "."]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("refusing to replace 2 file(s) the generator did not write")
            && stderr.contains("./Cargo.toml")
            && stderr.contains("./src/lib.rs")
            && stderr.contains("--force"),
        "{stderr}"
    );
    assert_eq!(snapshot(&krate), before, "a refused run changes nothing");

    // With --force the two are replaced; the user's other files stay.
    let run = codegen(&krate, &["generate", "../demo.toml", "-o", ".", "--force"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let cargo = fs::read_to_string(krate.join("Cargo.toml")).unwrap();
    assert!(
        cargo.contains("name = \"mine\""),
        "named after the folder: {cargo}"
    );
    assert_eq!(
        fs::read_to_string(krate.join("notes.txt")).unwrap(),
        "mine too\n"
    );

    // Regenerating over its own output needs no --force, and removes only its own stale files.
    fs::write(
        krate.join("src/stale.rs"),
        "// Generated by armreg-codegen from old.toml. Do not edit.\n",
    )
    .unwrap();
    let run = codegen(&krate, &["generate", "../demo.toml", "-o", "."]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!krate.join("src/stale.rs").exists());
    assert!(krate.join("notes.txt").exists());
}

#[test]
fn explain_tells_what_a_rule_checks() {
    let dir = tempfile::tempdir().unwrap();
    // One rule: every part of its entry, and nothing on standard error.
    let run = codegen(dir.path(), &["explain", "no_overlapping_fields"]);
    assert_eq!(run.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&run.stdout);
    for part in [
        "rule:       no_overlapping_fields\n",
        "severity:   defect: an error in strict mode",
        "checks:     no bit belongs to two fields of a layout",
        "applies to: native TOML, CMSIS-SVD, TI XML, Linux sysreg, AARCHMRS\n",
        "An input that breaks it:\n\n    fields = [",
    ] {
        assert!(stdout.contains(part), "no {part:?} in:\n{stdout}");
    }
    assert!(run.stderr.is_empty());
    // No rule: every rule of the registry, one a line.
    let run = codegen(dir.path(), &["explain"]);
    assert_eq!(run.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.starts_with(&format!("{} rules", armreg_codegen::rules::ALL.len())));
    for rule in armreg_codegen::rules::ALL {
        assert!(
            stdout.contains(&format!("\n  {} ", rule.name)),
            "{} is not listed",
            rule.name
        );
    }
    // A name that is no rule's: an error naming the close ones, and a failure.
    let run = codegen(dir.path(), &["explain", "no_overlaping_field"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(run.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.starts_with("error: no rule is named `no_overlaping_field`; did you mean one of these?\n  no_overlapping_fields\n"),
        "{stderr}"
    );
    let run = codegen(dir.path(), &["explain", "zzzz"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("`armreg-codegen explain` lists every rule")
    );
}

/// A vendor file that repeats one defect many times: the first warnings of the rule are shown,
/// the rest counted in one note, and the run succeeds.
#[test]
fn repeated_warnings_are_counted_after_the_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let registers: String = (0..25)
        .map(|i| format!("<register><name>R{i}</name><addressOffset>0</addressOffset></register>"))
        .collect();
    let svd = format!(
        "<?xml version=\"1.0\"?>\n<device schemaVersion=\"1.3\"><name>X</name><width>32</width><size>32</size><peripherals><peripheral><name>P</name><baseAddress>0x1000</baseAddress><registers>{registers}</registers></peripheral></peripherals></device>\n"
    );
    fs::write(dir.join("x.svd"), svd).unwrap();
    let out = codegen(dir, &["dump-ir", "x.svd"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let shown = stderr
        .lines()
        .filter(|l| l.starts_with("warning[no_overlapping_registers]"))
        .count();
    assert_eq!(shown, 20, "{stderr}");
    assert!(
        // 25 registers at one offset: each after the first is reported once.
        stderr.contains("note: 4 more warning(s) of rule `no_overlapping_registers` not shown"),
        "{stderr}"
    );
}

/// `--allow <rule>` takes only rules whose findings can be warnings: an error rule, or a name no
/// rule has, is refused before anything is read (the warnings it counts: `tests/ui`,
/// `registers_aligned__allow_overlaps`).
#[test]
fn errors_cannot_be_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("dev.toml");
    std::fs::write(&input, "[device]\nname = \"dev\"\n").unwrap();
    let run = codegen(
        dir.path(),
        &["dump-ir", "dev.toml", "--allow", "toml_syntax"],
    );
    assert_eq!(run.status.code(), Some(1));
    assert!(run.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&run.stderr),
        "error: --allow toml_syntax: rule `toml_syntax` is always an error, never a warning to allow\n"
    );
    let out = dir.path().join("out");
    let run = codegen(
        dir.path(),
        &[
            "generate",
            "dev.toml",
            "-o",
            "out",
            "--allow",
            "no_overlaping_registers",
        ],
    );
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&run.stderr),
        "error: --allow no_overlaping_registers: no rule is named `no_overlaping_registers`; did you mean `no_overlapping_registers`?\n"
    );
    assert!(!out.exists());
}

/// Two fields with the same values (names, numbers, descriptions) in two blocks: one enum type,
/// which `generate` reports.
#[test]
fn generate_reports_the_enums_it_merged() {
    let dir = tempfile::tempdir().unwrap();
    let mode = "<field><name>MODE</name><bitRange>[1:0]</bitRange><enumeratedValues>\
                <enumeratedValue><name>OFF</name><description>Off</description><value>0</value></enumeratedValue>\
                <enumeratedValue><name>ON</name><description>On</description><value>1</value></enumeratedValue>\
                </enumeratedValues></field>";
    // The registers differ (one has a second field), so their layouts are two types.
    let peripheral = |name: &str, base: &str, other: &str| {
        format!(
            "<peripheral><name>{name}</name><baseAddress>{base}</baseAddress>\
             <addressBlock><offset>0</offset><size>0x10</size><usage>registers</usage></addressBlock>\
             <registers><register><name>CTRL</name><addressOffset>0</addressOffset>\
             <fields>{mode}{other}</fields></register></registers></peripheral>"
        )
    };
    std::fs::write(
        dir.path().join("dev.svd"),
        format!(
            "<?xml version=\"1.0\"?><device schemaVersion=\"1.3\"><name>DEV</name><version>1</version>\
             <description>d</description><addressUnitBits>8</addressUnitBits><width>32</width>\
             <size>32</size><resetValue>0</resetValue><resetMask>0xFFFFFFFF</resetMask><peripherals>{}{}\
             </peripherals></device>",
            peripheral("TIMER0", "0x40000000", ""),
            peripheral(
                "ADC",
                "0x40001000",
                "<field><name>START</name><bitRange>[4:4]</bitRange></field>"
            )
        ),
    )
    .unwrap();
    let run = codegen(
        dir.path(),
        &["generate", "dev.svd", "-o", "pac", "--license", "MIT"],
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.ends_with("generated crate `pac` in pac\n1 enum merged into 1 type of identical enums (same variants, values and descriptions)\n"),
        "{stdout}"
    );
}
