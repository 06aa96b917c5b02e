//! `armreg-codegen`: the generator's command line ([`armreg_codegen::cli`]).
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: armreg_codegen::cli::Allocator = armreg_codegen::cli::Allocator;

fn main() -> ExitCode {
    armreg_codegen::cli::main()
}
