//! Passes over the IR: one rule each, named after what they ensure.
//!
//! `derive_layouts` transforms (it materialises derived layouts); every other pass only checks and
//! returns diagnostics carrying the input position. None of them panics on any input.
mod arrays_in_range;
mod derive_layouts;
mod enum_values_fit;
mod fields_within_width;
mod layouts_fit_paths;
mod names_are_identifiers;
mod no_duplicate_encodings;
mod no_duplicate_names;
mod no_overlapping_fields;
mod no_overlapping_registers;
mod references_resolve;
mod registers_within_block;
mod reset_values_fit;
mod shared_states_agree;

use crate::diagnostic::Diagnostic;
use crate::ir::Device;

/// A checking pass.
pub struct Check {
    pub name: &'static str,
    pub run: fn(&Device) -> Vec<Diagnostic>,
}

/// Every checking pass, in the order they run.
pub const CHECKS: &[Check] = &[
    Check {
        name: no_duplicate_names::NAME,
        run: no_duplicate_names::run,
    },
    Check {
        name: names_are_identifiers::NAME,
        run: names_are_identifiers::run,
    },
    Check {
        name: references_resolve::NAME,
        run: references_resolve::run,
    },
    Check {
        name: fields_within_width::NAME,
        run: fields_within_width::run,
    },
    Check {
        name: no_overlapping_fields::NAME,
        run: no_overlapping_fields::run,
    },
    Check {
        name: reset_values_fit::NAME,
        run: reset_values_fit::run,
    },
    Check {
        name: enum_values_fit::NAME,
        run: enum_values_fit::run,
    },
    Check {
        name: layouts_fit_paths::NAME,
        run: layouts_fit_paths::run,
    },
    Check {
        name: arrays_in_range::NAME,
        run: arrays_in_range::run,
    },
    Check {
        name: no_duplicate_encodings::NAME,
        run: no_duplicate_encodings::run,
    },
    Check {
        name: registers_within_block::NAME,
        run: registers_within_block::run,
    },
    Check {
        name: no_overlapping_registers::NAME,
        run: no_overlapping_registers::run,
    },
    Check {
        name: shared_states_agree::NAME,
        run: shared_states_agree::run,
    },
];

/// Runs every pass on `device`; returns the diagnostics, errors and warnings alike, sorted by
/// position.
pub fn run(device: &mut Device) -> Vec<Diagnostic> {
    let mut diagnostics = derive_layouts::run(device);
    for check in CHECKS {
        diagnostics.extend((check.run)(device));
    }
    diagnostics.sort_by(|a, b| (&a.pos, a.rule).cmp(&(&b.pos, b.rule)));
    diagnostics
}
