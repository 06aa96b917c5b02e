//! What each element of the IR is called in the generated Rust, in one place every part of the
//! backend imports and that imports none of them: the type of a layout, the start of the
//! constants named after an element, the module of a system register's state.
use proc_macro2::Ident;

use super::code::name;
use super::tokens::ident;
use crate::ir::{Layout, SysRegPath};
use crate::names::Case;

/// The Rust type name of a layout.
pub fn type_name(layout: &Layout) -> Ident {
    ident(&layout.name, Case::Camel)
}

/// The Rust type name of a layout, as text.
pub(super) fn type_text(layout: &Layout) -> String {
    name(&layout.name, Case::Camel)
}

/// The upper-case start of the constants named after `name`: leading `_` dropped, except the one
/// sanitising puts before a leading digit (`32K_FOUT` → `_32K_FOUT_COUNT`).
pub(super) fn const_prefix(text: &str) -> String {
    let upper = name(text, Case::Verbatim).to_ascii_uppercase();
    let trimmed = upper.trim_start_matches('_');
    if trimmed.is_empty() || trimmed.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{trimmed}")
    } else {
        trimmed.to_string()
    }
}

/// Which module a system register goes to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum State {
    AArch64,
    AArch32,
}

impl State {
    /// The crate module that holds the state's registers.
    pub fn module(self) -> &'static str {
        match self {
            State::AArch64 => "aarch64",
            State::AArch32 => "aarch32",
        }
    }
}

/// The state whose instructions reach `path`.
pub fn state_of(path: SysRegPath) -> State {
    match path {
        SysRegPath::A64 { .. } => State::AArch64,
        SysRegPath::A32 { .. } | SysRegPath::A32Wide { .. } => State::AArch32,
    }
}
