//! Shared by every target: one input through parse → passes → Rust and C emit → format.
#![allow(dead_code)]
use std::path::Path;

use codegen::backend::{c, rust};
use codegen::diagnostic::Sources;
use codegen::frontend::{self, Format};
use codegen::passes::{self, Mode};

/// Parses `text` as `format`; with `emit`, runs the passes and both backends on what parsed.
pub fn run(format: Format, text: &str, emit: bool) {
    let mut sources = Sources::default();
    let path = match format {
        // The perf JSON frontend reads a path: give it a file in memory-backed storage.
        Format::PerfJson => {
            let path = std::env::temp_dir().join(format!("codegen-fuzz-{}.json", std::process::id()));
            if std::fs::write(&path, text).is_err() {
                return;
            }
            path
        }
        // A TI device file names module files relative to itself: a directory with none.
        _ => Path::new("/nonexistent/fuzz/input").to_path_buf(),
    };
    let parsed = frontend::parse(format, "fuzz", &path, text, &mut sources);
    let Ok((mut device, _warnings)) = parsed else {
        return;
    };
    if !emit {
        return;
    }
    device.canonicalize();
    let errors = passes::run(&mut device, Mode::Lenient);
    if errors.iter().any(|d| d.is_error()) {
        return;
    }
    device.name = "fuzzed".to_string();
    let inputs = ["fuzz".to_string()];
    // A backend may refuse (an error value); it must never panic.
    let _ = rust::generate(&device, "fuzzed", &inputs, &[]);
    let _ = c::generate(&device, &inputs);
}
