//! A small, non-validating XML reader that keeps the byte span of every element, attribute and
//! text, so that each SVD element can be given its file:line:col (svd-parser gives none).
//!
//! It checks what makes a document well-formed (one root, tags that match, attributes quoted and
//! not repeated, entities known, no control characters, nothing cut off) and reports the first
//! defect at its position, with a note at the element it concerns. It is iterative, so any depth
//! of nesting is read without recursion, and nesting beyond [`MAX_DEPTH`] is refused so that the
//! recursive readers after it (svd-parser, the lowering) cannot overflow the stack.
use std::borrow::Cow;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::rules::XML_WELL_FORMED;

/// Elements nested deeper than this are refused (real SVD files nest about ten deep).
pub const MAX_DEPTH: usize = 256;

/// One element.
#[derive(Debug, Default)]
pub struct Element<'a> {
    /// The tag name's span.
    pub name: (usize, usize),
    pub attrs: Vec<Attr>,
    /// Element children, in document order.
    pub children: Vec<usize>,
    /// The first run of character data directly inside (text and CDATA up to the first child
    /// element, comment or processing instruction), decoded, with its raw span.
    pub text: Option<Text<'a>>,
    pub parent: Option<usize>,
}

#[derive(Debug)]
pub struct Attr {
    pub name: (usize, usize),
    /// The value's span, without the quotes.
    pub value_span: (usize, usize),
}

#[derive(Debug)]
pub struct Text<'a> {
    /// Borrowed from the input unless a reference was decoded or runs were joined: most of a
    /// file's texts, and the white space between its tags, allocate nothing.
    pub value: Cow<'a, str>,
    pub span: (usize, usize),
    /// Whether the raw text is exactly `value` (no entity, no CDATA), so it can be replaced.
    pub plain: bool,
}

/// A parsed document: its elements in document order; element 0 is the root.
#[derive(Debug)]
pub struct Doc<'a> {
    pub text: &'a str,
    pub elements: Vec<Element<'a>>,
}

impl<'a> Doc<'a> {
    pub fn name(&self, element: usize) -> &'a str {
        let (start, end) = self.elements[element].name;
        &self.text[start..end]
    }

    /// The first element child of `element` called `name`.
    pub fn child(&self, element: usize, name: &str) -> Option<usize> {
        self.elements[element]
            .children
            .iter()
            .copied()
            .find(|&c| self.name(c) == name)
    }

    /// Every element child of `element` called `name`.
    pub fn children_named<'s>(
        &'s self,
        element: usize,
        name: &'s str,
    ) -> impl Iterator<Item = usize> + 's {
        self.elements[element]
            .children
            .iter()
            .copied()
            .filter(move |&c| self.name(c) == name)
    }

    pub fn attr(&self, element: usize, name: &str) -> Option<&Attr> {
        let text = self.text;
        self.elements[element]
            .attrs
            .iter()
            .find(|a| &text[a.name.0..a.name.1] == name)
    }

    /// The element's text, trimmed, if it has any.
    pub fn text_of(&self, element: usize) -> Option<&str> {
        self.elements[element]
            .text
            .as_ref()
            .map(|text| text.value.trim())
    }

    /// The span of the element's text without surrounding white space (for plain text), or the
    /// tag name's span when it has no text.
    pub fn text_span(&self, element: usize) -> (usize, usize) {
        match &self.elements[element].text {
            Some(content) if content.plain => {
                let raw = &self.text[content.span.0..content.span.1];
                let start = content.span.0 + (raw.len() - raw.trim_start().len());
                let end = content.span.1 - (raw.len() - raw.trim_end().len());
                if start < end {
                    (start, end)
                } else {
                    self.elements[element].name
                }
            }
            Some(content) => content.span,
            None => self.elements[element].name,
        }
    }
}

/// Whether `text`'s elements nest at most [`MAX_DEPTH`] deep, found without reading the document:
/// roxmltree reads nested elements by recursion, so deeper input must not reach it. Tags are
/// found as roxmltree finds them (comments, CDATA, processing instructions and declarations are
/// skipped, quoted attribute values may hold `>`), so on every prefix roxmltree reads before a
/// defect the depths agree.
pub fn nesting_within_limit(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    let skip_past = |from: usize, end: &[u8]| -> usize {
        bytes[from..]
            .windows(end.len())
            .position(|w| w == end)
            .map_or(bytes.len(), |found| from + found + end.len())
    };
    while let Some(found) = bytes[at..].iter().position(|&byte| byte == b'<') {
        at += found + 1;
        match bytes.get(at) {
            Some(b'!') if bytes[at..].starts_with(b"!--") => at = skip_past(at, b"-->"),
            Some(b'!') if bytes[at..].starts_with(b"![CDATA[") => at = skip_past(at, b"]]>"),
            Some(b'?') => at = skip_past(at, b"?>"),
            Some(b'!') => at = skip_past(at, b">"),
            Some(b'/') => {
                depth = depth.saturating_sub(1);
                at = skip_past(at, b">");
            }
            Some(_) => {
                // A start tag: to its `>`, past quoted values; `/>` closes it at once.
                let mut quote = None;
                let mut empty = false;
                while at < bytes.len() {
                    let byte = bytes[at];
                    at += 1;
                    match (quote, byte) {
                        (Some(open_quote), _) if byte == open_quote => quote = None,
                        (Some(_), _) => {}
                        (None, b'"' | b'\'') => quote = Some(byte),
                        (None, b'>') => {
                            empty = bytes[at - 2] == b'/';
                            break;
                        }
                        _ => {}
                    }
                }
                if !empty {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return false;
                    }
                }
            }
            None => break,
        }
    }
    true
}

/// The document `tree` holds (roxmltree's reading of `text`, whose first `offset` bytes, a byte
/// order mark, it was not given; or of a copy of `text` changed without moving any byte), with
/// the spans and the texts of `text` that [`parse`] would give: one reading serves the positions
/// and svd-parser. `None` when the tree nests deeper than [`MAX_DEPTH`]; the
/// caller then has [`parse`] name the defect.
///
/// An element's text is its first text child before any element child (roxmltree joins text and
/// CDATA runs into one node, as [`parse`] does).
pub fn from_tree<'a>(
    tree: &roxmltree::Document<'a>,
    text: &'a str,
    offset: usize,
) -> Option<Doc<'a>> {
    let bytes = text.as_bytes();
    let input = tree.input_text();
    // Every element opens with a `<`: sized once from their count, rather than grown (and
    // copied) a dozen times for a large file. A node is an element or the text before one.
    let opened = memchr::memchr_iter(b'<', bytes).count();
    let mut elements: Vec<Element<'a>> = Vec::with_capacity(opened);
    // Per node id: its element's index and depth, for its children.
    let mut index: Vec<(usize, usize)> = Vec::with_capacity(2 * opened + 2);
    for node in tree.root_element().descendants() {
        let id = node.id().get_usize();
        if index.len() <= id {
            index.resize(id + 1, (usize::MAX, 0));
        }
        if node.is_text() {
            let Some(&(parent, _)) = node
                .parent()
                .map(|parent_node| &index[parent_node.id().get_usize()])
            else {
                continue;
            };
            let element = &mut elements[parent];
            if element.children.is_empty() && element.text.is_none() {
                let span = (node.range().start + offset, node.range().end + offset);
                // A text without references is `text`'s own bytes, borrowed from it (not the tree,
                // which goes once svd-parser has read it; and the tree may have read a copy with
                // keywords repaired in place, while the checks must see what the file says).
                let value = match node.text_storage() {
                    Some(roxmltree::StringStorage::Borrowed(content)) => {
                        // The same bytes of `text` (a CDATA's content is inside its span).
                        let at = content.as_ptr() as usize - input.as_ptr() as usize + offset;
                        Cow::Borrowed(&text[at..at + content.len()])
                    }
                    Some(roxmltree::StringStorage::Owned(content)) => {
                        Cow::Owned(content.to_string())
                    }
                    None => Cow::Borrowed(""),
                };
                let plain = text[span.0..span.1] == *value;
                element.text = Some(Text { value, span, plain });
            }
            continue;
        }
        if !node.is_element() {
            continue;
        }
        let parent = node
            .parent()
            .filter(roxmltree::Node::is_element)
            .map(|parent_node| index[parent_node.id().get_usize()]);
        let depth = parent.map_or(1, |(_, parent_depth)| parent_depth + 1);
        if depth > MAX_DEPTH {
            return None;
        }
        let start = node.range().start + offset + 1;
        let len = bytes[start..]
            .iter()
            .position(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
            .unwrap_or(bytes.len() - start);
        let element_index = elements.len();
        index[id] = (element_index, depth);
        if let Some((parent_index, _)) = parent {
            elements[parent_index].children.push(element_index);
        }
        elements.push(Element {
            name: (start, start + len),
            attrs: node
                .attributes()
                .map(|attribute| Attr {
                    name: (
                        attribute.range_qname().start + offset,
                        attribute.range_qname().end + offset,
                    ),
                    value_span: (
                        attribute.range_value().start + offset,
                        attribute.range_value().end + offset,
                    ),
                })
                .collect(),
            children: Vec::new(),
            text: None,
            parent: parent.map(|(parent_index, _)| parent_index),
        });
    }
    Some(Doc { text, elements })
}

/// Reads `text` (the content of `file`) into a document, or gives the first well-formedness
/// error.
pub fn parse<'a>(lines: &LineIndex<'_>, text: &'a str) -> Result<Doc<'a>, Diagnostic> {
    Reader {
        text,
        bytes: text.as_bytes(),
        cursor: 0,
        lines,
        elements: Vec::new(),
        stack: Vec::new(),
    }
    .run()
}

struct Reader<'a, 'l> {
    text: &'a str,
    bytes: &'a [u8],
    /// Where reading has got to (a byte offset).
    cursor: usize,
    lines: &'l LineIndex<'l>,
    elements: Vec<Element<'a>>,
    /// Open elements.
    stack: Vec<usize>,
}

impl<'a> Reader<'a, '_> {
    fn error(&self, span: (usize, usize), message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(XML_WELL_FORMED, &self.lines.pos(span.0, span.1), message)
    }

    fn note_open(&self, diagnostic: Diagnostic, element: usize) -> Diagnostic {
        let (start, end) = self.elements[element].name;
        diagnostic.with_note(
            &self.lines.pos(start, end),
            format!("`<{}>` opened here", &self.text[start..end]),
        )
    }

    fn starts(&self, prefix: &str) -> bool {
        self.bytes[self.cursor..].starts_with(prefix.as_bytes())
    }

    fn skip_ws(&mut self) {
        while self.cursor < self.bytes.len()
            && matches!(self.bytes[self.cursor], b' ' | b'\t' | b'\r' | b'\n')
        {
            self.cursor += 1;
        }
    }

    /// The end of the next `pattern` from the current position, or an error naming `what`.
    fn find(&self, pattern: &str, what: &str, from: usize) -> Result<usize, Diagnostic> {
        match self.text[self.cursor..].find(pattern) {
            Some(found) => Ok(self.cursor + found + pattern.len()),
            None => Err(self.eof_error(from, what)),
        }
    }

    fn eof_error(&self, from: usize, what: &str) -> Diagnostic {
        let end = self.bytes.len();
        let diagnostic = self.error(
            (end, end),
            format!(
                "the file ends inside {what} started at {}",
                self.lines.pos(from, from)
            ),
        );
        diagnostic.with_note(
            &self.lines.pos(from, from + 1),
            format!("{what} starts here"),
        )
    }

    fn run(mut self) -> Result<Doc<'a>, Diagnostic> {
        if let Some((at, control)) = self.text.char_indices().find(|&(_, control)| {
            (control < ' ' && !matches!(control, '\t' | '\n' | '\r')) || control == '\u{fffe}'
        }) {
            return Err(self.error(
                (at, at + control.len_utf8()),
                format!(
                    "control character U+{:04X} cannot appear in XML (is this a binary file?)",
                    control as u32
                ),
            ));
        }
        if self.text.starts_with('\u{feff}') {
            self.cursor = 3;
        }
        if self.text[self.cursor..].trim().is_empty() {
            return Err(self.error(
                (0, 0),
                "the file is empty: an SVD file needs a `<device>` element",
            ));
        }
        let mut root_done = false;
        loop {
            if self.stack.is_empty() {
                self.skip_ws();
            }
            if self.cursor >= self.bytes.len() {
                break;
            }
            if self.bytes[self.cursor] != b'<' {
                self.text_run(root_done)?;
                continue;
            }
            let start = self.cursor;
            if self.starts("<!--") {
                self.cursor = self.find("-->", "a comment", start)?;
            } else if self.starts("<![CDATA[") {
                if self.stack.is_empty() {
                    return Err(self.error((start, start + 9), "CDATA outside the root element"));
                }
                self.cursor += 9;
                let end = self.find("]]>", "a CDATA section", start)?;
                let value = Cow::Borrowed(&self.text[start + 9..end - 3]);
                self.add_text(value, (start, end), false);
                self.cursor = end;
            } else if self.starts("<?") {
                self.cursor = self.find("?>", "a processing instruction", start)?;
            } else if self.starts("<!") {
                if !self.stack.is_empty() || root_done {
                    return Err(self.error(
                        (start, start + 2),
                        "a `<!` declaration can only come before the root element",
                    ));
                }
                self.doctype(start)?;
            } else if self.starts("</") {
                self.close_tag(start)?;
                if self.stack.is_empty() {
                    root_done = true;
                }
            } else {
                if self.stack.is_empty() && root_done {
                    return Err(self.error(
                        (start, start + 1),
                        "a second root element: an XML file has exactly one",
                    ));
                }
                let closed = self.open_tag(start)?;
                if closed && self.stack.is_empty() {
                    root_done = true;
                }
            }
        }
        if let Some(&open) = self.stack.last() {
            let end = self.bytes.len();
            let name = self.name_of(open);
            let diagnostic = self.error(
                (end, end),
                format!("the file ends before `<{name}>` is closed (truncated?)"),
            );
            return Err(self.note_open(diagnostic, open));
        }
        if !root_done {
            let end = self.bytes.len();
            return Err(self.error((end, end), "the file has no root element"));
        }
        Ok(Doc {
            text: self.text,
            elements: self.elements,
        })
    }

    fn name_of(&self, element: usize) -> &'a str {
        let (start, end) = self.elements[element].name;
        &self.text[start..end]
    }

    fn doctype(&mut self, start: usize) -> Result<(), Diagnostic> {
        // `<!DOCTYPE ... [ ... ]>`: skip it, brackets and quotes included.
        let mut depth = 0usize;
        let mut quote: Option<u8> = None;
        self.cursor += 2;
        while self.cursor < self.bytes.len() {
            let byte = self.bytes[self.cursor];
            self.cursor += 1;
            match (quote, byte) {
                (Some(open_quote), byte) if byte == open_quote => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') => quote = Some(byte),
                (None, b'[') => depth += 1,
                (None, b']') => depth = depth.saturating_sub(1),
                (None, b'>') if depth == 0 => return Ok(()),
                _ => {}
            }
        }
        Err(self.eof_error(start, "a `<!` declaration"))
    }

    fn name_at(&mut self) -> Option<(usize, usize)> {
        let start = self.cursor;
        while self.cursor < self.bytes.len() {
            let byte = self.bytes[self.cursor];
            let name_byte = byte.is_ascii_alphanumeric()
                || matches!(byte, b'_' | b':' | b'-' | b'.')
                || byte >= 0x80;
            if !name_byte {
                break;
            }
            self.cursor += 1;
        }
        let first_ok =
            start < self.cursor && !matches!(self.bytes[start], b'0'..=b'9' | b'-' | b'.');
        first_ok.then_some((start, self.cursor))
    }

    /// The character at the current position, for messages.
    fn here(&self) -> ((usize, usize), String) {
        match self.text[self.cursor..].chars().next() {
            Some(next) => (
                (self.cursor, self.cursor + next.len_utf8()),
                format!("`{}`", next.escape_default()),
            ),
            None => (
                (self.cursor, self.cursor),
                "the end of the file".to_string(),
            ),
        }
    }

    /// Reads a start tag; returns whether it closed itself (`/>`).
    fn open_tag(&mut self, start: usize) -> Result<bool, Diagnostic> {
        self.cursor += 1;
        let Some(name) = self.name_at() else {
            let (span, what) = self.here();
            return Err(self.error(
                span,
                format!("expected an element name after `<`, found {what}"),
            ));
        };
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.error(
                name,
                format!("elements nest deeper than {MAX_DEPTH} levels"),
            ));
        }
        let id = self.elements.len();
        let parent = self.stack.last().copied();
        self.elements.push(Element {
            name,
            parent,
            ..Element::default()
        });
        if let Some(parent) = parent {
            self.elements[parent].children.push(id);
        }
        loop {
            let before = self.cursor;
            self.skip_ws();
            if self.cursor >= self.bytes.len() {
                return Err(self.eof_error(start, "a start tag"));
            }
            match self.bytes[self.cursor] {
                b'>' => {
                    self.cursor += 1;
                    self.stack.push(id);
                    return Ok(false);
                }
                b'/' => {
                    if self.bytes.get(self.cursor + 1) == Some(&b'>') {
                        self.cursor += 2;
                        return Ok(true);
                    }
                    let (span, what) = self.here();
                    return Err(self.error(span, format!("expected `/>`, found {what}")));
                }
                _ => {}
            }
            if before == self.cursor {
                let (span, what) = self.here();
                return Err(self.error(
                    span,
                    format!("expected white space, `>` or `/>` in a start tag, found {what}"),
                ));
            }
            self.attribute(id, start)?;
        }
    }

    fn attribute(&mut self, id: usize, start: usize) -> Result<(), Diagnostic> {
        let Some(name) = self.name_at() else {
            let (span, what) = self.here();
            return Err(self.error(span, format!("expected an attribute name, found {what}")));
        };
        let name_text = &self.text[name.0..name.1];
        if let Some(prev) = self.elements[id]
            .attrs
            .iter()
            .find(|a| &self.text[a.name.0..a.name.1] == name_text)
        {
            let diagnostic = self.error(name, format!("attribute `{name_text}` is given twice"));
            return Err(diagnostic.with_note(
                &self.lines.pos(prev.name.0, prev.name.1),
                "first given here",
            ));
        }
        self.skip_ws();
        if self.bytes.get(self.cursor) != Some(&b'=') {
            let (span, what) = self.here();
            return Err(self.error(
                span,
                format!("expected `=` after attribute `{name_text}`, found {what}"),
            ));
        }
        self.cursor += 1;
        self.skip_ws();
        let quote = match self.bytes.get(self.cursor) {
            Some(&mark @ (b'"' | b'\'')) => mark,
            _ => {
                let (span, what) = self.here();
                return Err(self.error(
                    span,
                    format!("expected a quoted value for attribute `{name_text}`, found {what}"),
                ));
            }
        };
        self.cursor += 1;
        let value_start = self.cursor;
        let Some(value_length) = self.bytes[self.cursor..]
            .iter()
            .position(|&byte| byte == quote)
        else {
            return Err(self.eof_error(start, "a start tag"));
        };
        let value_end = self.cursor + value_length;
        if let Some(less_than) = self.bytes[value_start..value_end]
            .iter()
            .position(|&byte| byte == b'<')
        {
            return Err(self.error(
                (value_start + less_than, value_start + less_than + 1),
                "`<` cannot appear in an attribute value",
            ));
        }
        self.decode(value_start, value_end)?;
        self.cursor = value_end + 1;
        self.elements[id].attrs.push(Attr {
            name,
            value_span: (value_start, value_end),
        });
        Ok(())
    }

    fn close_tag(&mut self, start: usize) -> Result<(), Diagnostic> {
        self.cursor += 2;
        let Some(name) = self.name_at() else {
            let (span, what) = self.here();
            return Err(self.error(
                span,
                format!("expected an element name after `</`, found {what}"),
            ));
        };
        self.skip_ws();
        if self.bytes.get(self.cursor) != Some(&b'>') {
            if self.cursor >= self.bytes.len() {
                return Err(self.eof_error(start, "an end tag"));
            }
            let (span, what) = self.here();
            return Err(self.error(span, format!("expected `>`, found {what}")));
        }
        self.cursor += 1;
        let close = &self.text[name.0..name.1];
        let Some(&open) = self.stack.last() else {
            return Err(self.error(name, format!("`</{close}>` closes no open element")));
        };
        let open_name = self.name_of(open);
        if open_name != close {
            let diagnostic =
                self.error(name, format!("`</{close}>` does not match `<{open_name}>`"));
            return Err(self.note_open(diagnostic, open));
        }
        self.stack.pop();
        Ok(())
    }

    /// Character data up to the next `<`.
    fn text_run(&mut self, root_done: bool) -> Result<(), Diagnostic> {
        let start = self.cursor;
        let end = self.bytes[self.cursor..]
            .iter()
            .position(|&byte| byte == b'<')
            .map_or(self.bytes.len(), |found| self.cursor + found);
        if self.stack.is_empty() {
            let what = if root_done { "after" } else { "before" };
            return Err(self.error((start, start + 1), format!("text {what} the root element")));
        }
        let value = self.decode(start, end)?;
        let plain = value.len() == end - start;
        self.add_text(value, (start, end), plain);
        self.cursor = end;
        Ok(())
    }

    fn add_text(&mut self, value: Cow<'a, str>, span: (usize, usize), plain: bool) {
        let Some(&open) = self.stack.last() else {
            return;
        };
        let element = &mut self.elements[open];
        if !element.children.is_empty()
            || element
                .text
                .as_ref()
                .is_some_and(|text| text.span.1 != span.0)
        {
            return;
        }
        match &mut element.text {
            Some(text) => {
                text.value.to_mut().push_str(&value);
                text.span.1 = span.1;
                text.plain = false;
            }
            None => element.text = Some(Text { value, span, plain }),
        }
    }

    /// Decodes entity and character references in `start..end`.
    fn decode(&self, start: usize, end: usize) -> Result<Cow<'a, str>, Diagnostic> {
        let raw: &'a str = &self.text[start..end];
        if !raw.contains('&') {
            return Ok(Cow::Borrowed(raw));
        }
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        let mut at = start;
        while let Some(ampersand) = rest.find('&') {
            out.push_str(&rest[..ampersand]);
            at += ampersand;
            rest = &rest[ampersand..];
            let Some(semi) = rest.find(';').filter(|&s| s <= 12) else {
                return Err(self.error(
                    (at, at + 1),
                    "`&` starts no entity reference (write `&amp;`)",
                ));
            };
            let entity = &rest[1..semi];
            let decoded = match entity {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => entity
                    .strip_prefix("#x")
                    .map(|hex| u32::from_str_radix(hex, 16))
                    .or_else(|| entity.strip_prefix('#').map(str::parse::<u32>))
                    .and_then(Result::ok)
                    .and_then(char::from_u32),
            };
            let Some(decoded) = decoded else {
                return Err(self.error((at, at + semi + 1), format!("unknown entity `&{entity};`")));
            };
            out.push(decoded);
            at += semi + 1;
            rest = &rest[semi + 1..];
        }
        out.push_str(rest);
        Ok(Cow::Owned(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Doc<'_>, String> {
        let lines = LineIndex::new("t.svd", text);
        parse(&lines, text).map_err(|d| d.to_string())
    }

    #[test]
    fn reads_elements_attributes_and_text() {
        let doc = read(
            "<?xml version=\"1.0\"?>\n<!-- c -->\n<device a='1' b=\"x&amp;y\">\n <name>N&lt;1&gt;</name><e/>\n <t><![CDATA[a<b]]></t>\n</device>\n",
        )
        .unwrap();
        assert_eq!(doc.name(0), "device");
        let b = doc.attr(0, "b").unwrap().value_span;
        assert_eq!(&doc.text[b.0..b.1], "x&amp;y");
        let name = doc.child(0, "name").unwrap();
        assert_eq!(doc.text_of(name), Some("N<1>"));
        assert_eq!(doc.text_of(doc.child(0, "t").unwrap()), Some("a<b"));
        assert_eq!(doc.elements[0].children.len(), 3);
    }

    #[test]
    fn reports_defects_with_positions() {
        let cases = [
            ("", "t.svd:1:1: error[xml_well_formed]: the file is empty"),
            (
                "<a><b></a>",
                "t.svd:1:9: error[xml_well_formed]: `</a>` does not match `<b>`",
            ),
            (
                "<a>\n<b>",
                "t.svd:2:4: error[xml_well_formed]: the file ends before `<b>` is closed",
            ),
            (
                "<a x='1' x='2'/>",
                "t.svd:1:10: error[xml_well_formed]: attribute `x` is given twice",
            ),
            (
                "<a>&nbsp;</a>",
                "t.svd:1:4: error[xml_well_formed]: unknown entity",
            ),
            (
                "<a>\u{0}</a>",
                "t.svd:1:4: error[xml_well_formed]: control character U+0000",
            ),
            (
                "<a/><b/>",
                "t.svd:1:5: error[xml_well_formed]: a second root element",
            ),
            (
                "<a><!-- x",
                "t.svd:1:10: error[xml_well_formed]: the file ends inside a comment",
            ),
            (
                "<a b=1/>",
                "t.svd:1:6: error[xml_well_formed]: expected a quoted value",
            ),
        ];
        for (text, want) in cases {
            let got = read(text).unwrap_err();
            assert!(got.starts_with(want), "{text:?}: {got}");
        }
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "<a>".repeat(MAX_DEPTH + 1);
        assert!(read(&text).unwrap_err().contains("nest deeper"));
    }

    #[test]
    fn the_nesting_scan_counts_tags_as_a_reader_does() {
        let nested =
            |n: usize, inner: &str| format!("{}{inner}{}", "<a>".repeat(n), "</a>".repeat(n));
        assert!(nesting_within_limit(&nested(MAX_DEPTH, "")));
        assert!(!nesting_within_limit(&nested(MAX_DEPTH + 1, "")));
        // Empty elements, closing tags, comments, CDATA, declarations and `>` or `/>` inside a
        // quoted value do not nest.
        let flat = "<b/><c x=\"/>\" y='>'></c><!-- <d> --><![CDATA[<e>]]><?pi <f>?><!DOCTYPE g>";
        assert!(nesting_within_limit(&flat.repeat(MAX_DEPTH * 2)));
        assert!(nesting_within_limit(&nested(MAX_DEPTH - 1, flat)));
        assert!(!nesting_within_limit(&nested(MAX_DEPTH, flat)));
        // Text that looks like an empty tag's end cannot hide depth: only a tag closes one.
        assert!(!nesting_within_limit(&nested(MAX_DEPTH + 1, "/>")));
        // The tree built from roxmltree's reading has the reader's spans.
        let text = "<r a=\"1\"><n>x&amp;y</n><m/></r>";
        let tree = roxmltree::Document::parse(text).unwrap();
        let doc = from_tree(&tree, text, 0).unwrap();
        let ours = read(text).unwrap();
        assert_eq!(doc.elements.len(), ours.elements.len());
        for (tree_element, reader_element) in doc.elements.iter().zip(&ours.elements) {
            assert_eq!(
                (
                    tree_element.name,
                    &tree_element.children,
                    tree_element.parent
                ),
                (
                    reader_element.name,
                    &reader_element.children,
                    reader_element.parent
                )
            );
            assert_eq!(
                tree_element
                    .text
                    .as_ref()
                    .map(|t| (t.value.as_ref(), t.span, t.plain)),
                reader_element
                    .text
                    .as_ref()
                    .map(|t| (t.value.as_ref(), t.span, t.plain))
            );
            let spans = |e: &Element<'_>| {
                e.attrs
                    .iter()
                    .map(|x| (x.name, x.value_span))
                    .collect::<Vec<_>>()
            };
            assert_eq!(spans(tree_element), spans(reader_element));
        }
    }
}
