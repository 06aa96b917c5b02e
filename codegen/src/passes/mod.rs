//! Passes over the IR: one rule each, named after what they ensure.
//!
//! `amendments_apply` and `derived_layouts_resolve` transform (they fold amendments into their blocks and
//! materialise derived layouts); the others check one rule each and return diagnostics carrying
//! the input position. Each pass declares what it assumes and what it establishes (`contract`),
//! and the order of `PASSES` keeps those declarations. A defect with one safe local repair (a field
//! beyond its register, a reset wider than its register, ...) is repaired in lenient mode — vendor
//! files, which are full of them — with a warning saying what was done; in strict mode (native
//! descriptions, `--strict`) it is an error. No pass panics on any input.
mod amendments_apply;
mod arrays_in_range;
pub mod contract;
mod derived_layouts_resolve;
mod enum_values_fit;
mod field_arrays_uniform;
mod fields_within_width;
mod layouts_fit_paths;
mod locks_resolve;
mod names_are_identifiers;
mod namespaces;
mod no_duplicate_encodings;
mod no_duplicate_names;
mod no_overlapping_fields;
mod no_overlapping_registers;
pub mod overlay;
mod references_resolve;
mod registers_within_block;
mod reset_values_fit;
mod shared_states_agree;

#[cfg(test)]
mod tests;

pub use arrays_in_range::MAX_COUNT;
pub use contract::Property;

use crate::diagnostic::{Diagnostic, Severity};
use crate::ir::{Device, Pos};
use crate::rules::{self, Rule};

/// Whether defects with a safe repair are repaired (with a warning) or are errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Lenient,
}

/// A pass: its rule, the properties it takes for granted and the ones it makes true (see
/// `contract`), and how to run it.
#[derive(Clone, Copy)]
pub struct Pass {
    pub rule: &'static Rule,
    pub assumes: &'static [Property],
    pub establishes: &'static [Property],
    pub run: fn(&mut Device, Mode) -> Vec<Diagnostic>,
}

/// The pass of module `$m` checking `$rule`, with its declarations; `$run` adapts a `run` without a mode or
/// without `&mut`.
macro_rules! pass {
    ($m:ident, $rule:expr) => {
        pass!($m, $rule, $m::run)
    };
    ($m:ident, $rule:expr, $run:expr) => {
        Pass {
            rule: $rule,
            assumes: $m::ASSUMES,
            establishes: $m::ESTABLISHES,
            run: $run,
        }
    };
}

/// Every pass, in the order they run: the two transforms (amendments folded into their blocks,
/// derived layouts materialised), then the checks, repairs first, so that the checks after them
/// see the repaired device. Each pass's `assumes` must be established by a pass before it.
pub const PASSES: &[Pass] = &[
    pass!(amendments_apply, rules::AMENDMENTS_APPLY, |d, _| {
        amendments_apply::run(d)
    }),
    pass!(
        derived_layouts_resolve,
        rules::DERIVED_LAYOUTS_RESOLVE,
        |d, _| derived_layouts_resolve::run(d)
    ),
    pass!(no_duplicate_names, rules::NO_DUPLICATE_NAMES),
    pass!(names_are_identifiers, rules::NAMES_ARE_IDENTIFIERS),
    pass!(references_resolve, rules::REFERENCES_RESOLVE, |d, _| {
        references_resolve::run(d)
    }),
    pass!(fields_within_width, rules::FIELDS_WITHIN_WIDTH),
    pass!(no_overlapping_fields, rules::NO_OVERLAPPING_FIELDS),
    pass!(reset_values_fit, rules::RESET_VALUES_FIT),
    pass!(enum_values_fit, rules::ENUM_VALUES_FIT),
    pass!(field_arrays_uniform, rules::FIELD_ARRAYS_UNIFORM),
    pass!(layouts_fit_paths, rules::LAYOUTS_FIT_PATHS, |d, _| {
        layouts_fit_paths::run(d)
    }),
    pass!(arrays_in_range, rules::ARRAYS_IN_RANGE, |d, _| {
        arrays_in_range::run(d)
    }),
    pass!(
        no_duplicate_encodings,
        rules::NO_DUPLICATE_ENCODINGS,
        |d, _| no_duplicate_encodings::run(d)
    ),
    pass!(
        registers_within_block,
        rules::REGISTERS_WITHIN_BLOCK,
        |d, _| registers_within_block::run(d)
    ),
    pass!(no_overlapping_registers, rules::NO_OVERLAPPING_REGISTERS),
    pass!(shared_states_agree, rules::SHARED_STATES_AGREE, |d, _| {
        shared_states_agree::run(d)
    }),
    pass!(locks_resolve, rules::LOCKS_RESOLVE, |d, _| {
        locks_resolve::run(d)
    }),
];

/// The contract is checked twice, each where it costs nothing and cannot be forgotten:
/// - `PASSES` here, when the crate compiles: a list that breaks it does not build, release
///   builds included, and no test has to be run. A `const` panic carries one string, so the
///   compiler names the pass (its `ASSUMES` says the rest).
/// - any list given to `run_list` (the tests' reordered ones), by a `debug_assert` whose message
///   names the pass and the missing property. Even in a release build the runner never runs a
///   pass whose assumption is not established: it skips it.
const _: () = if let Some((at, _)) = contract::first_unmet(PASSES) {
    panic!("{}", PASSES[at].rule.name); // assumes what no earlier pass establishes
};

/// Runs every pass on `device`; returns the diagnostics, errors and warnings alike, sorted by
/// position.
pub fn run(device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    run_list(PASSES, device, mode)
}

/// Runs `passes` in order. A pass establishes its properties only if it reported no error (in
/// strict mode every diagnostic is one); a pass that assumes a property not established is
/// skipped, so no pass reads a device broken in a way it does not expect (the run already failed).
fn run_list(passes: &[Pass], device: &mut Device, mode: Mode) -> Vec<Diagnostic> {
    let kept = contract::check(passes);
    debug_assert!(
        kept.is_ok(),
        "the pass list breaks its contract: {}",
        kept.unwrap_err()
    );
    let mut established = [false; Property::COUNT];
    let mut diagnostics = Vec::new();
    for pass in passes {
        if !pass.assumes.iter().all(|&p| established[p as usize]) {
            continue;
        }
        let found = (pass.run)(device, mode);
        if !found.iter().any(|d| d.is_error() || mode == Mode::Strict) {
            for &p in pass.establishes {
                established[p as usize] = true;
            }
        }
        diagnostics.extend(found);
    }
    if mode == Mode::Strict {
        for d in &mut diagnostics {
            d.severity = Severity::Error;
        }
    }
    diagnostics.sort_by(|a, b| (&a.pos, a.rule.name).cmp(&(&b.pos, b.rule.name)));
    diagnostics
}

/// A defect with one safe repair: an error in strict mode; in lenient mode a warning that says
/// what `repair` was done (the caller does it).
pub fn defect(
    mode: Mode,
    rule: &'static Rule,
    pos: &Pos,
    message: String,
    repair: impl Into<String>,
) -> Diagnostic {
    match mode {
        Mode::Strict => Diagnostic::error(rule, pos, message),
        Mode::Lenient => Diagnostic::warning(rule, pos, format!("{message}; {}", repair.into())),
    }
}
