//! A large synthetic SVD for the benchmarks: a real device's peripherals repeated `copies` times.
//!
//! Copy `k` (from 1) of each peripheral is renamed `<NAME>_S<k>` (its `derivedFrom` and
//! `headerStructName` follow), moved up by `k` MiB, and loses its interrupts (their names and
//! numbers must stay unique), so the result is a valid SVD that every generator reads as
//! `copies` times as many distinct peripherals, registers and fields as the original.

/// The SVD `text` with its peripherals repeated `copies` times (1 gives the text back).
pub fn repeat(text: &str, copies: usize) -> Result<String, String> {
    let open = text
        .find("<peripherals>")
        .ok_or("no <peripherals> element")?
        + "<peripherals>".len();
    let close = text
        .rfind("</peripherals>")
        .ok_or("no </peripherals> element")?;
    let body = &text[open..close];
    let peripherals = split_peripherals(body)?;
    let mut out = String::with_capacity(text.len() * copies + 1024);
    out.push_str(&text[..close]);
    for k in 1..copies {
        for p in &peripherals {
            out.push_str("\n    ");
            out.push_str(&copy(p, k)?);
        }
    }
    out.push('\n');
    out.push_str(&text[close..]);
    Ok(out)
}

/// Every `<peripheral ...>...</peripheral>` element of the `<peripherals>` body, as text.
fn split_peripherals(body: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut rest = body;
    let mut start_at = 0;
    while let Some(start) = rest.find("<peripheral") {
        let after = &rest[start..];
        let end = after
            .find("</peripheral>")
            .ok_or("a <peripheral> without its end tag")?
            + "</peripheral>".len();
        // A self-closing derived peripheral (`<peripheral derivedFrom="X"/>`) ends earlier.
        let tag_end = after.find('>').ok_or("an unterminated <peripheral tag")?;
        let end = if after[..tag_end].ends_with('/') {
            tag_end + 1
        } else {
            end
        };
        out.push(&after[..end]);
        start_at += start + end;
        rest = &body[start_at..];
    }
    Ok(out)
}

/// Copy `k` of one peripheral element.
fn copy(p: &str, k: usize) -> Result<String, String> {
    let suffix = format!("_S{k}");
    let mut s = p.to_string();
    // The peripheral's own name is its first <name>.
    rename_first(&mut s, "<name>", "</name>", &suffix)?;
    if s.contains("<headerStructName>") {
        rename_first(&mut s, "<headerStructName>", "</headerStructName>", &suffix)?;
    }
    let tag_end = s.find('>').ok_or("an unterminated <peripheral tag")?;
    if let Some(at) = s[..tag_end].find("derivedFrom=\"") {
        let value_start = at + "derivedFrom=\"".len();
        let value_end = value_start
            + s[value_start..]
                .find('"')
                .ok_or("an unterminated derivedFrom")?;
        s.insert_str(value_end, &suffix);
    }
    // Move the copy up by k MiB.
    if let Some(at) = s.find("<baseAddress>") {
        let value_start = at + "<baseAddress>".len();
        let value_end = value_start
            + s[value_start..]
                .find("</baseAddress>")
                .ok_or("an unterminated <baseAddress>")?;
        let text = s[value_start..value_end].trim();
        let base = parse_number(text).ok_or_else(|| format!("baseAddress `{text}`"))?;
        let moved = base + (k as u64) * 0x10_0000;
        s.replace_range(value_start..value_end, &format!("{moved:#x}"));
    }
    // Interrupt names and numbers are unique per device: copies have none.
    while let Some(start) = s.find("<interrupt>") {
        let end = start
            + s[start..]
                .find("</interrupt>")
                .ok_or("an unterminated <interrupt>")?
            + "</interrupt>".len();
        s.replace_range(start..end, "");
    }
    Ok(s)
}

fn rename_first(s: &mut String, open: &str, close: &str, suffix: &str) -> Result<(), String> {
    let at = s.find(open).ok_or_else(|| format!("no {open}"))? + open.len();
    let end = at + s[at..].find(close).ok_or_else(|| format!("no {close}"))?;
    let trimmed_end = at + s[at..end].trim_end().len();
    s.insert_str(trimmed_end, suffix);
    Ok(())
}

fn parse_number(text: &str) -> Option<u64> {
    let t = text.to_ascii_lowercase();
    match t.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}
