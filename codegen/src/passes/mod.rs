//! Passes over the IR: one rule each, named after what they ensure.
//!
//! `derive_layouts` transforms (it materialises derived layouts); the others check one rule each
//! and return diagnostics carrying the input position. A defect with one safe local repair (a field
//! beyond its register, a reset wider than its register, ...) is repaired in lenient mode — vendor
//! files, which are full of them — with a warning saying what was done; in strict mode (native
//! descriptions, `--strict`) it is an error. No pass panics on any input.
mod amendments_apply;
mod arrays_in_range;
mod derive_layouts;
mod enum_values_fit;
mod fields_within_width;
mod layouts_fit_paths;
mod locks_resolve;
mod names_are_identifiers;
mod namespaces;
mod no_duplicate_encodings;
mod no_duplicate_names;
mod no_overlapping_fields;
mod no_overlapping_registers;
mod references_resolve;
mod registers_within_block;
mod reset_values_fit;
mod shared_states_agree;

pub use arrays_in_range::MAX_COUNT;

use crate::diagnostic::{Diagnostic, Severity};
use crate::ir::{Device, Pos};

/// Whether defects with a safe repair are repaired (with a warning) or are errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Lenient,
}

/// A pass.
pub struct Pass {
    pub name: &'static str,
    pub run: fn(&mut Device, Mode) -> Vec<Diagnostic>,
}

/// Every pass after `derive_layouts`, in the order they run: repairs first, so that the checks
/// after them see the repaired device.
pub const PASSES: &[Pass] = &[
    Pass {
        name: no_duplicate_names::NAME,
        run: no_duplicate_names::run,
    },
    Pass {
        name: names_are_identifiers::NAME,
        run: names_are_identifiers::run,
    },
    Pass {
        name: references_resolve::NAME,
        run: |d, _| references_resolve::run(d),
    },
    Pass {
        name: fields_within_width::NAME,
        run: fields_within_width::run,
    },
    Pass {
        name: no_overlapping_fields::NAME,
        run: no_overlapping_fields::run,
    },
    Pass {
        name: reset_values_fit::NAME,
        run: reset_values_fit::run,
    },
    Pass {
        name: enum_values_fit::NAME,
        run: enum_values_fit::run,
    },
    Pass {
        name: layouts_fit_paths::NAME,
        run: |d, _| layouts_fit_paths::run(d),
    },
    Pass {
        name: arrays_in_range::NAME,
        run: |d, _| arrays_in_range::run(d),
    },
    Pass {
        name: no_duplicate_encodings::NAME,
        run: |d, _| no_duplicate_encodings::run(d),
    },
    Pass {
        name: registers_within_block::NAME,
        run: |d, _| registers_within_block::run(d),
    },
    Pass {
        name: no_overlapping_registers::NAME,
        run: no_overlapping_registers::run,
    },
    Pass {
        name: shared_states_agree::NAME,
        run: |d, _| shared_states_agree::run(d),
    },
    Pass {
        name: locks_resolve::NAME,
        run: |d, _| locks_resolve::run(d),
    },
];

/// The name of the pass that materialises derived layouts (it runs before `PASSES`).
pub const DERIVE_LAYOUTS: &str = derive_layouts::NAME;
/// The name of the pass that folds `[[amend]]`s into their blocks (it runs first).
pub const AMENDMENTS_APPLY: &str = amendments_apply::NAME;

/// Runs every pass on `device`; returns the diagnostics, errors and warnings alike, sorted by
/// position.
pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let mut diagnostics = amendments_apply::run(device);
    diagnostics.extend(derive_layouts::run(device));
    for pass in PASSES {
        diagnostics.extend((pass.run)(device, mode));
    }
    if mode == Mode::Strict {
        for d in &mut diagnostics {
            d.severity = Severity::Error;
        }
    }
    diagnostics.sort_by(|a, b| (&a.pos, a.rule).cmp(&(&b.pos, b.rule)));
    diagnostics
}

/// A defect with one safe repair: an error in strict mode; in lenient mode a warning that says
/// what `repair` was done (the caller does it).
pub fn defect(
    mode: Mode,
    rule: &'static str,
    pos: &Pos,
    message: String,
    repair: impl Into<String>,
) -> Diagnostic {
    match mode {
        Mode::Strict => Diagnostic::error(rule, pos, message),
        Mode::Lenient => Diagnostic {
            severity: Severity::Warning,
            rule,
            message: format!("{message}; {}", repair.into()),
            pos: pos.clone(),
            notes: Vec::new(),
        },
    }
}
