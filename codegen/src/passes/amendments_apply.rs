//! Folds each `[[amend]]` into the block it names: a native overlay states what another input's
//! format cannot (TI XML has no set/clear views of a shared state and no software lock), and the
//! backends then see one block. Runs before the checks, so they check the amended block.
use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::Device;
use crate::rules::AMENDMENTS_APPLY;

/// Runs first: it reads only the amendments and the blocks they name.
pub const ASSUMES: &[Property] = &[];
pub const ESTABLISHES: &[Property] = &[Property::AmendmentsFolded];

pub fn run(device: &mut Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for amendment in std::mem::take(&mut device.amendments) {
        let Some(block) = device
            .blocks
            .iter_mut()
            .find(|b| b.name == amendment.block.name)
        else {
            out.push(Diagnostic::error(
                AMENDMENTS_APPLY,
                &amendment.block.pos,
                format!("no block is named `{}`", amendment.block.name),
            ));
            continue;
        };
        if let Some(lock) = amendment.lock {
            match &block.lock {
                Some(old) => out.push(
                    Diagnostic::error(
                        AMENDMENTS_APPLY,
                        &lock.pos,
                        format!("block `{}` already has a lock", block.name),
                    )
                    .with_note(&old.pos, "the lock stated first".to_string()),
                ),
                None => block.lock = Some(lock),
            }
        }
        for r in amendment.registers {
            match block
                .registers
                .iter_mut()
                .find(|reg| reg.name == r.name.name)
            {
                Some(reg) => reg.access = r.access,
                None => out.push(Diagnostic::error(
                    AMENDMENTS_APPLY,
                    &r.name.pos,
                    format!(
                        "block `{}` has no register named `{}`",
                        block.name, r.name.name
                    ),
                )),
            }
        }
    }
    out
}
