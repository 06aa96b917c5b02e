//! The register toolchain's generator: frontends → IR → passes → backends.
//!
//! - [`frontend`]: parse an input format into the IR, keeping every element's position;
//! - [`ir`]: the one representation every format becomes;
//! - [`patch`]: patch files, which fix vendor descriptions on the IR before the passes;
//! - [`passes`]: derive layouts and check one rule each, reporting diagnostics with positions;
//! - [`rules`]: the registry of every rule a diagnostic names;
//! - [`backend`]: emit Rust crates from the validated IR;
//! - [`output`]: write them atomically, or check them for drift;
//! - [`build`]: the same from a build script, into `OUT_DIR`;
//! - `cli`: the command line (feature `cli`).
//!
//! Features (a build script needs none of them: `default-features = false`):
//! - `cli` (default): the `armreg-codegen` command, with every feature below;
//! - `crates`: whole crates (`Cargo.toml`, README, licences) from templates, as `generate` writes
//!   them, and the C headers beside the Rust;
//! - `site`: the register-map site.
pub mod backend;
pub mod build;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnostic;
pub mod frontend;
pub mod ir;
pub mod license;
pub mod manifest;
pub mod names;
pub mod output;
pub mod passes;
pub mod patch;
pub mod paths;
pub mod pipeline;
pub mod rules;
pub mod runtime_crates;
