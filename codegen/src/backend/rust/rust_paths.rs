//! The Rust names of a description's items, as the generated crate spells them: for pages that
//! show them beside the vendor's names (the register site). Paths are relative to the crate root.
use super::code::name;
use super::layout::field_rust;
use super::naming::{state_of, type_text};
use crate::ir::{Block, BlockRegister, Field, Layout, SysReg};
use crate::names::Case;

/// The layout's type (`Uart0Ctrl`).
pub fn layout(l: &Layout) -> String {
    type_text(l)
}

/// The field's constant (`Uart0Ctrl::EN`, `GpioaOut::PIN.at::<3>()` for a member of a field
/// array); `None` for a reserved field, which has none.
pub fn field(l: &Layout, f: &Field) -> Option<String> {
    field_rust(l, f).map(|c| format!("{}::{c}", type_text(l)))
}

/// The system register's type (`aarch64::PMCR_EL0`).
pub fn sysreg(r: &SysReg) -> String {
    format!(
        "{}::{}",
        state_of(r.path).module(),
        name(&r.name, Case::Verbatim)
    )
}

/// The accessor of a register of a block (`mmio::Uart0::ctrl()`); for a register of a block a
/// cluster places, the accessor within that block.
pub fn block_register(b: &Block, r: &BlockRegister) -> String {
    format!(
        "mmio::{}::{}()",
        name(&b.name, Case::Camel),
        name(&r.name, Case::Snake)
    )
}
