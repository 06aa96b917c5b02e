//! Checks on the XML before svd-parser reads it, each reported at the offending text: numbers that
//! do not parse, bit ranges out of order, `dimIndex` that does not match `dim`, keywords that are
//! misspelt. svd-parser would reject these without a position (or, for some, panic or allocate
//! without bound), so they are found here first.
//!
//! Keyword defects with one obvious reading (`read-writeonce`, `write` for `write-only`, an unknown
//! enumerated-values `usage`) are repaired: the returned text has the canonical keyword in place
//! of the defective one, and a warning says what was read. Everything else is an error.
use std::borrow::Cow;

use super::xml::Doc;
use super::RULE_SVD;
use crate::diagnostic::{Diagnostic, LineIndex, Severity};
use crate::passes::MAX_COUNT;

pub const RULE_NUMBERS: &str = "numbers_parse";
pub const RULE_BITS: &str = "bit_ranges_ordered";
pub const RULE_DIM: &str = "dim_index_matches_dim";
pub const RULE_KEYWORDS: &str = "keywords_are_known";
/// The array rule of the passes, for `dim` beyond what the generator accepts.
pub const RULE_ARRAYS: &str = "arrays_in_range";

/// The largest bit position accepted in a bit range; larger ones cannot describe a register.
pub const MAX_BIT: u64 = 0xFFFF;

/// What the checks found, and the text to give svd-parser (with keywords repaired): the input
/// itself when nothing was repaired, rather than a copy as large as the file.
pub struct Checked<'a> {
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    pub text: Cow<'a, str>,
}

/// Elements whose content is a 32-bit number.
const U32_TAGS: &[&str] = &[
    "addressOffset",
    "size",
    "dim",
    "dimIncrement",
    "bitOffset",
    "bitWidth",
    "lsb",
    "msb",
    "addressUnitBits",
    "width",
    "offset",
    "nvicPrioBits",
    "deviceNumInterrupts",
    "sauNumRegions",
];

/// Elements whose content is a 64-bit number.
const U64_TAGS: &[&str] = &[
    "baseAddress",
    "resetValue",
    "resetMask",
    "minimum",
    "maximum",
];

/// Elements the numbers above are read from (anything under `vendorExtensions` is not SVD's).
const STRUCTURAL: &[&str] = &[
    "device",
    "peripheral",
    "cluster",
    "register",
    "field",
    "addressBlock",
    "interrupt",
    "enumeratedValue",
    "range",
    "cpu",
];

const BOOLS: &[&str] = &["true", "false", "0", "1"];

/// The keywords an element may hold: (element, parent or "" for any, keywords, aliases).
struct Keywords {
    tag: &'static str,
    parent: &'static str,
    words: &'static [&'static str],
    aliases: &'static [(&'static str, &'static str)],
    /// The reading of a word that is none of them, if one is safe.
    fallback: Option<&'static str>,
}

const KEYWORDS: &[Keywords] = &[
    Keywords {
        tag: "access",
        parent: "",
        words: &[
            "read-only",
            "write-only",
            "read-write",
            "writeOnce",
            "read-writeOnce",
        ],
        aliases: &[("write", "write-only"), ("read", "read-only")],
        fallback: None,
    },
    Keywords {
        tag: "modifiedWriteValues",
        parent: "",
        words: &[
            "oneToClear",
            "oneToSet",
            "oneToToggle",
            "zeroToClear",
            "zeroToSet",
            "zeroToToggle",
            "clear",
            "set",
            "modify",
        ],
        aliases: &[],
        fallback: None,
    },
    Keywords {
        tag: "readAction",
        parent: "",
        words: &["clear", "set", "modify", "modifyExternal"],
        aliases: &[],
        fallback: None,
    },
    Keywords {
        tag: "protection",
        parent: "",
        words: &["s", "n", "p"],
        aliases: &[],
        fallback: None,
    },
    Keywords {
        tag: "usage",
        parent: "enumeratedValues",
        words: &["read", "write", "read-write"],
        aliases: &[],
        fallback: Some("read-write"),
    },
    Keywords {
        tag: "usage",
        parent: "addressBlock",
        words: &["registers", "buffer", "reserved"],
        aliases: &[],
        fallback: Some("registers"),
    },
    Keywords {
        tag: "endian",
        parent: "cpu",
        words: &["little", "big", "selectable", "other"],
        aliases: &[],
        fallback: None,
    },
    Keywords {
        tag: "isDefault",
        parent: "",
        words: BOOLS,
        aliases: &[],
        fallback: None,
    },
    Keywords {
        tag: "writeAsRead",
        parent: "",
        words: BOOLS,
        aliases: &[],
        fallback: None,
    },
    Keywords {
        tag: "useEnumeratedValues",
        parent: "",
        words: BOOLS,
        aliases: &[],
        fallback: None,
    },
];

/// The text with the misspellings [`run`] would repair by case alone already repaired, found by
/// a scan of the text before any XML is read (`None` when there are none). Such a repair keeps
/// every offset, so the document read from this text has the original's spans, and svd-parser
/// can read that one tree: otherwise a file with a single misspelt keyword is read twice (2 MB of
/// nrf52840 for three `read-writeonce`). A keyword element's text that is exactly one of its
/// words but for case, with no white space or reference around it, is the only kind changed; the
/// caller keeps the tree only if [`run`]'s repaired text is this one.
pub fn case_repaired(text: &str) -> Option<String> {
    let mut out: Option<String> = None;
    let mut tags: Vec<&str> = KEYWORDS.iter().map(|k| k.tag).collect();
    tags.dedup();
    for tag in tags {
        let open = format!("<{tag}>");
        let close = format!("</{tag}>");
        for (i, _) in text.match_indices(&open) {
            let start = i + open.len();
            let Some(len) = text[start..].find('<') else {
                continue;
            };
            let content = &text[start..start + len];
            if !text[start + len..].starts_with(&close) || content.contains('&') {
                continue;
            }
            let words = KEYWORDS
                .iter()
                .filter(|k| k.tag == tag)
                .flat_map(|k| k.words);
            let mut matches = words.filter(|w| w.eq_ignore_ascii_case(content));
            match (matches.next(), matches.next()) {
                (Some(word), None) if *word != content => {
                    out.get_or_insert_with(|| text.to_string())
                        .replace_range(start..start + len, word);
                }
                _ => {}
            }
        }
    }
    out
}

/// Parses an SVD number the way svd-parser does: `0x` hex, `#` or `0b` binary (an `x` bit, "don't
/// care", reads as 0), or decimal.
pub fn parse_number(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, radix) = if let Some(h) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(b) = text.strip_prefix('#') {
        (b.to_lowercase().replace('x', "0"), 2)
    } else if let Some(b) = text.strip_prefix("0b") {
        (b.replace('x', "0"), 2)
    } else {
        (text.to_string(), 10)
    };
    u64::from_str_radix(&digits, radix).ok()
}

/// The indexes a `dimIndex` gives, as svd-rs reads them, without building them: the count, or
/// why the text is no index list. A range's count is computed, so `0-4000000000` costs nothing.
pub fn dim_index_count(text: &str) -> Result<u64, String> {
    if let Some((start, end)) = text.split_once('-') {
        if let (Ok(s), Ok(e)) = (start.parse::<u32>(), end.parse::<u32>()) {
            return if s <= e {
                Ok(u64::from(e - s) + 1)
            } else {
                Err(format!("the range `{text}` runs backwards"))
            };
        }
        let (s, e) = (start.as_bytes(), end.as_bytes());
        if let ([s], [e]) = (s, e) {
            let same_case = (s.is_ascii_lowercase() && e.is_ascii_lowercase())
                || (s.is_ascii_uppercase() && e.is_ascii_uppercase());
            if same_case && s <= e {
                return Ok(u64::from(e - s) + 1);
            }
        }
        return Err(format!(
            "`{text}` is neither a list `A,B,C` nor a range `0-3` or `A-D`"
        ));
    }
    let entries: Vec<&str> = text.split(',').collect();
    if entries.iter().any(|e| e.trim().is_empty()) {
        return Err(format!("the list `{text}` has an empty entry"));
    }
    Ok(entries.len() as u64)
}

pub fn run<'a>(doc: &Doc<'a>, lines: &LineIndex<'_>) -> Checked<'a> {
    let mut c = Checker {
        doc,
        lines,
        errors: Vec::new(),
        warnings: Vec::new(),
        replacements: Vec::new(),
    };
    if doc.name(0) != "device" {
        let (s, t) = doc.elements[0].name;
        c.errors.push(Diagnostic::error(
            RULE_SVD,
            &lines.pos(s, t),
            format!(
                "the root element is `<{}>`; a CMSIS-SVD file's is `<device>`",
                doc.name(0)
            ),
        ));
    } else {
        c.walk(0);
    }
    c.replacements.sort_by_key(|r| r.0);
    if c.replacements.is_empty() {
        return Checked {
            errors: c.errors,
            warnings: c.warnings,
            text: Cow::Borrowed(doc.text),
        };
    }
    let mut text = String::with_capacity(doc.text.len());
    let mut at = 0;
    for ((s, t), new) in &c.replacements {
        if *s < at {
            continue;
        }
        text.push_str(&doc.text[at..*s]);
        text.push_str(new);
        at = *t;
    }
    text.push_str(&doc.text[at..]);
    Checked {
        errors: c.errors,
        warnings: c.warnings,
        text: Cow::Owned(text),
    }
}

struct Checker<'d, 'a> {
    doc: &'d Doc<'a>,
    lines: &'d LineIndex<'d>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    replacements: Vec<((usize, usize), String)>,
}

impl Checker<'_, '_> {
    fn error(&mut self, rule: &'static str, span: (usize, usize), message: String) {
        self.errors.push(Diagnostic::error(
            rule,
            &self.lines.pos(span.0, span.1),
            message,
        ));
    }

    fn warn(&mut self, rule: &'static str, span: (usize, usize), message: String) {
        self.warnings.push(Diagnostic {
            severity: Severity::Warning,
            rule,
            message,
            pos: self.lines.pos(span.0, span.1),
            notes: Vec::new(),
        });
    }

    fn walk(&mut self, e: usize) {
        let doc = self.doc;
        let tag = doc.name(e);
        if tag == "vendorExtensions" {
            return;
        }
        let parent = doc.elements[e].parent.map_or("", |p| doc.name(p));
        if STRUCTURAL.contains(&parent) {
            self.number(e, tag, parent);
        }
        self.keyword(e, tag, parent);
        match tag {
            "field" => self.bit_range(e),
            "writeConstraint" => self.write_constraint(e),
            _ => {}
        }
        if matches!(tag, "peripheral" | "cluster" | "register" | "field") {
            self.dim(e, tag);
        }
        for &child in &doc.elements[e].children {
            self.walk(child);
        }
    }

    /// The element's number, if it is one of the numeric elements and parses; an error if it
    /// does not.
    fn number(&mut self, e: usize, tag: &str, parent: &str) -> Option<u64> {
        let bits = if U32_TAGS.contains(&tag) || (tag == "value" && parent == "interrupt") {
            32
        } else if U64_TAGS.contains(&tag) || (tag == "value" && parent == "enumeratedValue") {
            64
        } else {
            return None;
        };
        let text = self.doc.text_of(e).unwrap_or("");
        let span = self.doc.text_span(e);
        if text.is_empty() {
            self.error(
                RULE_NUMBERS,
                span,
                format!("`<{tag}>` is empty; it needs a number"),
            );
            return None;
        }
        match parse_number(text) {
            Some(v) if bits == 64 || v <= u64::from(u32::MAX) => Some(v),
            Some(_) => {
                self.error(
                    RULE_NUMBERS,
                    span,
                    format!("`<{tag}>` value `{text}` does not fit in 32 bits"),
                );
                None
            }
            None => {
                self.error(
                    RULE_NUMBERS,
                    span,
                    format!("`<{tag}>` value `{text}` is not a number (decimal, `0x` hexadecimal, or `#`/`0b` binary)"),
                );
                None
            }
        }
    }

    /// A child's number, quietly `None` when absent or malformed (reported by `number`).
    fn child_number(&self, e: usize, tag: &str) -> Option<(u64, usize)> {
        let c = self.doc.child(e, tag)?;
        let v = parse_number(self.doc.text_of(c)?)?;
        Some((v, c))
    }

    fn keyword(&mut self, e: usize, tag: &str, parent: &str) {
        let Some(k) = KEYWORDS
            .iter()
            .find(|k| k.tag == tag && (k.parent.is_empty() || k.parent == parent))
        else {
            return;
        };
        let text = self.doc.text_of(e).unwrap_or("").to_string();
        let span = self.doc.text_span(e);
        if k.words.contains(&text.as_str()) {
            return;
        }
        let reading = k
            .words
            .iter()
            .find(|w| w.eq_ignore_ascii_case(&text))
            .map(|w| (*w, "CMSIS-SVD keywords are case-sensitive"))
            .or_else(|| {
                k.aliases
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(&text))
                    .map(|(_, w)| (*w, "it is no CMSIS-SVD keyword"))
            });
        let list = k
            .words
            .iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let what = if parent.is_empty() || k.parent.is_empty() {
            format!("`<{tag}>`")
        } else {
            format!("`<{tag}>` of `<{parent}>`")
        };
        let (word, message) = match (reading, k.fallback) {
            (Some((word, why)), _) => (
                word,
                format!("{what} `{text}` is not one of {list} ({why}); read it as `{word}`"),
            ),
            (None, Some(word)) if !text.is_empty() => (
                word,
                format!("{what} `{text}` is not one of {list}; read it as `{word}`"),
            ),
            _ => {
                let message = if text.is_empty() {
                    format!("{what} is empty; it needs one of {list}")
                } else {
                    format!("{what} `{text}` is not one of {list}")
                };
                self.error(RULE_KEYWORDS, span, message);
                return;
            }
        };
        self.warn(RULE_KEYWORDS, span, message);
        if let Some(t) = &self.doc.elements[e].text {
            self.replacements.push((t.span, word.to_string()));
        }
    }

    fn bit_range(&mut self, e: usize) {
        let doc = self.doc;
        let range = |s: &mut Self, msb: u64, lsb: u64, span: (usize, usize), what: String| {
            if msb > MAX_BIT || lsb > MAX_BIT {
                s.error(
                    RULE_NUMBERS,
                    span,
                    format!(
                        "{what}: bit {} is beyond any register (the limit is {MAX_BIT})",
                        msb.max(lsb)
                    ),
                );
            } else if msb < lsb {
                s.error(
                    RULE_BITS,
                    span,
                    format!("{what} has its msb ({msb}) below its lsb ({lsb})"),
                );
            }
        };
        if let Some(r) = doc.child(e, "bitRange") {
            let text = doc.text_of(r).unwrap_or("");
            let span = doc.text_span(r);
            let parts: Option<Vec<u32>> = text
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .map(|t| {
                    t.split(':')
                        .map(|p| p.parse::<u32>().ok())
                        .collect::<Option<Vec<u32>>>()
                })
                .and_then(|v| v.filter(|v| v.len() == 2));
            match parts.as_deref() {
                Some(&[msb, lsb]) => range(
                    self,
                    u64::from(msb),
                    u64::from(lsb),
                    span,
                    format!("bitRange `{text}`"),
                ),
                _ => self.error(
                    RULE_NUMBERS,
                    span,
                    format!(
                        "bitRange `{text}` is not of the form `[msb:lsb]` with decimal bit numbers"
                    ),
                ),
            }
            return;
        }
        match (doc.child(e, "lsb"), doc.child(e, "msb")) {
            (Some(_), Some(m)) => {
                if let (Some((lsb, _)), Some((msb, _))) =
                    (self.child_number(e, "lsb"), self.child_number(e, "msb"))
                {
                    range(
                        self,
                        msb,
                        lsb,
                        doc.text_span(m),
                        "`<msb>`/`<lsb>`".to_string(),
                    );
                }
                return;
            }
            (None, None) => {}
            (Some(x), None) | (None, Some(x)) => {
                let (s, t) = doc.elements[x].name;
                self.error(
                    RULE_SVD,
                    (s, t),
                    "`<lsb>` and `<msb>` must be given together".to_string(),
                );
                return;
            }
        }
        match (doc.child(e, "bitOffset"), doc.child(e, "bitWidth")) {
            (Some(_), Some(w)) => {
                if let (Some((offset, _)), Some((width, _))) = (
                    self.child_number(e, "bitOffset"),
                    self.child_number(e, "bitWidth"),
                ) {
                    if width == 0 {
                        self.error(
                            RULE_BITS,
                            doc.text_span(w),
                            "`<bitWidth>` 0 gives the field no bits".to_string(),
                        );
                    } else {
                        range(
                            self,
                            offset + width - 1,
                            offset,
                            doc.text_span(w),
                            "`<bitOffset>`/`<bitWidth>`".to_string(),
                        );
                    }
                }
            }
            _ => {
                let span = doc
                    .child(e, "name")
                    .map_or(doc.elements[e].name, |n| doc.text_span(n));
                self.error(
                    RULE_SVD,
                    span,
                    "the field has no bit range: give `<bitRange>`, `<lsb>` and `<msb>`, or `<bitOffset>` and `<bitWidth>`".to_string(),
                );
            }
        }
    }

    fn write_constraint(&mut self, e: usize) {
        let doc = self.doc;
        let kids = &doc.elements[e].children;
        let ok = kids.len() == 1
            && matches!(
                doc.name(kids[0]),
                "writeAsRead" | "useEnumeratedValues" | "range"
            );
        if !ok {
            let span = kids
                .get(1)
                .or(kids.first())
                .map_or(doc.elements[e].name, |&k| doc.elements[k].name);
            self.error(
                RULE_SVD,
                span,
                "`<writeConstraint>` holds exactly one of `<writeAsRead>`, `<useEnumeratedValues>` or `<range>`".to_string(),
            );
        }
    }

    fn dim(&mut self, e: usize, tag: &str) {
        let doc = self.doc;
        let dim = doc.child(e, "dim");
        let inc = doc.child(e, "dimIncrement");
        let index = doc.child(e, "dimIndex");
        let Some(dim) = dim else {
            if let Some(x) = inc.or(index) {
                let x_tag = doc.name(x);
                self.error(
                    RULE_DIM,
                    doc.elements[x].name,
                    format!("`<{x_tag}>` without `<dim>`: the {tag} is no array"),
                );
            }
            return;
        };
        let Some((count, _)) = self.child_number(e, "dim") else {
            return;
        };
        let dim_span = doc.text_span(dim);
        if inc.is_none() {
            self.error(
                RULE_DIM,
                dim_span,
                format!("`<dim>` without `<dimIncrement>`: the distance between the {tag}'s elements is not given"),
            );
            return;
        }
        if count == 0 {
            self.error(
                RULE_DIM,
                dim_span,
                "`<dim>` is 0: an array needs at least one element".to_string(),
            );
            return;
        }
        if count > u64::from(MAX_COUNT) {
            self.error(
                RULE_ARRAYS,
                dim_span,
                format!(
                    "`<dim>` {count} is more elements than the generator accepts ({MAX_COUNT})"
                ),
            );
            return;
        }
        if let Some(name) = doc.child(e, "name") {
            let text = doc.text_of(name).unwrap_or("");
            if !text.contains("%s") {
                self.error(
                    RULE_DIM,
                    doc.text_span(name),
                    format!(
                        "the {tag} has a `<dim>` but its name `{text}` has no `%s` for the index"
                    ),
                );
                return;
            }
        }
        let Some(index) = index else { return };
        let text = doc.text_of(index).unwrap_or("");
        let span = doc.text_span(index);
        match dim_index_count(text) {
            Ok(n) if n == count => {}
            Ok(n) => {
                let d = Diagnostic::error(
                    RULE_DIM,
                    &self.lines.pos(span.0, span.1),
                    format!("`<dimIndex>` `{text}` gives {n} index(es) but `<dim>` is {count}"),
                )
                .with_note(
                    &self.lines.pos(dim_span.0, dim_span.1),
                    "`<dim>` given here",
                );
                self.errors.push(d);
            }
            Err(why) => self.error(RULE_DIM, span, format!("`<dimIndex>`: {why}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number("0x1F"), Some(31));
        assert_eq!(parse_number("#1x1"), Some(5));
        assert_eq!(parse_number("0b10"), Some(2));
        assert_eq!(parse_number(" 42 "), Some(42));
        assert_eq!(parse_number("0x"), None);
        assert_eq!(parse_number("12k"), None);
        assert_eq!(parse_number("-1"), None);
    }

    #[test]
    fn dim_indexes() {
        assert_eq!(dim_index_count("0-3"), Ok(4));
        assert_eq!(dim_index_count("0-4000000000"), Ok(4_000_000_001));
        assert_eq!(dim_index_count("A-D"), Ok(4));
        assert_eq!(dim_index_count("A,B,C"), Ok(3));
        assert!(dim_index_count("3-0").is_err());
        assert!(dim_index_count("A,,B").is_err());
        assert!(dim_index_count("a-D").is_err());
    }
}
