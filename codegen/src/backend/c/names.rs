//! How description names and texts become C: upper-case macro names under the crate's prefix,
//! lower-case function names, and comment text that cannot end its comment.

/// `name` as a C identifier part: `<n>` dropped, `-`, `.` and spaces as `_`, a leading digit
/// behind `_` (the same sanitising the Rust names get, so `names_are_identifiers` has already
/// rejected what cannot become one), upper case.
pub fn upper(name: &str) -> String {
    let base: String = name
        .replace("<n>", "")
        .chars()
        .map(|c| match c {
            '-' | '.' | ' ' => '_',
            c if c.is_ascii_alphanumeric() || c == '_' => c.to_ascii_uppercase(),
            _ => '_',
        })
        .collect();
    if base.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{base}")
    } else {
        base
    }
}

/// `name` as the lower-case part of a function name.
pub fn lower(name: &str) -> String {
    upper(name).to_ascii_lowercase()
}

/// The macro prefix of a crate (`arm-pmuv3` → `ARM_PMUV3`).
pub fn prefix(crate_name: &str) -> String {
    upper(crate_name)
}

/// The suffixes this backend puts after a field's macro name; an enumerated value spelt like one
/// gets a `_` appended, as a Rust keyword does.
const FIELD_SUFFIXES: &[&str] = &["SHIFT", "WIDTH", "MASK", "GET", "PREP"];

/// An enumerated value's part of its macro name.
pub fn value(name: &str) -> String {
    let u = upper(name);
    if FIELD_SUFFIXES.contains(&u.as_str()) {
        format!("{u}_")
    } else {
        u
    }
}

/// Text for a `/* */` comment on one line: line breaks joined, and nothing that could close the
/// comment early or form a trigraph.
pub fn comment(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    one_line
        .replace("*/", "* /")
        .replace("/*", "/ *")
        .replace("??", "? ?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(upper("PMEVTYPER<n>_EL0"), "PMEVTYPER_EL0");
        assert_eq!(upper("evtCount"), "EVTCOUNT");
        assert_eq!(upper("32K-FOUT"), "_32K_FOUT");
        assert_eq!(prefix("arm-pmuv3"), "ARM_PMUV3");
        assert_eq!(lower("PMCR_EL0"), "pmcr_el0");
        assert_eq!(value("MASK"), "MASK_");
        assert_eq!(value("ARM"), "ARM");
    }

    #[test]
    fn comments_stay_comments() {
        assert_eq!(comment("a */ b /* c ??/\nd"), "a * / b / * c ? ?/ d");
    }
}
