//! Positions in `Registers.json`: one pass over the text records where each element the
//! generator lowers begins, keyed by its JSON path (`[12].fieldsets[0].values[3]`), so that
//! every IR element can point at its line and column although serde gives no positions.
use std::collections::HashMap;

/// The keys under which the lowered elements lie; objects on other paths are not recorded.
const KEYS: &[&str] = &[
    "fieldsets",
    "values",
    "fields",
    "field",
    "accessors",
    "encoding",
    "instances",
    "blocks",
];

/// A path step: an array index or an object key.
enum Step<'a> {
    Index(usize),
    Key(&'a str),
}

/// Where each recorded object starts (a byte offset), by path.
pub struct Locations {
    starts: HashMap<String, usize>,
}

impl Locations {
    /// Scans `text`, a JSON document whose root is an array. The scan trusts serde to reject a
    /// malformed document, so it only needs to stay in step on a well-formed one.
    pub fn scan(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = HashMap::new();
        // One frame per open container: (is an array, the index in it, the last key).
        let mut frames: Vec<(bool, usize, &str)> = Vec::new();
        let mut last_string: &str = "";
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    let start = i + 1;
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    last_string = text.get(start..i.min(bytes.len())).unwrap_or("");
                }
                b':' => {
                    if let Some(frame) = frames.last_mut() {
                        frame.2 = last_string;
                    }
                }
                b',' => {
                    if let Some(frame) = frames.last_mut() {
                        if frame.0 {
                            frame.1 += 1;
                        }
                    }
                }
                open @ (b'{' | b'[') => {
                    if open == b'{' && interesting(&frames) {
                        starts.insert(path(&frames), i);
                    }
                    frames.push((open == b'[', 0, ""));
                }
                b'}' | b']' => {
                    frames.pop();
                }
                _ => {}
            }
            i += 1;
        }
        Locations { starts }
    }

    /// Where the object at `path` starts, if it was recorded.
    pub fn start(&self, path: &str) -> Option<usize> {
        self.starts.get(path).copied()
    }
}

fn steps<'a, 'f>(frames: &'f [(bool, usize, &'a str)]) -> impl Iterator<Item = Step<'a>> + 'f
where
    'a: 'f,
{
    frames.iter().map(|&(array, index, key)| {
        if array {
            Step::Index(index)
        } else {
            Step::Key(key)
        }
    })
}

/// Whether the object about to open lies on a recorded path: under the root array, through
/// the keys of [`KEYS`] only.
fn interesting(frames: &[(bool, usize, &str)]) -> bool {
    frames.first().is_some_and(|f| f.0)
        && steps(frames).all(|s| match s {
            Step::Index(_) => true,
            Step::Key(k) => KEYS.contains(&k),
        })
}

/// The path of the object about to open, in the notation of [`super::Path`].
fn path(frames: &[(bool, usize, &str)]) -> String {
    let mut out = String::new();
    for step in steps(frames) {
        match step {
            Step::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_objects_under_the_lowered_keys_only() {
        let text = r#"[
  {"name": "A", "fieldsets": [{"values": [{"x": "}{"}, {"y": [1, 2]}]}],
   "other": {"z": {}}},
  {"name": "B", "accessors": [{}, {"encoding": [{"a": 1}]}]}
]"#;
        let l = Locations::scan(text);
        let at = |p: &str| l.start(p).map(|s| &text[s..s + 5]);
        assert_eq!(at("[0]"), Some("{\"nam"));
        assert_eq!(at("[0].fieldsets[0].values[1]"), Some("{\"y\":"));
        assert_eq!(at("[1].accessors[1].encoding[0]"), Some("{\"a\":"));
        assert_eq!(at("[0].other"), None);
        assert_eq!(at("[1].accessors[0]"), Some("{}, {"));
    }
}
