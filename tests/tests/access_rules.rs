//! The generated types carry the access rules: each case in `tests/access-rules/` breaks one rule
//! and must fail to compile with the error checked in beside it
//! (`TRYBUILD=overwrite cargo test -p integration-tests --test access_rules` to bless).
#[test]
fn access_rules_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("access-rules/*.rs");
}
