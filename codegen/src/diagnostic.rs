//! Diagnostics: what a frontend or pass reports about its input, always with a position.
use std::collections::BTreeMap;
use std::fmt;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

use crate::ir::Pos;
use crate::rules::{Rule, RuleSeverity};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// One finding, naming the rule that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The rule broken: a pass's (`no_overlapping_fields`) or a frontend's (`toml_syntax`), from
    /// the registry ([`crate::rules`]).
    pub rule: &'static Rule,
    pub message: String,
    pub pos: Pos,
    /// Other positions worth showing (the earlier definition of a duplicate, ...).
    pub notes: Vec<(Pos, String)>,
    /// What may fix it (`did you mean `CTRL`?`), a line each, shown after the snippet. Every
    /// diagnostic then ends with the command that explains its rule. (Behind one thin pointer: a
    /// diagnostic is the `Err` of many functions, and most have no help.)
    #[allow(clippy::redundant_allocation)]
    pub help: Option<Box<Box<str>>>,
}

impl Diagnostic {
    pub fn error(rule: &'static Rule, pos: &Pos, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            rule,
            message: message.into(),
            pos: pos.clone(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A vendor-file defect the frontend repaired, saying what it did.
    pub fn warning(rule: &'static Rule, pos: &Pos, message: impl Into<String>) -> Self {
        debug_assert_eq!(
            rule.severity,
            RuleSeverity::Defect,
            "{rule} is never repaired, so it is never a warning"
        );
        Self {
            severity: Severity::Warning,
            ..Self::error(rule, pos, message)
        }
    }

    pub fn with_note(mut self, pos: &Pos, note: impl Into<String>) -> Self {
        self.notes.push((pos.clone(), note.into()));
        self
    }

    /// Adds a line of help, shown after the snippet.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help = help.into();
        self.help = Some(match self.help.take() {
            Some(before) => Box::new(format!("{before}\n{help}").into()),
            None => Box::new(help.into()),
        });
        self
    }

    /// The lines of help, in the order added.
    pub fn help(&self) -> impl Iterator<Item = &str> {
        self.help
            .as_deref()
            .into_iter()
            .flat_map(|help| help.lines())
    }

    /// Adds "did you mean" with the names of `candidates` closest to `name`, if any is close.
    pub fn suggesting<'a>(
        self,
        name: &str,
        candidates: impl IntoIterator<Item = &'a str>,
        quote: fn(&str) -> String,
    ) -> Self {
        match did_you_mean(name, candidates, quote) {
            Some(help) => self.with_help(help),
            None => self,
        }
    }

    /// Adds "did you mean" to a serde error about a key or keyword (`unknown field `acess`,
    /// expected one of `name`, `access`, ...`, `unknown variant ...`): the expected name
    /// closest to the unknown one, if any is close.
    pub fn suggesting_expected(self) -> Self {
        let Some((name, expected)) = unknown_and_expected(&self.message) else {
            return self;
        };
        let help = did_you_mean(&name, expected.iter().map(String::as_str), backticked);
        match help {
            Some(help) => self.with_help(help),
            None => self,
        }
    }

    /// The last line of every rendered diagnostic: where its rule is explained.
    fn explain_line(&self) -> String {
        format!(
            "  = help: {} explain {}",
            crate::backend::GENERATOR,
            self.rule.name
        )
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Renders the diagnostic with a source snippet when the file's text is known.
    pub fn render(&self, sources: &Sources) -> String {
        let Some(text) = sources.get(&self.pos.file) else {
            return self.to_string();
        };
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let span = clamp(self.pos.span, text.len());
        let same_file: Vec<((usize, usize), &str)> = self
            .notes
            .iter()
            .filter(|(pos, _)| pos.file == self.pos.file)
            .map(|(pos, note)| (clamp(pos.span, text.len()), note.as_str()))
            .collect();
        // Only the lines the annotations cover are handed to the renderer: a large file with
        // many diagnostics would otherwise be scanned whole for each of them.
        let lo = same_file.iter().map(|(s, _)| s.0).fold(span.0, usize::min);
        let hi = same_file.iter().map(|(s, _)| s.1).fold(span.1, usize::max);
        let starts = sources.line_starts(&self.pos.file);
        let first = starts.partition_point(|&s| s <= lo).saturating_sub(1);
        let from = starts.get(first).copied().unwrap_or(0);
        let to = text[hi..].find('\n').map_or(text.len(), |i| hi + i + 1);
        let window = &text[from..to];
        let mut snippet = Snippet::source(window)
            .line_start(first + 1)
            .path(self.pos.file.as_str())
            .fold(true)
            .annotation(AnnotationKind::Primary.span(span.0 - from..span.1 - from));
        for (span, note) in same_file {
            snippet = snippet.annotation(
                AnnotationKind::Context
                    .span(span.0 - from..span.1 - from)
                    .label(note),
            );
        }
        let report = &[level
            .primary_title(self.message.as_str())
            .id(self.rule.name)
            .element(snippet)];
        let mut out = Renderer::plain().render(report).to_string();
        for (pos, note) in &self.notes {
            if pos.file != self.pos.file {
                out.push_str(&format!("\n  = note: {pos}: {note}"));
            }
        }
        // `= help` lines under the snippet's `|` gutter, as rustc aligns them.
        let gutter = out
            .lines()
            .rev()
            .find_map(|l| {
                l.trim_end()
                    .ends_with('|')
                    .then(|| l.len() - l.trim_start().len())
            })
            .unwrap_or(2);
        let indent = " ".repeat(gutter);
        for help in self.help() {
            out.push_str(&format!("\n{indent}= help: {help}"));
        }
        out.push('\n');
        out.push_str(&indent);
        out.push_str(self.explain_line().trim_start());
        out
    }
}

/// `did you mean `X`?` (or `X` or `Y`, for names as close) for the names among `candidates`
/// closest to `name` by edit distance (case aside), when any is close enough to be a slip:
/// at most a third of the name's length, and at least one edit. Each name is shown by `quote`.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    quote: fn(&str) -> String,
) -> Option<String> {
    let wanted = name.to_lowercase();
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Vec<(usize, &str)> = Vec::new();
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let distance = strsim::levenshtein(&wanted, &candidate.to_lowercase());
        if distance > limit {
            continue;
        }
        match best.first().map(|b| b.0) {
            Some(d) if distance > d => {}
            Some(d) if distance < d => best = vec![(distance, candidate)],
            _ => {
                if !best.iter().any(|b| b.1 == candidate) {
                    best.push((distance, candidate));
                }
            }
        }
    }
    best.sort_by(|a, b| a.1.cmp(b.1));
    let names: Vec<String> = best.iter().take(3).map(|(_, n)| quote(n)).collect();
    (!names.is_empty()).then(|| format!("did you mean {}?", names.join(" or ")))
}

/// The unknown name and the expected ones of serde's `unknown field `x`, expected one of `a`,
/// `b`` (or `expected `a` or `b``, `expected `a``; `variant` for keywords), or of the PMU data
/// reader's `unknown key `x`: ... defines a, b`.
fn unknown_and_expected(message: &str) -> Option<(String, Vec<String>)> {
    // Arm's PMU data: `unknown key `x`: the PMU data schema defines a, b, c`.
    if let Some(rest) = message.strip_prefix("unknown key `") {
        let (name, rest) = rest.split_once('`')?;
        let listed = rest.split_once("defines ")?.1;
        let expected = listed.split(", ").map(str::to_string).collect();
        return Some((name.to_string(), expected));
    }
    let rest = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))?;
    let (name, rest) = rest.split_once('`')?;
    let expected_text = rest.split_once("expected")?.1;
    let expected: Vec<String> = expected_text
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    (!expected.is_empty()).then(|| (name.to_string(), expected))
}

/// A name as a diagnostic shows it: `` `name` ``.
pub fn backticked(name: &str) -> String {
    format!("`{name}`")
}

/// An XML element's name as a diagnostic shows it: `` `<name>` ``.
pub fn element(name: &str) -> String {
    format!("`<{name}>`")
}

fn clamp(span: (usize, usize), len: usize) -> (usize, usize) {
    let start = span.0.min(len);
    (start, span.1.clamp(start, len))
}

/// The one-line form: `file:line:col: error[rule]: message`.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}: {level}[{}]: {}", self.pos, self.rule, self.message)?;
        for (pos, note) in &self.notes {
            write!(f, "\n  note: {pos}: {note}")?;
        }
        for help in self.help() {
            write!(f, "\n  help: {help}")?;
        }
        write!(
            f,
            "\n  help: {} explain {}",
            crate::backend::GENERATOR,
            self.rule.name
        )
    }
}

/// The text of every input file, by the name used in positions, and the path of every file and
/// folder a run read (what a build script must watch).
#[derive(Default, Debug)]
pub struct Sources {
    /// Each file's text, and its line starts once found.
    texts: BTreeMap<String, (String, std::sync::OnceLock<Vec<usize>>)>,
    /// Every file and folder read.
    read: std::collections::BTreeSet<std::path::PathBuf>,
    /// Line starts a frontend already found, for a file whose text is not inserted yet (the
    /// pipeline inserts it after the parse that borrowed it).
    found_line_starts: BTreeMap<String, Vec<usize>>,
}

impl Sources {
    /// Records that the file or folder at `path` was read.
    pub fn note_read(&mut self, path: &std::path::Path) {
        self.read.insert(path.to_path_buf());
    }

    /// Every file and folder recorded by [`Sources::note_read`], in path order.
    pub fn files_read(&self) -> impl Iterator<Item = &std::path::Path> {
        self.read.iter().map(std::path::PathBuf::as_path)
    }

    pub fn insert(&mut self, file: &str, text: String) {
        let starts = match self.found_line_starts.remove(file) {
            Some(starts) => std::sync::OnceLock::from(starts),
            None => std::sync::OnceLock::new(),
        };
        self.texts.insert(file.to_string(), (text, starts));
    }

    /// Keeps the line starts a frontend found in `file` (a [`LineIndex`]'s), for when its text
    /// is inserted: not found again, nor allocated again when a diagnostic is rendered.
    pub fn keep_line_starts(&mut self, file: &str, lines: LineIndex<'_>) {
        self.found_line_starts
            .insert(file.to_string(), lines.line_starts);
    }

    pub fn get(&self, file: &str) -> Option<&String> {
        self.texts.get(file).map(|(text, _)| text)
    }

    /// The byte offset of every line start of `file` (computed once, when first asked for).
    fn line_starts(&self, file: &str) -> &[usize] {
        self.texts.get(file).map_or(&[], |(text, starts)| {
            starts.get_or_init(|| line_starts(text))
        })
    }
}

/// The byte offset of each line of `text`. Counted first, so the vector is allocated once
/// (a vector search: a pass over 2 MB is a tenth of a millisecond).
fn line_starts(text: &str) -> Vec<usize> {
    let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    let mut starts = Vec::with_capacity(lines + 1);
    starts.push(0);
    starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
    starts
}

/// Maps byte offsets of one file to 1-based line and column (in characters).
pub struct LineIndex<'a> {
    file: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(file: &'a str, text: &'a str) -> Self {
        let line_starts = line_starts(text);
        Self {
            file,
            text,
            line_starts,
        }
    }

    /// The position of the byte range `start..end`.
    pub fn pos(&self, start: usize, end: usize) -> Pos {
        let start = start.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= start);
        let line_start = self.line_starts[line - 1];
        let col = self
            .text
            .get(line_start..start)
            .map_or(start - line_start, |s| s.chars().count())
            + 1;
        Pos {
            file: self.file.to_string(),
            line: line as u32,
            col: col as u32,
            span: (start, end.max(start)),
        }
    }
}
