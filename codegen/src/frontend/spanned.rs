//! Reading a TOML file whose values keep their spans (the native format, patch files): each
//! value's position, and the checks both make of the values they share (bit ranges, field and
//! register accesses, bounded integers), each error under the reader's rule.
use toml::Spanned as S;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::ir::{FieldAccess, Pos, RegAccess};
use crate::rules::Rule;

/// Positions and the errors found so far. The formats add their own methods in their modules.
pub struct Reader<'a> {
    pub lines: &'a LineIndex<'a>,
    pub errors: Vec<Diagnostic>,
    /// The rule an error breaks (`description_syntax`, `patch_syntax`).
    pub rule: &'static Rule,
}

impl<'a> Reader<'a> {
    pub fn new(lines: &'a LineIndex<'a>, rule: &'static Rule) -> Self {
        Reader {
            lines,
            errors: Vec::new(),
            rule,
        }
    }

    pub fn pos<T>(&self, spanned: &S<T>) -> Pos {
        let span = spanned.span();
        self.lines.pos(span.start, span.end)
    }

    pub fn error<T>(&mut self, at: &S<T>, message: String) {
        let pos = self.pos(at);
        self.errors
            .push(Diagnostic::error(self.rule, &pos, message));
    }

    /// A non-negative integer no larger than `max`.
    pub fn unsigned(&mut self, spanned: &S<i64>, what: &str, max: u64) -> Option<u64> {
        let value = *spanned.get_ref();
        match u64::try_from(value) {
            Ok(unsigned) if unsigned <= max => Some(unsigned),
            _ => {
                self.error(
                    spanned,
                    format!("{what} must be between 0 and {max}, got {value}"),
                );
                None
            }
        }
    }

    /// `msb:lsb` or one bit number, each below `limit`: (msb, lsb).
    pub fn bits(&mut self, raw: &S<String>, limit: u32) -> Option<(u32, u32)> {
        let text = raw.get_ref().trim();
        let parse = |text: &str| text.trim().parse::<u32>().ok().filter(|&bit| bit < limit);
        let parsed = match text.split_once(':') {
            Some((msb, lsb)) => parse(msb).zip(parse(lsb)),
            None => parse(text).map(|bit| (bit, bit)),
        };
        match parsed {
            Some((msb, lsb)) if msb >= lsb => Some((msb, lsb)),
            Some(_) => {
                self.error(
                    raw,
                    format!("bits `{text}`: write the most significant bit first (msb:lsb)"),
                );
                None
            }
            None => {
                self.error(
                    raw,
                    format!("bits `{text}` is not `msb:lsb` or a single bit number below {limit}"),
                );
                None
            }
        }
    }

    pub fn field_access(&mut self, raw: &S<String>) -> Option<FieldAccess> {
        FieldAccess::parse(raw.get_ref())
            .map_err(|message| self.error(raw, message))
            .ok()
    }

    /// A register's access (`rw` when `access` is absent) and the shared `state` a `set` or
    /// `clear` view needs; errors point at `access`, or at `name` without one.
    pub fn reg_access(
        &mut self,
        access: Option<&S<String>>,
        state: &Option<S<String>>,
        name: &S<String>,
    ) -> Option<RegAccess> {
        let text = access.map_or("rw", |a| a.get_ref().as_str());
        let needs_state = matches!(text, "set" | "clear");
        match (needs_state, state) {
            (true, None) => {
                self.error(
                    access.unwrap_or(name),
                    format!("access `{text}` needs `state`, the name of the shared state"),
                );
                return None;
            }
            (false, Some(state)) => {
                self.error(
                    state,
                    "`state` only applies to access `set` or `clear`".to_string(),
                );
                return None;
            }
            _ => {}
        }
        let state = state.as_ref().map(|state| state.get_ref().clone());
        Some(match text {
            "rw" => RegAccess::Rw,
            "ro" => RegAccess::Ro,
            "wo" => RegAccess::Wo,
            "set" => RegAccess::Set { state: state? },
            "clear" => RegAccess::Clear { state: state? },
            other => {
                self.error(
                    access.unwrap_or(name),
                    format!("unknown register access `{other}`; expected rw, ro, wo, set or clear"),
                );
                return None;
            }
        })
    }
}
