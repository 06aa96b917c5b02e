//! What a layout's reset is, bit by bit: shared by the Rust layouts (`RESET`), the diagrams
//! (a row of reset bits) and the C headers (`_RESET`), so that no two outputs disagree on it.
use crate::ir::{bit_range_mask, FieldAccess, Layout};

/// A layout's reset: the value of the bits that are known, and which bits those are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResetBits {
    pub value: u64,
    pub known: u64,
}

impl ResetBits {
    /// Whether bit `bit` has a known reset, and its value.
    pub fn bit(self, bit: u32) -> Option<bool> {
        (bit < 64 && self.known >> bit & 1 == 1).then(|| self.value >> bit & 1 == 1)
    }
}

/// The bits of the layout's reset that the description gives: the whole-register value (within
/// its reset mask), else the resets of the fields that have one, with the reserved bits at their
/// reserved values once any field gives a reset.
pub fn bits(layout: &Layout) -> ResetBits {
    let all = bit_range_mask(0, layout.width);
    if let Some(value) = layout.reset {
        let known = layout.reset_mask.unwrap_or(all) & all;
        return ResetBits {
            value: value & known,
            known,
        };
    }
    let mut value = 0;
    let mut known = 0;
    for f in layout.fields.iter().filter(|f| !f.is_reserved()) {
        if let Some(r) = f.reset {
            value |= (r << f.lsb) & f.mask();
            known |= f.mask();
        }
    }
    if known != 0 {
        let res1 = reserved(layout, FieldAccess::Res1);
        let res0 = reserved(layout, FieldAccess::Res0);
        value |= res1;
        known |= res0 | res1;
    }
    ResetBits {
        value: value & all,
        known: known & all,
    }
}

/// The reset of `field` of `layout`: its own, else its bits of the layout's (whole-register)
/// reset, when every one of them is known.
pub fn field(layout: &Layout, field: &crate::ir::Field) -> Option<u64> {
    field.reset.or_else(|| {
        let known = bits(layout);
        (known.known & field.mask() == field.mask())
            .then(|| (known.value & field.mask()) >> field.lsb)
    })
}

/// The layout's whole reset value, when every bit of it is defined: given whole (with no bit left
/// out by a reset mask), or assembled when every named field has one.
pub fn value(layout: &Layout) -> Option<u64> {
    let all = bit_range_mask(0, layout.width);
    if layout.reset_mask.is_some_and(|m| m & all != all) {
        return None;
    }
    if layout.reset.is_some() {
        return layout.reset;
    }
    let named = layout.fields.iter().filter(|f| !f.is_reserved());
    if named.clone().next().is_none() || named.clone().any(|f| f.reset.is_none()) {
        return None;
    }
    Some(bits(layout).value)
}

/// The mask of the fields with access `access`.
pub fn reserved(layout: &Layout, access: FieldAccess) -> u64 {
    layout
        .fields
        .iter()
        .filter(|f| f.access == access)
        .fold(0, |m, f| m | f.mask())
}
