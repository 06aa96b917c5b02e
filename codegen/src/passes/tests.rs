//! The pass contract: the real list keeps it, a reordered list is caught naming the pass and the
//! property, and a pass that reports errors withholds its property from the passes after it.
use std::path::Path;

use super::contract::{self, Property};
use super::{run, run_list, Mode, Pass, PASSES};
use crate::diagnostic::Sources;
use crate::frontend::{self, Format};
use crate::ir::Device;

fn position(list: &[Pass], name: &str) -> usize {
    list.iter().position(|p| p.rule.name == name).unwrap()
}

#[test]
fn the_list_keeps_its_contract() {
    assert_eq!(contract::check(PASSES), Ok(()));
    // Each property is made true by exactly one pass, so the backends get a device with all.
    for p in 0..Property::COUNT {
        let by: Vec<&str> = PASSES
            .iter()
            .filter(|pass| pass.establishes.iter().any(|&e| e as usize == p))
            .map(|pass| pass.rule.name)
            .collect();
        assert_eq!(by.len(), 1, "property #{p} is established by {by:?}");
    }
}

/// `derived_layouts_resolve` moved last: the first pass that needs derived layouts is caught.
#[test]
fn derive_layouts_last_breaks_the_contract() {
    let mut list = PASSES.to_vec();
    let derive = list.remove(position(&list, crate::rules::DERIVED_LAYOUTS_RESOLVE.name));
    list.push(derive);
    let violation = contract::check(&list).unwrap_err();
    println!("derived_layouts_resolve moved last: {violation}");
    assert_eq!(
        violation.to_string(),
        "pass `no_duplicate_names` (#2) assumes `LayoutsDerived`, which no earlier pass establishes (`derived_layouts_resolve` establishes it, later in the list)"
    );
}

/// Two dependent checks swapped: the reset check would shift by the lsb of a field outside its
/// layout.
#[test]
fn swapped_checks_break_the_contract() {
    let mut list = PASSES.to_vec();
    let (a, b) = (
        position(&list, crate::rules::FIELDS_WITHIN_WIDTH.name),
        position(&list, crate::rules::RESET_VALUES_FIT.name),
    );
    list.swap(a, b);
    let violation = contract::check(&list).unwrap_err();
    println!("fields_within_width and reset_values_fit swapped: {violation}");
    assert_eq!(violation.pass, "reset_values_fit");
    assert_eq!(violation.missing, Property::FieldsWithinWidth);
    assert_eq!(violation.established_later_by, Some("fields_within_width"));
}

/// The runner itself refuses a list that breaks the contract (in a debug build, as tests run).
#[test]
#[cfg(debug_assertions)]
#[should_panic(
    expected = "the pass list breaks its contract: pass `reset_values_fit` (#6) assumes `FieldsWithinWidth`"
)]
fn the_runner_refuses_a_broken_list() {
    let mut list = PASSES.to_vec();
    let (a, b) = (
        position(&list, crate::rules::FIELDS_WITHIN_WIDTH.name),
        position(&list, crate::rules::RESET_VALUES_FIT.name),
    );
    list.swap(a, b);
    let mut device = Device::new("d", crate::ir::Pos::default());
    run_list(&list, &mut device, Mode::Lenient);
}

fn native(text: &str) -> Device {
    let parsed = frontend::parse(
        Format::Native,
        "t.toml",
        Path::new("t.toml"),
        text,
        &mut Sources::default(),
    );
    let mut device = parsed.map(|(d, _)| d).expect("the description parses");
    device.canonicalize();
    device
}

/// A field beyond its layout, and resets that disagree: in strict mode the field is kept with an
/// error, so `FieldsWithinWidth` is not established and the reset check, which would shift by the
/// field's bit 70 (a panic in a debug build before the contract), does not run. In lenient mode
/// the field is dropped with a warning, and the reset check runs and repairs `EN`.
#[test]
fn an_error_withholds_its_property() {
    let text = r#"
[device]
name = "d"

[[layout]]
name = "CTRL"
width = 32
reset = 1
fields = [
  { name = "EN", bits = "0", reset = 0 },
  { name = "HI", bits = "70", reset = 0 },
]
"#;
    let rules = |mode| {
        let mut device = native(text);
        let mut rules: Vec<&str> = run(&mut device, mode).iter().map(|d| d.rule.name).collect();
        rules.sort_unstable();
        rules.dedup();
        rules
    };
    assert_eq!(rules(Mode::Strict), ["fields_within_width"]);
    assert_eq!(
        rules(Mode::Lenient),
        ["fields_within_width", "reset_values_fit"]
    );
}
