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
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::passes::MAX_COUNT;
use crate::rules::{
    Rule, ARRAYS_IN_RANGE, BIT_RANGES_ORDERED, DIM_INDEX_MATCHES_DIM, KEYWORDS_ARE_KNOWN,
    NUMBERS_PARSE, SVD_ELEMENTS_VALID,
};

/// The largest bit position accepted in a bit range; larger ones cannot describe a register.
pub const MAX_BIT: u64 = 0xFFFF;

/// What the checks found, and the repairs to make in the text svd-parser reads: each span of
/// the input and what replaces it, in order.
pub struct Checked {
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    pub repairs: Vec<Repair>,
}

/// A repair: the byte span of the input it replaces, and the text put there.
pub type Repair = ((usize, usize), String);

/// `text` with `repairs` (in order, none overlapping an earlier one) made: the input itself when
/// there are none, rather than a copy as large as the file.
pub fn repaired<'a>(text: &'a str, repairs: &[Repair]) -> Cow<'a, str> {
    if repairs.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for ((start, end), new) in repairs {
        if *start < at {
            continue;
        }
        out.push_str(&text[at..*start]);
        out.push_str(new);
        at = *end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
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

/// CMSIS-SVD's `dimElementGroup`: the elements that make an array of a peripheral, cluster,
/// register or field.
const DIM_ELEMENT_GROUP: &[&str] = &[
    "dim",
    "dimIncrement",
    "dimIndex",
    "dimName",
    "dimArrayIndex",
];

/// CMSIS-SVD's `registerPropertiesGroup`: the defaults a device, peripheral or cluster gives its
/// registers, and a register's own.
const REGISTER_PROPERTIES_GROUP: &[&str] =
    &["size", "access", "protection", "resetValue", "resetMask"];

/// The elements CMSIS-SVD 1.3 defines in each element, in the schema's groups (`CMSIS-SVD.xsd`):
/// a child that is none of them but close to one is a misspelling, whose content would otherwise
/// be dropped without a word (other unknown elements are a vendor's own, and are ignored).
const CHILDREN: &[(&str, &[&[&str]])] = &[
    (
        "device",
        &[
            &[
                "vendor",
                "vendorID",
                "name",
                "series",
                "version",
                "description",
                "licenseText",
                "cpu",
                "headerSystemFilename",
                "headerDefinitionsPrefix",
                "addressUnitBits",
                "width",
            ],
            REGISTER_PROPERTIES_GROUP,
            &["peripherals", "vendorExtensions"],
        ],
    ),
    (
        "cpu",
        &[&[
            "name",
            "revision",
            "endian",
            "mpuPresent",
            "fpuPresent",
            "fpuDP",
            "dspPresent",
            "icachePresent",
            "dcachePresent",
            "itcmPresent",
            "dtcmPresent",
            "vtorPresent",
            "nvicPrioBits",
            "vendorSystickConfig",
            "deviceNumInterrupts",
            "sauNumRegions",
            "sauRegionsConfig",
        ]],
    ),
    (
        "peripheral",
        &[
            DIM_ELEMENT_GROUP,
            &[
                "name",
                "version",
                "description",
                "alternatePeripheral",
                "groupName",
                "prependToName",
                "appendToName",
                "headerStructName",
                "disableCondition",
                "baseAddress",
            ],
            REGISTER_PROPERTIES_GROUP,
            &["addressBlock", "interrupt", "registers"],
        ],
    ),
    (
        "cluster",
        &[
            DIM_ELEMENT_GROUP,
            &[
                "name",
                "description",
                "alternateCluster",
                "headerStructName",
                "addressOffset",
            ],
            REGISTER_PROPERTIES_GROUP,
            &["register", "cluster"],
        ],
    ),
    (
        "register",
        &[
            DIM_ELEMENT_GROUP,
            &[
                "name",
                "displayName",
                "description",
                "alternateGroup",
                "alternateRegister",
                "addressOffset",
            ],
            REGISTER_PROPERTIES_GROUP,
            &[
                "dataType",
                "modifiedWriteValues",
                "writeConstraint",
                "readAction",
                "fields",
            ],
        ],
    ),
    (
        "field",
        &[
            DIM_ELEMENT_GROUP,
            &[
                "name",
                "description",
                "bitOffset",
                "bitWidth",
                "lsb",
                "msb",
                "bitRange",
                "access",
                "modifiedWriteValues",
                "writeConstraint",
                "readAction",
                "enumeratedValues",
            ],
        ],
    ),
    (
        "enumeratedValues",
        &[&["name", "headerEnumName", "usage", "enumeratedValue"]],
    ),
    (
        "enumeratedValue",
        &[&["name", "description", "value", "isDefault"]],
    ),
    (
        "addressBlock",
        &[&["offset", "size", "usage", "protection"]],
    ),
    ("interrupt", &[&["name", "description", "value"]]),
];

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

/// The misspellings [`run`] would repair by case alone, found by a scan of the text before any
/// XML is read. Such a repair keeps every offset, so the document read from the text with them
/// made has the original's spans, and svd-parser can read that one tree: otherwise a file with a
/// single misspelt keyword is read twice (2 MB of nrf52840 for three `read-writeonce`). A
/// keyword element's text that is exactly one of its words but for case, with no white space or
/// reference around it, is the only kind found; the caller keeps the tree only if [`run`]'s
/// repairs are these.
pub fn case_repairs(text: &str) -> Vec<Repair> {
    let mut repairs = Vec::new();
    let mut tags: Vec<&str> = KEYWORDS.iter().map(|k| k.tag).collect();
    tags.dedup();
    let mut first_bytes = [false; 256];
    for tag in &tags {
        first_bytes[usize::from(tag.as_bytes()[0])] = true;
    }
    first_bytes[usize::from(b'v')] = true;
    // One pass over the element starts (`<` is found by `memchr`): a scan per keyword was a
    // fifth of reading nrf52840's XML.
    for (at, _) in text.match_indices('<') {
        let rest = &text[at + 1..];
        if !rest
            .as_bytes()
            .first()
            .is_some_and(|&b| first_bytes[usize::from(b)])
        {
            continue;
        }
        // `0b01XX`: svd-parser reads `x` don't-care digits after `0b`, not `X`.
        if rest.starts_with("value>0b") {
            let start = at + "<value>".len();
            let length = text[start..].find('<').unwrap_or(0);
            if let Some(lower) = binary_dont_care_lowered(&text[start..start + length]) {
                repairs.push(((start, start + length), lower));
            }
            continue;
        }
        let Some(tag) = tags.iter().copied().find(|tag| {
            rest.len() > tag.len() && rest.starts_with(tag) && rest.as_bytes()[tag.len()] == b'>'
        }) else {
            continue;
        };
        let start = at + tag.len() + 2;
        let Some(length) = text[start..].find('<') else {
            continue;
        };
        let content = &text[start..start + length];
        let close = &text[start + length..];
        let closes = close.len() > tag.len() + 2
            && close.starts_with("</")
            && close[2..].starts_with(tag)
            && close.as_bytes()[tag.len() + 2] == b'>';
        if !closes || content.contains('&') {
            continue;
        }
        let words = KEYWORDS
            .iter()
            .filter(|k| k.tag == tag)
            .flat_map(|k| k.words);
        let mut matches = words.filter(|w| w.eq_ignore_ascii_case(content));
        match (matches.next(), matches.next()) {
            (Some(word), None) if *word != content => {
                repairs.push(((start, start + length), word.to_string()));
            }
            _ => {}
        }
    }
    repairs
}

/// `0b01xx` for `0b01XX`: the spelling of don't-care digits svd-parser reads (it lower-cases
/// only `#` numbers); `None` when there is no `X` to lower.
fn binary_dont_care_lowered(text: &str) -> Option<String> {
    let digits = text.strip_prefix("0b")?;
    (digits.contains('X') && digits.chars().all(|c| matches!(c, '0' | '1' | 'x' | 'X')))
        .then(|| format!("0b{}", digits.to_ascii_lowercase()))
}

/// An enumerated value with don't-care digits (`#1x0`, `0b01XX`): the value (those digits 0)
/// and the mask of the digits that count; `None` for any other number.
pub fn dont_care_value(text: &str) -> Option<(u64, u64)> {
    let text = text.trim();
    let digits = text.strip_prefix('#').or(text.strip_prefix("0b"))?;
    if !digits.contains(['x', 'X']) || digits.len() > 64 {
        return None;
    }
    let mut value = 0u64;
    let mut mask = 0u64;
    for digit in digits.chars() {
        value <<= 1;
        mask <<= 1;
        match digit {
            '0' => mask |= 1,
            '1' => {
                value |= 1;
                mask |= 1;
            }
            'x' | 'X' => {}
            _ => return None,
        }
    }
    Some((value, mask))
}

/// Parses an SVD number the way svd-parser does: `0x` hex, `#` or `0b` binary (an `x` or `X` bit,
/// "don't care", reads as 0: [`dont_care_value`] keeps which), or decimal.
pub fn parse_number(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, radix) = if let Some(hex) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
        (hex.to_string(), 16)
    } else if let Some(binary) = text.strip_prefix('#') {
        (binary.to_lowercase().replace('x', "0"), 2)
    } else if let Some(binary) = text.strip_prefix("0b") {
        (binary.to_lowercase().replace('x', "0"), 2)
    } else {
        (text.to_string(), 10)
    };
    u64::from_str_radix(&digits, radix).ok()
}

/// The indexes a `dimIndex` gives, as svd-rs reads them, without building them: the count, or
/// why the text is no index list. A range's count is computed, so `0-4000000000` costs nothing.
pub fn dim_index_count(text: &str) -> Result<u64, String> {
    if let Some((start, end)) = text.split_once('-') {
        if let (Ok(first), Ok(last)) = (start.parse::<u32>(), end.parse::<u32>()) {
            return if first <= last {
                Ok(u64::from(last - first) + 1)
            } else {
                Err(format!("the range `{text}` runs backwards"))
            };
        }
        let (first, last) = (start.as_bytes(), end.as_bytes());
        if let ([first], [last]) = (first, last) {
            let same_case = (first.is_ascii_lowercase() && last.is_ascii_lowercase())
                || (first.is_ascii_uppercase() && last.is_ascii_uppercase());
            if same_case && first <= last {
                return Ok(u64::from(last - first) + 1);
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

pub fn run(doc: &Doc<'_>, lines: &LineIndex<'_>) -> Checked {
    let mut checker = Checker {
        doc,
        lines,
        errors: Vec::new(),
        warnings: Vec::new(),
        replacements: Vec::new(),
    };
    if doc.name(0) != "device" {
        let (start, end) = doc.elements[0].name;
        checker.errors.push(Diagnostic::error(
            SVD_ELEMENTS_VALID,
            &lines.pos(start, end),
            format!(
                "the root element is `<{}>`; a CMSIS-SVD file's is `<device>`",
                doc.name(0)
            ),
        ));
    } else {
        checker.walk(0);
    }
    checker.replacements.sort_by_key(|r| r.0);
    Checked {
        errors: checker.errors,
        warnings: checker.warnings,
        repairs: checker.replacements,
    }
}

struct Checker<'d, 'a> {
    doc: &'d Doc<'a>,
    lines: &'d LineIndex<'d>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    replacements: Vec<Repair>,
}

impl Checker<'_, '_> {
    fn error(&mut self, rule: &'static Rule, span: (usize, usize), message: String) {
        self.errors.push(Diagnostic::error(
            rule,
            &self.lines.pos(span.0, span.1),
            message,
        ));
    }

    fn warn(&mut self, rule: &'static Rule, span: (usize, usize), message: String) {
        self.warnings.push(Diagnostic::warning(
            rule,
            &self.lines.pos(span.0, span.1),
            message,
        ));
    }

    fn walk(&mut self, element: usize) {
        let doc = self.doc;
        let tag = doc.name(element);
        if tag == "vendorExtensions" {
            return;
        }
        let parent = doc.elements[element]
            .parent
            .map_or("", |parent_element| doc.name(parent_element));
        if STRUCTURAL.contains(&parent) {
            self.number(element, tag, parent);
        }
        self.keyword(element, tag, parent);
        // A misspelt element is the error to fix first: its content is missing from the rest.
        let misspelt = self.misspelt_children(element, tag);
        match tag {
            "field" if !misspelt => self.bit_range(element),
            "writeConstraint" => self.write_constraint(element),
            _ => {}
        }
        if matches!(tag, "peripheral" | "cluster" | "register" | "field") {
            self.dim(element, tag);
        }
        for &child in &doc.elements[element].children {
            self.walk(child);
        }
    }

    /// Reports each child of `element` (a `tag`) that CMSIS-SVD does not define there but that is
    /// close to one it does; true if there was one.
    fn misspelt_children(&mut self, element: usize, tag: &str) -> bool {
        let Some((_, groups)) = CHILDREN.iter().find(|(parent, _)| *parent == tag) else {
            return false;
        };
        let known = || groups.iter().flat_map(|g| g.iter().copied());
        let doc = self.doc;
        let mut found = false;
        for &child in &doc.elements[element].children {
            let name = doc.name(child);
            if known().any(|k| k == name) {
                continue;
            }
            let Some(help) =
                crate::diagnostic::did_you_mean(name, known(), crate::diagnostic::element)
            else {
                continue;
            };
            let (start, end) = doc.elements[child].name;
            self.errors.push(
                Diagnostic::error(
                    SVD_ELEMENTS_VALID,
                    &self.lines.pos(start, end),
                    format!("`<{name}>` is no element of `<{tag}>` in CMSIS-SVD; its content would be ignored"),
                )
                .with_help(help),
            );
            found = true;
        }
        found
    }

    /// The element's number, if it is one of the numeric elements and parses; an error if it
    /// does not.
    fn number(&mut self, element: usize, tag: &str, parent: &str) -> Option<u64> {
        let bits = if U32_TAGS.contains(&tag) || (tag == "value" && parent == "interrupt") {
            32
        } else if U64_TAGS.contains(&tag) || (tag == "value" && parent == "enumeratedValue") {
            64
        } else {
            return None;
        };
        let text = self.doc.text_of(element).unwrap_or("");
        let span = self.doc.text_span(element);
        if text.is_empty() {
            self.error(
                NUMBERS_PARSE,
                span,
                format!("`<{tag}>` is empty; it needs a number"),
            );
            return None;
        }
        if let Some(lower) = binary_dont_care_lowered(text) {
            self.replacements.push((span, lower));
        }
        match parse_number(text) {
            Some(value) if bits == 64 || value <= u64::from(u32::MAX) => Some(value),
            Some(_) => {
                self.error(
                    NUMBERS_PARSE,
                    span,
                    format!("`<{tag}>` value `{text}` does not fit in 32 bits"),
                );
                None
            }
            None => {
                self.error(
                    NUMBERS_PARSE,
                    span,
                    format!("`<{tag}>` value `{text}` is not a number (decimal, `0x` hexadecimal, or `#`/`0b` binary)"),
                );
                None
            }
        }
    }

    /// A child's number, quietly `None` when absent or malformed (reported by `number`).
    fn child_number(&self, element: usize, tag: &str) -> Option<(u64, usize)> {
        let child = self.doc.child(element, tag)?;
        let value = parse_number(self.doc.text_of(child)?)?;
        Some((value, child))
    }

    fn keyword(&mut self, element: usize, tag: &str, parent: &str) {
        let Some(keywords) = KEYWORDS.iter().find(|keywords| {
            keywords.tag == tag && (keywords.parent.is_empty() || keywords.parent == parent)
        }) else {
            return;
        };
        let text = self.doc.text_of(element).unwrap_or("").to_string();
        let span = self.doc.text_span(element);
        if keywords.words.contains(&text.as_str()) {
            return;
        }
        let reading = keywords
            .words
            .iter()
            .find(|w| w.eq_ignore_ascii_case(&text))
            .map(|w| (*w, "CMSIS-SVD keywords are case-sensitive"))
            .or_else(|| {
                keywords
                    .aliases
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(&text))
                    .map(|(_, w)| (*w, "it is no CMSIS-SVD keyword"))
            });
        let list = keywords
            .words
            .iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let what = if parent.is_empty() || keywords.parent.is_empty() {
            format!("`<{tag}>`")
        } else {
            format!("`<{tag}>` of `<{parent}>`")
        };
        let (word, message) = match (reading, keywords.fallback) {
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
                self.error(KEYWORDS_ARE_KNOWN, span, message);
                return;
            }
        };
        self.warn(KEYWORDS_ARE_KNOWN, span, message);
        if let Some(text_node) = &self.doc.elements[element].text {
            self.replacements.push((text_node.span, word.to_string()));
        }
    }

    fn bit_range(&mut self, element: usize) {
        let doc = self.doc;
        let range = |checker: &mut Self, msb: u64, lsb: u64, span: (usize, usize), what: String| {
            if msb > MAX_BIT || lsb > MAX_BIT {
                checker.error(
                    NUMBERS_PARSE,
                    span,
                    format!(
                        "{what}: bit {} is beyond any register (the limit is {MAX_BIT})",
                        msb.max(lsb)
                    ),
                );
            } else if msb < lsb {
                checker.error(
                    BIT_RANGES_ORDERED,
                    span,
                    format!("{what} has its msb ({msb}) below its lsb ({lsb})"),
                );
            }
        };
        if let Some(bit_range) = doc.child(element, "bitRange") {
            let text = doc.text_of(bit_range).unwrap_or("");
            let span = doc.text_span(bit_range);
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
                    NUMBERS_PARSE,
                    span,
                    format!(
                        "bitRange `{text}` is not of the form `[msb:lsb]` with decimal bit numbers"
                    ),
                ),
            }
            return;
        }
        match (doc.child(element, "lsb"), doc.child(element, "msb")) {
            (Some(_), Some(msb_element)) => {
                if let (Some((lsb, _)), Some((msb, _))) = (
                    self.child_number(element, "lsb"),
                    self.child_number(element, "msb"),
                ) {
                    range(
                        self,
                        msb,
                        lsb,
                        doc.text_span(msb_element),
                        "`<msb>`/`<lsb>`".to_string(),
                    );
                }
                return;
            }
            (None, None) => {}
            (Some(alone), None) | (None, Some(alone)) => {
                let (start, end) = doc.elements[alone].name;
                self.error(
                    SVD_ELEMENTS_VALID,
                    (start, end),
                    "`<lsb>` and `<msb>` must be given together".to_string(),
                );
                return;
            }
        }
        match (
            doc.child(element, "bitOffset"),
            doc.child(element, "bitWidth"),
        ) {
            (Some(_), Some(width_element)) => {
                if let (Some((offset, _)), Some((width, _))) = (
                    self.child_number(element, "bitOffset"),
                    self.child_number(element, "bitWidth"),
                ) {
                    if width == 0 {
                        self.error(
                            BIT_RANGES_ORDERED,
                            doc.text_span(width_element),
                            "`<bitWidth>` 0 gives the field no bits".to_string(),
                        );
                    } else {
                        range(
                            self,
                            offset + width - 1,
                            offset,
                            doc.text_span(width_element),
                            "`<bitOffset>`/`<bitWidth>`".to_string(),
                        );
                    }
                }
            }
            _ => {
                let span = doc
                    .child(element, "name")
                    .map_or(doc.elements[element].name, |n| doc.text_span(n));
                self.error(
                    SVD_ELEMENTS_VALID,
                    span,
                    "the field has no bit range: give `<bitRange>`, `<lsb>` and `<msb>`, or `<bitOffset>` and `<bitWidth>`".to_string(),
                );
            }
        }
    }

    fn write_constraint(&mut self, element: usize) {
        let doc = self.doc;
        let children = &doc.elements[element].children;
        let well_formed = children.len() == 1
            && matches!(
                doc.name(children[0]),
                "writeAsRead" | "useEnumeratedValues" | "range"
            );
        if !well_formed {
            let span = children
                .get(1)
                .or(children.first())
                .map_or(doc.elements[element].name, |&k| doc.elements[k].name);
            self.error(
                SVD_ELEMENTS_VALID,
                span,
                "`<writeConstraint>` holds exactly one of `<writeAsRead>`, `<useEnumeratedValues>` or `<range>`".to_string(),
            );
        }
    }

    fn dim(&mut self, element: usize, tag: &str) {
        let doc = self.doc;
        let dim = doc.child(element, "dim");
        let increment = doc.child(element, "dimIncrement");
        let index = doc.child(element, "dimIndex");
        let Some(dim) = dim else {
            if let Some(stray) = increment.or(index) {
                let stray_tag = doc.name(stray);
                self.error(
                    DIM_INDEX_MATCHES_DIM,
                    doc.elements[stray].name,
                    format!("`<{stray_tag}>` without `<dim>`: the {tag} is no array"),
                );
            }
            return;
        };
        let Some((count, _)) = self.child_number(element, "dim") else {
            return;
        };
        let dim_span = doc.text_span(dim);
        if increment.is_none() {
            self.error(
                DIM_INDEX_MATCHES_DIM,
                dim_span,
                format!("`<dim>` without `<dimIncrement>`: the distance between the {tag}'s elements is not given"),
            );
            return;
        }
        if count == 0 {
            self.error(
                DIM_INDEX_MATCHES_DIM,
                dim_span,
                "`<dim>` is 0: an array needs at least one element".to_string(),
            );
            return;
        }
        if count > u64::from(MAX_COUNT) {
            self.error(
                ARRAYS_IN_RANGE,
                dim_span,
                format!(
                    "`<dim>` {count} is more elements than the generator accepts ({MAX_COUNT})"
                ),
            );
            return;
        }
        if let Some(name) = doc.child(element, "name") {
            let text = doc.text_of(name).unwrap_or("");
            if !text.contains("%s") {
                self.error(
                    DIM_INDEX_MATCHES_DIM,
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
            Ok(given) if given == count => {}
            Ok(given) => {
                let diagnostic = Diagnostic::error(
                    DIM_INDEX_MATCHES_DIM,
                    &self.lines.pos(span.0, span.1),
                    format!("`<dimIndex>` `{text}` gives {given} index(es) but `<dim>` is {count}"),
                )
                .with_note(
                    &self.lines.pos(dim_span.0, dim_span.1),
                    "`<dim>` given here",
                );
                self.errors.push(diagnostic);
            }
            Err(why) => self.error(DIM_INDEX_MATCHES_DIM, span, format!("`<dimIndex>`: {why}")),
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
