//! Positions of JSON values in the source text.
//!
//! `serde_json` reports a line and column for syntax errors only; once a file parses, values carry
//! no position. Semantic errors (an unknown `ArchStdEvent`, a bad `EventCode`) must still point into
//! the file, so this module walks the (already validated) text once and records where each entry of
//! the top-level array starts and where each of its values starts.
use crate::error::Position;
use std::path::Path;

/// Byte offsets of line starts, to turn offsets into 1-based line:column.
pub(crate) struct LineIndex<'a> {
    file: &'a Path,
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(file: &'a Path, text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self { file, text, starts }
    }

    /// The position of the byte range `offset..offset + len` (clamped to the text).
    pub(crate) fn position(&self, offset: usize, len: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        // Columns count characters; an offset inside a multi-byte character counts as that
        // character (`get` would fail there, so walk back to a boundary).
        let mut boundary = offset;
        while !self.text.is_char_boundary(boundary) {
            boundary -= 1;
        }
        let column = self.text[start..boundary].chars().count() + 1;
        Position {
            file: self.file.to_path_buf(),
            line,
            column,
            offset,
            len: len.min(self.text.len() - offset),
        }
    }

    /// The byte offset of a 1-based line and a 1-based *byte* column, as `serde_json` reports them.
    pub(crate) fn offset_of(&self, line: usize, byte_column: usize) -> usize {
        let start = match line {
            0 => 0,
            l => self.starts.get(l - 1).copied().unwrap_or(self.text.len()),
        };
        (start + byte_column.saturating_sub(1)).min(self.text.len())
    }
}

/// Where one element of the top-level array is, and where its values are.
#[derive(Default)]
pub(crate) struct EntrySpans {
    /// Byte range of the whole element.
    pub(crate) start: usize,
    pub(crate) len: usize,
    /// `(key, value start, value length)` for each member of an object element, in text order.
    pub(crate) values: Vec<(String, usize, usize)>,
}

impl EntrySpans {
    /// The byte range of the value of `key` (the last one when the key repeats, as `serde_json`
    /// keeps the last).
    pub(crate) fn value(&self, key: &str) -> Option<(usize, usize)> {
        self.values
            .iter()
            .rev()
            .find(|(k, _, _)| k == key)
            .map(|&(_, start, len)| (start, len))
    }
}

/// The position of `key`'s value in the element `spans` describes, or of the element when the
/// scanner did not find the key (cannot happen for text serde_json accepted, but a position is
/// better than a panic).
pub(crate) fn value_position(
    index: &LineIndex<'_>,
    spans: Option<&EntrySpans>,
    key: &str,
) -> Position {
    let (start, len) = spans
        .and_then(|s| s.value(key).or(Some((s.start, 1))))
        .unwrap_or((0, 0));
    index.position(start, len)
}

/// The position of the first character of the element `spans` describes.
pub(crate) fn entry_position(index: &LineIndex<'_>, spans: Option<&EntrySpans>) -> Position {
    let (start, len) = spans.map_or((0, 0), |s| (s.start, s.len.min(1)));
    index.position(start, len)
}

/// Scans text that `serde_json` has accepted as a JSON array and returns one [`EntrySpans`] per
/// element. On text that is not a valid JSON array the result is incomplete, never a panic.
pub(crate) fn entries(text: &str) -> Vec<EntrySpans> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
    };
    s.ws();
    s.array_entries()
}

/// Scans text that `serde_json` has accepted as a JSON object and returns the [`EntrySpans`] of
/// each element of the array that is the value of the top-level member `key` (Arm's PMU data
/// keeps its events under `"events"`), and the members of the object itself. Incomplete on text
/// of another shape, never a panic.
pub(crate) fn member_entries(text: &str, key: &str) -> (EntrySpans, Vec<EntrySpans>) {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
    };
    let mut top = EntrySpans::default();
    s.ws();
    top.start = s.i;
    if !s.eat(b'{') {
        return (top, Vec::new());
    }
    s.members(&mut top.values);
    top.len = s.i - top.start;
    let Some((start, _)) = top.value(key) else {
        return (top, Vec::new());
    };
    s.i = start;
    let entries = s.array_entries();
    (top, entries)
}

impl Scanner<'_> {
    /// The elements of the array starting at the cursor.
    fn array_entries(&mut self) -> Vec<EntrySpans> {
        let s = self;
        let mut out = Vec::new();
        if !s.eat(b'[') {
            return out;
        }
        loop {
            s.ws();
            if s.peek().is_none() || s.eat(b']') {
                return out;
            }
            let start = s.i;
            let mut entry = EntrySpans {
                start,
                ..EntrySpans::default()
            };
            if s.eat(b'{') {
                s.members(&mut entry.values);
            } else {
                s.value();
            }
            entry.len = s.i - start;
            out.push(entry);
            s.ws();
            if !s.eat(b',') {
                return out;
            }
        }
    }
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// The members of an object whose `{` has been consumed, through its `}`.
    fn members(&mut self, values: &mut Vec<(String, usize, usize)>) {
        loop {
            self.ws();
            if self.peek().is_none() || self.eat(b'}') {
                return;
            }
            let key_start = self.i;
            self.string();
            // Keys with escapes are decoded by serde_json itself, so they compare like serde sees them.
            let key = std::str::from_utf8(&self.b[key_start..self.i])
                .ok()
                .and_then(|raw| serde_json::from_str::<String>(raw).ok())
                .unwrap_or_default();
            self.ws();
            self.eat(b':');
            self.ws();
            let value_start = self.i;
            self.value();
            values.push((key, value_start, self.i - value_start));
            self.ws();
            if !self.eat(b',') {
                self.ws();
                self.eat(b'}');
                return;
            }
        }
    }

    /// Skips one value of any kind.
    fn value(&mut self) {
        match self.peek() {
            Some(b'"') => self.string(),
            Some(b'{' | b'[') => self.nested(),
            _ => {
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.i += 1;
                }
            }
        }
    }

    /// Skips a string, escapes included.
    fn string(&mut self) {
        if !self.eat(b'"') {
            return;
        }
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'\\' => self.i += 1,
                b'"' => return,
                _ => {}
            }
        }
    }

    /// Skips a whole object or array, strings inside it included.
    fn nested(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b'"' => {
                    self.string();
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let text = "[\n  {\"a\": \"é\", \"b\": 1}\n]";
        let index = LineIndex::new(Path::new("f.json"), text);
        let p = index.position(text.find('1').unwrap(), 1);
        assert_eq!((p.line, p.column), (2, 19));
        assert_eq!(index.position(0, 1).column, 1);
    }

    #[test]
    fn finds_entries_and_values_past_nested_values_and_escapes() {
        let text = r#"[ {"x": {"y": [1, "]"]}, "EventCode": "0x11"}, {"A\u0042": "q\"}"} ]"#;
        let entries = entries(text);
        assert_eq!(entries.len(), 2);
        let (start, len) = entries[0].value("EventCode").unwrap();
        assert_eq!(&text[start..start + len], "\"0x11\"");
        let (start, len) = entries[1].value("AB").unwrap();
        assert_eq!(&text[start..start + len], r#""q\"}""#);
        assert_eq!(
            &text[entries[1].start..entries[1].start + entries[1].len],
            r#"{"A\u0042": "q\"}"}"#
        );
    }

    #[test]
    fn serde_positions_map_back_to_offsets() {
        let text = "[\n {\"a\" 1}\n]";
        let index = LineIndex::new(Path::new("f.json"), text);
        let err = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        let offset = index.offset_of(err.line(), err.column());
        assert_eq!(&text[offset..offset + 1], "1");
    }

    #[test]
    fn incomplete_text_gives_partial_result_without_panicking() {
        for text in ["", "{", "[", "[{\"a\"", "[{\"a\": [", "[\"", "[1,"] {
            let _ = entries(text);
        }
    }
}
