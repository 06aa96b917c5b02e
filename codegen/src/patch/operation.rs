//! What an operation is to the rest of the patch layer: how its table is read ([`Spec`]), and
//! what it claims and does once read ([`Operation`]). Each operation is a file of its own that
//! gives both; `mod.rs` lists them.
use std::fmt;

use super::conflict::Claim;
use super::elem::Elem;
use super::raw::Table;
use super::run::Run;
use super::select::{Numbered, Selected, Selector};
use crate::diagnostic::Diagnostic;
use crate::frontend::spanned::Reader;
use crate::ir::{Device, Pos};

/// How an operation's table is read.
pub struct Spec {
    /// Its table's name: `rename` for `[[rename]]`.
    pub name: &'static str,
    /// The keys it takes besides the selector.
    pub keys: &'static [&'static str],
    /// Which level of its selector may hold `<n>`.
    pub numbered: Numbered,
    /// Whether it reads layouts whole (an array compares its registers' layouts): the fields and
    /// values deleted must be gone before it applies.
    pub compares_layouts: bool,
    /// Checks the types of the values of its keys (in a table of one of them): usually
    /// `check::<Raw>`, the struct its keys are read into.
    pub check: Check,
    /// Reads the operation from its table, given its selector and the table's position; `None`
    /// after reporting why not.
    pub read: Read,
}

/// How the types of an operation's keys are checked.
pub type Check = fn(&Table) -> Result<(), toml::de::Error>;

/// How an operation is read from its table, given its selector and the table's position.
pub type Read = fn(&mut Reader, &Table, &Selector, &Pos) -> Option<Box<dyn Operation>>;

impl Spec {
    /// An operation `name` taking `keys`, read by `read` (its keys' types checked by `check`),
    /// with no numbered level, not comparing layouts.
    pub const fn new(
        name: &'static str,
        keys: &'static [&'static str],
        check: Check,
        read: Read,
    ) -> Spec {
        Spec {
            name,
            keys,
            numbered: Numbered::No,
            compares_layouts: false,
            check,
            read,
        }
    }

    /// The same, with `<n>` at the level `numbered` says.
    pub const fn numbered(self, numbered: Numbered) -> Spec {
        Spec { numbered, ..self }
    }

    /// The same, reading layouts whole.
    pub const fn comparing_layouts(self) -> Spec {
        Spec {
            compares_layouts: true,
            ..self
        }
    }
}

/// What an operation does once read.
pub trait Operation: fmt::Debug {
    /// What it claims of the elements it selected, for the conflict check.
    fn claims(&self, device: &Device, op: &Op, sel: &Selected) -> Vec<Claim>;

    /// Whether it changes `target`'s layout, so that a register sharing its layout with others
    /// needs one of its own first: a change of a field or a value does.
    fn changes_layout(&self, target: Elem) -> bool {
        matches!(target, Elem::Field(..) | Elem::Value(..))
    }

    /// The block it adds, which other operations of the file may name.
    fn adds_block(&self) -> Option<&str> {
        None
    }

    /// A block it names besides its selector, which must exist (or be added by the file).
    fn names_block(&self) -> Option<(&str, &Pos)> {
        None
    }

    /// Narrows what its selector selected, before the conflict check; an error when a part of
    /// the operation matches nothing (`patch_selectors_match`).
    fn narrow(&self, _device: &Device, _op: &Op, _sel: &mut Selected) -> Result<(), Diagnostic> {
        Ok(())
    }

    /// Applies it to what it selected.
    fn apply(&self, run: &mut Run, op: &Op, sel: &Selected);
}

/// One operation of a file: what it does, what it selects, and where the file states it.
#[derive(Debug)]
pub struct Op {
    pub spec: &'static Spec,
    /// Its phase: a file's operations apply phase by phase, in file order within one.
    pub phase: u8,
    pub operation: Box<dyn Operation>,
    pub select: Selector,
    pub pos: Pos,
}

impl Op {
    /// How its lines of the explanation begin: `file:line:col: [[kind]]`.
    pub fn label(&self) -> String {
        format!("{}: [[{}]]", self.pos, self.spec.name)
    }
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[[{}]]", self.name)
    }
}

/// One patch file, read.
#[derive(Debug)]
pub struct PatchFile {
    pub ops: Vec<Op>,
}
