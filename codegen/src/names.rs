//! How description names become Rust identifiers.
//!
//! Sanitising is fixed and documented: `<n>` (the array index placeholder) is dropped, `-`, `.` and
//! spaces become `_`, a leading digit gets a `_` prefix and a Rust keyword (or, for methods, a
//! method the generated types define themselves) gets a `_` suffix. What is
//! still not an ASCII identifier after that is an error, and so are two names that become the same.

/// The kinds of Rust identifier a name becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// Kept as written (system register types such as `PMCR_EL0`).
    Verbatim,
    /// `UpperCamelCase` (layouts, block types, enum variants).
    Camel,
    /// `lower_snake_case` (block register accessors, enum modules).
    Snake,
    /// `UPPER_SNAKE_CASE` (field constants): no keyword is upper case, and the layouts' own
    /// methods are lower case, so no suffix is ever needed.
    Upper,
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield", "union",
];

/// Method names the generated value and block types define themselves; a field or register of that
/// name gets a `_` suffix like a keyword.
const GENERATED_METHODS: &[&str] = &[
    "bits",
    "from_bits",
    "from_bits_retain",
    "new",
    "base",
    "on_bus",
    "with_bus",
];

/// The length of the longest name in `KEYWORDS` and `GENERATED_METHODS`.
const LONGEST_LISTED: usize = longest(KEYWORDS, longest(GENERATED_METHODS, 0));

const fn longest(names: &[&str], mut at_least: usize) -> usize {
    let mut i = 0;
    while i < names.len() {
        if names[i].len() > at_least {
            at_least = names[i].len();
        }
        i += 1;
    }
    at_least
}

/// The identifier `name` becomes in `case`, or why it cannot become one.
///
/// One pass and one allocation: the emitters ask for every name several times (a profile of
/// nrf52840's generation had this function and its allocations at 7 % of the samples).
pub fn ident(name: &str, case: Case) -> Result<String, String> {
    let mut out = String::with_capacity(name.len() + 1);
    // Camel case: whether the next letter starts a part (parts are split at `_`).
    let mut part_start = true;
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("<n>") {
            rest = after;
            continue;
        }
        rest = &rest[c.len_utf8()..];
        let c = if matches!(c, '-' | '.' | ' ') { '_' } else { c };
        if !(c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "`{name}` contains `{}`, which cannot appear in a Rust identifier",
                c.escape_default()
            ));
        }
        match case {
            Case::Verbatim => out.push(c),
            Case::Snake => out.push(c.to_ascii_lowercase()),
            Case::Upper => out.push(c.to_ascii_uppercase()),
            Case::Camel if c == '_' => part_start = true,
            Case::Camel if part_start => {
                out.push(c.to_ascii_uppercase());
                part_start = false;
            }
            Case::Camel => out.push(c.to_ascii_lowercase()),
        }
    }
    if out.bytes().all(|b| b == b'_') {
        return Err(format!("`{name}` has no letters or digits to name an item"));
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    // Most names are longer than every listed one and skip the lists.
    let listed = out.len() <= LONGEST_LISTED
        && (KEYWORDS.contains(&out.as_str())
            || (case == Case::Snake && GENERATED_METHODS.contains(&out.as_str())));
    if listed {
        out.push('_');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitising() {
        assert_eq!(
            ident("PMEVTYPER<n>_EL0", Case::Verbatim).unwrap(),
            "PMEVTYPER_EL0"
        );
        assert_eq!(ident("PMCR_EXT", Case::Camel).unwrap(), "PmcrExt");
        assert_eq!(ident("RISC-V_MBOX", Case::Snake).unwrap(), "risc_v_mbox");
        assert_eq!(ident("9BITADDR", Case::Verbatim).unwrap(), "_9BITADDR");
        assert_eq!(ident("TYPE", Case::Snake).unwrap(), "type_");
        assert_eq!(ident("self", Case::Verbatim).unwrap(), "self_");
        assert_eq!(ident("BITS", Case::Snake).unwrap(), "bits_");
        assert_eq!(ident("BASE", Case::Snake).unwrap(), "base_");
        assert_eq!(ident("BASE", Case::Camel).unwrap(), "Base");
        assert_eq!(ident("type", Case::Upper).unwrap(), "TYPE");
        assert_eq!(ident("bits", Case::Upper).unwrap(), "BITS");
        assert_eq!(ident("9bit-addr", Case::Upper).unwrap(), "_9BIT_ADDR");
        assert!(ident("PM$CR", Case::Verbatim).is_err());
        assert!(ident("", Case::Verbatim).is_err());
        assert!(ident("__", Case::Snake).is_err());
        assert!(ident("Zähler", Case::Snake).is_err());
    }
}
