//! The README's table of rules is the registry's: the text between `<!-- rules:begin -->` and
//! `<!-- rules:end -->` must be what `armreg_codegen::rules::text::readme_table` renders, so a rule added,
//! renamed or reworded in `codegen/src/rules.rs` cannot leave the README behind.
//! `BLESS=1 cargo test -p armreg-codegen --test readme_rules` rewrites the table.
use std::path::Path;

const BEGIN: &str = "<!-- rules:begin -->\n";
const END: &str = "<!-- rules:end -->";

#[test]
fn the_readme_table_is_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let readme = std::fs::read_to_string(&path).expect("the README exists");
    let start = readme
        .find(BEGIN)
        .expect("the README has `<!-- rules:begin -->`")
        + BEGIN.len();
    let end = start
        + readme[start..]
            .find(END)
            .expect("the README has `<!-- rules:end -->` after the begin marker");
    let table = armreg_codegen::rules::text::readme_table();
    if readme[start..end] == table {
        return;
    }
    if std::env::var_os("BLESS").is_some() {
        let updated = format!("{}{table}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).expect("the README is writable");
        return;
    }
    panic!(
        "the README's table of rules differs from the registry (run with BLESS=1 to rewrite it)\n--- README\n{}\n--- registry\n{table}",
        &readme[start..end]
    );
}
