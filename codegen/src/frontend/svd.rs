//! The CMSIS-SVD frontend: SVD text to the IR, with a file:line:col on every element.
//!
//! Four steps, each in its own module:
//! 1. roxmltree reads the text once; `xml` gives each element, attribute and text its byte span
//!    from that tree (svd-parser keeps no positions). XML that is not well-formed is read again
//!    by `xml`'s own reader, which names the defect at its position;
//! 2. `check` finds, at their text, the defects svd-parser would reject without a position
//!    (numbers, bit ranges, `dimIndex`, keywords) and repairs misspelt keywords that have one
//!    reading, with a warning;
//! 3. svd-parser reads the same tree into svd-rs's device, without validation so that defects
//!    the passes repair (enumerated values too wide, fields beyond the register, ...) reach the
//!    IR as written. Keywords misspelt only in case are repaired in the text before roxmltree
//!    reads it (no offset moves), and the carriage returns between elements blanked
//!    (`line_ends`); only another repair, or an error svd-parser reports (whose position its
//!    own entry point finds), makes a second reading;
//! 4. `lower` pairs each svd-rs object with its XML element, resolves `derivedFrom`, flattens
//!    clusters and arrays, and builds the IR (see there for how SVD maps onto it).
//!
//! Defects with one safe local repair are warnings (the pipeline makes them errors under
//! `--strict`); the rest are errors. Nothing here panics on any input: svd-parser is called
//! only on text that passed the checks that would make it panic or allocate without bound, and
//! behind `catch_unwind` for what is left.
mod check;
mod line_ends;
mod lower;
mod xml;

use std::borrow::Cow;

use super::Parsed;
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::rules::SVD_ELEMENTS_VALID;

/// Parses CMSIS-SVD text; `file` is the name positions carry.
pub fn parse(file: &str, text: &str) -> Parsed {
    parse_with_lines(file, text).0
}

/// [`parse`], and the line index it made, for the diagnostics to render with rather than make
/// again.
pub fn parse_with_lines<'a>(file: &'a str, text: &'a str) -> (Parsed, LineIndex<'a>) {
    let lines = LineIndex::new(file, text);
    (read(text, &lines), lines)
}

/// [`parse`] with the text's line index.
fn read(text: &str, lines: &LineIndex<'_>) -> Parsed {
    // roxmltree is not given the byte order mark (svd-parser strips it too): its spans are
    // `offset` bytes short.
    let offset = if text.starts_with('\u{feff}') { 3 } else { 0 };
    // roxmltree reads nested elements by recursion: deeper input is left to our reader.
    // Keywords misspelt only in case are repaired before the one reading (offsets unchanged).
    let case_repairs = check::case_repairs(text);
    let read = svd_text(text, &case_repairs);
    let tree = if xml::nesting_within_limit(text) {
        roxmltree::Document::parse(&read[offset..])
    } else {
        Err(roxmltree::Error::NodesLimitReached)
    };
    let doc = match tree
        .as_ref()
        .ok()
        .and_then(|tree| xml::from_tree(tree, text, offset))
    {
        Some(doc) => doc,
        None => {
            // Our reader names the defect; XML it accepts and roxmltree does not (a DTD) is
            // roxmltree's to explain.
            xml::parse(lines, text).map_err(|d| vec![d])?;
            let message = tree.err().map_or_else(
                || "the document could not be read".to_string(),
                |e| e.to_string(),
            );
            return Err(vec![parser_error(lines, text, &[message])]);
        }
    };
    let checked = check::run(&doc, lines);
    let mut warnings = checked.warnings;
    if !checked.errors.is_empty() {
        let mut errors = checked.errors;
        errors.sort_by(|a, b| a.pos.cmp(&b.pos));
        errors.extend(warnings);
        return Err(errors);
    }
    let config = svd_parser::Config::default().validate_level(svd_parser::ValidateLevel::Disabled);
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // The tree read is the text svd-parser must read when the checks repaired just what
        // the scan before it did.
        let same_tree = match &tree {
            Ok(tree) if checked.repairs == case_repairs => device_of(tree, &config),
            _ => None,
        };
        // Other repairs, or an error (whose position only svd-parser's entry point finds), and
        // the text is read again.
        match same_tree {
            Some(device) => Ok(device),
            None => svd_parser::parse_with_config(&svd_text(text, &checked.repairs), &config),
        }
    }));
    let svd = match parsed {
        Ok(Ok(device)) => device,
        Ok(Err(error)) => {
            let messages: Vec<String> = error.chain().map(|cause| cause.to_string()).collect();
            let mut errors = vec![parser_error(lines, text, &messages)];
            errors.extend(warnings);
            return Err(errors);
        }
        Err(_) => {
            let mut errors = vec![Diagnostic::error(
                SVD_ELEMENTS_VALID,
                &lines.pos(0, 0),
                "svd-parser failed on this file (a defect svd-parser does not report)",
            )];
            errors.extend(warnings);
            return Err(errors);
        }
    };
    // The tree is read: its memory goes before the lowering allocates the IR.
    drop(tree);
    let lowered = lower::lower(&doc, lines, &svd);
    warnings.extend(lowered.warnings);
    warnings.sort_by(|a, b| (&a.pos, a.rule.name).cmp(&(&b.pos, b.rule.name)));
    if lowered.errors.is_empty() {
        Ok((lowered.device, warnings))
    } else {
        let mut errors = lowered.errors;
        errors.sort_by(|a, b| a.pos.cmp(&b.pos));
        errors.extend(warnings);
        Err(errors)
    }
}

/// The text roxmltree and svd-parser read: `text` with `repairs` made, and the carriage returns
/// between elements blanked (see `line_ends`).
fn svd_text<'a>(text: &'a str, repairs: &[check::Repair]) -> Cow<'a, str> {
    match check::repaired(text, repairs) {
        Cow::Owned(mut repaired) => {
            line_ends::blank(&mut repaired);
            Cow::Owned(repaired)
        }
        Cow::Borrowed(text) => line_ends::blanked(text).map_or(Cow::Borrowed(text), Cow::Owned),
    }
}

/// svd-parser's device from the tree already read, when it reads without error.
fn device_of(
    tree: &roxmltree::Document<'_>,
    config: &svd_parser::Config,
) -> Option<svd_rs::Device> {
    use svd_parser::Parse;
    let node = tree.root().children().find(|n| n.has_tag_name("device"))?;
    svd_rs::Device::parse(&node, config).ok()
}

/// svd-parser's error as a diagnostic. Its messages are `In peripheral ...`, `Parsing <tag>
/// ... at <line>:<col>`, then the cause; the position is the innermost one given.
fn parser_error(lines: &LineIndex<'_>, text: &str, messages: &[String]) -> Diagnostic {
    let mut at = None;
    let mut context = None;
    for message in messages {
        if let Some((head, line, col)) = trailing_position(message) {
            at = Some(offset_of(text, line, col));
            context = Some(head.to_string());
        }
    }
    let cause = messages.last().cloned().unwrap_or_default();
    let message = match context {
        Some(context) if context != cause => format!("{context}: {cause}"),
        _ => cause,
    };
    let at = at.unwrap_or(0);
    let end = text[at..].find(['>', '\n']).map_or(at, |found| {
        at + found + usize::from(text[at + found..].starts_with('>'))
    });
    Diagnostic::error(SVD_ELEMENTS_VALID, &lines.pos(at, end), message)
}

/// `("Parsing x", 3, 5)` from `"Parsing x at 3:5"`.
fn trailing_position(message: &str) -> Option<(&str, usize, usize)> {
    let (head, pos) = message.rsplit_once(" at ")?;
    let (line, col) = pos.trim().split_once(':')?;
    Some((head, line.parse().ok()?, col.parse().ok()?))
}

/// The byte offset of 1-based `line`, `col` (in characters) in `text`.
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let rest = &text[start.min(text.len())..];
    start
        + rest
            .char_indices()
            .nth(col.saturating_sub(1))
            .map_or(rest.len(), |(offset, _)| offset)
}

#[cfg(test)]
mod tests;
