//! Description text as SVD writes it, made into documentation.

/// Description text: white space collapsed; a literal `\n` (how SVD files mark line breaks)
/// starts a new paragraph, so that no line is read as Markdown continuing a list.
pub(super) fn doc_text(text: Option<&str>) -> Option<String> {
    let paragraphs: Vec<String> = text?
        .split("\\n")
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|paragraph| !paragraph.is_empty())
        .collect();
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}
