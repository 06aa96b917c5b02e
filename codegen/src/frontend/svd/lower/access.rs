//! SVD's `access`, `modifiedWriteValues` and `readAction` as the IR's access kinds.
use svd_rs as svd;
use svd_rs::{Access, ModifiedWriteValues};

use crate::ir::{self, FieldAccess, RegAccess};

/// A register's access: read-only and write-only (once) registers keep theirs, the rest are
/// read-write.
pub(super) fn register_access(access: Option<Access>) -> RegAccess {
    match access {
        Some(Access::ReadOnly) => RegAccess::Ro,
        Some(Access::WriteOnly | Access::WriteOnce) => RegAccess::Wo,
        _ => RegAccess::Rw,
    }
}

/// A field's access: `access` (the register's when the field gives none), with
/// `modifiedWriteValues` giving the write semantics of a field that is read and written.
pub(super) fn field_access(
    access: Option<Access>,
    modified_write_values: Option<ModifiedWriteValues>,
) -> FieldAccess {
    match access {
        Some(Access::ReadOnly) => FieldAccess::Ro,
        Some(Access::WriteOnly) => FieldAccess::Wo,
        Some(Access::WriteOnce) => FieldAccess::WoOnce,
        Some(Access::ReadWriteOnce) => FieldAccess::RwOnce,
        Some(Access::ReadWrite) | None => match modified_write_values {
            Some(ModifiedWriteValues::OneToClear) => FieldAccess::W1c,
            Some(ModifiedWriteValues::OneToSet) => FieldAccess::W1s,
            Some(ModifiedWriteValues::OneToToggle) => FieldAccess::W1t,
            Some(ModifiedWriteValues::ZeroToClear) => FieldAccess::W0c,
            Some(ModifiedWriteValues::ZeroToSet) => FieldAccess::W0s,
            Some(ModifiedWriteValues::ZeroToToggle) => FieldAccess::W0t,
            Some(ModifiedWriteValues::Clear) => FieldAccess::WClr,
            Some(ModifiedWriteValues::Set) => FieldAccess::WSet,
            Some(ModifiedWriteValues::Modify) | None => FieldAccess::Rw,
        },
    }
}

pub(super) fn read_action(action: svd::ReadAction) -> ir::ReadAction {
    match action {
        svd::ReadAction::Clear => ir::ReadAction::Clear,
        svd::ReadAction::Set => ir::ReadAction::Set,
        svd::ReadAction::Modify => ir::ReadAction::Modify,
        svd::ReadAction::ModifyExternal => ir::ReadAction::ModifyExternal,
    }
}
