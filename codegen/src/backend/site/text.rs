//! Small text helpers the site's pages share: numbers as people read them, and file names.

/// A hexadecimal number, grouped in fours past four digits (`0x7_3003_0e04`), as the Rust
/// constants are written.
pub fn hex(value: u64) -> String {
    let digits = format!("{value:x}");
    if digits.len() <= 4 {
        return format!("0x{digits}");
    }
    let mut out = String::from("0x");
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 4 == 0 {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// Bits as the Arm ARM writes them: `[7]` or `[15:11]`.
pub fn bits(msb: u32, lsb: u32) -> String {
    if msb == lsb {
        format!("[{lsb}]")
    } else {
        format!("[{msb}:{lsb}]")
    }
}

/// A name as a file name or URL fragment: letters, digits, `_` and `-` kept, everything else
/// (`<n>`'s brackets, spaces) as `_`. Names in one namespace stay distinct because
/// `names_are_identifiers` has made their identifiers distinct.
pub fn slug(name: &str) -> String {
    name.replace("<n>", "n")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names() {
        assert_eq!(hex(0xe04), "0xe04");
        assert_eq!(hex(0x7_3003_0e04), "0x7_3003_0e04");
        assert_eq!(bits(15, 11), "[15:11]");
        assert_eq!(bits(3, 3), "[3]");
        assert_eq!(slug("PMEVTYPER<n>_EL0"), "PMEVTYPERn_EL0");
        assert_eq!(slug("a b/c"), "a_b_c");
    }
}
