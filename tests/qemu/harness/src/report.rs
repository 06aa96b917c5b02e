//! The result protocol: one line per measured value, `value <key> <number>`, on stderr; a failed
//! guest-side check prints `fail <message>` and exits with status 1. The host test holds the
//! expected values and compares.
use core::fmt::{self, Write};

use crate::semihosting;

/// One line being built (SYS_WRITE0 needs it NUL-terminated in memory).
struct Line {
    buf: [u8; 192],
    len: usize,
}

impl Line {
    fn new() -> Self {
        Self {
            buf: [0; 192],
            len: 0,
        }
    }

    fn send(mut self) {
        let end = self.len.min(self.buf.len() - 2);
        self.buf[end] = b'\n';
        self.buf[end + 1] = 0;
        semihosting::write0(&self.buf[..end + 2]);
    }
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Truncate rather than fail: a long message must still be seen.
        let room = self.buf.len() - 2 - self.len;
        let n = s.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Reports `key = value`.
pub fn value(key: &str, value: u64) {
    let mut line = Line::new();
    let _ = write!(line, "value {key} {value}");
    line.send();
}

/// Reports `<key>_<n> = value` (for a series, e.g. one value per loop length).
pub fn value_n(key: &str, n: u64, value: u64) {
    let mut line = Line::new();
    let _ = write!(line, "value {key}_{n} {value}");
    line.send();
}

/// Reports `key = text` (a word, no spaces: a name).
pub fn text(key: &str, text: &str) {
    let mut line = Line::new();
    let _ = write!(line, "text {key} {text}");
    line.send();
}

/// Prints a free-form note (for people reading the log).
pub fn note(args: fmt::Arguments<'_>) {
    let mut line = Line::new();
    let _ = line.write_str("note ");
    let _ = line.write_fmt(args);
    line.send();
}

/// Reports a failed guest-side check and ends the run with status 1.
pub fn fail(args: fmt::Arguments<'_>) -> ! {
    let mut line = Line::new();
    let _ = line.write_str("fail ");
    let _ = line.write_fmt(args);
    line.send();
    semihosting::exit(1)
}

/// Ends the run: every value was reported and no guest-side check failed.
pub fn pass() -> ! {
    semihosting::exit(0)
}
