//! Each operation on a small device from each vendor format, asserting the IR it leaves: the
//! operations one by one (`operations`), clusters (`clusters`), and the checks before anything
//! applies (`checks`).
mod checks;
mod clusters;
mod operations;

use super::{apply, parse};
use crate::diagnostic::{Diagnostic, Sources};
use crate::frontend::{self, Format};
use crate::ir::Device;

const SVD: &str = include_str!("../../../tests/patches/demo.svd");

pub(super) fn device(format: Format, file: &str, text: &str) -> Device {
    let mut sources = Sources::default();
    let (mut device, _) =
        frontend::parse(format, file, std::path::Path::new(file), text, &mut sources)
            .unwrap_or_else(|e| panic!("{e:?}"));
    device.canonicalize();
    device
}

pub(super) fn svd() -> Device {
    device(Format::Svd, "demo.svd", SVD)
}

/// Applies `patch` and returns the log; panics on any error.
pub(super) fn patched(device: &mut Device, patch: &str) -> Vec<String> {
    let file = parse("p.toml", patch).unwrap_or_else(|e| panic!("{e:?}"));
    let (errors, log) = apply(device, &file);
    assert!(errors.is_empty(), "{errors:?}");
    log
}

/// The errors `patch` gives.
pub(super) fn errors(device: &mut Device, patch: &str) -> Vec<Diagnostic> {
    match parse("p.toml", patch) {
        Err(e) => e,
        Ok(file) => apply(device, &file).0,
    }
}

pub(super) fn register<'a>(d: &'a Device, block: &str, name: &str) -> &'a crate::ir::BlockRegister {
    d.blocks
        .iter()
        .find(|b| b.name == block)
        .and_then(|b| b.registers.iter().find(|r| r.name == name))
        .unwrap_or_else(|| panic!("no {block}.{name}"))
}

pub(super) fn field<'a>(d: &'a Device, block: &str, reg: &str, name: &str) -> &'a crate::ir::Field {
    let layout = d.layout(&register(d, block, reg).layout.name).unwrap();
    layout.fields.iter().find(|f| f.name == name).unwrap()
}

pub(super) fn block<'a>(d: &'a Device, name: &str) -> &'a crate::ir::Block {
    d.blocks
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no block {name}"))
}
