//! A block's software lock names registers of the block that can do the job: a writable lock
//! access register the key fits, a readable lock status register, and a 1-bit field of it that
//! says "locked". The model backend relies on all of it.
use super::contract::Property;
use crate::diagnostic::Diagnostic;
use crate::ir::{bit_range_mask, Block, BlockRegister, Device, NameRef, RegAccess};
use crate::rules::LOCKS_RESOLVE;

/// A lock may come from an amendment, names its registers (one each only when names are
/// unique) and a field, possibly inherited by a derived layout.
pub const ASSUMES: &[Property] = &[
    Property::AmendmentsFolded,
    Property::LayoutsDerived,
    Property::NamesUnique,
];
pub const ESTABLISHES: &[Property] = &[Property::LocksResolve];

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for block in &device.blocks {
        let Some(lock) = &block.lock else { continue };
        let mut error = |at: &NameRef, message: String| {
            out.push(Diagnostic::error(LOCKS_RESOLVE, &at.pos, message));
        };
        if let Some(access) = register(block, &lock.access, &mut error) {
            if matches!(access.access, RegAccess::Ro) {
                error(
                    &lock.access,
                    format!("lock access register `{}` is read-only", access.name),
                );
            }
            if let Some(layout) = device.layout(&access.layout.name) {
                if lock.key & !bit_range_mask(0, layout.width) != 0 {
                    error(
                        &lock.access,
                        format!(
                            "key {:#x} does not fit the {}-bit register `{}`",
                            lock.key, layout.width, access.name
                        ),
                    );
                }
            }
        }
        if let Some(status) = register(block, &lock.status, &mut error) {
            if matches!(status.access, RegAccess::Wo) {
                error(
                    &lock.status,
                    format!("lock status register `{}` is write-only", status.name),
                );
            }
            let field = device
                .layout(&status.layout.name)
                .and_then(|l| l.fields.iter().find(|f| f.name == lock.locked.name));
            match field {
                Some(f) if f.width == 1 => {}
                Some(f) => error(
                    &lock.locked,
                    format!("the lock bit `{}` is {} bits wide, not 1", f.name, f.width),
                ),
                None => error(
                    &lock.locked,
                    format!(
                        "lock status register `{}` has no field named `{}`",
                        status.name, lock.locked.name
                    ),
                ),
            }
        }
    }
    out
}

/// The block's single (non-array) register `name`, or an error.
fn register<'b>(
    block: &'b Block,
    name: &NameRef,
    error: &mut impl FnMut(&NameRef, String),
) -> Option<&'b BlockRegister> {
    match block.registers.iter().find(|r| r.name == name.name) {
        Some(r) if r.array.is_none() => Some(r),
        Some(r) => {
            error(
                name,
                format!(
                    "`{}` is a register array; a lock needs one register",
                    r.name
                ),
            );
            None
        }
        None => {
            error(
                name,
                format!(
                    "block `{}` has no register named `{}`",
                    block.name, name.name
                ),
            );
            None
        }
    }
}
