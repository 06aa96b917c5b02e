//! Carriage returns that roxmltree need not see.
//!
//! XML reads a `\r\n` line end as `\n`, so roxmltree copies every text that holds a `\r` into a
//! buffer of its own, a byte at a time. For a file with CRLF line ends that is an allocation per
//! line (nrf52840's 54,867), nearly all for the white space between tags, which no reader looks
//! at. In the text roxmltree and svd-parser read, each such `\r` becomes a space: every offset
//! stays, those texts are borrowed, and no element's content changes.

/// Makes a space of each `\r` in the white space between elements of `text`.
pub fn blank(text: &mut String) {
    let runs = runs(text);
    if !runs.is_empty() {
        let bytes = apply(std::mem::take(text).into_bytes(), &runs);
        *text = String::from_utf8(bytes).expect("ASCII replaced by ASCII");
    }
}

/// `text` with [`blank`] applied, or `None` when it changes nothing (no copy is made).
pub fn blanked(text: &str) -> Option<String> {
    let runs = runs(text);
    (!runs.is_empty()).then(|| {
        let bytes = apply(text.as_bytes().to_vec(), &runs);
        String::from_utf8(bytes).expect("ASCII replaced by ASCII")
    })
}

/// `bytes` with each `\r` of `runs` a space: ASCII replaced by ASCII, so UTF-8 stays UTF-8.
fn apply(mut bytes: Vec<u8>, runs: &[(usize, usize)]) -> Vec<u8> {
    for &(start, end) in runs {
        for b in &mut bytes[start..end] {
            if *b == b'\r' {
                *b = b' ';
            }
        }
    }
    bytes
}

/// The runs of white space holding a `\r` that lie between elements, in order: after a `>` and
/// before a `<`, and either before an opening tag or after a closing one (`</name>`,
/// `<name/>`). An element's own text, white space alone included, is no such run; nor is
/// anything inside a tag, a comment or CDATA.
fn runs(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut runs = Vec::new();
    let mut done = 0;
    for at in memchr::memchr_iter(b'\r', bytes) {
        if at < done {
            continue;
        }
        done = at + 1;
        let Some(before) = bytes[..at].iter().rposition(|b| !b.is_ascii_whitespace()) else {
            continue;
        };
        let Some(after) = bytes[at..].iter().position(|b| !b.is_ascii_whitespace()) else {
            continue;
        };
        let (start, end) = (before + 1, at + after);
        done = end;
        if bytes[before] == b'>' && bytes[end] == b'<' && between_elements(bytes, start, end) {
            runs.push((start, end));
        }
    }
    runs
}

/// Whether the white space `bytes[start..end]`, after a `>` and before a `<`, is before an
/// opening tag or after a closing one.
fn between_elements(bytes: &[u8], start: usize, end: usize) -> bool {
    let next = bytes.get(end + 1).copied().unwrap_or(b'/');
    if next.is_ascii_alphabetic() || next == b'_' || next == b':' {
        return true;
    }
    if start >= 2 && bytes[start - 2] == b'/' {
        return true;
    }
    let tag = bytes[..start].iter().rposition(|&b| b == b'<');
    tag.is_some_and(|i| bytes.get(i + 1) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_white_space_between_elements_changes() {
        let text = "<a>\r\n <b>x\r\ny</b>\r\n <c/>\r\n <d>\r\n</d>\r\n</a>\r\n";
        assert_eq!(
            blanked(text).unwrap(),
            "<a> \n <b>x\r\ny</b> \n <c/> \n <d>\r\n</d> \n</a>\r\n"
        );
    }

    #[test]
    fn tags_comments_and_cdata_keep_theirs() {
        for text in [
            "<a\r\n x='1'/>",
            "<a x='1\r\n2'/>",
            "<a><!--\r\n--></a>",
            "<a>\r\n<![CDATA[x]]></a>",
            "<a>\r\n</a>",
            "<a>x</a>",
        ] {
            assert_eq!(blanked(text), None, "{text:?}");
        }
    }

    #[test]
    fn offsets_stay() {
        let text = "<a>\r\n  <b>1</b>\r\n</a>";
        let blanked = blanked(text).unwrap();
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.find("<b>"), text.find("<b>"));
    }
}
