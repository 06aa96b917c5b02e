//! `armreg-codegen`: the generator's command line (feature `cli`). With no subcommand it
//! regenerates every crate of the repository's manifest (`cargo run -p codegen`).
//!
//! Each binary that runs it (`armreg-codegen`, and the repository's `codegen`) declares the
//! allocator, [`Allocator`], and calls [`main`].
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use crate::backend::site;
use crate::frontend::Format;
use crate::output::{self, Ownership, Written};
use crate::pipeline::{self, Input, Options, Report};
use crate::{rules, runtime_crates};

/// mimalloc, the allocator the command runs with (`#[global_allocator]` in its binary):
/// generation allocates many small strings on two threads, where glibc's per-thread arenas spent
/// a tenth of a large run growing and trimming their heaps.
pub use mimalloc::MiMalloc as Allocator;

mod allocator;

#[derive(Parser)]
#[command(
    name = "armreg-codegen",
    version,
    about = "Generate typed, zero-cost Rust register crates (and C headers) from register descriptions: CMSIS-SVD, TI XML, Linux sysreg, perf JSON, Arm PMU data and the native TOML format",
    long_about = "Generate typed, zero-cost Rust register crates (and C headers) from register descriptions: CMSIS-SVD, TI XML, Linux sysreg, perf JSON, Arm PMU data and the native TOML format.\n\nWith no subcommand, regenerates every crate that descriptions/manifest.toml lists into generated/, in the repository found from the current directory upwards (or at --root); with --check, writes nothing and fails naming every file that differs. To make one crate from any description file, anywhere, use `generate`.",
    after_help = "Examples:\n  armreg-codegen                      regenerate generated/ from descriptions/manifest.toml\n  armreg-codegen --check              fail if generated/ differs from the descriptions\n  armreg-codegen generate rp2040.svd -o rp2040-pac\n  armreg-codegen dump-ir descriptions/arm-pmuv3.toml\n  armreg-codegen doc -o site\n  armreg-codegen explain no_overlapping_fields"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Write nothing; exit non-zero naming every generated file that differs from the descriptions.
    #[arg(long)]
    check: bool,
    /// Turn every warning about a vendor file into an error (native descriptions always are).
    #[arg(long, global = true)]
    strict: bool,
    /// The repository root (holding descriptions/ and generated/); found from the current
    /// directory upwards by default.
    #[arg(long)]
    root: Option<PathBuf>,
    /// List every change the patch files made (file:line:col of the operation, the element,
    /// old → new) on standard error.
    #[arg(long, global = true)]
    explain_patches: bool,
}

/// How `dump-ir`, `generate` and `doc` read their inputs: the format, the patches applied to them
/// and the warnings allowed.
#[derive(Args)]
struct Reading {
    /// The inputs' format (when omitted, detected for each file from its content: XML root
    /// element, JSON keys, `Sysreg` lines; `.svd` and `.toml` names decide too).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// A patch file to apply to the inputs before they are checked (repeatable: applied in
    /// order). See descriptions/FORMAT.md, "Patch files".
    #[arg(long = "patch", value_name = "FILE")]
    patches: Vec<PathBuf>,
    /// Allow the warnings of a rule (repeatable), as `#[allow]` does: they are not shown, only
    /// counted (`N warnings allowed: <rule>`). A rule that is always an error cannot be allowed.
    #[arg(long = "allow", value_name = "RULE")]
    allow: Vec<String>,
}

impl Reading {
    /// The pipeline's options for these settings, or the exit code of a refused `--allow`.
    fn options(self, strict: bool) -> Result<Options, ExitCode> {
        check_allowed(&self.allow)?;
        Ok(Options {
            format: self.format,
            strict,
            patches: inputs_of(&self.patches),
            allow: self.allow,
            ..Options::default()
        })
    }
}

#[derive(Subcommand)]
enum Command {
    /// Print the validated IR of descriptions as JSON.
    #[command(
        after_help = "Example:\n  armreg-codegen dump-ir descriptions/arm-pmuv3.toml > pmuv3.json"
    )]
    DumpIr {
        /// Description files (merged into one device).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        reading: Reading,
    },
    /// Generate one crate from description files, without a manifest entry, into any folder.
    ///
    /// The crate depends on armreg-rt (and pmu-macros, for events) by version, and by a path
    /// relative to the output folder as well when the runtime is found: the one given with
    /// --runtime-path, or the one of the tree this generator was built from. Files the generator
    /// did not write are never replaced, unless --force is given.
    ///
    /// Two runs into one folder take turns: the second waits for the first, then makes the
    /// folder its own crate.
    #[command(
        after_help = "Examples:\n  armreg-codegen generate rp2040.svd -o rp2040-pac\n  armreg-codegen generate rp2040.svd -o rp2040-pac --c-headers --models\n  armreg-codegen generate soc.xml overlay.toml -o soc-regs --name soc-regs --license MIT\n  armreg-codegen generate soc.svd -o pac --runtime-version 0.1 --runtime-path ../armreg/runtime"
    )]
    Generate {
        /// Description files (merged into one crate).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The directory to write the crate to.
        #[arg(short, long)]
        out: PathBuf,
        /// The crate's name (default: the directory's name).
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        reading: Reading,
        /// The crate's licence, an SPDX expression (default: the licence the inputs state).
        #[arg(long)]
        license: Option<String>,
        /// The armreg-rt folder to depend on by path (default: the runtime of the tree this
        /// generator was built from, when it still exists).
        #[arg(long)]
        runtime_path: Option<PathBuf>,
        /// The version requirement of armreg-rt and pmu-macros (default: this generator's
        /// version).
        #[arg(long)]
        runtime_version: Option<String>,
        /// The generated crate's own version.
        #[arg(long, default_value = "0.1.0")]
        crate_version: String,
        /// The `repository` URL written into the crate's Cargo.toml.
        #[arg(long)]
        repository: Option<String>,
        /// Also write C headers of the registers (`include/<crate>/*.h`).
        #[arg(long)]
        c_headers: bool,
        /// Also write behavioural models of the memory-mapped blocks (module `model`, behind the
        /// crate's `model` feature), for host tests.
        #[arg(long)]
        models: bool,
        /// Replace files in the output folder that the generator did not write.
        #[arg(long)]
        force: bool,
        /// Print the wall time of each phase (read, parse, validate, emit, report, write) to
        /// standard error.
        #[arg(long)]
        timings: bool,
    },
    /// Explain a rule a diagnostic names (`error[<rule>]`): what it checks, how it is treated, the
    /// inputs it applies to and an input that breaks it. With no rule, list every rule.
    #[command(
        after_help = "Examples:\n  armreg-codegen explain no_overlapping_fields\n  armreg-codegen explain"
    )]
    Explain {
        /// The rule's name.
        rule: Option<String>,
    },
    /// Write the register-map site (static HTML): of description files, the way `generate`
    /// takes them, or with none, of every crate of the repository's manifest.
    ///
    /// Each register and field is shown with its Rust path in the crate `generate` (or the
    /// build script) makes of the same files, beside the vendor's names.
    #[command(
        after_help = "Examples:\n  armreg-codegen doc rp2040.svd -o site && xdg-open site/index.html\n  armreg-codegen doc soc.svd --name soc-pac --patch fixes.toml -o site\n  armreg-codegen doc -o site                 the manifest's crates"
    )]
    Doc {
        /// Description files (merged into one device, as `generate` merges them); none: the
        /// repository's manifest.
        inputs: Vec<PathBuf>,
        /// The folder to write the site to (default: `register-site` for description files,
        /// target/register-site under the root for the manifest).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// The crate's name, as `generate --name` gives it (default: the first file's name
        /// without its extension), for the Rust paths.
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        reading: Reading,
    },
}

/// Runs the command line on the process's arguments.
pub fn main() -> ExitCode {
    allocator::keep_freed_memory();
    let cli = Cli::parse();
    match cli.command {
        None => regenerate(cli.root, cli.check, cli.strict, cli.explain_patches),
        Some(Command::Doc {
            inputs,
            out,
            name,
            reading,
        }) => {
            if inputs.is_empty() {
                site(cli.root, out, cli.strict)
            } else {
                match reading.options(cli.strict) {
                    Ok(options) => site_of_inputs(&inputs, name, out, &options),
                    Err(code) => code,
                }
            }
        }
        Some(Command::Explain { rule }) => explain(rule.as_deref()),
        Some(Command::DumpIr { inputs, reading }) => match reading.options(cli.strict) {
            Ok(options) => dump_ir(&inputs, options, cli.explain_patches),
            Err(code) => code,
        },
        Some(Command::Generate {
            inputs,
            out,
            name,
            reading,
            license,
            runtime_path,
            runtime_version,
            crate_version,
            repository,
            c_headers,
            models,
            force,
            timings,
        }) => {
            let reading = match reading.options(cli.strict) {
                Ok(options) => options,
                Err(code) => return code,
            };
            if let Some(l) = license
                .as_deref()
                .filter(|l| !crate::license::is_expression(l))
            {
                eprintln!("error: --license {l:?} is not an SPDX licence expression (`MIT OR Apache-2.0`)");
                return ExitCode::FAILURE;
            }
            let request = runtime_crates::Request {
                runtime_path,
                runtime_version,
                crate_version: Some(crate_version),
                repository,
            };
            let packaging = match runtime_crates::packaging(&out, &request) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            generate_one(
                &inputs,
                &out,
                name,
                Options {
                    license,
                    packaging,
                    outputs: crate::backend::Outputs { c_headers, models },
                    ..reading
                },
                force,
                timings,
                cli.explain_patches,
            )
        }
    }
}

/// `codegen explain [rule]`: one rule explained, or every rule listed. A name that is no rule's
/// fails, with the rules it may have meant.
fn explain(name: Option<&str>) -> ExitCode {
    let Some(name) = name else {
        print!("{}", rules::text::list());
        return ExitCode::SUCCESS;
    };
    if let Some(rule) = rules::find(name) {
        print!("{}", rules::text::explain(rule));
        return ExitCode::SUCCESS;
    }
    let close: Vec<&str> = rules::similar(name).iter().map(|rule| rule.name).collect();
    if close.is_empty() {
        eprintln!("error: no rule is named `{name}`; `armreg-codegen explain` lists every rule");
    } else {
        eprintln!(
            "error: no rule is named `{name}`; did you mean one of these?\n  {}",
            close.join("\n  ")
        );
    }
    ExitCode::FAILURE
}

/// `--allow` names only rules whose findings can be warnings: an error cannot be allowed.
fn check_allowed(rules: &[String]) -> Result<(), ExitCode> {
    let mut refused = false;
    for rule in rules {
        if let Some(message) = crate::manifest::unallowable(rule) {
            eprintln!("error: --allow {rule}: {message}");
            refused = true;
        }
    }
    if refused {
        Err(ExitCode::FAILURE)
    } else {
        Ok(())
    }
}

fn inputs_of(paths: &[PathBuf]) -> Vec<Input> {
    paths
        .iter()
        .map(|p| Input {
            path: p.clone(),
            shown: p.display().to_string(),
        })
        .collect()
}

fn fail(report: &Report) -> ExitCode {
    eprintln!("{}", report.render());
    eprintln!(
        "error: {} error(s); nothing was written",
        report.error_count()
    );
    ExitCode::FAILURE
}

/// Prints what the patches changed, when asked to (`--explain-patches`).
fn explain_patches(report: &Report, wanted: bool) {
    if wanted {
        for line in &report.patch_log {
            eprintln!("patch: {line}");
        }
    }
}

fn dump_ir(paths: &[PathBuf], options: Options, explain: bool) -> ExitCode {
    let mut report = Report::default();
    let loaded = pipeline::load(&inputs_of(paths), &options, &mut report);
    explain_patches(&report, explain && loaded.is_some());
    if (!report.diagnostics.is_empty() || !report.allowed.is_empty()) && loaded.is_some() {
        eprintln!("{}", report.render());
    }
    match loaded {
        Some(device) => match serde_json::to_string_pretty(&device) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot serialize the IR: {e}");
                ExitCode::FAILURE
            }
        },
        None => fail(&report),
    }
}

fn generate_one(
    paths: &[PathBuf],
    out: &Path,
    name: Option<String>,
    options: Options,
    force: bool,
    timings: bool,
    explain: bool,
) -> ExitCode {
    // `-o .` names the crate after the folder it resolves to.
    let name = name.unwrap_or_else(|| {
        crate::paths::resolve(out)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "registers".to_string())
    });
    let mut report = Report::default();
    let krate = pipeline::generate_crate(
        &name,
        &inputs_of(paths),
        options,
        out.to_path_buf(),
        &mut report,
    );
    let started = Instant::now();
    let Some(krate) = krate else {
        return fail(&report);
    };
    explain_patches(&report, explain);
    if !report.diagnostics.is_empty() || !report.allowed.is_empty() {
        eprintln!("{}", report.render());
    }
    report.timings.add("report", started);
    // Only this crate's directory is brought in line; siblings are not touched.
    let started = Instant::now();
    let written = output::write(
        None,
        std::slice::from_ref(&krate),
        Ownership::Written { force },
    );
    report.timings.add("write", started);
    if timings {
        eprintln!("{}", report.timings.render());
    }
    match written {
        Ok(done) => {
            print_written(&done);
            println!("generated crate `{name}` in {}", out.display());
            let (merged, types) = report.merged_enums;
            if merged > 0 {
                println!(
                    "{merged} enum{} merged into {types} type{} of identical enums (same variants, values and descriptions)",
                    if merged == 1 { "" } else { "s" },
                    if types == 1 { "" } else { "s" },
                );
            }
            let cargo = krate.files.iter().find(|f| f.path == "Cargo.toml");
            if cargo.is_some_and(|c| !c.content.contains("\nlicense = ")) {
                eprintln!("warning: the inputs state no licence, so the crate's Cargo.toml names none; give one with --license");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}

fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("descriptions/manifest.toml").is_file())
        .map(Path::to_path_buf)
}

fn print_written(done: &[Written]) {
    for w in done {
        match w {
            Written::Created(p) => println!("created {}", p.display()),
            Written::Updated(p) => println!("updated {}", p.display()),
            Written::Removed(p) => println!("removed {}", p.display()),
            Written::Completed { dir, changes } => println!(
                "completed the commit of an interrupted run in {}: {changes} change(s)",
                dir.display()
            ),
        }
    }
}

fn regenerate(root: Option<PathBuf>, check: bool, strict: bool, explain: bool) -> ExitCode {
    let started = Instant::now();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let Some(root) = root.or_else(|| find_root(&cwd)) else {
        eprintln!(
            "error: no descriptions/manifest.toml in {} or above; pass --root",
            cwd.display()
        );
        return ExitCode::FAILURE;
    };
    let manifest = root.join("descriptions/manifest.toml");
    let generated = root.join("generated");
    let mut report = Report::default();
    let Some(crates) = pipeline::generate_manifest(&manifest, &generated, strict, &mut report)
    else {
        return fail(&report);
    };
    explain_patches(&report, explain);
    if !report.diagnostics.is_empty() || !report.allowed.is_empty() {
        eprintln!("{}", report.render());
    }
    let relative = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    if check {
        let drift = output::check(Some(&generated), &crates, Ownership::Folder);
        if drift.is_empty() {
            println!(
                "generated/ is up to date ({} crates, {} files)",
                crates.len(),
                crates.iter().map(|c| c.files.len()).sum::<usize>()
            );
            return ExitCode::SUCCESS;
        }
        for d in &drift {
            eprintln!("{d}");
        }
        eprintln!(
            "error: {} generated file(s) differ from the descriptions; run `cargo run -p codegen` to regenerate",
            drift.len()
        );
        return ExitCode::FAILURE;
    }
    match output::write(Some(&generated), &crates, Ownership::Folder) {
        Ok(done) => {
            for c in &crates {
                let lines: usize = c.files.iter().map(|f| f.content.lines().count()).sum();
                println!(
                    "{}: {} files, {lines} lines",
                    relative(&c.dir),
                    c.files.len()
                );
            }
            print_written(&done);
            if done.is_empty() {
                println!("nothing changed");
            }
            println!("done in {:.0} ms", started.elapsed().as_secs_f64() * 1000.0);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing generated/: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `codegen doc`: the register-map site for the manifest's crates, written into `out`, whose
/// files are then exactly the site's (stale pages removed). A folder holding anything else is
/// left alone, so a mistyped `-o` cannot empty it.
/// `doc <inputs>`: the site of one crate made of description files.
fn site_of_inputs(
    paths: &[PathBuf],
    name: Option<String>,
    out: Option<PathBuf>,
    options: &Options,
) -> ExitCode {
    let name = name.unwrap_or_else(|| {
        paths[0].file_stem().map_or_else(
            || "registers".to_string(),
            |s| s.to_string_lossy().into_owned(),
        )
    });
    let inputs = inputs_of(paths);
    let mut report = Report::default();
    let Some(device) = pipeline::load(&inputs, options, &mut report) else {
        return fail(&report);
    };
    if !report.diagnostics.is_empty() || !report.allowed.is_empty() {
        eprintln!("{}", report.render());
    }
    let shown: Vec<String> = inputs.iter().map(|i| i.shown.clone()).collect();
    let flat = device.flattened();
    let sources = [site::Source {
        crate_name: &name,
        inputs: &shown,
        device: &flat,
        unflattened: &device,
    }];
    write_site(
        &sources,
        &out.unwrap_or_else(|| PathBuf::from("register-site")),
    )
}

fn site(root: Option<PathBuf>, out: Option<PathBuf>, strict: bool) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let Some(root) = root.or_else(|| find_root(&cwd)) else {
        eprintln!(
            "error: no descriptions/manifest.toml in {} or above; pass --root",
            cwd.display()
        );
        return ExitCode::FAILURE;
    };
    let out = out.unwrap_or_else(|| root.join("target/register-site"));
    let mut report = Report::default();
    let Some(loaded) = pipeline::load_manifest(
        &root.join("descriptions/manifest.toml"),
        strict,
        &mut report,
    ) else {
        return fail(&report);
    };
    if !report.diagnostics.is_empty() || !report.allowed.is_empty() {
        eprintln!("{}", report.render());
    }
    // The site shows each block as one map: clusters are flattened into it.
    let flat: Vec<_> = loaded.iter().map(|l| l.device.flattened()).collect();
    let sources: Vec<site::Source<'_>> = loaded
        .iter()
        .zip(&flat)
        .map(|(l, device)| site::Source {
            crate_name: &l.entry.name,
            inputs: &l.shown,
            device,
            unflattened: &l.device,
        })
        .collect();
    write_site(&sources, &out)
}

/// Writes the site of `sources` into `out`, whose files are then exactly the site's (stale pages
/// removed). A folder holding anything else is left alone, so a mistyped `-o` cannot empty it.
fn write_site(sources: &[site::Source<'_>], out: &Path) -> ExitCode {
    let files = match site::generate(sources) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ours =
        std::fs::read_to_string(out.join("index.html")).is_ok_and(|t| t.contains(site::GENERATOR));
    let empty = std::fs::read_dir(out).map_or(true, |mut d| d.next().is_none());
    if !ours && !empty {
        eprintln!(
            "error: {} is not empty and holds no register site; choose an empty folder",
            out.display()
        );
        return ExitCode::FAILURE;
    }
    let pages = files.len();
    match output::write(
        None,
        &[output::CrateOutput {
            dir: out.to_path_buf(),
            files,
        }],
        Ownership::Folder,
    ) {
        Ok(done) => {
            println!(
                "register site: {pages} pages in {} (open {})",
                out.display(),
                out.join("index.html").display()
            );
            if done.is_empty() {
                println!("nothing changed");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}
