//! The whole pipeline with the format detected from the content, as `codegen generate` does.
#![no_main]
mod common;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let format = armreg_codegen::frontend::Format::detect(std::path::Path::new("fuzz"), text)
        .unwrap_or(armreg_codegen::frontend::Format::Native);
    common::run(format, text, true);
});
