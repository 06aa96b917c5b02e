//! What is checked before anything applies: selectors that match nothing, conflicts, syntax.
use super::{errors, svd};
use crate::patch::parse;
use crate::rules::{PATCHES_DO_NOT_CONFLICT, PATCH_SELECTORS_MATCH, PATCH_SYNTAX};

#[test]
fn conflicts_and_misses_are_errors_naming_positions() {
    // A rename onto a name a sibling keeps.
    let mut d = svd();
    let e = errors(
        &mut d,
        "[[rename]]\nblock = \"TIMER0\"\nregister = \"CH0_CR\"\nto = \"STATUS\"\n",
    );
    assert_eq!(e[0].rule, PATCHES_DO_NOT_CONFLICT);
    assert_eq!((e[0].pos.line, e[0].pos.col), (4, 6));
    assert!(e[0].notes[0].0.file.ends_with("demo.svd"));
    // An added register whose name is taken.
    let mut d = svd();
    let e = errors(
        &mut d,
        "[[add]]\nblock = \"TIMER0\"\nnew_register = { name = \"STATUS\", offset = 0x80 }\n",
    );
    assert_eq!(e[0].rule, PATCHES_DO_NOT_CONFLICT, "{e:?}");
    // A derive from no block.
    let mut d = svd();
    let e = errors(
        &mut d,
        "[[derive]]\ninstance = \"UART1\"\nfrom = \"UART9\"\n",
    );
    assert_eq!(e[0].rule, PATCH_SELECTORS_MATCH);
    assert_eq!((e[0].pos.line, e[0].pos.col), (3, 8));
    // Nothing is applied when anything fails.
    let mut d = svd();
    let before = d.clone();
    let e = errors(
        &mut d,
        "[[delete]]\nblock = \"UART1\"\n\n[[delete]]\nblock = \"NOPE\"\n",
    );
    assert_eq!(e.len(), 1);
    assert_eq!(d, before);
}

#[test]
fn syntax_errors_point_at_keys() {
    let e = parse("p.toml", "[[rename]]\nblock = \"A*\"\nto = \"B{2}\"\n").unwrap_err();
    assert_eq!(e[0].rule, PATCH_SYNTAX);
    assert_eq!((e[0].pos.line, e[0].pos.col), (3, 6));
    let e = parse("p.toml", "[[copy]]\nblock = \"A\"\n").unwrap_err();
    assert!(e[0].message.contains("needs `to`"), "{}", e[0].message);
    let e = parse("p.toml", "").unwrap_err();
    assert!(e[0].message.contains("no operation"), "{}", e[0].message);
    let e = parse("p.toml", "[[array]]\nblock = \"A\"\nregister = \"CH*\"\n").unwrap_err();
    assert!(e[0].message.contains("<n>"), "{}", e[0].message);
    let e = parse(
        "p.toml",
        "[[modify]]\nblock = \"A\"\nset = { doc = \"x\" }\nto = \"B\"\n",
    )
    .unwrap_err();
    assert!(e[0].message.contains("takes no `to`"), "{}", e[0].message);
}
