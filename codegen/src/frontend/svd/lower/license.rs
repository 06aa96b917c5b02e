//! The device's licence: the SPDX expression and the statement of its `<licenseText>`.

/// The SPDX expression of an SVD `<licenseText>` that states one
/// (`SPDX-License-Identifier: BSD-3-Clause`).
pub(super) fn spdx_identifier(text: &str) -> Option<String> {
    let rest = text.split("SPDX-License-Identifier:").nth(1)?;
    let id: String = rest
        .trim_start()
        .split(|c: char| c.is_whitespace() || c == '\\')
        .next()?
        .to_string();
    let valid = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '+'));
    valid.then_some(id)
}

/// An SVD `<licenseText>` as plain text. The schema writes a line break as `\n`, and files
/// follow it with a real one or not; lines keep their indentation relative to the least indented.
pub(super) fn license_text(text: &str) -> String {
    let text = text
        .replace("\r\n", "\n")
        .replace("\\n\n", "\n")
        .replace("\\n", "\n");
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    // The first line may follow the opening tag directly, so it does not count.
    let indent = lines
        .iter()
        .skip(1)
        .filter(|line| !line.is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                line.trim_start()
            } else {
                line.get(indent..).unwrap_or("")
            }
        })
        .collect();
    body.join("\n").trim().to_string()
}
