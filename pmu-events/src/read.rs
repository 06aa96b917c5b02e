//! Reading input files, bounded: no file this crate reads may exhaust memory.
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::{Error, ErrorKind};

/// The largest file this crate reads (event JSON, architectural tables, `mapfile.csv`): 32 MiB,
/// the limit the `codegen` crate applies to every description file (its
/// `frontend::MAX_INPUT_BYTES`). The largest real perf JSON file is well under 1 MiB.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Reads the text of `path`, refusing a file larger than [`MAX_FILE_BYTES`]: by its length before
/// reading, and while reading (at most one byte past the limit is read), so a file that grows
/// meanwhile or a device such as `/dev/zero` is refused too.
pub(crate) fn read_text(path: &Path) -> Result<String, Error> {
    let io = |e| Error::in_file(path, ErrorKind::Io(e));
    let file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(io(too_large()));
    }
    // The length is at most the limit here, so it fits `usize` on every host that can hold it.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > MAX_FILE_BYTES) {
        return Err(io(too_large()));
    }
    // The message `std::fs::read_to_string` gives, so callers see what they saw before.
    String::from_utf8(bytes).map_err(|_| {
        io(io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// The error for a file over the limit, worded as `codegen` words its own.
fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!(
            "the file is larger than the limit of {} MiB",
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A private folder under the system temp folder, removed when dropped.
    struct TempDir(std::path::PathBuf);
    impl TempDir {
        fn new(name: &str) -> Self {
            let dir =
                std::env::temp_dir().join(format!("pmu-events-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Self(dir)
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A sparse file of `len` bytes (no disk space used): zeros, which are valid UTF-8, so only
    /// the size can refuse it.
    fn sparse(path: &Path, len: u64) {
        File::create(path).unwrap().set_len(len).unwrap();
    }

    fn assert_too_large(err: &Error, file: &Path) {
        assert_eq!(err.file(), file);
        assert!(
            matches!(err.kind(), ErrorKind::Io(e) if e.kind() == io::ErrorKind::FileTooLarge),
            "{err:?}"
        );
        let shown = err.to_string();
        assert!(shown.starts_with(&file.display().to_string()), "{shown}");
        assert!(shown.contains("larger than the limit of 32 MiB"), "{shown}");
    }

    #[test]
    fn a_file_over_32_mib_is_refused_naming_the_file_and_the_limit() {
        let dir = TempDir::new("too-large");
        let big = dir.0.join("big.json");
        sparse(&big, 33 * 1024 * 1024);
        assert_too_large(&read_text(&big).unwrap_err(), &big);
        // Through every public reader: one file, a core folder, the arch tables, a mapfile.
        assert_too_large(&crate::parse_file(&big).unwrap_err(), &big);
        let err = crate::import(&dir.0, None).unwrap_err();
        assert_too_large(&err, &big);
        assert_too_large(&crate::ArchTable::load(&dir.0).unwrap_err(), &big);
        let mapfile = dir.0.join("mapfile.csv");
        sparse(&mapfile, MAX_FILE_BYTES + 1);
        assert_too_large(&crate::read_mapfile(&mapfile).unwrap_err(), &mapfile);
    }

    #[test]
    fn a_file_of_exactly_32_mib_is_read() {
        let dir = TempDir::new("at-limit");
        let file = dir.0.join("limit.json");
        sparse(&file, MAX_FILE_BYTES);
        assert_eq!(read_text(&file).unwrap().len() as u64, MAX_FILE_BYTES);
    }

    #[test]
    fn an_endless_device_is_refused_while_reading() {
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            assert_too_large(&read_text(zero).unwrap_err(), zero);
        }
    }

    #[test]
    fn invalid_utf8_is_the_error_it_was() {
        let dir = TempDir::new("utf8");
        let file = dir.0.join("bad.json");
        std::fs::write(&file, b"[\xFF]").unwrap();
        let err = read_text(&file).unwrap_err();
        assert!(err.to_string().contains("valid UTF-8"), "{err}");
    }
}
