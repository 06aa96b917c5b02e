//! The AARCHMRS `Registers.json` frontend, then (when the input parses) the passes and both backends.
#![no_main]
mod common;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::run(armreg_codegen::frontend::Format::Aarchmrs, text, true);
    }
});
