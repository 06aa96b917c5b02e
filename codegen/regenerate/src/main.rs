//! `cargo run -p codegen`: the generator's command line ([`armreg_codegen::cli`]) under the
//! package name the repository's commands use; with no arguments it regenerates `generated/`.
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: armreg_codegen::cli::Allocator = armreg_codegen::cli::Allocator;

fn main() -> ExitCode {
    armreg_codegen::cli::main()
}
