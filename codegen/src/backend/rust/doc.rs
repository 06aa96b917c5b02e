//! Documentation text for generated items: rustdoc escaping and layout.
use crate::ir::Field;

// The meanings every backend documents, so that the Rust modules reach all their doc helpers
// through this one module.
pub use crate::backend::doc::{access, read_action};

/// Escapes description text for rustdoc: brackets would become intra-doc links and angle brackets
/// HTML tags (`PMEVCNTR<n>`), so both are escaped; a code fence (```` ``` ````, `~~~`) or an
/// indented line would open a code block that `cargo test` runs as a doctest, so fences are
/// escaped and lines lose their indentation; control characters other than line breaks and tabs
/// are dropped. Everything else is kept as written.
pub fn escape(text: &str) -> String {
    // One pass into one string: every field, register and value has its text escaped.
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for c in line.trim_start().chars() {
            match c {
                '[' => out.push_str("\\["),
                ']' => out.push_str("\\]"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() && c != '\t' => {}
                c => out.push(c),
            }
        }
    }
    // A fence can also form where a dropped control character stood between its marks.
    if out.contains("```") || out.contains("~~~") {
        out = out.replace("```", "\\`\\`\\`").replace("~~~", "\\~\\~\\~");
    }
    out
}

/// Text for a name shown in code style (`` `PMEVCNTR<n>_EL0` ``); backticks inside are dropped.
pub fn code(name: &str) -> String {
    format!("`{}`", name.replace('`', ""))
}

/// Bit range as the Arm ARM writes it: `[7]` or `[15:11]`.
pub fn bits(field: &Field) -> String {
    if field.width == 1 {
        format!("\\[{}\\]", field.lsb)
    } else {
        format!("\\[{}:{}\\]", field.msb(), field.lsb)
    }
}

/// Joins documentation paragraphs, skipping empty ones.
pub fn paragraphs(parts: &[Option<String>]) -> String {
    parts
        .iter()
        .flatten()
        .filter(|p| !p.trim().is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The first line of a doc text (for tables), escaped, with `|` made safe.
pub fn summary(text: Option<&str>) -> String {
    let line = text.unwrap_or("").lines().next().unwrap_or("").trim();
    escape(line).replace('|', "\\|")
}
