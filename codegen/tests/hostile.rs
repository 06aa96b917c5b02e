//! Hostile and broken input: every case gives safe, compiling code or a clear diagnostic; limits
//! refuse what would exhaust the machine; names never choose where files go; a killed run or a
//! full disk leaves the previous output intact; output is the same from any directory.
//!
//! Generated crates are checked in `target/hostile/tree/generated/<name>`, laid out like the
//! repository (`tree/runtime` etc. are links) so their `../../runtime` dependencies resolve.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{codegen_in, regen, scratch, snapshot, stderr};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A tree where generated crates build: `tree/{runtime,pmu-macros,pmu-events}` link to the
/// repository's, `tree/generated` is a workspace of its own.
fn build_tree() -> PathBuf {
    let tree = repo_root().join("target/hostile/tree");
    std::fs::create_dir_all(tree.join("generated")).unwrap();
    for dep in ["runtime", "pmu-macros", "pmu-events"] {
        let link = tree.join(dep);
        if !link.exists() {
            std::os::unix::fs::symlink(repo_root().join(dep), &link).unwrap();
        }
    }
    std::fs::write(
        tree.join("generated/Cargo.toml"),
        "[workspace]\nresolver = \"2\"\nmembers = [\"*\"]\n",
    )
    .unwrap();
    tree
}

fn cargo_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            repo_root().join("target/hostile/target"),
        )
        .env("RUSTFLAGS", "-D warnings")
        .env("RUSTDOCFLAGS", "-D warnings")
        .args(args)
        .output()
        .expect("cargo runs")
}

/// Descriptions that try to close a doc comment, a string or a block and add items; keywords
/// and `self`/`crate`/`super` as names.
const INJECTION: &str = r##"
[device]
name = "evil"
source = "x */ \" } \n#[no_mangle] fn smuggled_source() {} \r bare\u0000nul \u2028 ls"
doc = "Close */ doc \"quote\" } brace\n#[cfg(any())] fn smuggled_doc() {}\n*/ /* `code` ``` \r\n ok\n    fn smuggled_indented() { panic!() }"

[[layout]]
name = "CTRL"
width = 32
doc = "*/ fn x() {} \"\\\" \n}\n#![allow(x)]\n```rust\npanic!(\"smuggled doctest\")\n```\n~~~\nfn smuggled_tilde() {}\n~~~"
fields = [
  { name = "EN", bits = "0", access = "rw", doc = "a\"b*/}\n#[doc=\"x\"] fn smuggled_field(){}", enum = [ { name = "ON", value = 1, doc = "*/ \"\n}fn smuggled_enum() {}" } ] },
  { name = "self", bits = "1", access = "rw" },
  { name = "crate", bits = "3", access = "rw" },
  { name = "super", bits = "4", access = "rw" },
  { name = "fn", bits = "5", access = "rw" },
  { name = "type", bits = "6", access = "rw" },
  { name = "new", bits = "7", access = "rw" },
]

[[layout]]
name = "Self"
width = 32
fields = [ { name = "A", bits = "0", access = "rw" } ]

# The names of the runtime types each crate re-exports: the layouts win.
[[layout]]
name = "VALUE"
width = 32
fields = [ { name = "A", bits = "0", access = "rw" } ]

[[layout]]
name = "LAYOUT"
width = 32
fields = [ { name = "B", bits = "1", access = "rw" } ]

[[sysreg]]
name = "VAL_REG"
layout = "VALUE"
a64 = "S3_0_C15_C0_1"

[[sysreg]]
name = "super"
layout = "CTRL"
a64 = "S3_0_C15_C0_0"
doc = "\"); } fn smuggled_sysreg() { (\""

[[block]]
name = "crate"
size = 0x1000
doc = "*/ \" }"
[[block.register]]
name = "CTRL"
layout = "CTRL"
offset = 0
doc = "}\n#[x]\nfn smuggled_register(){}"
[[block.register]]
name = "LAY"
layout = "LAYOUT"
offset = 4
"##;

/// The injection attempts generate code that compiles without warnings (clippy and rustdoc
/// `-D warnings`), whose doctests (none may be smuggled in) pass, and in which no smuggled item
/// exists outside a comment.
#[test]
fn injection_attempts_stay_in_comments() {
    let tree = build_tree();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("evil.toml"), INJECTION).unwrap();
    let out = tree.join("generated/evil");
    let o = codegen_in(
        dir.path(),
        &["generate", "evil.toml", "-o", out.to_str().unwrap()],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for (path, bytes) in snapshot(&out) {
        let text = String::from_utf8(bytes).unwrap();
        if path.extension().is_some_and(|e| e == "md") {
            // The README is prose: the text may appear, escaped, but opens no HTML and no code.
            for line in text.lines().filter(|l| l.contains("smuggled")) {
                assert!(
                    !line.contains('<') && !line.contains("```"),
                    "{}: unescaped markup: {line}",
                    path.display()
                );
            }
            continue;
        }
        for line in text.lines() {
            let code = line.trim_start();
            let comment = code.starts_with("//")
                || code.starts_with("/*")
                || code.starts_with('*')
                || code.starts_with("#define") && code.contains("/*");
            if line.contains("smuggled") && !comment {
                panic!(
                    "{}: smuggled text outside a comment: {line}",
                    path.display()
                );
            }
        }
        if path.extension().is_some_and(|e| e == "rs") {
            assert!(
                !text.contains("```rust"),
                "{}: a code fence survived",
                path.display()
            );
        }
    }
    // The layouts: `src/layouts.rs`, or `src/layouts/*.rs` in a crate with blocks.
    let lib: String = snapshot(&out)
        .into_iter()
        .filter(|(p, _)| p.to_string_lossy().contains("src/layouts"))
        .map(|(_, bytes)| String::from_utf8(bytes).unwrap())
        .collect();
    assert!(!lib.is_empty(), "no layouts written");
    for ident in [
        "const SELF:",
        "const CRATE:",
        "const SUPER:",
        "const FN:",
        "const TYPE:",
        "const NEW:",
    ] {
        assert!(lib.contains(ident), "{ident} missing");
    }
    let root = std::fs::read_to_string(out.join("src/lib.rs")).unwrap();
    assert!(
        !root.contains("pub use armreg_rt::"),
        "layouts named Value and Layout must not be shadowed by the runtime's:\n{root}"
    );
    let gen = tree.join("generated");
    let o = cargo_in(&gen, &["clippy", "-p", "evil", "--all-targets"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = cargo_in(&gen, &["test", "-p", "evil", "--doc"]);
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        stderr(&o)
    );
    let o = cargo_in(&gen, &["doc", "-p", "evil", "--no-deps"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A hostile description must fail with `rule` in its diagnostic and write nothing.
fn refused(file: &str, text: &[u8], args: &[&str], rule: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(file), text).unwrap();
    let mut all = vec!["generate", file, "-o", "out/x"];
    all.extend(args);
    let o = codegen_in(dir.path(), &all, &[]);
    let err = stderr(&o);
    assert!(!o.status.success(), "{file}: accepted");
    assert!(err.contains(rule), "{file}: expected {rule}, got:\n{err}");
    assert!(!err.contains("panicked"), "{file}: {err}");
    assert!(!dir.path().join("out").exists(), "{file}: wrote output");
}

fn native(layout_fields: &str) -> String {
    format!("[device]\nname = \"d\"\n[[layout]]\nname = \"L\"\nwidth = 32\nfields = [ {layout_fields} ]\n")
}

#[test]
fn bad_names_are_diagnostics() {
    let f = |name: &str| format!("{{ name = \"{name}\", bits = \"0\", access = \"rw\" }}");
    refused(
        "a.toml",
        native(&f("Zähler")).as_bytes(),
        &[],
        "names_are_identifiers",
    );
    refused(
        "b.toml",
        native(&f("")).as_bytes(),
        &[],
        "names_are_identifiers",
    );
    refused(
        "c.toml",
        native(&f("r#fn")).as_bytes(),
        &[],
        "names_are_identifiers",
    );
    refused(
        "d.toml",
        native(&f("a\\nfn x() {}")).as_bytes(),
        &[],
        "names_are_identifiers",
    );
    refused(
        "e.toml",
        native(&f("../../etc/passwd")).as_bytes(),
        &[],
        "names_are_identifiers",
    );
    let collide = format!(
        "{}, {{ name = \"Self\", bits = \"1\", access = \"rw\" }}",
        f("self")
    );
    refused(
        "f.toml",
        native(&collide).as_bytes(),
        &[],
        "names_are_identifiers",
    );
    let collide = format!(
        "{}, {{ name = \"A.B\", bits = \"1\", access = \"rw\" }}",
        f("A-B")
    );
    refused(
        "g.toml",
        native(&collide).as_bytes(),
        &[],
        "names_are_identifiers",
    );
}

const XXE: &str =
    "<?xml version=\"1.0\"?>\n<!DOCTYPE m [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n";

fn laughs() -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">");
    for i in 1..10 {
        let prev = if i > 1 {
            format!("&lol{};", i - 1)
        } else {
            "&lol;".into()
        };
        s.push_str(&format!("<!ENTITY lol{i} \"{}\">", prev.repeat(10)));
    }
    s + "]>\n"
}

#[test]
fn limits_refuse_what_would_exhaust_the_machine() {
    // An array of a billion elements, in each format that has arrays.
    let billion = "[device]\nname = \"b\"\n[[layout]]\nname = \"R\"\nwidth = 32\nfields = [ { name = \"A\", bits = \"0\", access = \"rw\" } ]\n[[sysreg]]\nname = \"R<n>_EL1\"\nlayout = \"R\"\na64 = \"S3_0_C9_C0_0\"\ncount = 1000000000\n";
    refused(
        "billion.toml",
        billion.as_bytes(),
        &[],
        "the limit is 65536",
    );
    let svd = "<?xml version=\"1.0\"?>\n<device schemaVersion=\"1.3\"><name>X</name><width>32</width><size>32</size><peripherals><peripheral><name>P</name><baseAddress>0x1000</baseAddress><registers><register><dim>1000000000</dim><dimIncrement>4</dimIncrement><name>R%s</name><addressOffset>0</addressOffset></register></registers></peripheral></peripherals></device>";
    refused("billion.svd", svd.as_bytes(), &[], "arrays_in_range");
    // Arrays each within the limit whose elements together are too many to check one by one.
    let mut many = "[device]\nname = \"m\"\n[[layout]]\nname = \"R\"\nwidth = 32\nfields = [ { name = \"A\", bits = \"0\", access = \"rw\" } ]\n[[block]]\nname = \"B\"\nsize = 0x10000000\naccess_width = 32\n".to_string();
    for i in 0..17 {
        many.push_str(&format!("[[block.register]]\nname = \"R{i}_<n>\"\nlayout = \"R\"\noffset = {:#x}\naccess = \"rw\"\ncount = 65536\nstride = 4\n", i * 0x40000));
    }
    refused("many.toml", many.as_bytes(), &[], "the limit is 1048576");
    // Cluster arrays inside cluster arrays: one register each, but C headers and models would
    // see 300 x 300 of them.
    let nested = "<?xml version=\"1.0\"?>\n<device schemaVersion=\"1.3\"><name>X</name><width>32</width><size>32</size><peripherals><peripheral><name>P</name><baseAddress>0x10000000</baseAddress><registers><cluster><dim>300</dim><dimIncrement>0x10000</dimIncrement><name>A%s</name><addressOffset>0</addressOffset><cluster><dim>300</dim><dimIncrement>0x100</dimIncrement><name>B%s</name><addressOffset>0</addressOffset><register><dim>2</dim><dimIncrement>4</dimIncrement><name>R%s</name><addressOffset>0</addressOffset></register></cluster></cluster></registers></peripheral></peripherals></device>";
    refused(
        "nested.svd",
        nested.as_bytes(),
        &[],
        "flattens to more than 65536 registers",
    );
    // Nesting thousands deep.
    let deep = format!(
        "[device]\nname = \"d\"\nx = {}{}\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    refused("deep.toml", deep.as_bytes(), &[], "recursion");
    let deep = format!(
        "<?xml version=\"1.0\"?>\n<device schemaVersion=\"1.3\">{}{}</device>",
        "<a>".repeat(50_000),
        "</a>".repeat(50_000)
    );
    refused("deep.svd", deep.as_bytes(), &[], "deeper than");
    let deep = format!(
        "<module name=\"m\">{}{}</module>",
        "<register id=\"A\" acronym=\"A\" offset=\"0\" width=\"32\">".repeat(50_000),
        "</register>".repeat(50_000)
    );
    refused(
        "deep.xml",
        deep.as_bytes(),
        &["--format", "ti-xml"],
        "deeper than",
    );
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    refused("deep.json", deep.as_bytes(), &[], "perf_json_syntax");
    // DTDs, billion laughs, external entities: never expanded, never read.
    let l = laughs();
    refused(
        "laughs.svd",
        format!("{l}<device schemaVersion=\"1.3\"><name>&lol9;</name></device>").as_bytes(),
        &[],
        "entity",
    );
    refused("laughs.xml", format!("{l}<module name=\"&lol9;\"><register id=\"A\" acronym=\"A\" offset=\"0\" width=\"32\"/></module>").as_bytes(), &["--format", "ti-xml"], "entity");
    refused(
        "xxe.svd",
        format!("{XXE}<device schemaVersion=\"1.3\"><name>&xxe;</name></device>").as_bytes(),
        &[],
        "entity",
    );
    refused("xxe.xml", format!("{XXE}<module name=\"&xxe;\"><register id=\"A\" acronym=\"A\" offset=\"0\" width=\"32\"/></module>").as_bytes(), &["--format", "ti-xml"], "entity");
}

/// A 100 MB input is refused before it is read (and so is an endless one).
#[test]
fn a_100_mb_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.toml");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(100 * 1024 * 1024).unwrap();
    let o = codegen_in(dir.path(), &["generate", "big.toml", "-o", "out/x"], &[]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("larger than the limit of 32 MiB"),
        "{}",
        stderr(&o)
    );
    let o = codegen_in(
        dir.path(),
        &["generate", "/dev/zero", "--format", "native", "-o", "out/x"],
        &[],
    );
    assert!(
        stderr(&o).contains("larger than the limit"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.path().join("out").exists());
}

/// Names from a description never choose where files go: crate names are checked, and every
/// file lands inside the output folder.
#[test]
fn nothing_is_written_outside_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("descriptions")).unwrap();
    std::fs::write(
        root.join("descriptions/d.toml"),
        native("{ name = \"A\", bits = \"0\", access = \"rw\" }"),
    )
    .unwrap();
    for name in ["../escaped", "/tmp/abs", "a/b", "..", "A\\nB"] {
        std::fs::write(
            root.join("descriptions/manifest.toml"),
            format!("[[crate]]\nname = \"{name}\"\ninputs = [\"d.toml\"]\n"),
        )
        .unwrap();
        let o = codegen_in(&root, &[], &[]);
        assert!(!o.status.success(), "{name} accepted");
        assert!(stderr(&o).contains("crate name"), "{}", stderr(&o));
    }
    assert_eq!(
        snapshot(dir.path())
            .keys()
            .filter(|p| !p.starts_with("repo/descriptions"))
            .count(),
        0
    );
    // `generate`: the crate name comes from the folder (or --name) and must be a Cargo name.
    let o = codegen_in(
        &root,
        &[
            "generate",
            "descriptions/d.toml",
            "-o",
            "out/x",
            "--name",
            "x\"\n[evil]",
        ],
        &[],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("crate name"), "{}", stderr(&o));
    let o = codegen_in(
        &root,
        &["generate", "descriptions/d.toml", "-o", "out/x"],
        &[],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for p in snapshot(dir.path()).keys() {
        assert!(
            p.starts_with("repo/descriptions") || p.starts_with("repo/out/x"),
            "{}",
            p.display()
        );
    }
}

/// Killing the generator at every step that changes the file system (an abort, as SIGKILL
/// would) leaves either the previous output complete and unchanged (plus staged files and the
/// lock file, which the next run removes) or a commit journal that the next run completes; the
/// next run always gives exactly the new output, and says it completed the killed run's commit.
#[test]
fn killed_at_any_point_leaves_the_previous_output() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    scratch(root, 1);
    assert!(regen(root, &[]).status.success());
    let old = snapshot(&root.join("generated"));
    scratch(root, 2);
    assert!(regen(root, &[]).status.success());
    let new = snapshot(&root.join("generated"));
    assert_ne!(old, new);
    let mut aborted = 0;
    let mut completed = 0;
    for k in 1.. {
        scratch(root, 1);
        assert!(regen(root, &[]).status.success());
        assert_eq!(snapshot(&root.join("generated")), old);
        scratch(root, 2);
        let o = regen(root, &[("CODEGEN_FAILPOINT", &k.to_string())]);
        if o.status.success() {
            break;
        }
        aborted += 1;
        let now = snapshot(&root.join("generated"));
        let journal = now.contains_key(Path::new(".codegen-commit"));
        let without_staged: BTreeMap<_, _> = now
            .clone()
            .into_iter()
            .filter(|(p, _)| {
                let name = p.file_name().unwrap().to_str().unwrap();
                !name.contains(".codegen-new") && name != ".codegen-lock"
            })
            .collect();
        assert!(
            journal || without_staged == old,
            "step {k}: killed before the commit, yet the output changed"
        );
        let next = regen(root, &[]);
        assert!(next.status.success(), "{}", stderr(&next));
        // What it says is true: "nothing changed" only when the output already was the new one,
        // and a completed commit only when there was a journal.
        let said = String::from_utf8_lossy(&next.stdout).into_owned();
        let mut output = without_staged;
        output.remove(Path::new(".codegen-commit"));
        assert_eq!(
            said.contains("nothing changed"),
            output == new,
            "step {k}:\n{said}"
        );
        assert!(
            journal || !said.contains("completed the commit"),
            "step {k}:\n{said}"
        );
        completed += usize::from(said.contains("completed the commit"));
        assert_eq!(snapshot(&root.join("generated")), new, "step {k}: recovery");
    }
    assert!(aborted > 10, "only {aborted} kill points");
    assert!(completed > 0, "no run completed a killed run's commit");
}

/// `generate` into a folder that does not exist: killed at any step, the folder is either absent
/// or complete (its files staged in a sibling folder renamed into place), and the next run gives
/// the whole output and leaves no staging folder.
#[test]
fn killed_while_generating_a_new_folder_leaves_nothing_or_everything() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    scratch(root, 1);
    let input = root.join("descriptions/one.toml");
    let out = root.join("out/crate");
    let generate = |env: &[(&str, &str)]| {
        codegen_in(
            root,
            &[
                "generate",
                input.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            env,
        )
    };
    assert!(generate(&[]).status.success());
    let whole = snapshot(&out);
    assert!(whole.len() > 5, "{whole:?}");
    let mut aborted = 0;
    for k in 1.. {
        std::fs::remove_dir_all(&out).unwrap();
        let o = generate(&[("CODEGEN_FAILPOINT", &k.to_string())]);
        if o.status.success() {
            break;
        }
        aborted += 1;
        assert!(
            !out.exists() || snapshot(&out) == whole,
            "step {k}: a partial folder"
        );
        if out.exists() {
            std::fs::remove_dir_all(&out).unwrap();
        }
        assert!(generate(&[]).status.success(), "step {k}: the next run");
        assert_eq!(snapshot(&out), whole, "step {k}: recovery");
        let siblings: Vec<_> = std::fs::read_dir(root.join("out"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(siblings, ["crate"], "step {k}: the staging folder is left");
    }
    assert!(aborted > 5, "only {aborted} kill points");
}

/// A full disk (a small tmpfs) fails with a clear error and leaves the previous output exactly
/// as it was. Needs root to mount (the suite runs as root); without it the test fails, saying so.
#[test]
fn a_full_disk_leaves_the_previous_output() {
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("small");
    std::fs::create_dir_all(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args([
            "-t",
            "tmpfs",
            "-o",
            "size=1m",
            "tmpfs",
            mnt.to_str().unwrap(),
        ])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        mounted,
        "cannot mount a tmpfs, which needs root: run `sudo -E cargo test -p armreg-codegen --test hostile \
         a_full_disk_leaves_the_previous_output`"
    );
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(self.0).status();
        }
    }
    let _guard = Unmount(&mnt);
    let root = mnt.join("repo");
    scratch(&root, 1);
    assert!(regen(&root, &[]).status.success());
    let old = snapshot(&root.join("generated"));
    // Fill the disk, leaving too little for the new output.
    let filler = mnt.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let chunk = vec![0u8; 4096];
    use std::io::Write;
    while f.write_all(&chunk).is_ok() {}
    let _ = f.sync_all();
    drop(f);
    // Give back a little: enough to start staging, not enough to finish.
    let len = std::fs::metadata(&filler).unwrap().len();
    std::fs::File::options()
        .write(true)
        .open(&filler)
        .unwrap()
        .set_len(len - 8192)
        .unwrap();
    scratch(&root, 2);
    let o = regen(&root, &[]);
    assert!(!o.status.success(), "succeeded on a full disk");
    let err = stderr(&o);
    assert!(err.contains("No space left on device"), "{err}");
    assert!(err.contains("previous output is intact"), "{err}");
    assert_eq!(snapshot(&root.join("generated")), old);
    // With space again, the run completes.
    std::fs::remove_file(&filler).unwrap();
    assert!(regen(&root, &[]).status.success());
    assert_ne!(snapshot(&root.join("generated")), old);
}

/// The same descriptions give byte-identical output run from two different directories (and
/// two different absolute locations), through the manifest and through `generate`.
#[test]
fn output_is_identical_from_any_directory() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let b_root = b.path().join("deeper/elsewhere");
    scratch(a.path(), 3);
    scratch(&b_root, 3);
    // From the root itself, and from a subdirectory with --root given relatively.
    assert!(codegen_in(a.path(), &[], &[]).status.success());
    assert!(
        codegen_in(&b_root.join("descriptions"), &["--root", ".."], &[])
            .status
            .success()
    );
    let sa = snapshot(&a.path().join("generated"));
    assert!(!sa.is_empty());
    assert_eq!(sa, snapshot(&b_root.join("generated")));
    // `generate` from two directories, the output folder given relatively and absolutely.
    let y = b.path().join("y/one");
    assert!(codegen_in(
        a.path(),
        &["generate", "descriptions/one.toml", "-o", "x/one"],
        &[]
    )
    .status
    .success());
    assert!(codegen_in(
        &b_root,
        &[
            "generate",
            "descriptions/one.toml",
            "-o",
            y.to_str().unwrap()
        ],
        &[]
    )
    .status
    .success());
    assert_eq!(snapshot(&a.path().join("x/one")), snapshot(&y));
    // An absolute input path is shown by its file name only.
    let input = b_root.join("descriptions/one.toml");
    assert!(codegen_in(
        b.path(),
        &["generate", input.to_str().unwrap(), "-o", "z/one"],
        &[]
    )
    .status
    .success());
    let z = snapshot(&b.path().join("z/one"));
    for (p, c) in z.iter().chain(&sa) {
        let t = String::from_utf8_lossy(c);
        for abs in [
            a.path().to_str().unwrap(),
            b.path().to_str().unwrap(),
            "/tmp/",
            "/home/",
            "/root/",
        ] {
            assert!(!t.contains(abs), "{}: absolute path {abs}", p.display());
        }
    }
}

/// Every `unsafe` block in the committed generated crates has a `// SAFETY:` comment right
/// before its statement, and every `unsafe fn` a `# Safety` section (clippy's
/// `undocumented_unsafe_blocks`, which the generated modules enable, checks the same).
#[test]
fn every_unsafe_block_states_its_contract() {
    let generated = repo_root().join("generated");
    let mut blocks = 0;
    for (path, bytes) in snapshot(&generated) {
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if code.contains("unsafe {") {
                blocks += 1;
                let before = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| l.trim_start().starts_with("//"))
                    .any(|l| l.contains("// SAFETY: "));
                assert!(
                    before,
                    "{}:{}: `unsafe` without a SAFETY comment",
                    path.display(),
                    i + 1
                );
            }
            if code.contains("unsafe fn ") {
                let documented = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| {
                        let t = l.trim_start();
                        t.starts_with("///") || t.starts_with("#[")
                    })
                    .any(|l| l.contains("# Safety"));
                assert!(
                    documented,
                    "{}:{}: `unsafe fn` without `# Safety`",
                    path.display(),
                    i + 1
                );
            }
        }
    }
    assert!(blocks > 100, "only {blocks} unsafe blocks seen");
}

/// `pmu-events` reads perf JSON folders itself: its size limit is the generator's.
#[test]
fn event_reader_has_the_input_size_limit() {
    assert_eq!(
        pmu_events::MAX_FILE_BYTES,
        armreg_codegen::frontend::MAX_INPUT_BYTES
    );
}
