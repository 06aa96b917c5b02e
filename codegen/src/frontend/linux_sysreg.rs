//! The Linux `arch/arm64/tools/sysreg` frontend.
//!
//! The file is a sequence of blocks, one directive a line, words separated by white space:
//! `Sysreg <name> <op0> <op1> <crn> <crm> <op2>` … `EndSysreg`, `SysregFields <name>` …
//! `EndSysregFields`, and inside them `Res0`/`Res1`/`Raz`/`Unkn <msb>[:<lsb>]`,
//! `Field <msb>[:<lsb>] <name>`, `Enum`/`SignedEnum`/`UnsignedEnum <msb>[:<lsb>] <name>` followed
//! by `<value> <name>` lines and `EndEnum`, or `Fields <name>` naming a shared layout. As the
//! kernel's `gen-sysreg.awk` does, fields must run from bit 63 down to bit 0, each bit covered
//! exactly once; anything else is an error.
//!
//! The file does not say which registers are read-only. Registers in the ID space (op0 = 3,
//! CRn = 0, op1 ≠ 2) are bound read-only (`CSSELR_EL1`, op1 = 2, is the one writable register
//! there); every other register is bound read/write.
use super::Parsed;
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::ir::{
    Device, EnumUsage, EnumValue, Field, FieldAccess, Layout, NameRef, Pos, RegAccess, SysReg,
    SysRegPath,
};
use crate::rules::{Rule, BITS_COVERED_ONCE, SYSREG_SYNTAX};

const SOURCE: &str = "Linux arch/arm64/tools/sysreg";

/// One whitespace-separated word with its byte range.
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    start: usize,
}

fn words(line: &str, offset: usize) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (at, character) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (character.is_whitespace(), start) {
            (true, Some(word_start)) => {
                out.push(Word {
                    text: &line[word_start..at],
                    start: offset + word_start,
                });
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    out
}

/// The block being read: a `Sysreg` (with its encoding) or a `SysregFields`.
struct Block {
    layout: Layout,
    sysreg: Option<(SysRegPath, Pos)>,
    /// The next bit a field must start at (`None` once bit 0 is covered).
    next_bit: Option<u32>,
    /// A `Fields` reference replaces the layout.
    fields_ref: Option<NameRef>,
    /// An error was reported inside the block: its coverage is not checked again.
    damaged: bool,
}

struct Parser<'a> {
    lines: LineIndex<'a>,
    device: Device,
    errors: Vec<Diagnostic>,
    block: Option<Block>,
    /// The enum being read: its field's index in the current layout.
    in_enum: Option<(usize, Pos)>,
}

/// Parses the text of a Linux `sysreg` file.
pub fn parse(file: &str, text: &str) -> Parsed {
    let mut parser = Parser {
        lines: LineIndex::new(file, text),
        device: Device {
            doc: Some(
                "AArch64 system registers described by Linux's arch/arm64/tools/sysreg".into(),
            ),
            source: Some(SOURCE.to_string()),
            ..Device::new("linux-sysreg", Pos::file_start(file))
        },
        errors: Vec::new(),
        block: None,
        in_enum: None,
    };
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let content = line.split('#').next().unwrap_or("");
        let line_words = words(content, offset);
        if !line_words.is_empty() {
            parser.line(&line_words);
        }
        offset += line.len();
    }
    if parser.block.is_some() || parser.in_enum.is_some() {
        let pos = parser.lines.pos(text.len(), text.len());
        parser.errors.push(Diagnostic::error(
            SYSREG_SYNTAX,
            &pos,
            "the file ends inside a block: `EndSysreg`, `EndSysregFields` or `EndEnum` is missing",
        ));
    }
    if parser.device.layouts.is_empty() && parser.errors.is_empty() {
        let pos = parser.lines.pos(0, 0);
        parser.errors.push(Diagnostic::error(
            SYSREG_SYNTAX,
            &pos,
            "no `Sysreg` or `SysregFields` block in the file",
        ));
    }
    if parser.errors.is_empty() {
        parser.device.canonicalize();
        Ok((parser.device, Vec::new()))
    } else {
        Err(parser.errors)
    }
}

impl Parser<'_> {
    fn pos(&self, word: &Word) -> Pos {
        self.lines.pos(word.start, word.start + word.text.len())
    }

    fn error(&mut self, rule: &'static Rule, word: &Word, message: impl Into<String>) {
        let pos = self.pos(word);
        self.errors.push(Diagnostic::error(rule, &pos, message));
        if let Some(Block { damaged, .. }) = &mut self.block {
            *damaged = true;
        }
    }

    fn line(&mut self, words: &[Word]) {
        let directive = words[0].text;
        if self.in_enum.is_some() && directive != "EndEnum" {
            self.enum_value(words);
            return;
        }
        match directive {
            "Sysreg" => self.open(words, true),
            "SysregFields" => self.open(words, false),
            "EndSysreg" | "EndSysregFields" => self.close(words),
            "Res0" | "Res1" | "Raz" | "Unkn" | "Field" | "Enum" | "SignedEnum" | "UnsignedEnum" => {
                self.field(words)
            }
            "Fields" => self.fields_ref(words),
            "EndEnum" => match self.in_enum.take() {
                Some(_) => {}
                None => self.error(SYSREG_SYNTAX, &words[0], "`EndEnum` without an enum"),
            },
            other => {
                let other = other.to_string();
                self.error(
                    SYSREG_SYNTAX,
                    &words[0],
                    format!("unknown directive `{other}`"),
                );
            }
        }
    }

    fn arity(&mut self, words: &[Word], count: usize, usage: &str) -> bool {
        if words.len() == count {
            return true;
        }
        let at = words.get(count).unwrap_or(&words[words.len() - 1]);
        self.error(SYSREG_SYNTAX, at, format!("expected `{usage}`"));
        false
    }

    fn open(&mut self, words: &[Word], is_sysreg: bool) {
        if self.block.is_some() {
            self.error(
                SYSREG_SYNTAX,
                &words[0],
                format!("`{}` inside another block", words[0].text),
            );
            return;
        }
        let usage = if is_sysreg {
            "Sysreg <name> <op0> <op1> <crn> <crm> <op2>"
        } else {
            "SysregFields <name>"
        };
        if !self.arity(words, if is_sysreg { 7 } else { 2 }, usage) {
            return;
        }
        let sysreg = if is_sysreg {
            let limits = [("op0", 3), ("op1", 7), ("CRn", 15), ("CRm", 15), ("op2", 7)];
            let mut encoding = [0u8; 5];
            for (index, (what, max)) in limits.iter().enumerate() {
                match words[2 + index].text.parse::<u8>() {
                    Ok(number) if number <= *max => encoding[index] = number,
                    _ => {
                        let message = format!(
                            "{what} `{}` is not a number from 0 to {max}",
                            words[2 + index].text
                        );
                        self.error(SYSREG_SYNTAX, &words[2 + index], message);
                        return;
                    }
                }
            }
            let [op0, op1, crn, crm, op2] = encoding;
            Some((
                SysRegPath::A64 {
                    op0,
                    op1,
                    crn,
                    crm,
                    op2,
                },
                self.pos(&words[1]),
            ))
        } else {
            None
        };
        self.block = Some(Block {
            layout: Layout {
                name: words[1].text.to_string(),
                width: 64,
                doc: None,
                source: Some(SOURCE.to_string()),
                reset: None,
                reset_mask: None,
                pos: self.pos(&words[1]),
                fields: Vec::new(),
                field_arrays: Vec::new(),
                derive: None,
            },
            sysreg,
            next_bit: Some(63),
            fields_ref: None,
            damaged: false,
        });
    }

    fn close(&mut self, words: &[Word]) {
        let Some(Block {
            layout,
            sysreg,
            next_bit,
            fields_ref,
            damaged,
        }) = self.block.take()
        else {
            self.error(
                SYSREG_SYNTAX,
                &words[0],
                format!("`{}` without a block", words[0].text),
            );
            return;
        };
        let expected = if sysreg.is_some() {
            "EndSysreg"
        } else {
            "EndSysregFields"
        };
        if words[0].text != expected {
            self.error(
                SYSREG_SYNTAX,
                &words[0],
                format!("expected `{expected}` to close `{}`", layout.name),
            );
        }
        if let Some(bit) = next_bit.filter(|_| fields_ref.is_none() && !damaged) {
            let message = if bit == 63 {
                format!(
                    "`{}` describes no bits; every bit 63..0 must be covered",
                    layout.name
                )
            } else {
                format!(
                    "bits {bit}..0 of `{}` are not described; every bit 63..0 must be covered",
                    layout.name
                )
            };
            self.error(BITS_COVERED_ONCE, &words[0], message);
        }
        let layout_ref = match fields_ref {
            Some(layout_ref) => layout_ref,
            None => {
                let layout_ref = NameRef {
                    name: layout.name.clone(),
                    pos: layout.pos.clone(),
                };
                self.device.layouts.push(layout.clone());
                layout_ref
            }
        };
        if let Some((path, pos)) = sysreg {
            let read_only = matches!(path, SysRegPath::A64 { op0: 3, crn: 0, op1, .. } if op1 != 2);
            self.device.sysregs.push(SysReg {
                name: layout.name.clone(),
                layout: layout_ref,
                path,
                access: if read_only {
                    RegAccess::Ro
                } else {
                    RegAccess::Rw
                },
                count: None,
                view: None,
                condition: None,
                doc: read_only
                    .then(|| "An ID-space register (op0 = 3, CRn = 0): read-only.".to_string()),
                source: Some(SOURCE.to_string()),
                pos,
            });
        }
    }

    fn fields_ref(&mut self, words: &[Word]) {
        if !self.arity(words, 2, "Fields <name>") {
            return;
        }
        let pos = self.pos(&words[1]);
        let Some(Block {
            sysreg: Some(_),
            fields_ref,
            next_bit,
            ..
        }) = &mut self.block
        else {
            self.error(
                SYSREG_SYNTAX,
                &words[0],
                "`Fields` belongs inside a `Sysreg` block",
            );
            return;
        };
        if *next_bit != Some(63) || fields_ref.is_some() {
            self.error(
                BITS_COVERED_ONCE,
                &words[0],
                "`Fields` must be the only description of a register's bits",
            );
            return;
        }
        *fields_ref = Some(NameRef {
            name: words[1].text.to_string(),
            pos,
        });
        *next_bit = None;
    }

    /// `<msb>[:<lsb>]`.
    fn bits(&mut self, word: &Word) -> Option<(u32, u32)> {
        let parse = |text: &str| text.parse::<u32>().ok().filter(|bit| *bit < 64);
        let parsed = match word.text.split_once(':') {
            Some((msb, lsb)) => parse(msb).zip(parse(lsb)),
            None => parse(word.text).map(|bit| (bit, bit)),
        };
        match parsed {
            Some((msb, lsb)) if msb >= lsb => Some((msb, lsb)),
            _ => {
                let message = format!(
                    "`{}` is not a bit range `<msb>[:<lsb>]` within 63..0",
                    word.text
                );
                self.error(SYSREG_SYNTAX, word, message);
                None
            }
        }
    }

    fn field(&mut self, words: &[Word]) {
        let directive = words[0].text;
        let named = !matches!(directive, "Res0" | "Res1" | "Raz" | "Unkn");
        let usage = if named {
            format!("{directive} <msb>[:<lsb>] <name>")
        } else {
            format!("{directive} <msb>[:<lsb>]")
        };
        if !self.arity(words, if named { 3 } else { 2 }, &usage) {
            return;
        }
        let Some((msb, lsb)) = self.bits(&words[1]) else {
            return;
        };
        let pos = if named {
            self.pos(&words[2])
        } else {
            self.pos(&words[1])
        };
        let Some(Block {
            layout,
            next_bit,
            fields_ref,
            damaged,
            ..
        }) = &mut self.block
        else {
            self.error(
                SYSREG_SYNTAX,
                &words[0],
                format!("`{directive}` outside a block"),
            );
            return;
        };
        if fields_ref.is_some() {
            self.error(
                BITS_COVERED_ONCE,
                &words[0],
                "a register described by `Fields` has no fields of its own",
            );
            return;
        }
        // The kernel's rule: fields run from bit 63 down, each starting where the last ended.
        match *next_bit {
            Some(expected) if expected == msb => {
                *next_bit = lsb.checked_sub(1);
            }
            Some(expected) => {
                let message = if msb > expected {
                    format!("bits {msb}:{lsb} overlap bits already described; the next field must start at bit {expected}")
                } else {
                    format!("bits {expected}..{} are not described; the next field must start at bit {expected}", msb + 1)
                };
                // Carry on from this field, so one mistake is reported once.
                *next_bit = lsb.checked_sub(1).filter(|bit| *bit < expected);
                *damaged = true;
                let pos = self
                    .lines
                    .pos(words[1].start, words[1].start + words[1].text.len());
                self.errors
                    .push(Diagnostic::error(BITS_COVERED_ONCE, &pos, message));
                return;
            }
            None => {
                self.error(
                    BITS_COVERED_ONCE,
                    &words[1],
                    "every bit is already described",
                );
                return;
            }
        }
        let (name, access) = match directive {
            "Res0" => (format!("RES0_{msb}_{lsb}"), FieldAccess::Res0),
            "Res1" => (format!("RES1_{msb}_{lsb}"), FieldAccess::Res1),
            "Raz" => (format!("RAZ_{msb}_{lsb}"), FieldAccess::RazWi),
            // UNKNOWN bits: readable, never set by software, kept by read-modify-write.
            "Unkn" => (format!("UNKN_{msb}_{lsb}"), FieldAccess::Ro),
            _ => (words[2].text.to_string(), FieldAccess::Rw),
        };
        layout.fields.push(Field {
            name,
            lsb,
            width: msb - lsb + 1,
            access,
            reset: None,
            doc: match directive {
                "SignedEnum" => Some("A signed field: values compare as two's complement.".into()),
                "Unkn" => Some("UNKNOWN bits.".into()),
                _ => None,
            },
            source: None,
            pos: pos.clone(),
            enums: Vec::new(),
            enum_default: None,
            enum_name: None,
            read_action: None,
            write_constraint: None,
            condition: None,
        });
        if directive.ends_with("Enum") {
            self.in_enum = Some((layout.fields.len() - 1, pos));
        }
    }

    fn enum_value(&mut self, words: &[Word]) {
        if !self.arity(words, 2, "<value> <name>") {
            return;
        }
        let text = words[0].text;
        let value = if let Some(binary) = text.strip_prefix("0b") {
            u64::from_str_radix(binary, 2).ok()
        } else if let Some(hex) = text.strip_prefix("0x") {
            u64::from_str_radix(hex, 16).ok()
        } else {
            text.parse::<u64>().ok()
        };
        let Some(value) = value else {
            self.error(
                SYSREG_SYNTAX,
                &words[0],
                format!("`{text}` is not a number (0b…, 0x… or decimal)"),
            );
            return;
        };
        let pos = self.pos(&words[1]);
        let Some((index, _)) = self.in_enum else {
            return;
        };
        if let Some(Block { layout, .. }) = &mut self.block {
            if let Some(field) = layout.fields.get_mut(index) {
                field.enums.push(EnumValue {
                    mask: None,
                    name: words[1].text.to_string(),
                    value,
                    usage: EnumUsage::ReadWrite,
                    doc: None,
                    source: None,
                    pos,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
# comment
Sysreg\tPMCR_EL0\t3\t3\t9\t12\t0
Res0\t63:33
Field\t32\tFZS
Res0\t31:12
UnsignedEnum\t11:8\tMODE
\t0b0000\tOFF
\t0b0001\tON
EndEnum
Raz\t7:4
Unkn\t3
Res1\t2
Field\t1:0\tE
EndSysreg

SysregFields\tSHARED
Field\t63:0\tVALUE
EndSysregFields

Sysreg ID_X_EL1 3 0 0 1 0
Fields SHARED
EndSysreg
";

    #[test]
    fn parses_blocks_fields_and_enums() {
        let (device, warnings) = parse("sysreg", GOOD).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(device.layouts.len(), 2);
        let pmcr = device.layout("PMCR_EL0").unwrap();
        assert_eq!(pmcr.fields.len(), 8);
        let mode = pmcr.fields.iter().find(|f| f.name == "MODE").unwrap();
        assert_eq!((mode.lsb, mode.width, mode.enums.len()), (8, 4, 2));
        assert_eq!((mode.pos.line, mode.pos.col), (6, 19));
        let id = device
            .sysregs
            .iter()
            .find(|r| r.name == "ID_X_EL1")
            .unwrap();
        assert_eq!(id.layout.name, "SHARED");
        assert_eq!(id.access, RegAccess::Ro);
    }

    #[test]
    fn gaps_and_overlaps_are_errors() {
        let gap = "Sysreg A 3 0 1 0 0\nField 63:8 X\nField 3:0 Y\nEndSysreg\n";
        let errors = parse("f", gap).unwrap_err();
        assert_eq!(errors[0].rule, BITS_COVERED_ONCE);
        assert_eq!((errors[0].pos.line, errors[0].pos.col), (3, 7));
        let short = "Sysreg A 3 0 1 0 0\nField 63:8 X\nEndSysreg\n";
        let errors = parse("f", short).unwrap_err();
        assert!(
            errors[0].message.contains("bits 7..0"),
            "{}",
            errors[0].message
        );
        let unclosed = "Sysreg A 3 0 1 0 0\nField 63:0 X\n";
        assert_eq!(parse("f", unclosed).unwrap_err()[0].rule, SYSREG_SYNTAX);
    }
}
