//! Licences of generated crates: a crate made from inputs is under their terms, so its `license`
//! is what the inputs state (an SPDX expression), and it carries the licence texts and the
//! notices those terms ask for.

/// The texts the generator can ship beside a crate, by SPDX identifier: a crate whose licence
/// names one of them gets it as `LICENSE-<SUFFIX>`.
pub const TEXTS: &[(&str, &str, &str)] = &[
    (
        "Apache-2.0",
        "LICENSE-APACHE",
        include_str!("../../LICENSE-APACHE"),
    ),
    ("MIT", "LICENSE-MIT", MIT),
];

/// The MIT licence for a generated crate. Its copyright holders are the authors of the
/// descriptions the crate is made from, which the generator cannot name (the repository's own
/// `LICENSE-MIT` names the project's authors).
const MIT: &str = "MIT License

Copyright (c) the authors of the register descriptions this crate is generated from

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the \"Software\"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
";

/// Whether `expression` is a well-formed SPDX licence expression: identifiers (letters, digits,
/// `-`, `.`, optionally `+`), `AND`, `OR`, `WITH` and balanced parentheses.
pub fn is_expression(expression: &str) -> bool {
    let spaced = expression.replace('(', " ( ").replace(')', " ) ");
    let mut depth = 0usize;
    // Alternates operand, operator, operand ...; parentheses open and close operands.
    let mut want_operand = true;
    for token in spaced.split_whitespace() {
        match token {
            "(" if want_operand => depth += 1,
            ")" if !want_operand && depth > 0 => depth -= 1,
            "AND" | "OR" | "WITH" if !want_operand => want_operand = true,
            id if want_operand && is_identifier(id) => want_operand = false,
            _ => return false,
        }
    }
    !want_operand && depth == 0
}

fn is_identifier(id: &str) -> bool {
    let id = id.strip_suffix('+').unwrap_or(id);
    !id.is_empty()
        && !matches!(id, "AND" | "OR" | "WITH")
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':'))
}

/// The licence of a work made from parts under `parts`: each distinct one, joined with `AND`
/// (compound ones in parentheses). `None` when no part states a licence.
pub fn combine<'a>(parts: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut distinct: Vec<&str> = Vec::new();
    for p in parts {
        let p = p.trim();
        if !p.is_empty() && !distinct.contains(&p) {
            distinct.push(p);
        }
    }
    match distinct.as_slice() {
        [] => None,
        [one] => Some((*one).to_string()),
        many => Some(
            many.iter()
                .map(|p| {
                    if p.contains(' ') {
                        format!("({p})")
                    } else {
                        (*p).to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" AND "),
        ),
    }
}

/// The licence files a crate under `expression` carries: `(file name, text)` for every
/// identifier of it whose text the generator has.
pub fn files(expression: &str) -> Vec<(&'static str, &'static str)> {
    let spaced = expression.replace(['(', ')'], " ");
    let ids: Vec<&str> = spaced.split_whitespace().collect();
    TEXTS
        .iter()
        .filter(|(id, _, _)| ids.contains(id))
        .map(|&(_, file, text)| (file, text))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions() {
        for good in [
            "MIT",
            "MIT OR Apache-2.0",
            "Apache-2.0 AND (MIT OR Apache-2.0)",
            "GPL-2.0+ WITH Linux-syscall-note",
            "LicenseRef-Nordic",
        ] {
            assert!(is_expression(good), "{good}");
        }
        for bad in [
            "",
            "MIT OR",
            "(MIT",
            "MIT)",
            "MIT Apache-2.0",
            "AND",
            "MIT/Apache-2.0",
            "a b",
        ] {
            assert!(!is_expression(bad), "{bad}");
        }
    }

    #[test]
    fn combining_keeps_each_licence_once() {
        assert_eq!(combine([]), None);
        assert_eq!(combine(["MIT", "MIT"]).as_deref(), Some("MIT"));
        assert_eq!(
            combine(["Apache-2.0", "MIT OR Apache-2.0"]).as_deref(),
            Some("Apache-2.0 AND (MIT OR Apache-2.0)")
        );
    }

    #[test]
    fn texts_follow_the_identifiers() {
        let names = |e: &str| files(e).iter().map(|f| f.0).collect::<Vec<_>>();
        assert_eq!(
            names("MIT OR Apache-2.0"),
            ["LICENSE-APACHE", "LICENSE-MIT"]
        );
        assert_eq!(names("Apache-2.0"), ["LICENSE-APACHE"]);
        assert!(names("BSD-3-Clause").is_empty());
        assert!(files("MIT")[0].1.starts_with("MIT License"));
    }
}
