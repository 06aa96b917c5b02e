//! `mapfile.csv`: which core folder describes a CPU, by MIDR.
use crate::error::{Error, ErrorKind, Position};
use crate::locate::LineIndex;
use std::path::Path;

/// One row of `mapfile.csv`: `MIDR,Version,Path,Type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapEntry {
    /// The MIDR with Variant\[23:20\] and Revision\[3:0\] zero, as the file gives it.
    pub midr: u64,
    /// The `Version` column (unused by perf).
    pub version: String,
    /// The core folder, relative to the arch root (e.g. `arm/cortex-a53`).
    pub path: String,
    /// `core`, `uncore`, ...
    pub kind: String,
    /// Where the row is (the MIDR field).
    pub position: Position,
}

impl MapEntry {
    /// Mask of the MIDR bits that select a row: everything but Variant\[23:20\] and Revision\[3:0\].
    pub const MIDR_MASK: u64 = !0x00F0_000F;

    /// Whether a CPU's MIDR (as read from `MIDR_EL1`) selects this row.
    pub fn matches(&self, midr: u64) -> bool {
        midr & Self::MIDR_MASK == self.midr & Self::MIDR_MASK
    }
}

/// Parses `mapfile.csv` text; `path` only names it in positions and errors. Blank lines, `#`
/// comments and the `Family-model,...` header are skipped; fields are trimmed.
pub fn parse_mapfile(path: &Path, text: &str) -> Result<Vec<MapEntry>, Error> {
    let index = LineIndex::new(path, text);
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.to_ascii_lowercase().starts_with("family-model")
        {
            continue;
        }
        // Byte offset of each field, so that errors point at the field.
        let mut fields = Vec::new();
        let mut field_start = start;
        for field in content.split(',') {
            let lead = field.len() - field.trim_start().len();
            fields.push((field.trim(), field_start + lead));
            field_start += field.len() + 1;
        }
        let at = |(text, offset): (&str, usize)| index.position(offset, text.len());
        if fields.len() != 4 {
            return Err(Error::at(
                index.position(start, content.len()),
                ErrorKind::Mapfile(format!(
                    "expected 4 fields `MIDR,Version,Path,Type`, found {}",
                    fields.len()
                )),
            ));
        }
        let midr = parse_midr(fields[0].0).ok_or_else(|| {
            Error::at(
                at(fields[0]),
                ErrorKind::Mapfile(format!(
                    "MIDR {:?} is not a hexadecimal number (`0x...`)",
                    fields[0].0
                )),
            )
        })?;
        out.push(MapEntry {
            midr,
            version: fields[1].0.to_string(),
            path: fields[2].0.to_string(),
            kind: fields[3].0.to_string(),
            position: at(fields[0]),
        });
    }
    Ok(out)
}

fn parse_midr(text: &str) -> Option<u64> {
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    u64::from_str_radix(hex, 16).ok()
}

/// The row of `entries` that a CPU's MIDR selects (the first, as perf takes it).
pub fn lookup_midr(entries: &[MapEntry], midr: u64) -> Option<&MapEntry> {
    entries.iter().find(|e| e.matches(midr))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# comment\n#Family-model,Version,Filename,EventType\n\
        0x00000000410fd030,v1,arm/cortex-a53,core\n\n0x00000000410fd070 , v1, arm/cortex-a57-a72 ,core\r\n";

    #[test]
    fn rows_and_midr_lookup() {
        let rows = parse_mapfile(Path::new("mapfile.csv"), TEXT).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].path, "arm/cortex-a57-a72");
        assert_eq!(rows[1].position.line, 5);
        // A Cortex-A53 r0p4 (variant 0, revision 4) selects the A53 row.
        assert_eq!(
            lookup_midr(&rows, 0x410F_D034).unwrap().path,
            "arm/cortex-a53"
        );
        assert_eq!(lookup_midr(&rows, 0x410F_D0B0), None);
    }

    #[test]
    fn bad_rows_point_at_the_field() {
        let err = parse_mapfile(Path::new("m.csv"), "0x41,v1,arm/x,core\nzz,v1,arm/y,core\n")
            .unwrap_err();
        let p = err.position().unwrap();
        assert_eq!((p.line, p.column), (2, 1));
        let err = parse_mapfile(Path::new("m.csv"), "0x41,v1,arm/x\n").unwrap_err();
        assert!(err.message().contains("found 3"));
    }
}
