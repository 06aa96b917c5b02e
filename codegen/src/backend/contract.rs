//! What a backend is: what it reads (`Input`), what it gives (`File`s, or a message saying why
//! not), and the one list of the backends that write a crate's directory, which the pipeline runs
//! side by side.
//!
//! Two writers give `File`s but are not in the list, because they do not write a crate's
//! directory: the register-map site (`site::generate`, for `codegen doc`), one folder for every
//! crate of the manifest; and a build script's modules (`rust::generate_modules`), for `include!`.
#[cfg(feature = "crates")]
use super::{c, rust};
#[cfg(feature = "crates")]
use crate::ir::Device;

/// A generated file: its path inside the output directory and its content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub path: String,
    pub content: String,
}

/// Which optional outputs a crate has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// C headers in `include/`: the C backend writes them, the Rust backend lists them in the
    /// package.
    pub c_headers: bool,
    /// Behavioural models of the memory-mapped blocks (`model`, behind the crate's feature).
    pub models: bool,
}

/// What a backend reads: the validated device and how its crate is made.
#[cfg(feature = "crates")]
#[derive(Clone, Copy)]
pub struct Input<'a> {
    pub device: &'a Device,
    /// The description files, as banners name them.
    pub inputs: &'a [String],
    /// The crate's version, its dependencies (and where they are) and its repository.
    pub packaging: &'a rust::Packaging,
    pub outputs: Outputs,
    /// A catalogue's sets of events, each a module of its own; `None` for any other crate.
    pub catalogue: Option<&'a [rust::CataloguePart<'a>]>,
}

/// A backend: the rule its failures are reported under, and how it makes its files.
#[cfg(feature = "crates")]
pub struct Backend {
    pub name: &'static str,
    pub emit: fn(&Input<'_>) -> Result<Vec<File>, String>,
}

/// The backends that write a crate's directory. Each reads only the input, so they run side by
/// side; their files are merged and sorted by path.
#[cfg(feature = "crates")]
pub const BACKENDS: &[Backend] = &[
    Backend {
        name: "rust_backend",
        emit: rust::emit,
    },
    Backend {
        name: "c_backend",
        emit: c::emit,
    },
];
