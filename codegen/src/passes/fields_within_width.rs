//! Every field lies inside its layout's width.
use crate::diagnostic::Diagnostic;
use crate::ir::Device;

pub const NAME: &str = "fields_within_width";

pub fn run(device: &Device) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for layout in &device.layouts {
        for field in &layout.fields {
            if field.msb() >= layout.width {
                let inherited = layout.derive.is_some() && field.pos.span < layout.pos.span;
                let (pos, extra) = if inherited {
                    (
                        &layout.pos,
                        format!(" (inherited from `{}`; `remove` it)", base_name(layout)),
                    )
                } else {
                    (&field.pos, String::new())
                };
                out.push(Diagnostic::error(
                    NAME,
                    pos,
                    format!(
                        "field `{}` (bits {}:{}) lies outside the {}-bit layout `{}`{extra}",
                        field.name,
                        field.msb(),
                        field.lsb,
                        layout.width,
                        layout.name
                    ),
                ));
            }
        }
    }
    out
}

fn base_name(layout: &crate::ir::Layout) -> &str {
    layout.derive.as_ref().map_or("", |d| d.base.name.as_str())
}
