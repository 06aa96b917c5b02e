//! Positions in input files and the errors that carry them.
use std::fmt;
use std::path::{Path, PathBuf};

/// A place in an input file: 1-based line and column (counted in characters), plus the byte range
/// of the token so that a caller can underline it (e.g. with `annotate-snippets`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The file, as the caller named it (not canonicalised, so messages stay relative).
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset of the token in the file's text.
    pub offset: usize,
    /// Byte length of the token (0 when the place is a point, e.g. the end of a truncated file).
    pub len: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// What went wrong. [`Error`] adds the file and, when there is one, the position.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file or folder could not be read (missing, unreadable, not UTF-8, or larger than
    /// [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES): then the error's kind is
    /// [`std::io::ErrorKind::FileTooLarge`]).
    Io(std::io::Error),
    /// The text is not JSON, or not the expected shape (an array of objects with string values).
    Json(String),
    /// An event entry lacks a key it needs (`EventName`, or `EventCode` when it is not an
    /// `ArchStdEvent` reference).
    MissingKey(&'static str),
    /// `EventCode` is not a number (perf accepts hexadecimal with `0x` and decimal).
    InvalidEventCode(String),
    /// `EventCode` is a number, but wider than the 16 bits of an event number.
    EventCodeTooWide {
        /// The text of the value.
        value: String,
        /// Its numeric value.
        code: u64,
    },
    /// An `ArchStdEvent` names no event in the architectural tables.
    UnknownArchStdEvent(String),
    /// An `ArchStdEvent` reference, but no arch root was found above the file to resolve it in.
    NoArchRoot {
        /// The event the reference names.
        name: String,
        /// The folder the search started from.
        start: PathBuf,
    },
    /// The architectural tables define one event name twice.
    DuplicateArchStdEvent {
        /// The name (as spelled at the second definition).
        name: String,
        /// Where it was first defined.
        first: Position,
    },
    /// An `ArchStdEvent` reference inside the architectural tables themselves (jevents does not
    /// resolve those either).
    ReferenceInArchTable(String),
    /// A folder holds no `*.json` file.
    NoEventFiles,
    /// A `mapfile.csv` row that is not `MIDR,Version,Path,Type`.
    Mapfile(String),
}

/// An error reading perf pmu-events data: what, in which file, and where in it.
#[derive(Debug)]
pub struct Error(Box<Inner>);

/// Boxed so that `Result<_, Error>` stays one pointer wide on the success path.
#[derive(Debug)]
struct Inner {
    file: PathBuf,
    position: Option<Position>,
    kind: ErrorKind,
}

impl Error {
    /// An error about a whole file (no position inside it).
    pub(crate) fn in_file(file: &Path, kind: ErrorKind) -> Self {
        Self(Box::new(Inner {
            file: file.to_path_buf(),
            position: None,
            kind,
        }))
    }

    /// An error at a position.
    pub(crate) fn at(position: Position, kind: ErrorKind) -> Self {
        Self(Box::new(Inner {
            file: position.file.clone(),
            position: Some(position),
            kind,
        }))
    }

    /// The file the error is about.
    pub fn file(&self) -> &Path {
        &self.0.file
    }

    /// Where in [`Error::file`] the error is, when it is about a place rather than the whole file.
    pub fn position(&self) -> Option<&Position> {
        self.0.position.as_ref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The message without the file and position (for callers that render those themselves).
    pub fn message(&self) -> String {
        match &self.0.kind {
            ErrorKind::Io(e) => format!("cannot read: {e}"),
            ErrorKind::Json(msg) => msg.clone(),
            ErrorKind::MissingKey(key) => format!("event entry has no `{key}`"),
            ErrorKind::InvalidEventCode(value) => {
                format!("`EventCode` {value:?} is not a number (expected hexadecimal `0x..` or decimal)")
            }
            ErrorKind::EventCodeTooWide { value, code } => {
                format!("`EventCode` {value:?} (0x{code:X}) does not fit the 16 bits of an event number")
            }
            ErrorKind::UnknownArchStdEvent(name) => format!(
                "unknown `ArchStdEvent` {name:?}: no event of that name in the architectural tables"
            ),
            ErrorKind::NoArchRoot { name, start } => format!(
                "cannot resolve `ArchStdEvent` {name:?}: no arch root (a folder holding mapfile.csv, \
                 or directly under `arch/`) above {}",
                start.display()
            ),
            ErrorKind::DuplicateArchStdEvent { name, first } => {
                format!("architectural event {name:?} is defined twice (first at {first})")
            }
            ErrorKind::ReferenceInArchTable(name) => format!(
                "`ArchStdEvent` {name:?} inside an architectural table: those must define events"
            ),
            ErrorKind::NoEventFiles => "folder holds no `*.json` event file".to_string(),
            ErrorKind::Mapfile(msg) => msg.clone(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.position {
            Some(p) => write!(f, "{p}: {}", self.message()),
            None => write!(f, "{}: {}", self.0.file.display(), self.message()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}
