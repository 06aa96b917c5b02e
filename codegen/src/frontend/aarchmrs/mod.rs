//! The frontend for Arm's machine-readable architecture specification (AARCHMRS): the
//! `Registers.json` of its BSD release, read from the release's tarball where it lies, or as a
//! JSON file. AArch64 registers with `MRS`/`MSR` accessors and AArch32 registers with
//! `MRC`/`MCR`/`MRRC`/`MCRR` ones become system registers; the register blocks (`PMU`, `AMU`)
//! become memory-mapped blocks, one per external view, and the other memory-mapped registers
//! (debug, trace, CTI, timer, GIC, MPAM, RAS) one block per component and frame (`block`); each
//! keeps its feature condition, and every element points at its line and column in
//! `Registers.json`.
//!
//! The data has no prose (titles, field descriptions and value meanings are empty in the
//! release): documentation comes from the native descriptions laid over it
//! (`passes::overlay`).
mod block;
mod condition;
mod encoding;
mod fields;
mod locate;
mod schema;
mod sysreg;

use std::io::Read;
use std::path::Path;

use super::Parsed;
use crate::diagnostic::{Diagnostic, LineIndex, Sources};
use crate::ir::{Device, Pos};
use crate::rules::{AARCHMRS_SUPPORTED, AARCHMRS_SYNTAX, INPUT_READABLE};

pub use sysreg::layout_name;

/// The largest `Registers.json` read (the 2024-12 release's is 75 MB).
const MAX_JSON_BYTES: u64 = 512 * 1024 * 1024;

/// The file the registers are in, inside the release's tarball.
const REGISTERS: &str = "Registers.json";

/// The release's licence (`_meta.license` of every entry; `docs/notice.html`).
const LICENSE: &str = "BSD-3-Clause";

/// Whether `path` is an AARCHMRS release tarball.
pub fn is_release(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("AARCHMRS") && n.ends_with(".tar.gz"))
}

/// Whether `head`, the start of a JSON file, is an AARCHMRS `Registers.json`.
pub fn is_registers_json(head: &str) -> bool {
    head.trim_start().starts_with('[')
        && head.contains("\"_type\"")
        && (head.contains("\"Register\"")
            || head.contains("\"RegisterArray\"")
            || head.contains("\"RegisterBlock\""))
        && head.contains("\"fieldsets\"")
}

/// Positions in the JSON text: a path's object, or its nearest recorded ancestor.
pub struct Located<'a> {
    locations: locate::Locations,
    lines: LineIndex<'a>,
}

impl Located<'_> {
    pub fn pos(&self, path: &str) -> Pos {
        let mut path = path;
        loop {
            if let Some(start) = self.locations.start(path) {
                return self.lines.pos(start, start + 1);
            }
            match path.rfind(['.', '[']) {
                Some(cut) if cut > 0 => path = &path[..cut],
                _ => return self.lines.pos(0, 0),
            }
        }
    }
}

/// What lowering makes: the device, and the diagnostics.
pub struct Lowering {
    pub device: Device,
    pub warnings: Vec<Diagnostic>,
    pub errors: Vec<Diagnostic>,
    /// Entries reached through another register's encoding (`ICV_PMR_EL1` through
    /// `ICC_PMR_EL1`): their index, and that register's name.
    pub borrowed: Vec<(usize, String)>,
    /// The names of every entry, so that another entry's name is not taken for an alias.
    pub entries: std::collections::HashSet<String>,
}

impl Lowering {
    /// Something the generator cannot express, left out with a warning.
    fn unsupported(&mut self, pos: &Pos, message: String) {
        self.warnings
            .push(Diagnostic::warning(AARCHMRS_SUPPORTED, pos, message));
    }

    /// Data that breaks the schema.
    fn syntax(&mut self, pos: &Pos, message: String) {
        self.errors
            .push(Diagnostic::error(AARCHMRS_SYNTAX, pos, message));
    }
}

/// Parses the release at `path` (a tarball, or `Registers.json` itself whose text is `text`),
/// shown as `file`; the JSON's text is added to `sources` for rendering diagnostics.
pub fn parse(file: &str, path: &Path, text: &str, sources: &mut Sources) -> Parsed {
    let (shown, json) = if is_release(path) {
        let shown = format!("{file}/{REGISTERS}");
        match read_tarball(path) {
            Ok(json) => (shown, json),
            Err(why) => {
                let pos = Pos::file_start(file);
                return Err(vec![Diagnostic::error(INPUT_READABLE, &pos, why)]);
            }
        }
    } else {
        (file.to_string(), text.to_string())
    };
    let result = parse_json(&shown, &json);
    sources.insert(&shown, json);
    result
}

/// Reads `Registers.json` out of the release's gzipped tarball.
fn read_tarball(path: &Path) -> Result<String, String> {
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let entries = archive
        .entries()
        .map_err(|e| format!("not a gzipped tar archive: {e}"))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("the archive is damaged: {e}"))?;
        let name = entry.path().map(|p| p.into_owned()).unwrap_or_default();
        if name.file_name().and_then(|n| n.to_str()) != Some(REGISTERS) {
            continue;
        }
        let mut json = String::with_capacity(usize::try_from(entry.size()).unwrap_or(0));
        entry
            .take(MAX_JSON_BYTES + 1)
            .read_to_string(&mut json)
            .map_err(|e| format!("{REGISTERS} in the archive cannot be read as UTF-8 text: {e}"))?;
        if json.len() as u64 > MAX_JSON_BYTES {
            return Err(format!(
                "{REGISTERS} is larger than {} MiB",
                MAX_JSON_BYTES >> 20
            ));
        }
        return Ok(json);
    }
    Err(format!(
        "the archive holds no {REGISTERS}: is it an AARCHMRS release?"
    ))
}

/// Parses the text of `Registers.json`, shown as `file`.
pub fn parse_json(file: &str, json: &str) -> Parsed {
    let entries: Vec<schema::Entry> = serde_json::from_str(json).map_err(|e| {
        let lines = LineIndex::new(file, json);
        let offset = byte_offset(json, e.line(), e.column());
        let pos = lines.pos(offset, offset);
        vec![Diagnostic::error(
            AARCHMRS_SYNTAX,
            &pos,
            format!("{REGISTERS} does not follow the AARCHMRS schema: {e}"),
        )]
    })?;
    let at = Located {
        locations: locate::Locations::scan(json),
        lines: LineIndex::new(file, json),
    };
    let mut out = Lowering {
        device: Device {
            doc: Some(
                "System registers and memory-mapped register blocks from Arm's machine-readable architecture specification".into(),
            ),
            source: Some(release(entries.first())),
            license: Some(LICENSE.to_string()),
            notice: Some(notice(entries.first())),
            ..Device::new("aarchmrs".to_string(), Pos::file_start(file))
        },
        warnings: Vec::new(),
        errors: Vec::new(),
        borrowed: Vec::new(),
        entries: entries.iter().map(|e| e.name.clone()).collect(),
    };
    let mut external = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let path = format!("[{i}]");
        match (entry.kind.as_str(), entry.state.as_deref()) {
            ("Register" | "RegisterArray", Some("AArch64" | "AArch32")) => {
                sysreg::lower(entry, &path, &at, &mut out);
            }
            ("RegisterBlock", _) => block::lower(entry, &path, &at, &mut out),
            ("Register" | "RegisterArray", Some("ext")) => external.push((i, entry)),
            (kind, state) => out.syntax(
                &at.pos(&path),
                format!(
                    "`{}`: an entry of kind `{kind}` in state `{}` is not in the schema",
                    entry.name,
                    state.unwrap_or("none")
                ),
            ),
        }
    }
    block::lower_external(&external, &at, &mut out);
    for (i, of) in std::mem::take(&mut out.borrowed) {
        sysreg::lower_view_of(&entries[i], &format!("[{i}]"), &of, &at, &mut out);
    }
    shared_encodings(&mut out.device);
    if out.errors.is_empty() {
        Ok((out.device, out.warnings))
    } else {
        Err(out.errors)
    }
}

/// A write-only register with a read-only one's encoding (`DBGDTRTX_EL0` and `DBGDTRRX_EL0`:
/// `MRS` reads one, `MSR` writes the other) becomes a view of it.
fn shared_encodings(device: &mut Device) {
    use crate::ir::{NameRef, RegAccess, View};
    let readers: Vec<(crate::ir::SysRegPath, String, Pos)> = device
        .sysregs
        .iter()
        .filter(|r| r.access == RegAccess::Ro && r.count.is_none())
        .map(|r| (r.path, r.name.clone(), r.pos.clone()))
        .collect();
    for reg in device
        .sysregs
        .iter_mut()
        .filter(|r| r.access == RegAccess::Wo && r.count.is_none() && r.view.is_none())
    {
        if let Some((_, name, pos)) = readers.iter().find(|(p, _, _)| *p == reg.path) {
            reg.view = Some(View {
                of: NameRef {
                    name: name.clone(),
                    pos: pos.clone(),
                },
                when: format!(
                    "the access is a write: this encoding is {name} when read, {} when written",
                    reg.name
                ),
            });
        }
    }
}

/// A name with every character an identifier cannot hold made `_` (`TTBCR.EAE == '1'` parts,
/// `GIC Distributor` frames).
fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// serde_json's 1-based line and column as a byte offset.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

fn meta<'a>(first: Option<&'a schema::Entry>, key: &str, member: &str) -> Option<&'a str> {
    first?.meta.as_ref()?.get(key)?.get(member)?.as_str()
}

/// The release the data is, as its entries' `_meta.version` states it.
fn release(first: Option<&schema::Entry>) -> String {
    let architecture = meta(first, "version", "architecture").unwrap_or("unknown");
    let build = meta(first, "version", "build").unwrap_or("unknown");
    let schema = meta(first, "version", "schema").unwrap_or("unknown");
    format!(
        "Arm A-profile machine-readable architecture specification (AARCHMRS, BSD release), architecture {architecture}, build {build}, schema {schema}"
    )
}

fn notice(first: Option<&schema::Entry>) -> String {
    let copyright = meta(first, "license", "copyright")
        .unwrap_or("Copyright (c) 2010-2024 Arm Limited or its affiliates. All rights reserved.");
    format!(
        "The registers of this crate are generated from Arm's machine-readable architecture \
         specification (AARCHMRS), under this licence:\n\n{copyright}\n\n{BSD_3_CLAUSE}"
    )
}

/// The BSD-3-Clause conditions and disclaimer, as the release's `docs/notice.html` states them.
const BSD_3_CLAUSE: &str = "Redistribution and use in source and binary forms, with or without modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice, this list of conditions and the following disclaimer in the documentation and/or other materials provided with the distribution.

3. Neither the name of the copyright holder nor the names of its contributors may be used to endorse or promote products derived from this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS \"AS IS\" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.";
