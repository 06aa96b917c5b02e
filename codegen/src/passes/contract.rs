//! What each pass may take for granted about the device, and what it makes true: the order of
//! `PASSES` is a contract checked by the compiler, not a comment.
//!
//! Every pass names the properties it assumes and the ones it establishes. A pass establishes its
//! properties only when it reports no error (a lenient repair, a warning, does establish them: the
//! device is repaired); the runner skips a pass whose assumptions an earlier pass failed to
//! establish, so no pass reads a device broken in a way it does not expect.
use std::fmt;

use super::Pass;

/// A fact about the device that a pass establishes and later passes (and the backends) rely on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// No `[[amend]]` is left: each is folded into its block (locks, set/clear views).
    AmendmentsFolded,
    /// Every derived layout has its base's fields, width and reset, sorted by lsb like the others.
    LayoutsDerived,
    /// No two elements of one namespace share a name, so a name designates one element.
    NamesUnique,
    /// Every name becomes an identifier, distinct within its namespace.
    NamesAreIdentifiers,
    /// Every `layout` and `alias_of` a register names exists.
    ReferencesResolve,
    /// Every field lies inside its layout's width (at most 64 bits): shifts by its lsb are sound.
    FieldsWithinWidth,
    /// No two fields of a layout share a bit.
    FieldsDisjoint,
    /// Field and layout resets fit their widths and agree.
    ResetsFit,
    /// Enumerated values fit their fields, one name per value.
    EnumValuesFit,
    /// Every field array's members are fields of its layout, evenly spaced and alike.
    FieldArraysUniform,
    /// A layout is no wider than its system-register transfer and a whole number of bus accesses.
    LayoutsFitPaths,
    /// Register arrays are well-formed and every element has an encoding or lies in its block.
    ArraysInRange,
    /// No two system registers share an encoding.
    EncodingsUnique,
    /// Every block register lies inside its block, aligned.
    RegistersWithinBlock,
    /// No two block registers share a byte unless one is an alias of the other.
    RegistersDisjoint,
    /// The set and clear views of a shared state agree on its bits.
    SharedStatesAgree,
    /// Every block lock names registers and a bit that can do the job.
    LocksResolve,
}

impl Property {
    /// How many properties there are (the runner keeps one flag each).
    pub const COUNT: usize = Property::LocksResolve as usize + 1;
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// The first pass of `passes` that assumes a property no earlier pass establishes: its index and
/// that property. A `const fn`, so that `PASSES` is checked when the crate compiles.
pub const fn first_unmet(passes: &[Pass]) -> Option<(usize, Property)> {
    let mut declared = [false; Property::COUNT];
    let mut i = 0;
    while i < passes.len() {
        let pass = &passes[i];
        let mut a = 0;
        while a < pass.assumes.len() {
            if !declared[pass.assumes[a] as usize] {
                return Some((i, pass.assumes[a]));
            }
            a += 1;
        }
        let mut e = 0;
        while e < pass.establishes.len() {
            declared[pass.establishes[e] as usize] = true;
            e += 1;
        }
        i += 1;
    }
    None
}

/// A pass list that breaks the contract: a pass runs before a property it assumes is established.
#[derive(Debug, PartialEq, Eq)]
pub struct Violation {
    /// The pass and its position in the list (1-based).
    pub pass: &'static str,
    pub position: usize,
    pub missing: Property,
    /// The pass that establishes `missing` later in the list, if any does.
    pub established_later_by: Option<&'static str>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pass `{}` (#{}) assumes `{}`, which no earlier pass establishes",
            self.pass, self.position, self.missing
        )?;
        match self.established_later_by {
            Some(by) => write!(f, " (`{by}` establishes it, later in the list)"),
            None => write!(f, " (no pass of the list establishes it)"),
        }
    }
}

/// Whether `passes` keeps the contract; the first violation otherwise.
pub fn check(passes: &[Pass]) -> Result<(), Violation> {
    let Some((i, missing)) = first_unmet(passes) else {
        return Ok(());
    };
    Err(Violation {
        pass: passes[i].rule.name,
        position: i + 1,
        missing,
        established_later_by: passes[i..]
            .iter()
            .find(|p| p.establishes.contains(&missing))
            .map(|p| p.rule.name),
    })
}
