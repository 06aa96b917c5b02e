//! A small element tree read with `quick-xml`, keeping the byte range of every element name and
//! attribute value so that diagnostics can point at them. Text, comments, processing instructions
//! and the document type are checked for well-formedness by the reader and then dropped: the TI
//! formats keep everything in attributes.
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::rules::XML_SYNTAX;

/// How deep elements may nest (TI files use three or four levels); deeper input is refused rather
/// than walked recursively.
const MAX_DEPTH: usize = 64;

/// An element: its name, attributes and child elements.
#[derive(Debug)]
pub struct Element {
    pub name: String,
    /// Byte range of the name in the start tag.
    pub name_span: (usize, usize),
    pub attrs: Vec<Attr>,
    pub children: Vec<Element>,
}

/// An attribute with its unescaped value and the byte range of the raw value.
#[derive(Debug)]
pub struct Attr {
    pub name: String,
    pub value: String,
    pub span: (usize, usize),
}

impl Element {
    /// The attribute called `name`.
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// The child elements called `name`, in document order.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Every element called `name` below this one, in document order.
    pub fn descendants_named<'a>(&'a self, name: &str, out: &mut Vec<&'a Element>) {
        for child in &self.children {
            if child.name == name {
                out.push(child);
            }
            child.descendants_named(name, out);
        }
    }
}

/// Where `part` (a slice borrowed from `text`) starts in `text`.
fn offset_in(text: &str, part: &[u8]) -> Option<usize> {
    let base = text.as_ptr() as usize;
    let start = part.as_ptr() as usize;
    (start >= base && start + part.len() <= base + text.len()).then(|| start - base)
}

/// Reads `text` (the content of `file`) into its root element, or the first well-formedness error.
pub fn parse(file: &str, text: &str) -> Result<Element, Diagnostic> {
    let lines = LineIndex::new(file, text);
    let error = |start: usize, end: usize, message: String| {
        Diagnostic::error(XML_SYNTAX, &lines.pos(start, end), message)
    };
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let before = usize::try_from(reader.buffer_position()).unwrap_or(text.len());
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(read_error) => {
                let at = usize::try_from(reader.error_position()).unwrap_or(before);
                let message = match &read_error {
                    quick_xml::Error::IllFormed(cause) => cause.to_string(),
                    quick_xml::Error::Syntax(cause) => cause.to_string(),
                    other => other.to_string(),
                };
                return Err(error(
                    at,
                    markup_end(text, at),
                    format!("not well-formed XML: {message}"),
                ));
            }
        };
        let after = usize::try_from(reader.buffer_position()).unwrap_or(text.len());
        match event {
            Event::Start(ref tag) | Event::Empty(ref tag) => {
                let empty = matches!(event, Event::Empty(_));
                let element = element(text, &reader, tag, before).map_err(|(at, message)| {
                    error(at, at + 1, format!("not well-formed XML: {message}"))
                })?;
                if stack.is_empty() && root.is_some() {
                    return Err(error(
                        element.name_span.0,
                        element.name_span.1,
                        format!(
                            "not well-formed XML: a second root element `<{}>`; a document has one",
                            element.name
                        ),
                    ));
                }
                if empty {
                    attach(&mut stack, &mut root, element);
                } else if stack.len() >= MAX_DEPTH {
                    return Err(error(
                        element.name_span.0,
                        element.name_span.1,
                        format!("elements are nested deeper than {MAX_DEPTH} levels"),
                    ));
                } else {
                    stack.push(element);
                }
            }
            Event::End(_) => {
                // The reader has checked that the name matches the open element.
                if let Some(element) = stack.pop() {
                    attach(&mut stack, &mut root, element);
                }
            }
            Event::Text(t) => {
                let raw: &[u8] = t.as_ref();
                if stack.is_empty() && !raw.iter().all(u8::is_ascii_whitespace) {
                    let start = offset_in(text, raw).unwrap_or(before);
                    let trimmed = raw
                        .iter()
                        .position(|b| !b.is_ascii_whitespace())
                        .unwrap_or(0);
                    return Err(error(
                        start + trimmed,
                        start + trimmed + 1,
                        "not well-formed XML: text outside the root element".to_string(),
                    ));
                }
            }
            Event::CData(_) | Event::GeneralRef(_) if stack.is_empty() => {
                return Err(error(
                    before,
                    after,
                    "not well-formed XML: content outside the root element".to_string(),
                ));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(error(
            open.name_span.0,
            open.name_span.1,
            format!(
                "not well-formed XML: element `<{}>` is not closed before the end of the file",
                open.name
            ),
        ));
    }
    root.ok_or_else(|| {
        let at = text.len();
        error(
            at,
            at,
            "not well-formed XML: the file has no root element".to_string(),
        )
    })
}

/// The end of the markup starting at `start`: its `>`, or the end of its line.
fn markup_end(text: &str, start: usize) -> usize {
    let rest = text.as_bytes().get(start..).unwrap_or_default();
    let line = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let close = rest
        .iter()
        .position(|&b| b == b'>')
        .map_or(rest.len(), |i| i + 1);
    start + line.min(close).max(1)
}

fn attach(stack: &mut [Element], root: &mut Option<Element>, element: Element) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(element),
        None => *root = Some(element),
    }
}

/// Builds an element from its start tag, which begins at byte `start` (the `<`).
fn element(
    text: &str,
    reader: &Reader<&[u8]>,
    tag: &BytesStart<'_>,
    start: usize,
) -> Result<Element, (usize, String)> {
    let name_bytes = tag.name();
    let name = String::from_utf8_lossy(name_bytes.as_ref()).into_owned();
    let name_start = offset_in(text, name_bytes.as_ref()).unwrap_or(start + 1);
    let mut attrs = Vec::new();
    for attr in tag.attributes() {
        let attr = attr.map_err(|error| {
            let at = match error {
                quick_xml::events::attributes::AttrError::ExpectedEq(offset)
                | quick_xml::events::attributes::AttrError::ExpectedValue(offset)
                | quick_xml::events::attributes::AttrError::UnquotedValue(offset)
                | quick_xml::events::attributes::AttrError::ExpectedQuote(offset, _)
                | quick_xml::events::attributes::AttrError::Duplicated(offset, _) => offset,
            };
            (start + 1 + at, error.to_string())
        })?;
        let value_start = offset_in(text, &attr.value).unwrap_or(name_start);
        let value = attr
            .decode_and_unescape_value(reader.decoder())
            .map_err(|error| (value_start, error.to_string()))?
            .into_owned();
        attrs.push(Attr {
            name: String::from_utf8_lossy(attr.key.as_ref()).into_owned(),
            value,
            span: (value_start, value_start + attr.value.len()),
        });
    }
    Ok(Element {
        name,
        name_span: (name_start, name_start + name_bytes.as_ref().len()),
        attrs,
        children: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_spans_of_names_and_values() {
        let text = "<?xml version=\"1.0\"?>\n<module id=\"M\">\n  <register id=\"R&amp;1\" offset='0x4'/>\n</module>\n";
        let root = parse("m.xml", text).unwrap();
        assert_eq!(root.name, "module");
        assert_eq!(&text[root.name_span.0..root.name_span.1], "module");
        let reg = root.children_named("register").next().unwrap();
        let id = reg.attr("id").unwrap();
        assert_eq!(id.value, "R&1");
        assert_eq!(&text[id.span.0..id.span.1], "R&amp;1");
        let offset = reg.attr("offset").unwrap();
        assert_eq!(&text[offset.span.0..offset.span.1], "0x4");
    }

    #[test]
    fn reports_errors_with_positions() {
        let deep = "<a>".repeat(100);
        let cases = [
            ("<module>\n<register></module>\n", 2),
            ("<module>\n<register id=\"a\">\n", 2),
            ("<module/>\n<module/>\n", 2),
            ("<module a=\"1\" a=\"2\"/>", 1),
            ("", 1),
            ("<module>\n<register id=\"x\n", 2),
            (deep.as_str(), 1),
        ];
        for (text, line) in cases {
            let error = parse("m.xml", text).unwrap_err();
            assert_eq!(error.rule, XML_SYNTAX, "{text}");
            assert_eq!(error.pos.line, line, "{text}: {error}");
        }
    }
}
