//! The pipeline end to end: read descriptions, parse, run the passes, generate.
#[cfg(feature = "crates")]
use std::fs;
#[cfg(feature = "crates")]
use std::path::Path;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::backend::rust::Packaging;
#[cfg(feature = "crates")]
use crate::backend::rust::{CataloguePart, Dependency};
use crate::backend::Outputs;
#[cfg(feature = "crates")]
use crate::backend::{Input as BackendInput, BACKENDS};
use crate::diagnostic::{Diagnostic, Sources};
use crate::frontend::{self, Format};
use crate::ir::{Device, Pos};
#[cfg(feature = "crates")]
use crate::manifest::{self, Entry};
#[cfg(feature = "crates")]
use crate::output::CrateOutput;
use crate::passes::Mode;
use crate::rules::INPUT_READABLE;
#[cfg(feature = "crates")]
use crate::rules::MANIFEST_SYNTAX;

/// What a run reports: every diagnostic, the sources to render them with, and how long each
/// phase took.
#[derive(Default)]
pub struct Report {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Sources,
    pub timings: Timings,
    /// Warnings of rules that are allowed (a manifest entry's `allow`, `--allow`,
    /// `Build::allow`): counted per crate and rule, not shown.
    pub allowed: Vec<Allowed>,
    /// Enums merged into the type of an identical one, and the types they share, in the crates
    /// generated (`generate` prints them).
    pub merged_enums: (usize, usize),
    /// What each patch changed, a line per change (`--explain-patches`), in the order applied.
    pub patch_log: Vec<String>,
    /// Failures that are no finding about an input, so they name no rule and no position: a
    /// crate name from the command line that Cargo would refuse, or a backend that failed (a bug
    /// of the generator, which no input should reach).
    pub failures: Vec<String>,
    /// What laying the native inputs over Arm's data found (`passes::overlay`), when it ran.
    pub overlay: Option<crate::passes::overlay::Summary>,
}

/// The warnings of one rule that were allowed, and so not shown: only counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowed {
    /// The manifest's crate whose `allow` names the rule; `None` for `--allow` and
    /// `Build::allow`.
    pub krate: Option<String>,
    pub rule: &'static str,
    pub count: usize,
}

impl std::fmt::Display for Allowed {
    /// `3 warnings allowed: duplicate_interrupts` (with the crate, for a manifest's `allow`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.count;
        let s = if n == 1 { "" } else { "s" };
        match &self.krate {
            Some(krate) => write!(
                f,
                "{krate}: {n} warning{s} allowed: {} (the manifest's `allow`)",
                self.rule
            ),
            None => write!(f, "{n} warning{s} allowed: {}", self.rule),
        }
    }
}

/// Wall time per phase (`read`, `parse`, `validate`, `emit`, ...), summed over inputs and crates,
/// in the order phases first ran, and the process's peak memory when the phase last ended.
#[derive(Default, Debug, Clone)]
pub struct Timings(Vec<(&'static str, Duration, Option<u64>)>);

impl Timings {
    /// Adds the time since `since` to `phase`.
    pub fn add(&mut self, phase: &'static str, since: Instant) {
        let d = since.elapsed();
        let peak = peak_memory_kb();
        match self.0.iter_mut().find(|(p, _, _)| *p == phase) {
            Some((_, total, at)) => {
                *total += d;
                *at = peak;
            }
            None => self.0.push((phase, d, peak)),
        }
    }

    /// `phase 12.3 ms peak 80 MB` per phase, one line each (no peak where the system does not
    /// tell it).
    pub fn render(&self) -> String {
        self.0
            .iter()
            .map(|(p, d, peak)| {
                let ms = d.as_secs_f64() * 1e3;
                match peak {
                    Some(kb) => format!("{p:<9} {ms:>8.1} ms  peak {:>5} MB", kb / 1024),
                    None => format!("{p:<9} {ms:>8.1} ms"),
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The process's peak resident memory so far (`VmHWM`, Linux), in KB: where a run reaches its
/// peak shows which phase to make leaner.
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// How many warnings of one rule a report shows; the rest are counted.
const WARNINGS_SHOWN_PER_RULE: usize = 20;

impl Report {
    pub fn has_errors(&self) -> bool {
        self.error_count() > 0
    }

    /// The errors: diagnostics and failures.
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count() + self.failures.len()
    }

    /// Every diagnostic rendered with its snippet, every failure, then a line per crate and rule
    /// whose warnings the manifest allows.
    pub fn render(&self) -> String {
        // A vendor file can repeat one defect thousands of times: each rule's first warnings
        // are shown, the rest counted (errors are all shown; `--strict` makes every warning one).
        let mut shown: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
        let mut rendered = Vec::new();
        for d in &self.diagnostics {
            let n = shown.entry(d.rule.name).or_default();
            if !d.is_error() {
                *n += 1;
                if *n > WARNINGS_SHOWN_PER_RULE {
                    continue;
                }
            }
            rendered.push(d.render(&self.sources));
        }
        let more = shown
            .iter()
            .filter(|(_, n)| **n > WARNINGS_SHOWN_PER_RULE)
            .map(|(rule, n)| {
                format!(
                    "note: {} more warning(s) of rule `{rule}` not shown (the first {WARNINGS_SHOWN_PER_RULE} are; `--strict` reports every one as an error)",
                    n - WARNINGS_SHOWN_PER_RULE
                )
            });
        rendered
            .into_iter()
            .chain(more)
            .chain(
                self.failures
                    .iter()
                    .map(|failure| format!("error: {failure}")),
            )
            .chain(self.allowed.iter().map(|a| format!("note: {a}")))
            .chain(self.overlay.iter().map(|o| format!("note: {o}")))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Takes the warnings of `rules` added since `from` out of the diagnostics and counts them
    /// for `krate` (`None`: allowed by the command line or the build script).
    fn allow(&mut self, krate: Option<&str>, rules: &[String], from: usize) {
        if rules.is_empty() {
            return;
        }
        let mut kept = Vec::new();
        for d in self.diagnostics.drain(from..).collect::<Vec<_>>() {
            if !d.is_error() && rules.iter().any(|r| r == d.rule.name) {
                let krate = krate.map(str::to_string);
                match self
                    .allowed
                    .iter_mut()
                    .find(|a| a.rule == d.rule.name && a.krate == krate)
                {
                    Some(a) => a.count += 1,
                    None => self.allowed.push(Allowed {
                        krate,
                        rule: d.rule.name,
                        count: 1,
                    }),
                }
            } else {
                kept.push(d);
            }
        }
        self.diagnostics.extend(kept);
    }
}

fn io_error(file: &str, message: String) -> Diagnostic {
    let pos = Pos::file_start(file);
    Diagnostic::error(INPUT_READABLE, &pos, message)
}

/// A description file: where to read it and the name its positions carry.
#[derive(Clone, Debug)]
pub struct Input {
    pub path: PathBuf,
    pub shown: String,
}

/// How inputs are read and the crate is made.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The inputs' format; detected per file when `None`.
    pub format: Option<Format>,
    /// Turn every warning into an error (native descriptions always are strict).
    pub strict: bool,
    /// The crate's version, its dependencies (and where they are) and its repository.
    pub packaging: Packaging,
    /// The event-type value the events convert into, when not given by the description.
    pub event_type: Option<String>,
    /// The crate's licence (an SPDX expression), when not the one the inputs state.
    pub license: Option<String>,
    /// The optional outputs: C headers, behavioural models.
    pub outputs: Outputs,
    /// Patch files, applied in order to the merged inputs before the passes run.
    pub patches: Vec<Input>,
    /// Rules whose warnings are not shown, only counted (`--allow`, `Build::allow`; see
    /// [`manifest::unallowable`](crate::manifest::unallowable) for the rules that can be).
    pub allow: Vec<String>,
}

/// Reads, parses and validates `inputs` into one device. Returns `None` when any error was
/// reported.
pub fn load(inputs: &[Input], options: &Options, report: &mut Report) -> Option<Device> {
    let first_diagnostic = report.diagnostics.len();
    let mut strict = options.strict;
    let mut device: Option<Device> = None;
    // Arm's data, when an input is: the native inputs are laid over it (`passes::overlay`).
    let mut architecture: Option<Device> = None;
    let mut data_warnings = Vec::new();
    for input in inputs {
        // A perf pmu-events core folder and an AARCHMRS release tarball are read by their
        // frontends.
        let dir = input.path.is_dir() || frontend::aarchmrs::is_release(&input.path);
        report.sources.note_read(&input.path);
        let started = Instant::now();
        let text = match if dir {
            Ok(String::new())
        } else {
            frontend::read_input(&input.path)
        } {
            Ok(t) => t,
            Err(e) => {
                report.diagnostics.push(io_error(
                    &input.shown,
                    format!("cannot read {}: {e}", input.path.display()),
                ));
                continue;
            }
        };
        let Some(format) = options
            .format
            .or_else(|| Format::detect(&input.path, &text))
        else {
            report
                .diagnostics
                .push(frontend::unknown_format(&input.shown));
            // Its first line is shown, which is what a reader would tell the format by.
            report.sources.insert(&input.shown, text);
            continue;
        };
        strict |= format.always_strict();
        report.timings.add("read", started);
        let started = Instant::now();
        let parsed = frontend::parse(
            format,
            &input.shown,
            &input.path,
            &text,
            &mut report.sources,
        );
        report.timings.add("parse", started);
        if !dir {
            report.sources.insert(&input.shown, text);
        }
        match parsed {
            Ok((d, warnings)) if format == Format::Aarchmrs => {
                // Arm's data is a vendor input: the native files laid over it do not make its
                // warnings errors (only `--strict` does).
                data_warnings = warnings;
                architecture = Some(d);
            }
            Ok((d, warnings)) => {
                report.diagnostics.extend(warnings);
                match device.as_mut() {
                    None => device = Some(d),
                    Some(all) => {
                        all.license = crate::license::combine(
                            all.license.iter().chain(&d.license).map(String::as_str),
                        );
                        all.notice = match (all.notice.take(), d.notice) {
                            (Some(a), Some(b)) if a != b => Some(format!("{a}\n\n{b}")),
                            (a, b) => a.or(b),
                        };
                        all.layouts.extend(d.layouts);
                        all.sysregs.extend(d.sysregs);
                        all.blocks.extend(d.blocks);
                        all.instances.extend(d.instances);
                        all.events.extend(d.events);
                        all.cores.extend(d.cores);
                        all.amendments.extend(d.amendments);
                        all.differences.extend(d.differences);
                        all.cpu = all.cpu.take().or(d.cpu);
                    }
                }
            }
            Err(errors) => report.diagnostics.extend(errors),
        }
    }
    // A frontend's allowed warnings stay allowed under `--strict` (as `#[allow]` under
    // `-D warnings`); the passes repair nothing under `--strict`, so theirs are errors then.
    report.allow(None, &options.allow, first_diagnostic);
    if strict {
        for d in &mut report.diagnostics {
            d.severity = crate::diagnostic::Severity::Error;
        }
    }
    let data_from = report.diagnostics.len();
    report.diagnostics.extend(data_warnings);
    report.allow(None, &options.allow, data_from);
    if options.strict {
        for d in &mut report.diagnostics[data_from..] {
            d.severity = crate::diagnostic::Severity::Error;
        }
    }
    if report.has_errors() {
        return None;
    }
    let mut device = match (architecture, device) {
        (Some(data), Some(native)) => {
            let started = Instant::now();
            let (merged, diagnostics, summary) = crate::passes::overlay::run(data, native);
            report.diagnostics.extend(diagnostics);
            report.overlay = Some(summary);
            report.timings.add("overlay", started);
            if report.has_errors() {
                return None;
            }
            merged
        }
        (data, native) => native.or(data)?,
    };
    let started = Instant::now();
    device.canonicalize();
    if !options.patches.is_empty() {
        apply_patches(&mut device, &options.patches, report);
        report.timings.add("patch", started);
        if report.has_errors() {
            return None;
        }
    }
    let started = Instant::now();
    let mode = if strict { Mode::Strict } else { Mode::Lenient };
    let passes_from = report.diagnostics.len();
    report
        .diagnostics
        .extend(crate::passes::run(&mut device, mode));
    report.allow(None, &options.allow, passes_from);
    report.timings.add("validate", started);
    (!report.has_errors()).then_some(device)
}

/// Reads each patch file and applies it to `device`, one after the other: a later file acts on
/// what an earlier one made. Stops at the first file with errors.
fn apply_patches(device: &mut Device, patches: &[Input], report: &mut Report) {
    for patch in patches {
        report.sources.note_read(&patch.path);
        let text = match frontend::read_input(&patch.path) {
            Ok(t) => t,
            Err(e) => {
                report.diagnostics.push(io_error(
                    &patch.shown,
                    format!("cannot read {}: {e}", patch.path.display()),
                ));
                return;
            }
        };
        let parsed = crate::patch::parse(&patch.shown, &text);
        report.sources.insert(&patch.shown, text);
        let file = match parsed {
            Ok(file) => file,
            Err(errors) => {
                report.diagnostics.extend(errors);
                return;
            }
        };
        let (errors, log) = crate::patch::apply(device, &file);
        if !errors.is_empty() {
            report.diagnostics.extend(errors);
            return;
        }
        report.patch_log.extend(log);
    }
}

/// Generates the crate `name` from `inputs` into the directory `out`.
#[cfg(feature = "crates")]
pub fn generate_crate(
    name: &str,
    inputs: &[Input],
    options: Options,
    out: PathBuf,
    report: &mut Report,
) -> Option<CrateOutput> {
    // The name goes into `Cargo.toml` and the headers' directory: only what Cargo accepts.
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        report.failures.push(format!(
            "crate name `{}` must be ASCII letters, digits, `-` and `_`, starting with a letter (name it with --name)",
            name.escape_default()
        ));
        return None;
    }
    let device = load_named(name, inputs, &options, report)?;
    let shown: Vec<String> = inputs.iter().map(|i| i.shown.clone()).collect();
    emit_crate(&device, &shown, &options, None, out, report)
}

/// `load`, with the device named after its crate and the event type the options give.
#[cfg(feature = "crates")]
fn load_named(
    name: &str,
    inputs: &[Input],
    options: &Options,
    report: &mut Report,
) -> Option<Device> {
    let mut device = load(inputs, options, report)?;
    device.name = name.to_string();
    if options.event_type.is_some() {
        device.event_type = options.event_type.clone();
    }
    if options.license.is_some() {
        device.license = options.license.clone();
    }
    Some(device)
}

/// Runs every backend of `BACKENDS` on `device` (a catalogue's when `catalogue` is given) and
/// gathers their files for the directory `out`.
#[cfg(feature = "crates")]
fn emit_crate(
    device: &Device,
    shown: &[String],
    options: &Options,
    catalogue: Option<&[CataloguePart<'_>]>,
    out: PathBuf,
    report: &mut Report,
) -> Option<CrateOutput> {
    let shown = shown_in_output(shown);
    let input = BackendInput {
        device,
        inputs: &shown,
        packaging: &options.packaging,
        outputs: options.outputs,
        catalogue,
    };
    // The first backend (Rust) runs on this thread, which reuses the memory the parse freed
    // (on a fresh thread, its pages were faulted in anew); each other one on a thread of its own
    // meanwhile: the C headers are written while the Rust crate is.
    let started = Instant::now();
    let results: Vec<_> = std::thread::scope(|scope| {
        let (first, others) = BACKENDS.split_first().expect("a backend");
        let running: Vec<_> = others
            .iter()
            .map(|backend| (backend, scope.spawn(move || (backend.emit)(&input))))
            .collect();
        let first_files =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (first.emit)(&input)))
                .unwrap_or_else(|_| Err(format!("`{}` panicked", first.name)));
        std::iter::once((first.name, first_files))
            .chain(running.into_iter().map(|(backend, thread)| {
                let files = thread
                    .join()
                    .unwrap_or_else(|_| Err(format!("`{}` panicked", backend.name)));
                (backend.name, files)
            }))
            .collect()
    });
    report.timings.add("emit", started);
    let mut files = Vec::new();
    let mut failed = false;
    // A backend's failure is the generator's bug, not a rule an input breaks: a plain error.
    for (backend, result) in results {
        match result {
            Ok(f) => files.extend(f),
            Err(message) => {
                failed = true;
                report
                    .failures
                    .push(format!("the `{backend}` backend failed: {message}"));
            }
        }
    }
    if failed {
        return None;
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let (fields, types) = crate::backend::rust::merged_enums(device);
    report.merged_enums.0 += fields;
    report.merged_enums.1 += types;
    Some(CrateOutput { dir: out, files })
}

/// Input names as banners and comments show them: a control character (a line break in a file
/// name) would end the comment, so each is shown as `?`; an absolute path would make the output
/// depend on the machine, so only its file name is shown.
#[cfg(feature = "crates")]
fn shown_in_output(shown: &[String]) -> Vec<String> {
    shown
        .iter()
        .map(|s| {
            let path = Path::new(s);
            let s = match path.file_name() {
                Some(name) if path.is_absolute() => name.to_string_lossy().into_owned(),
                _ => s.clone(),
            };
            s.chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect()
        })
        .collect()
}

/// One crate of the manifest, read and validated.
#[cfg(feature = "crates")]
pub struct Loaded {
    pub entry: Entry,
    /// The inputs as positions and banners name them.
    pub shown: Vec<String>,
    pub options: Options,
    /// The crate's device: every input merged, or for a catalogue the cores its inputs name.
    pub device: Device,
    /// A catalogue's event sets, one per input that has events, in input order (empty for
    /// other crates).
    pub parts: Vec<Part>,
}

/// One input of a catalogue: a set of events in a module of its own.
#[cfg(feature = "crates")]
pub struct Part {
    /// The cargo feature and file stem (`cortex-a53`); the module is its identifier.
    pub feature: String,
    /// The input as positions and banners name it.
    pub shown: String,
    pub device: Device,
}

/// Reads the manifest at `manifest_path` and loads every crate it lists. Returns the crates only
/// if all of them loaded without errors. Positions name files relative to the manifest's parent
/// directory (`descriptions/x.toml` in this repository).
#[cfg(feature = "crates")]
pub fn load_manifest(
    manifest_path: &Path,
    strict: bool,
    report: &mut Report,
) -> Option<Vec<Loaded>> {
    let dir = manifest_path.parent().unwrap_or(Path::new("."));
    let dir_name = dir
        .file_name()
        .map(|n| format!("{}/", n.to_string_lossy()))
        .unwrap_or_default();
    let shown = format!(
        "{dir_name}{}",
        manifest_path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    );
    let text = match fs::read_to_string(manifest_path) {
        Ok(t) => t,
        Err(e) => {
            report.diagnostics.push(io_error(
                &shown,
                format!("cannot read {}: {e}", manifest_path.display()),
            ));
            return None;
        }
    };
    let parsed = manifest::parse(&shown, &text);
    report.sources.insert(&shown, text);
    let (repository, entries) = match parsed {
        Ok(m) => (m.repository, m.crates),
        Err(errors) => {
            report.diagnostics.extend(errors);
            return None;
        }
    };
    let mut loaded = Vec::new();
    for entry in entries {
        let mut inputs: Vec<Input> = Vec::new();
        for (i, pos) in entry.inputs.iter().zip(&entry.input_pos) {
            match manifest::expand_input(dir, i) {
                Ok(files) => inputs.extend(files.iter().map(|f| Input {
                    path: dir.join(f),
                    shown: crate::paths::normalize(Path::new(&format!("{dir_name}{f}"))),
                })),
                Err(message) => {
                    report
                        .diagnostics
                        .push(Diagnostic::error(MANIFEST_SYNTAX, pos, message))
                }
            }
        }
        let options = Options {
            format: entry.format,
            strict: strict || entry.strict,
            packaging: manifest_packaging(&entry, repository.as_deref()),
            event_type: entry.event_type.clone(),
            license: None,
            outputs: Outputs {
                c_headers: entry.c_headers,
                models: entry.models,
            },
            patches: entry
                .patches
                .iter()
                .map(|p| Input {
                    path: dir.join(p),
                    shown: crate::paths::normalize(Path::new(&format!("{dir_name}{p}"))),
                })
                .collect(),
            // The manifest's `allow` counts per crate (below).
            allow: Vec::new(),
        };
        let first_diagnostic = report.diagnostics.len();
        let shown = if entry.catalogue {
            // The crate root names the inputs as the manifest does (`pmu/*.json`); each module
            // names its own file.
            entry
                .inputs
                .iter()
                .map(|i| crate::paths::normalize(Path::new(&format!("{dir_name}{i}"))))
                .collect()
        } else {
            inputs.iter().map(|i| i.shown.clone()).collect()
        };
        if entry.catalogue {
            if let Some((device, parts)) = load_catalogue(&entry.name, &inputs, &options, report) {
                loaded.push(Loaded {
                    shown,
                    entry,
                    options,
                    device,
                    parts,
                });
            }
        } else if let Some(device) = load_named(&entry.name, &inputs, &options, report) {
            loaded.push(Loaded {
                shown,
                entry,
                options,
                device,
                parts: Vec::new(),
            });
        }
        if let Some(l) = loaded.last().filter(|l| !l.entry.allow.is_empty()) {
            let (name, allow) = (l.entry.name.clone(), l.entry.allow.clone());
            report.allow(Some(&name), &allow, first_diagnostic);
        }
    }
    (!report.has_errors()).then_some(loaded)
}

/// Loads each input of a catalogue as a device of its own. Returns the crate's device (the cores
/// every input names, the inputs' licences and notices) and the inputs that have events.
#[cfg(feature = "crates")]
fn load_catalogue(
    name: &str,
    inputs: &[Input],
    options: &Options,
    report: &mut Report,
) -> Option<(Device, Vec<Part>)> {
    let mut parts = Vec::new();
    let mut root = Device::new(name, Pos::file_start(&inputs.first()?.shown));
    let mut ok = true;
    for input in inputs {
        let Some(mut device) = load(std::slice::from_ref(input), options, report) else {
            ok = false;
            continue;
        };
        if options.event_type.is_some() {
            device.event_type = options.event_type.clone();
        }
        // One entry per core: the list's, completed by the core's own file (its counters).
        for core in &device.cores {
            match root
                .cores
                .iter_mut()
                .find(|c| (c.implementer, c.part_number) == (core.implementer, core.part_number))
            {
                Some(known) => known.counters = core.counters.or(known.counters),
                None => root.cores.push(core.clone()),
            }
        }
        root.license = crate::license::combine(
            root.license
                .iter()
                .chain(&device.license)
                .map(String::as_str),
        );
        if root.notice.is_none() {
            root.notice = device.notice.clone();
        } else if device.notice.is_some() && device.notice != root.notice {
            root.notice = Some(format!(
                "{}\n\n{}",
                root.notice.take().unwrap_or_default(),
                device.notice.as_deref().unwrap_or_default()
            ));
        }
        if root.doc.is_none() && device.events.is_empty() {
            root.doc = device.doc.clone();
            root.source = device.source.clone();
        }
        if !device.events.is_empty() {
            let feature = input
                .path
                .file_stem()
                .map_or_else(|| device.name.clone(), |s| s.to_string_lossy().into_owned());
            parts.push(Part {
                feature,
                shown: input.shown.clone(),
                device,
            });
        }
    }
    root.canonicalize();
    ok.then_some((root, parts))
}

/// How a crate of the manifest is packaged: this generator's version, the runtime and macros of
/// the repository (`generated/<name>` is two folders below its root), sibling crates beside it.
#[cfg(feature = "crates")]
fn manifest_packaging(entry: &Entry, repository: Option<&str>) -> Packaging {
    Packaging {
        runtime: Dependency::of_version(Some("../../runtime".to_string())),
        macros: Dependency::of_version(Some("../../pmu-macros".to_string())),
        depends: entry
            .depends
            .iter()
            .map(|d| (d.clone(), Dependency::of_version(Some(format!("../{d}")))))
            .collect(),
        repository: repository.map(str::to_string),
        ..Packaging::default()
    }
}

/// Generates every crate of the manifest at `manifest_path` into `generated_dir`. Returns the
/// crates only if all of them generated without errors.
#[cfg(feature = "crates")]
pub fn generate_manifest(
    manifest_path: &Path,
    generated_dir: &Path,
    strict: bool,
    report: &mut Report,
) -> Option<Vec<CrateOutput>> {
    let loaded = load_manifest(manifest_path, strict, report)?;
    let mut crates = Vec::new();
    for l in &loaded {
        let out = generated_dir.join(&l.entry.name);
        let parts: Vec<CataloguePart<'_>> = l
            .parts
            .iter()
            .map(|p| CataloguePart {
                feature: &p.feature,
                shown: &p.shown,
                device: &p.device,
            })
            .collect();
        let catalogue = l.entry.catalogue.then_some(&parts[..]);
        crates.extend(emit_crate(
            &l.device, &l.shown, &l.options, catalogue, out, report,
        ));
    }
    (!report.has_errors()).then_some(crates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_sum_per_phase_and_show_the_peak() {
        let mut t = Timings::default();
        let earlier = Instant::now() - Duration::from_millis(5);
        t.add("parse", earlier);
        t.add("emit", Instant::now());
        t.add("parse", earlier);
        let text = t.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].starts_with("parse") && lines[1].starts_with("emit"),
            "{text}"
        );
        let ms: f64 = lines[0].split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(ms >= 10.0, "two 5 ms spans sum: {text}");
        if cfg!(target_os = "linux") {
            let peak: u64 = lines[0].split_whitespace().nth(4).unwrap().parse().unwrap();
            assert!(peak > 0 && lines[0].ends_with(" MB"), "{text}");
        }
    }
}
