//! `cargo run -p codegen`: regenerate every crate the manifest lists.
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use codegen::backend::site;
use codegen::frontend::Format;
use codegen::output::{self, Written};
use codegen::pipeline::{self, Input, Options, Report};

/// mimalloc: generation allocates many small strings on two threads, where glibc's per-thread
/// arenas spent a tenth of a large run growing and trimming their heaps.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod allocator;

#[derive(Parser)]
#[command(about = "Generate typed Rust register accessors from register descriptions")]
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
}

#[derive(Subcommand)]
enum Command {
    /// Print the validated IR of descriptions as JSON.
    DumpIr {
        /// Description files (merged into one device).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The inputs' format (detected from the file name when omitted).
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
    /// Generate one crate from description files, without a manifest entry.
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
        /// The inputs' format (detected from the file name when omitted).
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Print the wall time of each phase (read, parse, validate, emit, report, write) to
        /// standard error.
        #[arg(long)]
        timings: bool,
    },
    /// Write the register-map site (static HTML) for every crate of the manifest.
    Doc {
        /// The folder to write the site to (default: target/register-site under the root).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    let cli = Cli::parse();
    match cli.command {
        None => regenerate(cli.root, cli.check, cli.strict),
        Some(Command::Doc { out }) => site(cli.root, out, cli.strict),
        Some(Command::DumpIr { inputs, format }) => dump_ir(
            &inputs,
            Options {
                format,
                strict: cli.strict,
                ..Options::default()
            },
        ),
        Some(Command::Generate {
            inputs,
            out,
            name,
            format,
            timings,
        }) => generate_one(
            &inputs,
            &out,
            name,
            Options {
                format,
                strict: cli.strict,
                ..Options::default()
            },
            timings,
        ),
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
    let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
    eprintln!("error: {errors} error(s); nothing was written");
    ExitCode::FAILURE
}

fn dump_ir(paths: &[PathBuf], options: Options) -> ExitCode {
    let mut report = Report::default();
    let loaded = pipeline::load(&inputs_of(paths), &options, &mut report);
    if !report.diagnostics.is_empty() && loaded.is_some() {
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
    timings: bool,
) -> ExitCode {
    let name = name.unwrap_or_else(|| {
        out.file_name()
            .map(|n| n.to_string_lossy().into_owned())
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
    if !report.diagnostics.is_empty() {
        eprintln!("{}", report.render());
    }
    report.timings.add("report", started);
    // Only this crate's directory is brought in line; siblings are not touched.
    let started = Instant::now();
    let written = output::write(None, std::slice::from_ref(&krate));
    report.timings.add("write", started);
    if timings {
        eprintln!("{}", report.timings.render());
    }
    match written {
        Ok(done) => {
            print_written(&done);
            println!("generated crate `{name}` in {}", out.display());
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
        }
    }
}

fn regenerate(root: Option<PathBuf>, check: bool, strict: bool) -> ExitCode {
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
    if !report.diagnostics.is_empty() {
        eprintln!("{}", report.render());
    }
    let relative = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    if check {
        let drift = output::check(Some(&generated), &crates);
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
            "error: {} generated file(s) differ from the descriptions; run `cargo run -p codegen`",
            drift.len()
        );
        return ExitCode::FAILURE;
    }
    match output::write(Some(&generated), &crates) {
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
    if !report.diagnostics.is_empty() {
        eprintln!("{}", report.render());
    }
    let sources: Vec<site::Source<'_>> = loaded
        .iter()
        .map(|l| site::Source {
            crate_name: &l.entry.name,
            inputs: &l.shown,
            device: &l.device,
        })
        .collect();
    let files = match site::generate(&sources) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ours =
        std::fs::read_to_string(out.join("index.html")).is_ok_and(|t| t.contains(site::GENERATOR));
    let empty = std::fs::read_dir(&out).map_or(true, |mut d| d.next().is_none());
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
            dir: out.clone(),
            files,
        }],
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
