//! A layout cut into the boxes a diagram draws: rows of at most 32 bits (a 64-bit register wraps
//! into bits 63..32 above 31..0), each row a run of boxes, one per field or undescribed gap.
use crate::ir::{Field, Layout};

/// Bits per row: a 64-bit register wraps into two rows, as the Arm ARM draws it.
pub const ROW_BITS: u32 = 32;

/// One box of a row: bits `hi` down to `lo` of one field, or of no field (`None`).
#[derive(Clone, Copy, Debug)]
pub struct Segment<'a> {
    pub hi: u32,
    pub lo: u32,
    pub field: Option<&'a Field>,
}

impl Segment<'_> {
    pub fn bits(&self) -> u32 {
        self.hi - self.lo + 1
    }
}

/// A row: its highest and lowest bit and its boxes, most significant first.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    pub hi: u32,
    pub lo: u32,
    pub segments: Vec<Segment<'a>>,
}

/// The rows of `layout`, top row (most significant bits) first.
pub fn rows(layout: &Layout) -> Vec<Row<'_>> {
    let width = layout.width.clamp(1, 64);
    let mut out = Vec::new();
    let mut hi = width - 1;
    loop {
        let lo = (hi + 1).saturating_sub(ROW_BITS);
        out.push(Row {
            hi,
            lo,
            segments: segments(layout, hi, lo),
        });
        if lo == 0 {
            return out;
        }
        hi = lo - 1;
    }
}

/// The field drawn at `bit`: the first (by position) that covers it. Overlapping fields survive
/// lenient mode with a warning; the diagram shows one of them and the field table all.
fn field_at(layout: &Layout, bit: u32) -> Option<&Field> {
    layout
        .fields
        .iter()
        .find(|f| f.width > 0 && f.lsb <= bit && bit <= f.msb())
}

fn segments(layout: &Layout, hi: u32, lo: u32) -> Vec<Segment<'_>> {
    let mut out: Vec<Segment<'_>> = Vec::new();
    for bit in (lo..=hi).rev() {
        let field = field_at(layout, bit);
        match out.last_mut() {
            Some(last) if same(last.field, field) => last.lo = bit,
            _ => out.push(Segment {
                hi: bit,
                lo: bit,
                field,
            }),
        }
    }
    out
}

fn same(a: Option<&Field>, b: Option<&Field>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::eq(a, b),
        (None, None) => true,
        _ => false,
    }
}
