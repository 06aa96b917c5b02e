//! Bitfield diagrams: one SVG picture per layout (bit numbers, a box per field with its name,
//! reserved and undescribed bits shaded, access shown by colour and a legend, the reset bits
//! underneath), drawn the way register manuals draw them. A pure function of the layout: the
//! same layout always gives the same bytes, and every name is escaped (they come from vendor
//! files). The SVG is inline-ready: no ids, no external references, no script, so any number of
//! diagrams can share an HTML page (rustdoc, the register-map site).
mod segments;
mod style;
pub mod xml;

use std::fmt::Write;

use crate::backend::reset;
use crate::ir::{FieldAccess, Layout};
use segments::{Row, Segment};
use style::Kind;
use xml::{escape, num};

/// Pixels per bit.
const CELL: f64 = 22.0;
/// Margin around the drawing.
const PAD: f64 = 10.0;
/// Height of a row of boxes whose labels are all horizontal.
const BOX: f64 = 36.0;
/// Width of one character of the field-name font (11 px monospace, 0.6 em).
const CHAR: f64 = 6.6;
/// Width of one character of the small font (9 px monospace).
const SMALL_CHAR: f64 = 5.4;
/// The longest label drawn upright in a narrow box; longer ones are shortened with `…` (the
/// full name is in the box's tooltip and in the field table beside the diagram).
const UPRIGHT_MAX: usize = 12;
/// Height of a line of small text (bit numbers, reset bits, legend).
const LINE: f64 = 14.0;

/// The width in pixels the diagram of `layout` is drawn at.
pub fn width(layout: &Layout) -> f64 {
    PAD * 2.0 + f64::from(layout.width.clamp(1, segments::ROW_BITS)) * CELL
}

/// The SVG diagram of `layout`, one element per line (no blank lines, so markdown keeps it as one
/// HTML block).
pub fn svg(layout: &Layout) -> String {
    let rows = segments::rows(layout);
    let width = width(layout);
    let reset = reset::bits(layout);

    let mut body = String::new();
    let mut y = PAD;
    // Title: name, width and reset.
    let title = format!(
        "{} · {} bits · {}",
        layout.name,
        layout.width,
        reset_text(layout)
    );
    let _ = writeln!(
        body,
        r##"<text x="{}" y="{}" font-size="13" font-weight="bold" fill="#111">{}</text>"##,
        num(PAD),
        num(y + 11.0),
        escape(&title)
    );
    y += 22.0;
    for row in &rows {
        y = draw_row(&mut body, row, reset, y);
    }
    let mut kinds: Vec<Kind> = rows
        .iter()
        .flat_map(|r| r.segments.iter().map(kind_of))
        .collect();
    kinds.sort();
    kinds.dedup();
    y = draw_legend(&mut body, &kinds, width, y + 2.0);
    let height = y + PAD - 4.0;

    let label = format!("Bit fields of {}", layout.name);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="register-diagram" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}" font-family="monospace" style="max-width:100%;height:auto">"#,
        w = num(width),
        h = num(height),
        label = escape(&label)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&label));
    let _ = writeln!(
        out,
        r##"<rect width="{}" height="{}" fill="#fff"/>"##,
        num(width),
        num(height)
    );
    out.push_str(&body);
    out.push_str("</svg>");
    out
}

fn reset_text(layout: &Layout) -> String {
    let all = crate::ir::bit_range_mask(0, layout.width);
    let bits = reset::bits(layout);
    match reset::value(layout) {
        Some(v) => format!("reset {v:#x}"),
        None if bits.known & all == 0 => "reset not described".to_string(),
        None => "reset partly described (x: not described)".to_string(),
    }
}

fn kind_of(seg: &Segment<'_>) -> Kind {
    seg.field
        .map_or(Kind::Undescribed, |f| Kind::Access(f.access))
}

/// How a box's label is drawn.
enum Label {
    None,
    Across(String),
    Upright(String),
}

/// The label of a box and its orientation: across when it fits, else upright, shortened with `…`
/// to whichever way shows more of it.
fn label(seg: &Segment<'_>) -> Label {
    let text = match seg.field {
        None => return Label::None,
        Some(f) => match f.access {
            FieldAccess::Res0 => "RES0".to_string(),
            FieldAccess::Res1 => "RES1".to_string(),
            _ => f.name.clone(),
        },
    };
    let len = text.chars().count();
    let px = f64::from(seg.bits()) * CELL;
    let across = ((px - 6.0) / CHAR).floor().max(0.0) as usize;
    if len <= across {
        return Label::Across(text);
    }
    if len <= UPRIGHT_MAX {
        return Label::Upright(text);
    }
    let shorten = |n: usize| -> String {
        let mut s: String = text.chars().take(n.saturating_sub(1)).collect();
        s.push('…');
        s
    };
    if across >= UPRIGHT_MAX {
        Label::Across(shorten(across))
    } else {
        Label::Upright(shorten(UPRIGHT_MAX))
    }
}

/// The centre of a bit's cell, as text: the same 64 numbers for every diagram, formatted once.
fn centre(row: &Row<'_>, bit: u32) -> &'static str {
    static CENTRES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let centres = CENTRES.get_or_init(|| {
        (0..64)
            .map(|k| num(PAD + f64::from(k) * CELL + CELL / 2.0))
            .collect()
    });
    &centres[(row.hi - bit) as usize]
}

fn x_of(row: &Row<'_>, bit: u32) -> f64 {
    PAD + f64::from(row.hi - bit) * CELL
}

/// Draws one row (bit numbers, boxes, reset bits) from `y`; returns the `y` below it.
fn draw_row(out: &mut String, row: &Row<'_>, reset: reset::ResetBits, mut y: f64) -> f64 {
    // Bit numbers, one per bit, above the boxes.
    let mut numbers = String::with_capacity(32 * 24);
    for b in (row.lo..=row.hi).rev() {
        let _ = write!(numbers, "<tspan x=\"{}\">{b}</tspan>", centre(row, b));
    }
    let _ = writeln!(
        out,
        r##"<text y="{}" font-size="9" fill="#444" text-anchor="middle">{numbers}</text>"##,
        num(y + 10.0)
    );
    y += LINE;

    let labels: Vec<Label> = row.segments.iter().map(label).collect();
    let upright = labels
        .iter()
        .filter_map(|l| match l {
            Label::Upright(t) => Some(t.chars().count()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let height = BOX.max(upright as f64 * CHAR + 12.0);
    // The labels' size, anchor and usual colour once for the row's boxes.
    let _ = writeln!(
        out,
        r#"<g font-size="11" text-anchor="middle" fill="{}">"#,
        style::LABEL
    );
    for (seg, label) in row.segments.iter().zip(&labels) {
        draw_box(out, row, seg, label, y, height);
    }
    out.push_str("</g>\n");
    y += height;

    // The reset bits under the boxes, when the description gives any.
    let known = (row.lo..=row.hi).any(|b| reset.bit(b).is_some());
    if known {
        // One character per bit, so one text with a position per character: each positioned
        // character is a text chunk of its own, anchored at its own centre.
        let mut xs = String::with_capacity(32 * 4);
        let mut bits = String::with_capacity(32);
        for b in (row.lo..=row.hi).rev() {
            bits.push(match reset.bit(b) {
                Some(true) => '1',
                Some(false) => '0',
                None => 'x',
            });
            if !xs.is_empty() {
                xs.push(' ');
            }
            xs.push_str(centre(row, b));
        }
        let _ = writeln!(
            out,
            r##"<text x="{xs}" y="{}" font-size="9" fill="#1f5fbf" text-anchor="middle">{bits}</text>"##,
            num(y + 10.0)
        );
        y += LINE;
    }
    y + 8.0
}

fn draw_box(out: &mut String, row: &Row<'_>, seg: &Segment<'_>, label: &Label, y: f64, h: f64) {
    let kind = kind_of(seg);
    let x = x_of(row, seg.hi);
    let w = f64::from(seg.bits()) * CELL;
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let dash = if kind.dashed() {
        r#" stroke-dasharray="3 2""#
    } else {
        ""
    };
    let mut g = format!(
        r##"<g><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#333"{dash}/>"##,
        escape(&tooltip(seg)),
        num(x),
        num(y),
        num(w),
        num(h),
        kind.fill(),
    );
    // The row's group gives the usual colour; other colours are spelled out.
    let color = match kind.text() {
        style::LABEL => String::new(),
        other => format!(r#" fill="{other}""#),
    };
    match label {
        Label::None => {}
        Label::Across(text) => {
            // The access under the name, where the box has room for it.
            let short = kind.short();
            let named = seg.field.is_some_and(|f| !f.is_reserved());
            let with_access = named && (short.len() as f64) * SMALL_CHAR + 6.0 <= w;
            let name_y = if with_access { cy - 6.0 } else { cy };
            let _ = write!(
                g,
                r#"<text x="{}" y="{}"{color} dominant-baseline="central">{}</text>"#,
                num(cx),
                num(name_y),
                escape(text)
            );
            if with_access {
                let _ = write!(
                    g,
                    r#"<text x="{}" y="{}" font-size="9"{color} dominant-baseline="central">{}</text>"#,
                    num(cx),
                    num(cy + 8.0),
                    escape(short)
                );
            }
        }
        Label::Upright(text) => {
            let _ = write!(
                g,
                r#"<text x="{x}" y="{y}" transform="rotate(-90 {x} {y})"{color} dominant-baseline="central">{}</text>"#,
                escape(text),
                x = num(cx),
                y = num(cy),
            );
        }
    }
    g.push_str("</g>");
    let _ = writeln!(out, "{g}");
}

/// The box's tooltip: everything about the field in one line.
fn tooltip(seg: &Segment<'_>) -> String {
    let bits = |hi: u32, lo: u32| {
        if hi == lo {
            format!("[{hi}]")
        } else {
            format!("[{hi}:{lo}]")
        }
    };
    match seg.field {
        None => format!("{} not described", bits(seg.hi, seg.lo)),
        Some(f) => {
            let mut t = format!(
                "{} {} {}",
                f.name,
                bits(f.msb(), f.lsb),
                style::Kind::Access(f.access).meaning()
            );
            if let Some(r) = f.reset {
                let _ = write!(t, ", reset {r:#x}");
            }
            if let Some(doc) = f.doc.as_deref().and_then(|d| d.lines().next()) {
                let _ = write!(t, ": {}", doc.trim());
            }
            t
        }
    }
}

/// Draws the legend (one swatch per kind of box present) from `y`; returns the `y` below it.
fn draw_legend(out: &mut String, kinds: &[Kind], width: f64, y: f64) -> f64 {
    let mut x = PAD;
    let mut line_y = y;
    let mut items = String::new();
    for kind in kinds {
        let text = match kind {
            Kind::Undescribed => kind.meaning().to_string(),
            _ => format!("{}: {}", kind.short(), kind.meaning()),
        };
        let item_w = 12.0 + 5.0 + text.chars().count() as f64 * SMALL_CHAR + 14.0;
        if x > PAD && x + item_w > width - PAD {
            x = PAD;
            line_y += LINE + 2.0;
        }
        let dash = if kind.dashed() {
            r#" stroke-dasharray="3 2""#
        } else {
            ""
        };
        let _ = writeln!(
            items,
            r##"<rect x="{}" y="{}" width="12" height="12" fill="{}" stroke="#333"{dash}/><text x="{}" y="{}" font-size="9" fill="#333" dominant-baseline="central">{}</text>"##,
            num(x),
            num(line_y),
            kind.fill(),
            num(x + 17.0),
            num(line_y + 6.0),
            escape(&text)
        );
        x += item_w;
    }
    out.push_str(&items);
    line_y + LINE + 2.0
}

#[cfg(test)]
mod tests;
