//! No two registers of a block (array elements included) share a byte, unless one is declared an
//! alias of the other.
use crate::diagnostic::Diagnostic;
use crate::ir::{BlockRegister, Device};

use super::arrays_in_range::MAX_COUNT;

pub const NAME: &str = "no_overlapping_registers";

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for block in &device.blocks {
        // (start, end, register, element)
        let mut spans: Vec<(u64, u64, &BlockRegister, Option<u32>)> = Vec::new();
        for reg in &block.registers {
            let size = device
                .layout(&reg.layout.name)
                .map_or(0, |l| u64::from(l.width / 8));
            match reg.array {
                Some(a) => {
                    for n in 0..a.count.min(MAX_COUNT) {
                        let start = reg.offset + a.stride * u64::from(n);
                        spans.push((start, start + size, reg, Some(n)));
                    }
                }
                None => spans.push((reg.offset, reg.offset + size, reg, None)),
            }
        }
        spans.sort_by_key(|s| (s.0, s.1));
        let mut reported = std::collections::BTreeSet::new();
        for (i, a) in spans.iter().enumerate() {
            for b in spans[i + 1..].iter().take_while(|b| b.0 < a.1) {
                if std::ptr::eq(a.2, b.2) || aliases(a.2, b.2) {
                    continue;
                }
                let (later, earlier) = if a.2.pos > b.2.pos { (a, b) } else { (b, a) };
                if !reported.insert((later.2.name.as_str(), earlier.2.name.as_str())) {
                    continue;
                }
                out.push(
                    Diagnostic::error(
                        NAME,
                        &later.2.pos,
                        format!(
                            "`{}` ({:#x}..{:#x}) overlaps `{}` ({:#x}..{:#x}) in block `{}`; declare `alias_of` if they are one register",
                            element(later.2, later.3), later.0, later.1,
                            element(earlier.2, earlier.3), earlier.0, earlier.1,
                            block.name
                        ),
                    )
                    .with_note(&earlier.2.pos, "overlapped register"),
                );
            }
        }
    }
    out
}

fn aliases(a: &BlockRegister, b: &BlockRegister) -> bool {
    a.alias_of.as_ref().is_some_and(|r| r.name == b.name)
        || b.alias_of.as_ref().is_some_and(|r| r.name == a.name)
}

fn element(reg: &BlockRegister, n: Option<u32>) -> String {
    match n {
        Some(n) => reg.name.replace("<n>", &n.to_string()),
        None => reg.name.clone(),
    }
}
