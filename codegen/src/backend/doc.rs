//! What the IR's access kinds mean, in words: every backend documents them the same way (the
//! Rust crate's rustdoc, the C headers' comments, the register diagrams and the site).
use crate::ir::{FieldAccess, ReadAction};

/// What a field's access means, for documentation.
pub fn access(access: FieldAccess) -> &'static str {
    match access {
        FieldAccess::Rw => "read/write",
        FieldAccess::Ro => "read-only",
        FieldAccess::Wo => "write-only",
        FieldAccess::W1s => "write 1 to set",
        FieldAccess::W1c => "write 1 to clear",
        FieldAccess::W1t => "write 1 to toggle",
        FieldAccess::W0c => "write 0 to clear",
        FieldAccess::W0s => "write 0 to set",
        FieldAccess::W0t => "write 0 to toggle",
        FieldAccess::WClr => "any write clears",
        FieldAccess::WSet => "any write sets",
        FieldAccess::RwOnce => "read/write once after reset",
        FieldAccess::WoOnce => "write-only, once after reset",
        FieldAccess::W1Action => "write 1 to act; reads as 0",
        FieldAccess::RazWi => "reads as zero, writes ignored",
        FieldAccess::Res0 => "reserved, 0",
        FieldAccess::Res1 => "reserved, 1",
    }
}

/// What a read's side effect is, for documentation.
pub fn read_action(action: ReadAction) -> &'static str {
    match action {
        ReadAction::Clear => "the field is cleared",
        ReadAction::Set => "the field is set",
        ReadAction::Modify => "the field is modified",
        ReadAction::ModifyExternal => "something outside the field changes",
    }
}
