//! The patch layer: TOML files that fix a vendor description (CMSIS-SVD, TI XML, Linux sysreg,
//! or a native one) on the IR, before the passes check it (see `descriptions/FORMAT.md`, "Patch
//! files").
//!
//! A patch file is a list of operations (`[[modify]]`, `[[rename]]` ...), each with a selector:
//! one key per level (`block`, `cluster`, `register`, `field`, `value`; `instance`; `sysreg`),
//! each a name or a glob (`GPIO*`, `PIN?`). Every selector of a file is resolved against the
//! device as it is before the file applies (the names the vendor file gives), so the order of the
//! file does not matter and two operations that contradict each other are found before either
//! applies. Patch files given one after the other apply in turn: a later file sees what an
//! earlier one made.
//!
//! Each operation is a file of its own: the keys it takes and how it reads them, what it claims
//! of what it selects (for the conflict check), what it changes and what it says of it
//! (`--explain-patches`); a long one keeps a part beside it (`attr` for `modify`,
//! `cluster_groups` for `cluster`). `OPERATIONS` lists them; adding one is a new file and a line
//! there. What they share is here too, each in one place: selectors and globs (`select`,
//! `glob`), the element model (`elem`), the TOML tables (`raw`, `read`), conflicts over claims
//! (`conflict`), the device while a file applies (`run`, `apply`), and what arrays need
//! (`alike`).
mod add;
mod alike;
mod apply;
mod array;
mod attr;
mod cluster;
mod cluster_groups;
mod conflict;
mod copy;
mod delete;
mod derive;
mod elem;
mod field_array;
mod glob;
mod merge_enums;
mod modify;
mod operation;
mod raw;
mod read;
mod rename;
mod run;
mod select;
#[cfg(test)]
mod tests;

pub use apply::apply;
pub use glob::Glob;
pub use operation::PatchFile;

use crate::diagnostic::Diagnostic;

/// Every operation, one line each, with its phase: a file's operations apply phase by phase,
/// in file order within one, so that renames and modifies are done before an array compares its
/// registers, and an element is added before a cluster checks the names of its block. The order
/// of the lines is the order in which an unknown key's message lists the keys.
const OPERATIONS: [(u8, &operation::Spec); 10] = [
    (1, &modify::SPEC),
    (6, &delete::SPEC),
    (2, &rename::SPEC),
    (5, &copy::SPEC),
    (3, &derive::SPEC),
    (8, &array::SPEC),
    (4, &merge_enums::SPEC),
    (9, &cluster::SPEC),
    (10, &field_array::SPEC),
    (7, &add::SPEC),
];

/// Parses the patch file `text`; `file` is the name positions carry.
pub fn parse(file: &str, text: &str) -> Result<PatchFile, Vec<Diagnostic>> {
    read::file(file, text, &OPERATIONS)
}
