//! Every ```` ```rust ```` block of `README.md`, `descriptions/FORMAT.md` and the book's chapters
//! (`docs/src/*.md`) is built for real against the workspace's crates, so the documentation shows
//! the API that exists. (`mdbook test` cannot: it gives rustdoc no way to link the generated
//! crates.)
//!
//! How a snippet is written (GitHub shows every line of a fence, so nothing is hidden):
//!
//! - **Self-contained.** A snippet declares what it names (its `use` lines, its variables); the
//!   test adds nothing to its text but the wrapper below.
//! - **Statements and items** are wrapped, as rustdoc wraps a doctest, in
//!   `pub fn snippet() -> Result<(), SnippetError> { <snippet> Ok(()) }`, where `?` takes any
//!   error that is `Debug`. The function is public, so the crate's build monomorphises it and the
//!   `at::<N>()` bounds, checked after monomorphisation, are checked too (`cargo build`, not
//!   `cargo check`). Items inside it (`fn`, `use`, `event_set!`) are type-checked alike; a
//!   function the snippet declares but does not call is not monomorphised.
//! - **Files.** A snippet whose first line is a comment naming a Rust file (`// build.rs`,
//!   `// src/lib.rs: what it is`) is a crate: each such comment starts the next file, written as
//!   is. A crate with a `build.rs` has `codegen` as its build dependency.
//! - **Dependencies**, the same for every snippet: `armreg-rt`, `pmu-macros`, `pmu-driver`, every
//!   crate of `generated/` (with `model` where it has it; `arm-pmu-events` with `cortex-a53`),
//!   `qemu-virt-pl011`, generated from the worked example's description (`tests/docs/example/`)
//!   as the README's walk-through does, and `uart-example`, the UART of the side-effect tests
//!   (`tests/side-effects/uart.toml`) with its models.
//! - **Files a snippet names** are put in its crate's folder when its text names them: see
//!   [`DATA`] (`path/to/pmu-events/...` is Linux's perf JSON, which `tests/linux/extract.sh`
//!   extracts; `path/to/arm-data/...` the vendored Arm PMU data; `registers/soc.svd` a small SVD).
//! - **`rust,ignore`** keeps a snippet out; the test prints every one it skips. One whose first
//!   line is `// excerpt of <path>` must be, line by line, a part of that file (which another
//!   test builds: the Cortex-M firmware of `tests/cortex-m/`). Any other fence attribute is an
//!   error.
//!
//! Each snippet is a crate of a scratch workspace, `target/doc-snippets/`, built in one
//! `cargo build --offline --keep-going` with the workspace's `Cargo.lock`; later runs reuse its
//! target folder, and rewrite no unchanged file. A failure names the document and line of the
//! snippet, and of each error in it, with the compiler's message.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use integration_tests::{cargo_in, codegen_binary, root};

/// The documents whose snippets are built, besides the book's chapters (`docs/src/*.md`).
const DOCUMENTS: &[&str] = &["README.md", "descriptions/FORMAT.md"];

/// `DOCUMENTS` and the book's chapters, relative to the repository.
fn documents() -> Vec<&'static str> {
    let mut chapters: Vec<String> = std::fs::read_dir(root().join("docs/src"))
        .expect("docs/src exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| format!("docs/src/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    chapters.sort();
    let mut all = DOCUMENTS.to_vec();
    // Leaked once per test run: a snippet names its document for the life of the test.
    all.extend(
        chapters
            .into_iter()
            .map(|c| &*Box::leak(c.into_boxed_str())),
    );
    all
}

/// The stem of a document's snippet crates: `readme`, `format`, `book-<chapter>`.
fn crate_stem(doc: &str) -> String {
    let stem = Path::new(doc)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_lowercase();
    if doc.starts_with("docs/") {
        format!("book-{stem}")
    } else {
        stem
    }
}

/// What a snippet's crate folder gets when the snippet's text names the path.
const DATA: &[(&str, Data)] = &[
    (
        "path/to/pmu-events",
        Data::Repo("target/linux-6.12/tools/perf/pmu-events"),
    ),
    (
        "path/to/arm-data",
        Data::Repo("descriptions/third-party/arm-data"),
    ),
    ("registers/soc.svd", Data::Text(SOC_SVD)),
];

enum Data {
    /// A link to this path of the repository.
    Repo(&'static str),
    /// A file with this text.
    Text(&'static str),
}

/// A device of one block with one register: what the build-script snippet generates.
const SOC_SVD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3" xmlns:xs="http://www.w3.org/2001/XMLSchema-instance" xs:noNamespaceSchemaLocation="CMSIS-SVD.xsd">
  <name>SOC</name>
  <version>1.0</version>
  <description>A one-register SoC</description>
  <addressUnitBits>8</addressUnitBits>
  <width>32</width>
  <size>32</size>
  <access>read-write</access>
  <resetValue>0</resetValue>
  <resetMask>0xFFFFFFFF</resetMask>
  <peripherals>
    <peripheral>
      <name>TIMER</name>
      <baseAddress>0x40000000</baseAddress>
      <addressBlock><offset>0</offset><size>0x100</size><usage>registers</usage></addressBlock>
      <registers>
        <register>
          <name>CTRL</name>
          <description>Control</description>
          <addressOffset>0x0</addressOffset>
          <fields>
            <field><name>EN</name><description>Enable</description><bitRange>[0:0]</bitRange></field>
          </fields>
        </register>
      </registers>
    </peripheral>
  </peripherals>
</device>
"#;

/// What comes before a wrapped snippet; the snippet's first line follows it.
const WRAPPER_HEAD: &str = "\
/// What `?` turns a snippet's errors into: any error that is `Debug`, as `unwrap` takes.
pub struct SnippetError;

impl<E: core::fmt::Debug> From<E> for SnippetError {
    fn from(_: E) -> Self {
        SnippetError
    }
}

pub fn snippet() -> Result<(), SnippetError> {
";

const WRAPPER_TAIL: &str = "    Ok(())\n}\n";

/// The file an ignored snippet says it is an excerpt of (`// excerpt of <path>` on its first
/// line): code that builds only for a target this test cannot link for the host (a Cortex-M
/// firmware), which another test builds and runs.
fn excerpt_source(s: &Snippet) -> Option<String> {
    let first = s.code.first()?.trim();
    Some(first.strip_prefix("// excerpt of ")?.trim().to_string())
}

/// Every line of an excerpt but its first is, trimmed, a line of `file`, in the same order: the
/// snippet shows code that exists, word for word.
fn check_excerpt(s: &Snippet, file: &str) {
    let text = std::fs::read_to_string(root().join(file))
        .unwrap_or_else(|e| panic!("{}: the excerpt's file {file}: {e}", s.at()));
    let mut lines = text.lines().map(str::trim);
    for (i, line) in s.code.iter().enumerate().skip(1) {
        let line = line.trim();
        if line.is_empty() || line == "..." || line == "// ..." {
            continue;
        }
        assert!(
            lines.any(|l| l == line),
            "{}:{}: `{line}` is not in {file} (after the excerpt's previous line)",
            s.doc,
            s.line + i
        );
    }
}

/// One ```` ```rust ```` block.
struct Snippet {
    /// The document, relative to the repository.
    doc: &'static str,
    /// The document's line of the snippet's first line (1-based).
    line: usize,
    ignored: bool,
    /// The lines, without the indentation of their fence.
    code: Vec<String>,
}

impl Snippet {
    fn at(&self) -> String {
        format!("{}:{}", self.doc, self.line)
    }
}

/// The ```` ```rust ```` blocks of a Markdown text: fenced blocks (backticks or tildes) whose info
/// string's first word, up to a comma or a space, is `rust`; the rest of the info string are
/// attributes, of which only `ignore` is known.
fn snippets(doc: &'static str, text: &str) -> Vec<Snippet> {
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let Some(fence_char) = trimmed.chars().next().filter(|c| matches!(c, '`' | '~')) else {
            continue;
        };
        let fence_len = trimmed.chars().take_while(|&c| c == fence_char).count();
        if fence_len < 3 {
            continue;
        }
        let info = trimmed[fence_len..].trim();
        let mut code = Vec::new();
        let mut closed = false;
        for (_, body) in lines.by_ref() {
            let t = body.trim_start();
            let run = t.chars().take_while(|&c| c == fence_char).count();
            if run >= fence_len && t[run..].trim().is_empty() {
                closed = true;
                break;
            }
            // The fence's indentation is not the code's (a fence inside a list item).
            let strip = body.chars().take(indent).take_while(|&c| c == ' ').count();
            code.push(body[strip..].to_string());
        }
        assert!(closed, "{doc}:{}: a fence that is never closed", index + 1);
        let mut words = info
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty());
        if words.next() != Some("rust") {
            continue;
        }
        let mut ignored = false;
        for word in words {
            match word {
                "ignore" => ignored = true,
                other => panic!(
                    "{doc}:{}: unknown attribute `{other}` on a rust fence (only `ignore` is known)",
                    index + 1
                ),
            }
        }
        found.push(Snippet {
            doc,
            line: index + 2,
            ignored,
            code,
        });
    }
    found
}

/// The file a line like `// build.rs` or `// src/lib.rs: the crate root` names.
fn file_header(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("// ")?;
    let name = rest.split(|c: char| c == ':' || c.is_whitespace()).next()?;
    let valid = name.ends_with(".rs")
        && (name == "build.rs" || name.starts_with("src/"))
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/' | '.'));
    valid.then_some(name)
}

/// A source file of a snippet's crate, and where its lines come from.
struct Source {
    /// Relative to the crate's folder.
    path: String,
    text: String,
    /// The file's lines `first..first + len` (1-based) are the document's from `doc_line` on.
    first: usize,
    len: usize,
    doc_line: usize,
}

/// The files of a snippet's crate.
fn sources(snippet: &Snippet) -> Vec<Source> {
    if snippet.code.first().and_then(|l| file_header(l)).is_some() {
        let mut files: Vec<Source> = Vec::new();
        for (i, line) in snippet.code.iter().enumerate() {
            if let Some(name) = file_header(line) {
                assert!(
                    files.iter().all(|f| f.path != name),
                    "{}: the file {name} twice",
                    snippet.at()
                );
                files.push(Source {
                    path: name.to_string(),
                    text: String::new(),
                    first: 1,
                    len: 0,
                    doc_line: snippet.line + i,
                });
            }
            let file = files.last_mut().expect("the first line names a file");
            file.text.push_str(line);
            file.text.push('\n');
            file.len += 1;
        }
        assert!(
            files
                .iter()
                .any(|f| f.path == "src/lib.rs" || f.path == "src/main.rs"),
            "{}: a crate of files needs src/lib.rs or src/main.rs",
            snippet.at()
        );
        return files;
    }
    let mut text = format!(
        "// {} (generated by tests/tests/doc_snippets.rs)\n",
        snippet.at()
    );
    text.push_str(WRAPPER_HEAD);
    let first = text.lines().count() + 1;
    for line in &snippet.code {
        if !line.is_empty() {
            text.push_str("    ");
        }
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(WRAPPER_TAIL);
    vec![Source {
        path: "src/lib.rs".to_string(),
        text,
        first,
        len: snippet.code.len(),
        doc_line: snippet.line,
    }]
}

/// The scratch workspace; its `target/` is reused by every run.
fn scratch() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root().join("target"), PathBuf::from)
        .join("doc-snippets")
}

/// Writes `text` to `path` unless it is there already, so that cargo sees nothing new.
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// A TOML string.
fn quoted(path: &Path) -> String {
    toml::Value::String(path.to_str().expect("a UTF-8 path").to_string()).to_string()
}

/// The `[dependencies]` every snippet has (see the module's documentation).
fn dependencies(examples: &[PathBuf]) -> String {
    let mut deps = BTreeMap::new();
    deps.insert(
        "armreg-rt".to_string(),
        format!(
            "{{ path = {}, features = [\"model\"] }}",
            quoted(&root().join("runtime"))
        ),
    );
    for krate in ["pmu-macros", "pmu-driver"] {
        deps.insert(
            krate.to_string(),
            format!("{{ path = {} }}", quoted(&root().join(krate))),
        );
    }
    let mut generated: Vec<PathBuf> = std::fs::read_dir(root().join("generated"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    generated.extend(examples.iter().cloned());
    for dir in generated {
        let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
        let name = manifest["package"]["name"].as_str().unwrap().to_string();
        let model = manifest
            .get("features")
            .and_then(|f| f.get("model"))
            .is_some();
        let features = if model {
            ", features = [\"model\"]"
        } else if name == "arm-pmu-events" {
            // The core the snippets name (`#[core = cortex_a53]`), as a user enables it.
            ", features = [\"cortex-a53\"]"
        } else {
            ""
        };
        deps.insert(name, format!("{{ path = {}{features} }}", quoted(&dir)));
    }
    deps.iter().fold(String::new(), |mut out, (name, spec)| {
        let _ = writeln!(out, "{name} = {spec}");
        out
    })
}

/// Generates the worked example's crate into the scratch workspace, as the README's walk-through
/// does (the generator rewrites only what changed).
fn generate_pl011(dir: &Path) -> PathBuf {
    generate(
        dir,
        "tests/docs/example/qemu-virt-pl011.toml",
        "qemu-virt-pl011",
        &[],
    )
}

/// Generates the crate `name` from `description` into the scratch workspace.
fn generate(dir: &Path, description: &str, name: &str, flags: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let run = std::process::Command::new(codegen_binary())
        .current_dir(root())
        .args(["generate", description, "-o"])
        .arg(&out)
        .args(flags)
        .output()
        .expect("the generator runs");
    assert!(
        run.status.success(),
        "generating {name}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

/// Puts what the snippet names of [`DATA`] in its crate folder.
fn provide_data(snippet: &Snippet, dir: &Path) {
    let text = snippet.code.join("\n");
    for (name, data) in DATA {
        let path = dir.join(name);
        if !text.contains(name) {
            continue;
        }
        match data {
            Data::Text(text) => write_if_changed(&path, text),
            Data::Repo(target) => {
                let target = root().join(target);
                assert!(
                    target.exists(),
                    "{}: `{name}` is {}, which is missing (run `bash tests/linux/extract.sh` for \
                     Linux's files)",
                    snippet.at(),
                    target.display()
                );
                if std::fs::read_link(&path).is_ok_and(|t| t == target) {
                    continue;
                }
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                let _ = std::fs::remove_file(&path);
                std::os::unix::fs::symlink(&target, &path).unwrap();
            }
        }
    }
}

/// An error the compiler reported in a snippet.
struct Failure {
    /// The document's position of the error, when it is in the snippet's own lines.
    at: Option<String>,
    rendered: String,
}

#[test]
fn every_rust_snippet_of_the_documentation_builds() {
    let started = Instant::now();
    let mut all = Vec::new();
    let documents = documents();
    for &doc in &documents {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let found = snippets(doc, &text);
        println!(
            "{doc}: {} rust snippets, {} ignored",
            found.len(),
            found.iter().filter(|s| s.ignored).count()
        );
        all.extend(found);
    }
    for s in all.iter().filter(|s| s.ignored) {
        match excerpt_source(s) {
            Some(file) => {
                check_excerpt(s, &file);
                println!("ignored (rust,ignore), an excerpt of {file}: {}", s.at());
            }
            None => println!("ignored (rust,ignore): {}", s.at()),
        }
    }
    let built: Vec<&Snippet> = all.iter().filter(|s| !s.ignored).collect();
    assert!(!built.is_empty(), "no rust snippet found in {documents:?}");

    let dir = scratch();
    std::fs::create_dir_all(&dir).unwrap();
    // The worked example, and the UART of the side-effect tests with its models
    // (`uart-example`), which the side-effect rules are shown on.
    let examples = [
        generate_pl011(&dir),
        generate(
            &dir,
            "tests/side-effects/uart.toml",
            "uart-example",
            &["--models"],
        ),
    ];
    let deps = dependencies(&examples);

    // One crate per snippet, named after its document and its rank there.
    let mut crates: BTreeMap<String, (&Snippet, Vec<Source>)> = BTreeMap::new();
    let mut rank: BTreeMap<&str, usize> = BTreeMap::new();
    for snippet in &built {
        let n = rank.entry(snippet.doc).or_default();
        *n += 1;
        let name = format!("snippet-{}-{n}", crate_stem(snippet.doc));
        let crate_dir = dir.join(&name);
        let files = sources(snippet);
        let build_script = files.iter().any(|f| f.path == "build.rs");
        let build_deps = if build_script {
            format!(
                "\n[build-dependencies]\narmreg-codegen = {{ path = {}, default-features = false }}\n",
                quoted(&root().join("codegen"))
            )
        } else {
            String::new()
        };
        write_if_changed(
            &crate_dir.join("Cargo.toml"),
            &format!(
                "# {} (generated by tests/tests/doc_snippets.rs)\n[package]\nname = \"{name}\"\n\
                 version = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\n\
                 {deps}{build_deps}",
                snippet.at()
            ),
        );
        // A file of an earlier version of the snippet would still be built: start clean.
        for file in walk(&crate_dir.join("src")) {
            let relative = file.strip_prefix(&crate_dir).unwrap();
            if !files.iter().any(|f| Path::new(&f.path) == relative) {
                std::fs::remove_file(&file).unwrap();
            }
        }
        if !build_script {
            let _ = std::fs::remove_file(crate_dir.join("build.rs"));
        }
        for file in &files {
            write_if_changed(&crate_dir.join(&file.path), &file.text);
        }
        provide_data(snippet, &crate_dir);
        crates.insert(name, (snippet, files));
    }
    // Crates of snippets that are gone.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("snippet-") && !crates.contains_key(&name) {
            std::fs::remove_dir_all(&path).unwrap();
        }
    }
    let members = crates
        .keys()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ");
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "# The documentation's snippets as crates (generated by tests/tests/doc_snippets.rs)\n\
             [workspace]\nresolver = \"2\"\nmembers = [{members}]\n"
        ),
    );
    // The workspace's versions of every dependency, so that the build resolves offline.
    write_if_changed(
        &dir.join("Cargo.lock"),
        &std::fs::read_to_string(root().join("Cargo.lock")).unwrap(),
    );

    let out = cargo_in(&dir)
        .args([
            "build",
            "--offline",
            "--workspace",
            "--keep-going",
            "--message-format=json",
        ])
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);

    // The compiler's errors, by snippet crate, each with the notes that follow it (an error found
    // while monomorphising names the snippet's line in such a note).
    let mut failures: BTreeMap<String, Vec<Failure>> = BTreeMap::new();
    let mut last_level: BTreeMap<String, String> = BTreeMap::new();
    for message in stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-message")
    {
        let manifest = Path::new(message["manifest_path"].as_str().unwrap_or_default());
        let Some(name) = manifest
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| crates.contains_key(n))
        else {
            continue;
        };
        let level = message["message"]["level"].as_str().unwrap_or_default();
        let follows_error = last_level.get(&name).is_some_and(|l| l == "error");
        if level != "note" {
            last_level.insert(name.clone(), level.to_string());
        }
        if level != "error" && !(level == "note" && follows_error) {
            continue;
        }
        let (snippet, files) = &crates[&name];
        let at = message["message"]["spans"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|s| s["is_primary"] == true)
            .find_map(|span| {
                let file = Path::new(span["file_name"].as_str()?);
                let line = usize::try_from(span["line_start"].as_u64()?).ok()?;
                let source = files
                    .iter()
                    .find(|f| file.ends_with(Path::new(&name).join(&f.path)))?;
                (source.first..source.first + source.len)
                    .contains(&line)
                    .then(|| format!("{}:{}", snippet.doc, source.doc_line + line - source.first))
            });
        let rendered = message["message"]["rendered"].as_str().unwrap_or_default();
        let errors = failures.entry(name).or_default();
        match errors.last_mut() {
            Some(error) if level == "note" => {
                error.at = error.at.take().or(at);
                error.rendered.push_str(rendered);
            }
            _ => errors.push(Failure {
                at,
                rendered: rendered.to_string(),
            }),
        }
    }
    // Failures the compiler did not report as messages: a build script that failed when it ran.
    for name in crates.keys() {
        if stderr.contains(&format!("`{name}`")) || stderr.contains(&format!("`{name} ")) {
            failures.entry(name.clone()).or_default();
        }
    }

    let elapsed = started.elapsed();
    println!(
        "{} snippets, a crate each in {}, built in {:.1} s",
        crates.len(),
        dir.display(),
        elapsed.as_secs_f64()
    );
    if out.status.success() {
        return;
    }
    assert!(
        !failures.is_empty(),
        "building the snippets failed, in none of them:\n{stderr}"
    );
    let mut report = String::new();
    for (name, errors) in &failures {
        let (snippet, _) = &crates[name];
        let _ = writeln!(
            report,
            "\n=== {}: this snippet does not build (crate {})",
            snippet.at(),
            dir.join(name).display()
        );
        if errors.is_empty() {
            let _ = writeln!(
                report,
                "(no compiler error: cargo's output below says what failed)"
            );
        }
        for error in errors {
            if let Some(at) = &error.at {
                let _ = writeln!(report, "at {at}:");
            }
            let _ = writeln!(report, "{}", error.rendered);
        }
    }
    panic!(
        "{} of {} snippets do not build:{report}\n=== cargo's output:\n{stderr}",
        failures.len(),
        crates.len()
    );
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flat_map(|e| {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}
