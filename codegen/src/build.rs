//! Generation from a build script: a crate's register modules are written into `OUT_DIR` when the
//! crate builds, so that the generated code need not be committed.
//!
//! `build.rs`, whose `main` is:
//! ```no_run
//! armreg_codegen::build::Build::new()
//!     .input("registers/soc.svd")
//!     .run();
//! ```
//! `Cargo.toml` takes the library without the command's features, which a build script does not
//! use: `armreg-codegen = { ..., default-features = false }` under `[build-dependencies]`.
//!
//! A vendor file's known defect need not warn on every build: `.allow("<rule>")` counts its
//! warnings instead (one line, `N warnings allowed: <rule>`, in the build script's output), as
//! `#[allow]` does for a lint. A rule that is always an error cannot be allowed.
//! The crate's `src/lib.rs` then includes the generated root, whose items are what a generated
//! crate's root holds (the layouts at the root, `mmio`, `aarch64`, `events`, ...):
//! ```ignore
//! #![no_std]
//! include!(concat!(env!("OUT_DIR"), "/armreg/registers.rs"));
//! ```
//! and its `Cargo.toml` depends on `armreg-rt` (and on `pmu-macros` when the descriptions have
//! events). The files are those of a generated crate (a folder per split module), but nothing is
//! behind a cargo feature: the modules are compiled in the user's crate, whose features are its
//! own, so every block is compiled. Every file the generation read is printed as `cargo:rerun-if-changed`, so editing a
//! description regenerates. Errors are printed with their file, line and column, as the command
//! prints them, and fail the build.
use std::path::{Path, PathBuf};

use crate::backend::rust::{self, INCLUDE_ROOT};
use crate::frontend::Format;
use crate::output::{self, CrateOutput, Ownership};
use crate::pipeline::{self, Input, Options, Report};

/// The folder under `OUT_DIR` the modules are written to.
pub const OUT_SUBDIR: &str = "armreg";

/// What to generate, and where.
#[derive(Clone, Debug, Default)]
pub struct Build {
    inputs: Vec<PathBuf>,
    patches: Vec<PathBuf>,
    format: Option<Format>,
    strict: bool,
    models: bool,
    allow: Vec<String>,
    cortex_m_rt: bool,
    out_dir: Option<PathBuf>,
}

/// The inputs' names, for a message.
fn shown_list(inputs: &[Input]) -> String {
    inputs
        .iter()
        .map(|i| format!("`{}`", i.shown))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a successful generation did.
#[derive(Debug)]
pub struct Generated {
    /// The file to `include!` at the crate root.
    pub root: PathBuf,
    /// Every file and folder the generation read (each was printed as `rerun-if-changed`).
    pub read: Vec<PathBuf>,
    /// The warnings about the inputs (defects repaired), rendered; empty when there were none.
    pub warnings: String,
    /// The warnings of the allowed rules, not rendered: `N warnings allowed: <rule>`, one per
    /// rule that had any.
    pub allowed: Vec<String>,
}

/// Why generation failed: the diagnostics, rendered with their positions, or an I/O error.
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl Build {
    /// Nothing to generate yet: add inputs with [`Build::input`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A description file (any format the generator reads; several are merged into one set of
    /// modules). A relative path is relative to the crate's manifest folder, where build scripts
    /// run.
    #[must_use]
    pub fn input(mut self, path: impl Into<PathBuf>) -> Self {
        self.inputs.push(path.into());
        self
    }

    /// A patch file (`descriptions/FORMAT.md`, "Patch files") to apply to the inputs before they
    /// are checked; several apply in the order given.
    #[must_use]
    pub fn patch(mut self, path: impl Into<PathBuf>) -> Self {
        self.patches.push(path.into());
        self
    }

    /// The inputs' format, when it is not to be detected from each file.
    #[must_use]
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// Turn warnings about vendor files into errors.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Allow the warnings of `rule` (see `armreg-codegen explain <rule>`): they are counted, not
    /// shown. Generation fails if the rule is no rule, or one that is always an error.
    #[must_use]
    pub fn allow(mut self, rule: impl Into<String>) -> Self {
        self.allow.push(rule.into());
        self
    }

    /// Also generate the behavioural models of the memory-mapped blocks (`model`, which needs
    /// `std` and `armreg-rt`'s `model` feature).
    #[must_use]
    pub fn models(mut self, models: bool) -> Self {
        self.models = models;
        self
    }

    /// For a Cortex-M firmware on cortex-m-rt: the interrupts' vector table (`__INTERRUPTS`),
    /// `InterruptNumber` for `device::Interrupt` and cortex-m-rt's `interrupt` attribute at the
    /// root, and `device.x` beside the modules, whose folder is printed as
    /// `cargo:rustc-link-search` so that `link.x` finds it. The crate depends on `cortex-m` and
    /// on `cortex-m-rt` with its `device` feature. An error when the description names no
    /// Cortex-M processor with interrupts (SVD `<cpu>`).
    #[must_use]
    pub fn cortex_m_rt(mut self, rt: bool) -> Self {
        self.cortex_m_rt = rt;
        self
    }

    /// Where to write (default: `$OUT_DIR/armreg`). Builds writing one folder at once take turns
    /// (the lock file `.<name>.codegen-lock` beside it, as every write of the generator).
    #[must_use]
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Generates the modules and prints `cargo:rerun-if-changed` for every file read (and for
    /// each input, also when it fails to read, so that fixing it reruns the build script).
    pub fn generate(self) -> Result<Generated, Error> {
        let dir = match self.out_dir {
            Some(d) => d,
            None => PathBuf::from(std::env::var_os("OUT_DIR").ok_or_else(|| {
                Error("OUT_DIR is not set: run from a build script, or give out_dir".into())
            })?)
            .join(OUT_SUBDIR),
        };
        if self.inputs.is_empty() {
            return Err(Error(
                "no input: add a description with Build::input".into(),
            ));
        }
        let refused: Vec<String> = self
            .allow
            .iter()
            .filter_map(|rule| {
                crate::manifest::unallowable(rule)
                    .map(|message| format!("error: Build::allow({rule:?}): {message}"))
            })
            .collect();
        if !refused.is_empty() {
            return Err(Error(refused.join("\n")));
        }
        let inputs: Vec<Input> = self
            .inputs
            .iter()
            .map(|p| Input {
                path: p.clone(),
                shown: p.display().to_string(),
            })
            .collect();
        let options = Options {
            format: self.format,
            strict: self.strict,
            patches: self
                .patches
                .iter()
                .map(|p| Input {
                    path: p.clone(),
                    shown: p.display().to_string(),
                })
                .collect(),
            allow: self.allow.clone(),
            ..Options::default()
        };
        let mut report = Report::default();
        let device = pipeline::load(&inputs, &options, &mut report);
        let mut read: Vec<PathBuf> = report.sources.files_read().map(Path::to_path_buf).collect();
        for input in &self.inputs {
            if !read.contains(input) {
                read.push(input.clone());
            }
        }
        for path in &read {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        let Some(device) = device else {
            return Err(Error(report.render()));
        };
        let allowed = std::mem::take(&mut report.allowed)
            .iter()
            .map(ToString::to_string)
            .collect();
        let warnings = report.render();
        let shown: Vec<String> = inputs.iter().map(|i| i.shown.clone()).collect();
        if self.cortex_m_rt && !rust::has_cortex_m_rt(&device) {
            return Err(Error(format!(
                "cortex_m_rt: {} describe no Cortex-M processor with interrupts (an SVD `<cpu>` whose `<name>` is CM0 ... CM85, and `<interrupt>`s)",
                shown_list(&inputs)
            )));
        }
        let files = rust::generate_modules(&device, &shown, &dir, self.models, self.cortex_m_rt)
            .map_err(Error)?;
        output::write(
            None,
            &[CrateOutput {
                dir: dir.clone(),
                files,
            }],
            // A folder given with `out_dir` may hold other files: only the generator's own are
            // replaced.
            Ownership::Written { force: false },
        )
        .map_err(|e| Error(format!("writing {}: {e}", dir.display())))?;
        if self.cortex_m_rt {
            // cortex-m-rt's `link.x` includes `device.x` from the linker's search path.
            println!("cargo:rustc-link-search={}", dir.display());
        }
        Ok(Generated {
            root: dir.join(INCLUDE_ROOT),
            read,
            warnings,
            allowed,
        })
    }

    /// [`Build::generate`] for a build script: warnings are shown as cargo warnings, and an error
    /// is printed and ends the build script with a failure (no panic, no backtrace).
    pub fn run(self) {
        match self.generate() {
            Ok(generated) => {
                for line in generated.warnings.lines().filter(|l| !l.is_empty()) {
                    println!("cargo:warning={line}");
                }
                // Not a cargo warning: kept in the build script's output (`cargo build -vv`).
                for line in &generated.allowed {
                    println!("armreg-codegen: {line}");
                }
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_and_a_root_to_include() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("demo.toml");
        std::fs::write(
            &input,
            r#"
[device]
name = "demo"
[[layout]]
name = "CTRL"
width = 32
fields = [ { name = "EN", bits = "0", access = "rw" } ]
[[block]]
name = "REGS"
size = 0x10
[[block.register]]
name = "CTRL"
layout = "CTRL"
offset = 0
"#,
        )
        .unwrap();
        let out = dir.path().join("out");
        let generated = Build::new().input(&input).out_dir(&out).generate().unwrap();
        assert_eq!(generated.root, out.join("registers.rs"));
        assert_eq!(generated.read, std::slice::from_ref(&input));
        let root = std::fs::read_to_string(&generated.root).unwrap();
        assert!(
            !root.contains("#!["),
            "no inner attributes in an included file:\n{root}"
        );
        // A crate with blocks has its layouts and blocks in folders, one file per block.
        let layouts = format!("#[path = \"{}\"]", out.join("layouts/mod.rs").display());
        assert!(root.contains(&layouts), "{root}");
        assert!(
            !root.contains("model"),
            "no models unless asked for:\n{root}"
        );
        assert!(out.join("mmio/regs.rs").is_file() && !out.join("model").exists());
        // The user's crate has features of its own: nothing is behind one of ours.
        for file in ["layouts/mod.rs", "mmio/mod.rs"] {
            let text = std::fs::read_to_string(out.join(file)).unwrap();
            assert!(
                text.contains("mod ") && !text.contains("cfg("),
                "{file}:\n{text}"
            );
        }

        // A broken description: the error names the file and position, nothing is written.
        std::fs::write(&input, "[device]\nname = 3\n").unwrap();
        let again = dir.path().join("again");
        let err = Build::new()
            .input(&input)
            .out_dir(&again)
            .generate()
            .unwrap_err();
        assert!(err.to_string().contains("demo.toml:2:"), "{err}");
        assert!(!again.exists());
    }

    #[test]
    fn cortex_m_rt_writes_the_vector_table_and_device_x() {
        let dir = tempfile::tempdir().unwrap();
        // A CM33 with interrupts 2 (UART0) and 3 (UART1_2, two peripherals' line).
        let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/svd/metadata.svd");
        let out = dir.path().join("out");
        Build::new()
            .input(&input)
            .cortex_m_rt(true)
            .out_dir(&out)
            .generate()
            .unwrap();
        let device_x = std::fs::read_to_string(out.join("device.x")).unwrap();
        assert!(
            device_x
                .contains("PROVIDE(UART0 = DefaultHandler);\nPROVIDE(UART1_2 = DefaultHandler);\n"),
            "{device_x}"
        );
        let device = std::fs::read_to_string(out.join("device.rs")).unwrap();
        // Numbers 0 and 1 are holes: four entries, no feature to turn them on.
        let table = "pub static __INTERRUPTS: [Vector; 4] = [\n    Vector { _reserved: 0 },\n    Vector { _reserved: 0 },\n    Vector { _handler: UART0 },\n    Vector { _handler: UART1_2 },\n];";
        assert!(device.contains(table), "{device}");
        assert!(device.contains("unsafe impl cortex_m::interrupt::InterruptNumber for Interrupt"));
        assert!(!device.contains("cfg(feature"), "{device}");
        let root = std::fs::read_to_string(out.join("registers.rs")).unwrap();
        assert!(
            root.contains("pub use cortex_m_rt::interrupt;")
                && root.contains("pub use device::interrupt;"),
            "{root}"
        );
        // Without it: no table, no device.x.
        let plain = dir.path().join("plain");
        Build::new()
            .input(&input)
            .out_dir(&plain)
            .generate()
            .unwrap();
        let device = std::fs::read_to_string(plain.join("device.rs")).unwrap();
        assert!(!device.contains("__INTERRUPTS") && !plain.join("device.x").exists());
        // A description without a Cortex-M: a clear error, nothing written.
        let native = dir.path().join("demo.toml");
        std::fs::write(&native, "[device]\nname = \"demo\"\n").unwrap();
        let err = Build::new()
            .input(&native)
            .cortex_m_rt(true)
            .out_dir(dir.path().join("none"))
            .generate()
            .unwrap_err();
        assert!(err.to_string().contains("no Cortex-M processor"), "{err}");
        assert!(!dir.path().join("none").exists());
    }

    #[test]
    fn patches_apply_and_are_watched() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("demo.toml");
        std::fs::write(
            &input,
            "[device]\nname = \"demo\"\n[[layout]]\nname = \"CTRL\"\nwidth = 32\n\
             [[block]]\nname = \"REGS\"\nsize = 0x10\n\
             [[block.register]]\nname = \"CTRL\"\nlayout = \"CTRL\"\noffset = 0\n",
        )
        .unwrap();
        let patch = dir.path().join("fix.toml");
        std::fs::write(
            &patch,
            "[[rename]]\nblock = \"REGS\"\nregister = \"CTRL\"\nto = \"CONTROL\"\n",
        )
        .unwrap();
        let out = dir.path().join("out");
        let generated = Build::new()
            .input(&input)
            .patch(&patch)
            .out_dir(&out)
            .generate()
            .unwrap();
        assert!(generated.read.contains(&patch), "{:?}", generated.read);
        let regs = std::fs::read_to_string(out.join("mmio/regs.rs")).unwrap();
        assert!(regs.contains("pub fn control(&self)"), "{regs}");
        // A patch that no longer matches fails the build script, at its position.
        std::fs::write(
            &patch,
            "[[delete]]\nblock = \"REGS\"\nregister = \"STATUS\"\n",
        )
        .unwrap();
        let err = Build::new()
            .input(&input)
            .patch(&patch)
            .out_dir(dir.path().join("again"))
            .generate()
            .unwrap_err();
        assert!(err.to_string().contains("fix.toml:3:12"), "{err}");
    }

    /// An SVD whose peripheral lists its interrupt twice: a `no_duplicate_names` warning.
    const TWICE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3" xmlns:xs="http://www.w3.org/2001/XMLSchema-instance">
  <name>DEV</name><version>1</version><description>d</description>
  <addressUnitBits>8</addressUnitBits><width>32</width><size>32</size><resetValue>0</resetValue><resetMask>0xFFFFFFFF</resetMask>
  <peripherals><peripheral><name>UART</name><baseAddress>0x40000000</baseAddress>
    <addressBlock><offset>0</offset><size>0x10</size><usage>registers</usage></addressBlock>
    <interrupt><name>UART</name><value>1</value></interrupt>
    <interrupt><name>UART</name><value>1</value></interrupt>
    <registers><register><name>CTRL</name><addressOffset>0</addressOffset>
      <fields><field><name>EN</name><bitRange>[0:0]</bitRange></field></fields></register></registers>
  </peripheral></peripherals>
</device>
"#;

    #[test]
    fn allowed_warnings_are_counted_not_shown() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("dev.svd");
        std::fs::write(&input, TWICE).unwrap();
        let warned = Build::new()
            .input(&input)
            .out_dir(dir.path().join("a"))
            .generate()
            .unwrap();
        assert!(
            warned.warnings.contains("warning[no_duplicate_names]"),
            "{}",
            warned.warnings
        );
        assert!(warned.allowed.is_empty());
        let allowed = Build::new()
            .input(&input)
            .allow("no_duplicate_names")
            .out_dir(dir.path().join("b"))
            .generate()
            .unwrap();
        assert_eq!(allowed.warnings, "");
        assert_eq!(allowed.allowed, ["1 warning allowed: no_duplicate_names"]);
    }

    #[test]
    fn errors_cannot_be_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("dev.svd");
        std::fs::write(&input, TWICE).unwrap();
        let build = |rule: &str| {
            Build::new()
                .input(&input)
                .allow(rule)
                .out_dir(dir.path().join("out"))
                .generate()
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            build("toml_syntax"),
            "error: Build::allow(\"toml_syntax\"): rule `toml_syntax` is always an error, never a warning to allow"
        );
        assert_eq!(
            build("no_duplicate_name"),
            "error: Build::allow(\"no_duplicate_name\"): no rule is named `no_duplicate_name`; did you mean `no_duplicate_names`?"
        );
        assert!(!dir.path().join("out").exists());
    }
}
