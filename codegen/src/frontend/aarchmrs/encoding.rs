//! Instruction encodings: the operand fields of an accessor, evaluated for an array's index.
//!
//! A field is a bit string (`'1110'`), a concatenation of bit strings and slices of the index
//! (`'10':m[4:3]`), or the index sliced (`m` with `slice` `[0, 3)`).
use super::schema::{Encoding, EncodingValue};

/// The value of operand `field` of `encoding` for index `index` (named `var`), or why not.
pub fn operand(
    encoding: &Encoding,
    field: &str,
    var: Option<&str>,
    index: u32,
) -> Result<u8, String> {
    let value = encoding
        .encodings
        .get(field)
        .ok_or_else(|| format!("the encoding has no `{field}`"))?;
    let bits = evaluate(value, var, index).map_err(|e| format!("`{field}`: {e}"))?;
    let mut out: u32 = 0;
    for bit in &bits {
        out = out << 1 | u32::from(*bit);
    }
    u8::try_from(out).map_err(|_| format!("`{field}` = {out} does not fit an operand"))
}

/// The bits of one operand field, most significant first.
fn evaluate(value: &EncodingValue, var: Option<&str>, index: u32) -> Result<Vec<bool>, String> {
    match value.kind.as_str() {
        "Values.Value" | "Values.Group" => {
            let mut bits = Vec::new();
            for part in split_parts(&value.value) {
                bits.extend(part_bits(part, var, index)?);
            }
            Ok(bits)
        }
        "Values.EquationValue" => {
            let name = value.value.trim();
            if Some(name) != var {
                return Err(format!("`{name}` is not the array's index"));
            }
            let mut bits = Vec::new();
            for range in value.slice.iter().rev() {
                bits.extend(slice(index, range.start + range.width - 1, range.start));
            }
            Ok(bits)
        }
        other => Err(format!("an operand of kind `{other}` is not understood")),
    }
}

/// The parts of a concatenation, split at the colons outside brackets and quotes.
fn split_parts(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quoted, mut start) = (0, false, 0);
    for (i, c) in text.char_indices() {
        match c {
            '\'' => quoted = !quoted,
            '[' if !quoted => depth += 1,
            ']' if !quoted => depth -= 1,
            ':' if !quoted && depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// One part: `'0110'`, `m[4:3]`, `m[2]` or `m`.
fn part_bits(part: &str, var: Option<&str>, index: u32) -> Result<Vec<bool>, String> {
    if let Some(literal) = part.strip_prefix('\'').and_then(|p| p.strip_suffix('\'')) {
        return literal
            .chars()
            .map(|c| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                _ => Err(format!("`{part}` is not a bit string")),
            })
            .collect();
    }
    let (name, range) = match part.split_once('[') {
        Some((name, rest)) => (name.trim(), Some(rest.trim_end_matches(']'))),
        None => (part, None),
    };
    if Some(name) != var {
        return Err(format!(
            "`{part}` names neither a bit string nor the array's index"
        ));
    }
    let (hi, lo) = match range {
        None => return Err(format!("`{part}` gives the index without its width")),
        Some(r) => {
            let number = |s: &str| {
                s.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("`{part}` is not a slice of the index"))
            };
            match r.split_once(':') {
                Some((hi, lo)) => (number(hi)?, number(lo)?),
                None => (number(r)?, number(r)?),
            }
        }
    };
    if hi < lo || hi > 31 {
        return Err(format!("`{part}` is not a slice of the index"));
    }
    Ok(slice(index, hi, lo))
}

/// Bits `hi` down to `lo` of `value`, most significant first.
fn slice(value: u32, hi: u32, lo: u32) -> Vec<bool> {
    (lo..=hi).rev().map(|b| value >> b & 1 == 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// An operand: its name, kind, value and slice ranges (start, width).
    type Operand<'a> = (&'a str, &'a str, &'a str, Vec<(u32, u32)>);

    fn encoding(fields: &[Operand<'_>]) -> Encoding {
        let encodings: BTreeMap<String, EncodingValue> = fields
            .iter()
            .map(|(name, kind, value, slice)| {
                let value = EncodingValue {
                    kind: (*kind).to_string(),
                    value: (*value).to_string(),
                    slice: slice
                        .iter()
                        .map(|&(start, width)| super::super::schema::Range { start, width })
                        .collect(),
                };
                ((*name).to_string(), value)
            })
            .collect();
        Encoding {
            asmvalue: Some("PMEVCNTR<m>_EL0".into()),
            encodings,
        }
    }

    #[test]
    fn the_index_goes_where_the_expression_puts_it() {
        let e = encoding(&[
            ("CRm", "Values.Group", "'10':m[4:3]", vec![]),
            ("op2", "Values.EquationValue", "m", vec![(0, 3)]),
            ("op0", "Values.Value", "'11'", vec![]),
        ]);
        // PMEVCNTR30_EL0: CRm = 0b1011, op2 = 0b110 (Arm ARM D24, PMEVCNTR<n>_EL0).
        assert_eq!(operand(&e, "CRm", Some("m"), 30), Ok(0b1011));
        assert_eq!(operand(&e, "op2", Some("m"), 30), Ok(0b110));
        assert_eq!(operand(&e, "op0", Some("m"), 30), Ok(3));
        assert!(operand(&e, "CRm", None, 0).unwrap_err().contains("index"));
        assert!(operand(&e, "CRn", Some("m"), 0)
            .unwrap_err()
            .contains("no `CRn`"));
    }
}
