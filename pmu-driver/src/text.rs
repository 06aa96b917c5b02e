//! A string built in a fixed buffer, for `Display` impls that must pad a text made of parts
//! (`f.pad` takes one `&str`) without allocating. What does not fit is cut at a character
//! boundary.
use core::fmt;

pub(crate) struct Text<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Text<N> {
    pub(crate) const fn new() -> Self {
        Self {
            buf: [0; N],
            len: 0,
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        let bytes = self.buf.get(..self.len).unwrap_or(&[]);
        // Only whole characters are copied in, so the bytes are UTF-8.
        core::str::from_utf8(bytes).unwrap_or("")
    }
}

impl<const N: usize> fmt::Write for Text<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            let mut utf8 = [0; 4];
            let c = c.encode_utf8(&mut utf8).as_bytes();
            match self.buf.get_mut(self.len..self.len + c.len()) {
                Some(room) => room.copy_from_slice(c),
                None => return Err(fmt::Error),
            }
            self.len += c.len();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    #[test]
    fn keeps_what_fits() {
        let mut t = Text::<5>::new();
        assert!(t.write_str("ab").is_ok());
        assert!(t.write_str("cdé").is_err());
        assert_eq!(t.as_str(), "abcd");
    }
}
