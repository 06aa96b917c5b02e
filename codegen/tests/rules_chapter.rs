//! The book's chapter of rules, `docs/src/rules.md`, is the registry's: the whole file must be what
//! this test renders from `armreg_codegen::rules::ALL` (the table of `rules::text::readme_table`, then
//! each rule as `armreg-codegen explain <rule>` prints it), so a rule added, renamed or reworded in
//! `codegen/src/rules.rs` cannot leave the book behind.
//! `BLESS=1 cargo test -p armreg-codegen --test rules_chapter` rewrites the chapter.
use std::fmt::Write as _;
use std::path::Path;

const CHAPTER: &str = "docs/src/rules.md";

const INTRO: &str = "\
<!-- Generated from the registry of rules (codegen/src/rules.rs) by codegen/tests/rules_chapter.rs;
     edit the registry, then `BLESS=1 cargo test -p armreg-codegen --test rules_chapter` rewrites this file. -->
# The rules

Every check a diagnostic can name, from the registry `codegen/src/rules.rs`. An **error** stops
generation: nothing is written until it is mended. A **defect** has one safe repair: in a vendor
file (lenient mode) it is repaired with a warning saying how, and in strict mode (native
descriptions, `--strict`, a manifest entry's `strict = true`) it is an error. What each entry
below shows is what `armreg-codegen explain <rule>` prints; `armreg-codegen explain` lists them
all. `codegen/tests/ui/` holds a golden diagnostic that breaks each one.

";

/// The chapter, rendered from the registry.
fn chapter() -> String {
    let mut out = String::from(INTRO);
    // The table, each rule's name linked to its entry below.
    for line in armreg_codegen::rules::text::readme_table().lines() {
        let linked = armreg_codegen::rules::ALL.iter().find_map(|rule| {
            let cell = format!("| `{}` |", rule.name);
            line.strip_prefix(&cell)
                .map(|rest| format!("| [`{0}`](#{0}) |{rest}", rule.name))
        });
        let _ = writeln!(out, "{}", linked.as_deref().unwrap_or(line));
    }
    for rule in armreg_codegen::rules::ALL {
        let _ = write!(
            out,
            "\n## `{}`\n\n```text\n{}```\n",
            rule.name,
            armreg_codegen::rules::text::explain(rule)
        );
    }
    out
}

#[test]
fn the_book_chapter_of_rules_is_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(CHAPTER);
    let expected = chapter();
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    if found == expected {
        return;
    }
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &expected).expect("the chapter is writable");
        return;
    }
    let first = found
        .lines()
        .zip(expected.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| found.lines().count().min(expected.lines().count()));
    panic!(
        "{CHAPTER} differs from the registry from its line {} on (run \
         `BLESS=1 cargo test -p armreg-codegen --test rules_chapter` to rewrite it)\n--- {CHAPTER}\n{}\n--- registry\n{}",
        first + 1,
        found.lines().nth(first).unwrap_or("(end of file)"),
        expected.lines().nth(first).unwrap_or("(end of file)"),
    );
}
