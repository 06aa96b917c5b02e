//! Errors and warnings, each reported once per XML element and rule: an element reached again
//! (a derived register, an expanded array) would otherwise report its defect each time.
use super::Lower;
use crate::diagnostic::Diagnostic;
use crate::ir::Pos;
use crate::rules::Rule;

impl Lower<'_, '_> {
    pub(super) fn error_once(
        &mut self,
        node: usize,
        rule: &'static Rule,
        pos: Pos,
        message: String,
    ) {
        if self.reported.insert((node, rule.name)) {
            self.errors.push(Diagnostic::error(rule, &pos, message));
        }
    }

    pub(super) fn warn_once(
        &mut self,
        node: usize,
        rule: &'static Rule,
        pos: Pos,
        message: String,
    ) {
        if self.reported.insert((node, rule.name)) {
            self.warnings.push(Diagnostic::warning(rule, &pos, message));
        }
    }
}
