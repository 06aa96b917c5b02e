//! A writer for Rust source that is formatted as it is written.
//!
//! The bulk of a crate (layouts, blocks, models) is regular enough to be written as text in
//! its final layout: going through `quote`, `syn` and `prettyplease` cost over ten times the time
//! of everything else for a large SVD. Lines follow rustfmt's style (four-space indent, `///`
//! doc lines, one item per line); the files carry `#[rustfmt::skip]` at their `mod` so a
//! workspace `cargo fmt` leaves them as generated.
use std::fmt::Write;

use crate::names::{self, Case};

/// Rust source under construction, with the current indentation.
#[derive(Default)]
pub struct Code {
    out: String,
    depth: usize,
}

impl Code {
    pub fn with_capacity(bytes: usize) -> Code {
        Code {
            out: String::with_capacity(bytes),
            depth: 0,
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("    ");
        }
    }

    /// One line at the current indentation.
    pub fn line(&mut self, text: &str) {
        self.indent();
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// One formatted line at the current indentation: `code.fmt(format_args!(...))`.
    pub fn fmt(&mut self, args: std::fmt::Arguments<'_>) {
        self.indent();
        // Writing to a `String` cannot fail.
        let _ = self.out.write_fmt(args);
        self.out.push('\n');
    }

    /// `text {` and one level deeper.
    pub fn open(&mut self, text: &str) {
        self.indent();
        self.out.push_str(text);
        self.out.push_str(" {\n");
        self.depth += 1;
    }

    /// One level shallower and `}` followed by `suffix` (`""`, `","`, `";"`).
    pub fn close(&mut self, suffix: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        self.out.push('}');
        self.out.push_str(suffix);
        self.out.push('\n');
    }

    /// One level deeper, for a list that does not open with a brace.
    pub fn deeper(&mut self) {
        self.depth += 1;
    }

    /// One level shallower, after `deeper`.
    pub fn shallower(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Doc comment lines (`///`) for `text`. Every line of the text becomes one comment line, so
    /// nothing in it can end the comment; carriage returns, which rustc rejects in doc comments,
    /// are dropped.
    pub fn doc(&mut self, text: &str) {
        // An empty doc comment is noise (clippy's `empty_docs`).
        if !text.trim().is_empty() {
            self.comment_lines("///", text);
        }
    }

    /// Inner doc comment lines (`//!`) for `text`.
    pub fn inner_doc(&mut self, text: &str) {
        self.comment_lines("//!", text);
    }

    /// `// SAFETY: text` lines before an `unsafe` block.
    pub fn safety(&mut self, text: &str) {
        for (i, part) in text.lines().enumerate() {
            let lead = if i == 0 { "SAFETY: " } else { "" };
            self.indent();
            self.out.push_str("// ");
            self.out.push_str(lead);
            self.out.push_str(part.trim());
            self.out.push('\n');
        }
    }

    fn comment_lines(&mut self, marker: &str, text: &str) {
        for line in text.split('\n') {
            self.indent();
            self.out.push_str(marker);
            if !line.is_empty() {
                if !line.starts_with(' ') {
                    self.out.push(' ');
                }
                if line.contains('\r') {
                    self.out.push_str(&line.replace('\r', ""));
                } else {
                    self.out.push_str(line);
                }
            }
            self.out.push('\n');
        }
    }

    /// `open`, a raw string literal of the concatenated `parts`, `close`, as one line at the
    /// current indentation: the literal written straight into the output, the text scanned once
    /// for the number of `#` it needs (see `raw_string`).
    pub fn raw_string_attr(&mut self, open: &str, parts: &[&str], close: &str) {
        let hashes = 1 + parts
            .iter()
            .map(|p| longest_quote_hashes(p))
            .max()
            .unwrap_or(0);
        self.indent();
        self.out.push_str(open);
        self.out.push('r');
        self.push_hashes(hashes);
        self.out.push('"');
        for part in parts {
            if part.contains('\r') {
                self.out.push_str(&part.replace('\r', ""));
            } else {
                self.out.push_str(part);
            }
        }
        self.out.push('"');
        self.push_hashes(hashes);
        self.out.push_str(close);
        self.out.push('\n');
    }

    fn push_hashes(&mut self, n: usize) {
        for _ in 0..n {
            self.out.push('#');
        }
    }

    /// Appends already formatted text (whole lines) as it is.
    pub fn raw(&mut self, text: &str) {
        self.out.push_str(text);
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// A name as an identifier of `case` (names were checked by `names_are_identifiers` before any
/// backend runs, so the fallback is never expected to be seen).
pub fn name(name: &str, case: Case) -> String {
    names::ident(name, case).unwrap_or_else(|_| "__invalid_name".to_string())
}

/// A Rust string literal with `text` as its value.
pub fn string(text: &str) -> String {
    format!("\"{}\"", text.escape_default())
}

/// A raw string literal with `text` as its value (carriage returns dropped, as rustc rejects a
/// bare one): as many `#` as it takes that no `"#…` in the text ends it.
#[cfg(test)]
fn raw_string(text: &str) -> String {
    let mut c = Code::default();
    c.raw_string_attr("", &[text], "");
    c.finish().trim_end_matches('\n').to_string()
}

/// The longest run of `#` right after a `"` in `text`.
fn longest_quote_hashes(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut longest = 0;
    for (i, _) in text.match_indices('"') {
        let run = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
        longest = longest.max(run);
    }
    longest
}

/// The smallest unsigned integer type holding `bits` bits.
pub fn uint(bits: u32) -> &'static str {
    match bits {
        0..=8 => "u8",
        9..=16 => "u16",
        17..=32 => "u32",
        _ => "u64",
    }
}

/// A hexadecimal literal, grouped in fours past 16 bits for readability.
pub fn hex(value: u64) -> String {
    let digits = format!("{value:x}");
    if digits.len() <= 4 {
        return format!("0x{digits}");
    }
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 4 + 2);
    grouped.push_str("0x");
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 4 == 0 {
            grouped.push('_');
        }
        grouped.push(c);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_lines_cannot_end_the_comment() {
        let mut c = Code::default();
        c.open("impl X");
        c.doc("one\n\n two */\r\n#[cfg(x)] fn f() {}");
        c.close("");
        assert_eq!(
            c.finish(),
            "impl X {\n    /// one\n    ///\n    /// two */\n    /// #[cfg(x)] fn f() {}\n}\n"
        );
    }

    #[test]
    fn hex_groups_digits() {
        assert_eq!(hex(0x1f), "0x1f");
        assert_eq!(hex(0x1_0000), "0x1_0000");
        assert_eq!(hex(0xdead_beef), "0xdead_beef");
    }

    #[test]
    fn raw_string_outlasts_its_content() {
        assert_eq!(raw_string("a"), "r#\"a\"#");
        assert_eq!(raw_string("fill=\"#fff\""), "r##\"fill=\"#fff\"\"##");
    }

    #[test]
    fn string_literal_escapes() {
        assert_eq!(string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}
