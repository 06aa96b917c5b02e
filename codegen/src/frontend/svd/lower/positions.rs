//! Where an XML element is, as diagnostics and IR elements give it.
use super::Lower;
use crate::ir::Pos;

impl Lower<'_, '_> {
    pub(super) fn pos(&self, span: (usize, usize)) -> Pos {
        self.lines.pos(span.0, span.1)
    }

    /// The position of an element's `<name>` text, or of its tag.
    pub(super) fn name_pos(&self, node: usize) -> Pos {
        match self.doc.child(node, "name") {
            Some(name) => self.pos(self.doc.text_span(name)),
            None => self.pos(self.doc.elements[node].name),
        }
    }

    /// The position of a child element's text, or of `node`'s name.
    pub(super) fn child_pos(&self, node: usize, child: &str) -> Pos {
        match self.doc.child(node, child) {
            Some(element) => self.pos(self.doc.text_span(element)),
            None => self.name_pos(node),
        }
    }

    /// The position of an element's `derivedFrom` value, or of its name.
    pub(super) fn derived_pos(&self, node: usize) -> Pos {
        match self.doc.attr(node, "derivedFrom") {
            Some(attribute) => self.pos(attribute.value_span),
            None => self.name_pos(node),
        }
    }
}
