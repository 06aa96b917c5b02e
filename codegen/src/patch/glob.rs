//! Name globs: `*` stands for any run of characters, `?` for one, `<n>` (in an `[[array]]`'s or a
//! `[[cluster]]`'s register) for a decimal index; everything else stands for itself, case and all. What each
//! wildcard matched is captured, in order, for a rename's `{1}`, `{2}` ...
use crate::ir::Pos;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    /// `*`
    Any,
    /// `?`
    One,
    /// `<n>`: one or more decimal digits, no leading zero
    Index,
}

/// A compiled glob, with the position of its text in the patch file.
#[derive(Clone, Debug)]
pub struct Glob {
    pub text: String,
    pub pos: Pos,
    parts: Vec<Part>,
}

impl Glob {
    /// Compiles `text`; `<n>` is allowed only where `index` says so (an array's registers).
    pub fn new(text: &str, pos: Pos, index: bool) -> Result<Glob, String> {
        if text.is_empty() {
            return Err("an empty selector matches nothing; give a name or a glob".into());
        }
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            let part = if c == '*' {
                Some(Part::Any)
            } else if c == '?' {
                Some(Part::One)
            } else if index && rest.starts_with("<n>") {
                // Elsewhere `<n>` is text: it selects an array by its name (`CH<n>_CR`).
                Some(Part::Index)
            } else {
                None
            };
            match part {
                Some(part) => {
                    if !literal.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut literal)));
                    }
                    rest = &rest[if part == Part::Index { 3 } else { 1 }..];
                    parts.push(part);
                }
                None => {
                    literal.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        let indices = parts.iter().filter(|p| **p == Part::Index).count();
        if index && indices != 1 {
            return Err(format!(
                "`{text}`: the numbered registers' name holds `<n>` once, where the number is (`CH<n>_CSR`)"
            ));
        }
        Ok(Glob {
            text: text.to_string(),
            pos,
            parts,
        })
    }

    /// Whether the glob holds `<n>`.
    pub fn has_index(&self) -> bool {
        self.parts.contains(&Part::Index)
    }

    /// How many wildcards (`*`, `?`, `<n>`) capture.
    pub fn wildcards(&self) -> usize {
        self.parts
            .iter()
            .filter(|p| !matches!(p, Part::Text(_)))
            .count()
    }

    /// Whether `name` matches, and what each wildcard matched.
    pub fn captures(&self, name: &str) -> Option<Vec<String>> {
        self.captures_counting(name).0
    }

    /// `captures`, and how many (part, position) pairs the match tried: what bounds its time.
    fn captures_counting(&self, name: &str) -> (Option<Vec<String>>, usize) {
        let mut out = Vec::new();
        let mut failed = std::collections::HashSet::new();
        let mut m = Matcher {
            name,
            failed: &mut failed,
            steps: 0,
        };
        let found = m.matches(&self.parts, 0, &mut out);
        (found.then_some(out), m.steps)
    }

    pub fn is_match(&self, name: &str) -> bool {
        self.captures(name).is_some()
    }

    /// For a `[[cluster]]`: `name`'s group index (what `<n>` matched; `None` without `<n>`) and
    /// its member name, the name without its group part. The group part is `<n>` with the text
    /// on either side of it (`CH<n>_` in `CH<n>_*`: `CH3_READ_ADDR` is member `READ_ADDR` of
    /// group 3), or without `<n>` the glob's first text (`USB_` in `USB_*`). What is left on
    /// either side is joined with `_`, and `_` at its ends is dropped.
    pub fn member(&self, name: &str) -> Option<(Option<u32>, String)> {
        let captures = self.captures(name)?;
        let mut wildcards = captures.into_iter();
        let pieces: Vec<(&Part, String)> = self
            .parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => (p, t.clone()),
                _ => (p, wildcards.next().unwrap_or_default()),
            })
            .collect();
        let (group, index) = match pieces.iter().position(|(p, _)| **p == Part::Index) {
            Some(at) => (at, pieces[at].1.parse().ok()),
            None => (
                pieces
                    .iter()
                    .position(|(p, _)| matches!(p, Part::Text(_)))?,
                None,
            ),
        };
        let mut start = group;
        let mut end = group + 1;
        if index.is_some() {
            if start > 0 && matches!(pieces[start - 1].0, Part::Text(_)) {
                start -= 1;
            }
            if end < pieces.len() && matches!(pieces[end].0, Part::Text(_)) {
                end += 1;
            }
        }
        let join = |range: &[(&Part, String)]| {
            let text: String = range.iter().map(|(_, s)| s.as_str()).collect();
            text.trim_matches('_').to_string()
        };
        let (before, after) = (join(&pieces[..start]), join(&pieces[end..]));
        let member = match (before.is_empty(), after.is_empty()) {
            (false, false) => format!("{before}_{after}"),
            (true, _) => after,
            (false, true) => before,
        };
        Some((index, member))
    }

    /// The index `<n>` matched in `name`, if it matches.
    pub fn index(&self, name: &str) -> Option<u32> {
        let captures = self.captures(name)?;
        let at = self
            .parts
            .iter()
            .filter(|p| !matches!(p, Part::Text(_)))
            .position(|p| *p == Part::Index)?;
        captures[at].parse().ok()
    }
}

/// A backtracking match that remembers the (part, position) pairs that failed, so that no pair
/// is tried twice: time is bounded by parts × length × length, whatever the glob (`*a*a*a*b`).
struct Matcher<'a, 'f> {
    name: &'a str,
    failed: &'f mut std::collections::HashSet<(usize, usize)>,
    steps: usize,
}

impl Matcher<'_, '_> {
    fn matches(&mut self, parts: &[Part], at: usize, out: &mut Vec<String>) -> bool {
        let key = (parts.len(), at);
        if self.failed.contains(&key) {
            return false;
        }
        let found = self.step(parts, at, out);
        if !found {
            self.failed.insert(key);
        }
        found
    }

    fn step(&mut self, parts: &[Part], at: usize, out: &mut Vec<String>) -> bool {
        self.steps += 1;
        let name = &self.name[at..];
        let Some((first, rest)) = parts.split_first() else {
            return name.is_empty();
        };
        match first {
            Part::Text(t) => name.starts_with(t.as_str()) && self.matches(rest, at + t.len(), out),
            Part::One => {
                let Some(c) = name.chars().next() else {
                    return false;
                };
                let slot = out.len();
                if self.matches(rest, at + c.len_utf8(), out) {
                    out.insert(slot, c.to_string());
                    return true;
                }
                false
            }
            Part::Any | Part::Index => {
                let ends: Vec<usize> = if *first == Part::Index {
                    // An index is all its digits, with no leading zero.
                    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
                    if digits == 0 || (digits > 1 && name.starts_with('0')) {
                        return false;
                    }
                    vec![digits]
                } else {
                    name.char_indices()
                        .map(|(i, _)| i)
                        .chain([name.len()])
                        .collect()
                };
                // What the wildcard matched goes before what the rest captured, once it matched.
                let slot = out.len();
                for end in ends {
                    if self.matches(rest, at + end, out) {
                        out.insert(slot, name[..end].to_string());
                        return true;
                    }
                }
                false
            }
        }
    }
}

/// Checks a rename's new name: `{k}` must name a wildcard of the selector (1-based), and `{`
/// and `}` stand only in such references.
pub fn check_template(template: &str, wildcards: usize) -> Result<(), String> {
    expand(template, &vec![String::new(); wildcards]).map(|_| ())
}

/// The new name `template` gives an element whose glob captured `captures`.
pub fn expand(template: &str, captures: &[String]) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let close = tail.find('}').filter(|_| tail.starts_with('{'));
        let Some(close) = close else {
            return Err(format!(
                "`{template}`: `{{` and `}}` stand only in a reference to a wildcard, `{{1}}`"
            ));
        };
        let k: usize = tail[1..close]
            .parse()
            .map_err(|_| format!("`{template}`: `{}` is no wildcard number", &tail[..=close]))?;
        match k.checked_sub(1).and_then(|i| captures.get(i)) {
            Some(c) => out.push_str(c),
            None => {
                return Err(format!(
                    "`{template}`: `{{{k}}}` names wildcard {k}, but the selector has {}",
                    captures.len()
                ))
            }
        }
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glob(text: &str) -> Glob {
        Glob::new(text, Pos::default(), false).unwrap()
    }

    #[test]
    fn globs_match_and_capture() {
        assert!(glob("GPIO*").is_match("GPIO"));
        assert!(glob("GPIO*").is_match("GPIO12"));
        assert!(!glob("GPIO*").is_match("XGPIO1"));
        assert!(glob("PIN?").is_match("PIN3"));
        assert!(!glob("PIN?").is_match("PIN13"));
        assert!(glob("*_CTRL").is_match("GPIO3_CTRL"));
        assert_eq!(
            glob("VAL_*").captures("VAL_0x01").unwrap(),
            vec!["0x01".to_string()]
        );
        assert_eq!(
            glob("*_?_*").captures("A_B_C_D").unwrap(),
            vec!["A", "B", "C_D"]
        );
        assert!(glob("CTRL").is_match("CTRL") && !glob("CTRL").is_match("ctrl"));
    }

    #[test]
    fn hostile_globs_take_bounded_time() {
        // Backtracking alone would try about 300^60 splits; each (part, position) pair is
        // tried once, so the steps stay within parts × (length + 1).
        let name = "a".repeat(300);
        for (text, matches) in [
            (format!("{}b", "*a".repeat(60)), false),
            ("*a?".repeat(50), true),
        ] {
            let g = glob(&text);
            let (found, steps) = g.captures_counting(&name);
            assert_eq!(found.is_some(), matches, "{text}");
            let bound = (g.parts.len() + 1) * (name.len() + 1);
            assert!(steps <= bound, "{text}: {steps} steps, more than {bound}");
        }
    }

    #[test]
    fn index_globs_take_decimal_indices() {
        let g = Glob::new("CH<n>_CSR", Pos::default(), true).unwrap();
        assert_eq!(g.index("CH0_CSR"), Some(0));
        assert_eq!(g.index("CH12_CSR"), Some(12));
        assert_eq!(g.index("CH01_CSR"), None);
        assert_eq!(g.index("CHx_CSR"), None);
        // Outside an [[array]], `<n>` is text: the name of an array.
        let named = Glob::new("CH<n>", Pos::default(), false).unwrap();
        assert!(named.is_match("CH<n>") && !named.is_match("CH3"));
        assert!(Glob::new("CH_CSR", Pos::default(), true).is_err());
    }

    #[test]
    fn cluster_globs_split_group_and_member() {
        let g = Glob::new("CH<n>_*", Pos::default(), true).unwrap();
        assert_eq!(
            g.member("CH3_READ_ADDR"),
            Some((Some(3), "READ_ADDR".into()))
        );
        assert_eq!(
            g.member("CH11_AL1_CTRL"),
            Some((Some(11), "AL1_CTRL".into()))
        );
        assert_eq!(g.member("CH3"), None);
        let g = Glob::new("*_CH<n>_*", Pos::default(), true).unwrap();
        assert_eq!(g.member("X_CH0_Y"), Some((Some(0), "X_Y".into())));
        let g = Glob::new("SLOT<n>", Pos::default(), true).unwrap();
        assert_eq!(g.member("SLOT2"), Some((Some(2), String::new())));
        let g = Glob::new("USB_*", Pos::default(), false).unwrap();
        assert_eq!(g.member("USB_CTRL"), Some((None, "CTRL".into())));
    }

    #[test]
    fn templates_expand_captures() {
        let c = vec!["0x01".to_string(), "B".to_string()];
        assert_eq!(expand("V{1}_{2}", &c).unwrap(), "V0x01_B");
        assert!(expand("V{3}", &c).unwrap_err().contains("wildcard 3"));
        assert!(expand("V{x}", &c).is_err());
        assert!(expand("V}", &c).is_err());
        assert!(check_template("ON", 0).is_ok());
        assert!(check_template("{1}", 0).is_err());
    }
}
