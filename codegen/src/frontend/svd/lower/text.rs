//! Description text as SVD writes it, made into documentation.

/// Description text: white space collapsed; a literal `\n` (how SVD files mark line breaks)
/// starts a new paragraph, so that no line is read as Markdown continuing a list.
pub(super) fn doc_text(text: Option<&str>) -> Option<String> {
    let text = text?;
    // One string, written word by word (this runs for every description of a file), and the
    // search for `\n` only in a text with a backslash.
    let mut out = String::with_capacity(text.len());
    let mut paragraph = |paragraph: &str| {
        let mut words = paragraph.split_whitespace();
        let Some(first) = words.next() else {
            return;
        };
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(first);
        for word in words {
            out.push(' ');
            out.push_str(word);
        }
    };
    if text.contains('\\') {
        text.split("\\n").for_each(paragraph);
    } else {
        paragraph(text);
    }
    (!out.is_empty()).then_some(out)
}
