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

/// The identifier `name` becomes in `case`, or why it cannot become one.
pub fn ident(name: &str, case: Case) -> Result<String, String> {
    let base: String = name
        .replace("<n>", "")
        .chars()
        .map(|c| if matches!(c, '-' | '.' | ' ') { '_' } else { c })
        .collect();
    if let Some(bad) = base
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
    {
        return Err(format!(
            "`{name}` contains `{}`, which cannot appear in a Rust identifier",
            bad.escape_default()
        ));
    }
    let cased = match case {
        Case::Verbatim => base,
        Case::Snake => base.to_ascii_lowercase(),
        Case::Upper => base.to_ascii_uppercase(),
        Case::Camel => camel(&base),
    };
    if cased.chars().all(|c| c == '_') {
        return Err(format!("`{name}` has no letters or digits to name an item"));
    }
    let prefixed = if cased.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{cased}")
    } else {
        cased
    };
    let reserved = case == Case::Snake && GENERATED_METHODS.contains(&prefixed.as_str());
    Ok(if reserved || KEYWORDS.contains(&prefixed.as_str()) {
        format!("{prefixed}_")
    } else {
        prefixed
    })
}

/// `PMCR_EXT` → `PmcrExt`; `2mA` → `2ma` (the caller prefixes a leading digit).
fn camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    out
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
