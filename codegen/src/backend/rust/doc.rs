//! Documentation text for generated items.
use crate::ir::{Field, FieldAccess, ReadAction};

/// Escapes description text for rustdoc: brackets would become intra-doc links and angle brackets
/// HTML tags (`PMEVCNTR<n>`), so both are escaped; a code fence (```` ``` ````, `~~~`) or an
/// indented line would open a code block that `cargo test` runs as a doctest, so fences are
/// escaped and lines lose their indentation; control characters other than line breaks and tabs
/// are dropped. Everything else is kept as written.
pub fn escape(text: &str) -> String {
    let text = text
        .split('\n')
        .map(str::trim_start)
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out.replace("```", "\\`\\`\\`").replace("~~~", "\\~\\~\\~")
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

/// What a field's access means, for documentation.
pub fn access(access: FieldAccess) -> &'static str {
    match access {
        FieldAccess::Rw => "read/write",
        FieldAccess::Ro => "read-only",
        FieldAccess::Wo => "write-only",
        FieldAccess::W1s => "write 1 to set",
        FieldAccess::W1c => "write 1 to clear",
        FieldAccess::W1t => "write 1 to toggle",
        FieldAccess::W0c => "write 0 to clear",
        FieldAccess::W0s => "write 0 to set",
        FieldAccess::W0t => "write 0 to toggle",
        FieldAccess::WClr => "any write clears",
        FieldAccess::WSet => "any write sets",
        FieldAccess::RwOnce => "read/write once after reset",
        FieldAccess::WoOnce => "write-only, once after reset",
        FieldAccess::W1Action => "write 1 to act; reads as 0",
        FieldAccess::RazWi => "reads as zero, writes ignored",
        FieldAccess::Res0 => "reserved, 0",
        FieldAccess::Res1 => "reserved, 1",
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

/// What a read's side effect is, for documentation.
pub fn read_action(action: ReadAction) -> &'static str {
    match action {
        ReadAction::Clear => "the field is cleared",
        ReadAction::Set => "the field is set",
        ReadAction::Modify => "the field is modified",
        ReadAction::ModifyExternal => "something outside the field changes",
    }
}
