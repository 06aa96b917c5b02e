//! Runs started at once never mix. Two `generate` runs into one folder take turns (the second
//! waits for the first's lock), so the folder always ends wholly the crate of the run that wrote
//! last, and what each run says it did is what happened on disk. Every writer (`generate`, the
//! manifest's regeneration, `doc`, the build-script API) waits while another holds the output's
//! lock, and a killed run's staging is removed by the next run.
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use fs4::FileExt;

mod common;
use common::{codegen_in, regen, scratch, snapshot, stderr};

/// A crate's files: path relative to its folder → content.
type Crate = BTreeMap<PathBuf, Vec<u8>>;

/// Rounds of two runs started at once (each a few tens of milliseconds).
const ROUNDS: usize = 20;

/// A native description of `device`, whose blocks each have eight registers of layouts of their
/// own: its crate has a file per block (`src/mmio/<block>.rs`, `src/layouts/<block>_layouts.rs`).
fn description(device: &str, blocks: &[String]) -> String {
    let mut s = format!(
        "[device]\nname = \"{device}\"\ndoc = \"The {device} device\"\nlicense = \"MIT\"\n"
    );
    for b in blocks {
        for r in 0..8 {
            s.push_str(&format!(
                "[[layout]]\nname = \"{b}_R{r}\"\nwidth = 32\nfields = [ {{ name = \"EN\", bits = \"0\", access = \"rw\" }}, {{ name = \"MODE\", bits = \"{}:1\", access = \"rw\", doc = \"The {device} mode\" }} ]\n",
                r + 3
            ));
        }
        s.push_str(&format!(
            "[[block]]\nname = \"{b}\"\nsize = 0x100\ndoc = \"Block {b} of {device}\"\n"
        ));
        for r in 0..8 {
            s.push_str(&format!(
                "[[block.register]]\nname = \"R{r}\"\nlayout = \"{b}_R{r}\"\noffset = {}\n",
                4 * r
            ));
        }
    }
    s
}

/// Two descriptions whose crates share file paths (`src/lib.rs`, `src/layouts/tim2_layouts.rs`)
/// with different contents, and each have files of their own; and their crates, each generated
/// alone into a folder `out` as deep as the tests' (so their relative runtime paths agree).
struct Inputs {
    dir: tempfile::TempDir,
    paths: [PathBuf; 2],
    crates: [Crate; 2],
}

fn inputs() -> Inputs {
    let dir = tempfile::tempdir().unwrap();
    let names = |stem: &str, n: usize| (0..n).map(|i| format!("{stem}{i}")).collect::<Vec<_>>();
    let alpha = description("alpha", &names("TIM", 12));
    let beta = description("beta", &[names("TIM", 6), names("SPI", 6)].concat());
    let paths = [dir.path().join("alpha.toml"), dir.path().join("beta.toml")];
    std::fs::write(&paths[0], alpha).unwrap();
    std::fs::write(&paths[1], beta).unwrap();
    let crates = [0, 1].map(|i| {
        let at = dir.path().join(format!("reference-{i}"));
        std::fs::create_dir_all(&at).unwrap();
        let o = generate(&at, &paths[i], &[]);
        assert!(o.status.success(), "{}", stderr(&o));
        snapshot(&at.join("out"))
    });
    let [a, b] = &crates;
    let shared: Vec<_> = a.keys().filter(|p| b.contains_key(*p)).collect();
    assert!(shared.iter().any(|p| a[*p] != b[*p]), "no file differs");
    assert!(a.keys().any(|p| !b.contains_key(p)) && b.keys().any(|p| !a.contains_key(p)));
    assert!(shared.contains(&&PathBuf::from("src/layouts/tim2_layouts.rs")));
    Inputs { dir, paths, crates }
}

/// `generate <input> -o out`, run in `cwd`.
fn generate(cwd: &Path, input: &Path, env: &[(&str, &str)]) -> Output {
    codegen_in(
        cwd,
        &["generate", input.to_str().unwrap(), "-o", "out"],
        env,
    )
}

fn spawn_generate(cwd: &Path, input: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
        .current_dir(cwd)
        .args(["generate", input.to_str().unwrap(), "-o", "out"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codegen starts")
}

/// What a run says it did to the files (`created out/src/lib.rs`, ...).
fn said(o: &Output) -> BTreeSet<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| {
            ["created ", "updated ", "removed "]
                .iter()
                .any(|w| l.starts_with(w))
        })
        .map(str::to_string)
        .collect()
}

/// What turning the folder `out` holding `before` into `after` does, as a run says it.
fn changes(before: &Crate, after: &Crate) -> BTreeSet<String> {
    let shown = |p: &Path| Path::new("out").join(p).display().to_string();
    let mut out = BTreeSet::new();
    for (p, content) in after {
        match before.get(p) {
            None => out.insert(format!("created {}", shown(p))),
            Some(old) if old != content => out.insert(format!("updated {}", shown(p))),
            Some(_) => false,
        };
    }
    for p in before.keys().filter(|p| !after.contains_key(*p)) {
        out.insert(format!("removed {}", shown(p)));
    }
    out
}

const WAITING: &str = "waiting for another run generating into out";

/// Starts the two runs at once into `cwd/out` (holding `before`) and checks the folder ends as
/// one run's crate plus `extra` (files that were not the generator's), that run having written
/// last: the other says it turned `before` into its crate, the last that it turned that crate
/// into its own, and only the last can have waited. Returns whether it waited.
fn race(cwd: &Path, inputs: &Inputs, first: usize, before: &Crate, extra: &Crate) -> bool {
    let order = [first, 1 - first];
    let children = order.map(|i| spawn_generate(cwd, &inputs.paths[i]));
    let mut outputs: [Option<Output>; 2] = [None, None];
    for (i, child) in order.into_iter().zip(children) {
        outputs[i] = Some(child.wait_with_output().unwrap());
    }
    let outputs = outputs.map(Option::unwrap);
    for o in &outputs {
        assert!(o.status.success(), "a run failed: {}", stderr(o));
    }
    let with_extra = |c: &Crate| {
        let mut c = c.clone();
        c.extend(extra.clone());
        c
    };
    let expected = inputs.crates.each_ref().map(with_extra);
    let on_disk = snapshot(&cwd.join("out"));
    let Some(last) = expected.iter().position(|c| *c == on_disk) else {
        let mixed: Vec<String> = on_disk
            .iter()
            .map(|(p, c)| {
                let from: Vec<usize> = (0..2).filter(|&i| expected[i].get(p) == Some(c)).collect();
                format!("{} (from {from:?})", p.display())
            })
            .collect();
        panic!("the folder is neither crate:\n{}", mixed.join("\n"));
    };
    let other = 1 - last;
    assert_eq!(
        said(&outputs[other]),
        changes(before, &expected[other]),
        "the run that wrote first: {}",
        String::from_utf8_lossy(&outputs[other].stdout)
    );
    assert_eq!(
        said(&outputs[last]),
        changes(&expected[other], &expected[last]),
        "the run that wrote last: {}",
        String::from_utf8_lossy(&outputs[last].stdout)
    );
    assert!(!stderr(&outputs[other]).contains(WAITING));
    // Nothing staged or locked is left beside the folder.
    let beside: Vec<_> = std::fs::read_dir(cwd)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["out"]);
    stderr(&outputs[last]).contains(WAITING)
}

/// Two runs of different descriptions started at once into one new folder, many times over: the
/// folder is always wholly one crate, never a mix (the defect this guards against left `lib.rs`
/// of one and layout files of the other), and both runs say truly what they did.
#[test]
fn two_runs_into_a_new_folder_end_as_one_crate() {
    let inputs = inputs();
    let mut waited = 0;
    for round in 0..ROUNDS {
        let cwd = inputs.dir.path().join(format!("new-{round}"));
        std::fs::create_dir_all(&cwd).unwrap();
        waited += usize::from(race(&cwd, &inputs, round % 2, &Crate::new(), &Crate::new()));
    }
    eprintln!("{waited} of {ROUNDS} rounds: the second run waited for the first");
}

/// The same into a folder that exists, holding one crate and a file of the user's: it ends as one
/// crate and the user's file, untouched.
#[test]
fn two_runs_into_an_existing_folder_end_as_one_crate() {
    let inputs = inputs();
    let notes: Crate = [(PathBuf::from("NOTES.md"), b"mine\n".to_vec())].into();
    for round in 0..ROUNDS / 2 {
        let cwd = inputs.dir.path().join(format!("existing-{round}"));
        let mut before = inputs.crates[round % 2].clone();
        before.extend(notes.clone());
        for (p, content) in &before {
            let path = cwd.join("out").join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, content).unwrap();
        }
        race(&cwd, &inputs, round % 2, &before, &notes);
    }
}

/// Names under `dir` that are staged files or folders (`.<name>.codegen-new-<pid>-<nonce>`).
fn staged_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.contains(".codegen-new-") {
                out.push(name);
            } else if e.path().is_dir() {
                stack.push(e.path());
            }
        }
    }
    out
}

/// A run killed while staging (an abort, as SIGKILL would) leaves staging named after its process;
/// the next run, holding the lock, removes it, into a new folder and into an existing one.
#[test]
fn a_killed_runs_staging_is_removed_by_the_next_run() {
    let inputs = inputs();
    let cwd = inputs.dir.path().join("killed");
    std::fs::create_dir_all(&cwd).unwrap();
    // Step 1 takes the lock; the later ones stage files.
    let killed = generate(&cwd, &inputs.paths[0], &[("CODEGEN_FAILPOINT", "5")]);
    assert!(!killed.status.success());
    assert!(!cwd.join("out").exists(), "a partial folder");
    let staged = staged_under(&cwd);
    assert_eq!(staged.len(), 1, "{staged:?}");
    assert!(staged[0].starts_with(".out.codegen-new-"), "{staged:?}");
    let next = generate(&cwd, &inputs.paths[1], &[]);
    assert!(next.status.success(), "{}", stderr(&next));
    assert_eq!(snapshot(&cwd.join("out")), inputs.crates[1]);
    let beside: Vec<_> = std::fs::read_dir(&cwd)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(beside, ["out"]);
    // Into the existing folder: the staged files are inside it, beside their targets.
    let killed = generate(&cwd, &inputs.paths[0], &[("CODEGEN_FAILPOINT", "5")]);
    assert!(!killed.status.success());
    let staged = staged_under(&cwd.join("out"));
    assert!(!staged.is_empty());
    let mut output = snapshot(&cwd.join("out"));
    output.retain(|p, _| !p.to_string_lossy().contains(".codegen-new-"));
    assert_eq!(
        output, inputs.crates[1],
        "killed while staging, yet the output changed"
    );
    let next = generate(&cwd, &inputs.paths[0], &[]);
    assert!(next.status.success(), "{}", stderr(&next));
    assert_eq!(snapshot(&cwd.join("out")), inputs.crates[0]);
}

/// Holds the lock file at `path` as another run would.
fn hold(path: &Path) -> std::fs::File {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .unwrap();
    FileExt::lock(&file).unwrap();
    file
}

/// Starts `args` in `cwd` and returns once it says it waits for the lock.
fn started_waiting(cwd: &Path, args: &[&str]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
        .current_dir(cwd)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codegen starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    loop {
        match lines.next() {
            Some(Ok(line)) if line.starts_with("waiting for another run generating into ") => break,
            Some(Ok(line)) => seen.push(line),
            _ => panic!(
                "{args:?} did not wait for the lock; it said:\n{}",
                seen.join("\n")
            ),
        }
    }
    child
}

fn finished(child: Child) -> Output {
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    o
}

/// Every command that writes waits while another run holds its output's lock, writes nothing
/// meanwhile, then completes once it is free; the lock file is gone after it, and `--check` neither
/// waits for the lock nor counts its file as stale.
#[test]
fn every_writer_waits_for_the_lock() {
    let inputs = inputs();
    let cwd = inputs.dir.path().join("held");
    std::fs::create_dir_all(&cwd).unwrap();
    let input = inputs.paths[0].to_str().unwrap();
    // `generate`, into a new folder: the lock is beside it.
    let lock = cwd.join(".out.codegen-lock");
    let held = hold(&lock);
    let child = started_waiting(&cwd, &["generate", input, "-o", "out"]);
    assert!(!cwd.join("out").exists());
    drop(held);
    finished(child);
    assert_eq!(snapshot(&cwd.join("out")), inputs.crates[0]);
    assert!(!lock.exists());

    // The manifest's regeneration: the lock is inside the generated root.
    let repo = inputs.dir.path().join("repo");
    scratch(&repo, 1);
    assert!(regen(&repo, &[]).status.success());
    let generated = snapshot(&repo.join("generated"));
    scratch(&repo, 2);
    let lock = repo.join("generated/.codegen-lock");
    let held = hold(&lock);
    let root = repo.to_str().unwrap();
    let check = codegen_in(&repo, &["--root", root, "--check"], &[]);
    assert!(!check.status.success());
    assert!(
        !stderr(&check).contains(".codegen-lock"),
        "{}",
        stderr(&check)
    );
    let child = started_waiting(&repo, &["--root", root]);
    assert_eq!(snapshot(&repo.join("generated")).len(), generated.len() + 1);
    drop(held);
    finished(child);
    assert!(!lock.exists());
    assert!(snapshot(&repo.join("generated"))
        .keys()
        .all(|p| !p.to_string_lossy().contains("codegen-")));
    let held = hold(&lock);
    let check = codegen_in(&repo, &["--root", root, "--check"], &[]);
    assert!(check.status.success(), "{}", stderr(&check));
    drop(held);

    // `doc`: the lock is beside the site's folder.
    let lock = repo.join(".site.codegen-lock");
    let held = hold(&lock);
    let child = started_waiting(&repo, &["--root", root, "doc", "-o", "site"]);
    assert!(!repo.join("site").exists());
    drop(held);
    finished(child);
    assert!(repo.join("site/index.html").is_file());
    assert!(!lock.exists());

    // The build-script API: the lock is beside `$OUT_DIR/armreg` (here, `out_dir`).
    let out_dir = inputs.dir.path().join("build-out/armreg");
    std::fs::create_dir_all(out_dir.parent().unwrap()).unwrap();
    let lock = inputs.dir.path().join("build-out/.armreg.codegen-lock");
    let held = hold(&lock);
    let build = std::thread::spawn({
        let (input, out_dir) = (inputs.paths[0].clone(), out_dir.clone());
        move || {
            armreg_codegen::build::Build::new()
                .input(input)
                .out_dir(out_dir)
                .generate()
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!build.is_finished(), "the build script did not wait");
    assert!(!out_dir.exists());
    drop(held);
    let generated = build.join().unwrap().expect("the build script generates");
    assert!(generated.root.is_file());
    assert!(!lock.exists());
}
