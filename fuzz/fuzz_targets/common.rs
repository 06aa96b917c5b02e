//! Shared by every target: one input through parse → passes → Rust and C emit → format.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use armreg_codegen::backend::{self, rust};
use armreg_codegen::diagnostic::Sources;
use armreg_codegen::frontend::{self, Format};
use armreg_codegen::passes::{self, Mode};

/// Parses `text` as `format`; with `emit`, runs the passes and both backends on what parsed.
pub fn run(format: Format, text: &str, emit: bool) {
    let mut sources = Sources::default();
    let path = match format {
        // The perf JSON frontend reads a path: give it a temporary file, named per call so that
        // callers on several threads (the stable replay, codegen/tests/fuzz_seeds.rs) never share
        // one, and removed when the run ends.
        Format::PerfJson => {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path =
                std::env::temp_dir().join(format!("codegen-fuzz-{}-{n}.json", std::process::id()));
            if std::fs::write(&path, text).is_err() {
                return;
            }
            path
        }
        // A TI device file names module files relative to itself: a directory with none.
        _ => Path::new("/nonexistent/fuzz/input").to_path_buf(),
    };
    let _remove = RemoveOnDrop((format == Format::PerfJson).then(|| path.clone()));
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
    // A backend may refuse (an error value); it must never panic. Every backend of the list.
    let input = backend::Input {
        device: &device,
        inputs: &inputs,
        packaging: &rust::Packaging::default(),
        outputs: backend::Outputs {
            c_headers: true,
            models: true,
        },
        catalogue: None,
    };
    for b in backend::BACKENDS {
        let _ = (b.emit)(&input);
    }
}

/// Removes the temporary perf JSON file when dropped: after the run, or while a panic unwinds.
struct RemoveOnDrop(Option<PathBuf>);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if let Some(path) = &self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}
