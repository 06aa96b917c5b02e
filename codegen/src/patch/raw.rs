//! A patch file as TOML gives it: each operation's table, with the span of every key and value,
//! which an operation reads into its own types with serde (the messages and positions of a value
//! of the wrong type are toml's).
use std::ops::Range;

use serde::de::DeserializeOwned;
use toml::de::{DeString, DeTable, DeValue, Deserializer};
use toml::Spanned;
use toml::Spanned as S;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::frontend::spanned::Reader;
use crate::ir::{EnumUsage, Pos};
use crate::rules::PATCH_SYNTAX;

/// One operation's table (`[[rename]]` and its keys), and the span of its header.
#[derive(Clone)]
pub struct Table<'i> {
    pub span: Range<usize>,
    pub entries: DeTable<'i>,
}

impl<'i> Table<'i> {
    /// The table read as `T` (which ignores the keys it has no field for).
    pub fn get<T: DeserializeOwned>(&self) -> Result<T, toml::de::Error> {
        let table = Spanned::new(self.span.clone(), self.entries.clone());
        T::deserialize(Deserializer::from(table))
    }

    /// The table holding `key` alone.
    pub fn only(&self, key: &Spanned<DeString<'i>>, value: &Spanned<DeValue<'i>>) -> Table<'i> {
        let mut entries = DeTable::new();
        entries.insert(key.clone(), value.clone());
        Table {
            span: self.span.clone(),
            entries,
        }
    }
}

/// Whether `table` reads as `T`: a [`super::operation::Spec`]'s check of its keys' types.
pub fn check<T: DeserializeOwned>(table: &Table) -> Result<(), toml::de::Error> {
    table.get::<T>().map(drop)
}

/// The table read as `T`, or `None` after an error at the offending value.
pub fn read<T: DeserializeOwned>(r: &mut Reader, table: &Table) -> Option<T> {
    match table.get() {
        Ok(t) => Some(t),
        Err(e) => {
            r.errors.push(diagnostic(r.lines, &e));
            None
        }
    }
}

/// A `patch_syntax` error at `pos`: nothing is read.
pub fn refused<T>(r: &mut Reader, pos: &Pos, message: impl Into<String>) -> Option<T> {
    r.errors
        .push(Diagnostic::error(PATCH_SYNTAX, pos, message.into()));
    None
}

/// A toml error as a `patch_syntax` diagnostic at its span.
pub fn diagnostic(lines: &LineIndex, error: &toml::de::Error) -> Diagnostic {
    let span = error.span().unwrap_or(0..0);
    Diagnostic::error(
        PATCH_SYNTAX,
        &lines.pos(span.start, span.end),
        error.message().trim().to_string(),
    )
    .suggesting_expected()
}

/// The parameters of an operation that takes none besides its selector.
#[derive(serde::Deserialize)]
pub struct NoKeys {}

pub fn width(r: &mut Reader, v: &S<i64>, what: &str) -> Option<u32> {
    let value = *v.get_ref();
    if [8, 16, 32, 64].contains(&value) {
        Some(value as u32)
    } else {
        r.error(v, format!("`{what}` must be 8, 16, 32 or 64, got {value}"));
        None
    }
}

pub fn usage(r: &mut Reader, raw: &S<String>) -> Option<EnumUsage> {
    match raw.get_ref().as_str() {
        "read-write" => Some(EnumUsage::ReadWrite),
        "read" => Some(EnumUsage::Read),
        "write" => Some(EnumUsage::Write),
        other => {
            r.error(
                raw,
                format!("unknown usage `{other}`; expected read, write or read-write"),
            );
            None
        }
    }
}
