//! The search index: every register, layout, field, block, instance and event of every device,
//! with the Rust names of layouts and fields, as a JSON array embedded in the index page and
//! searched there by a small inline script.
use serde::Serialize;

use super::pages::{device_url, layout_url, Source};
use super::paths::{self, kind};
use super::text::{bits, hex, slug};
use crate::backend::rust::rust_paths;

/// One thing to find: `[name, kind, device, detail, url]` (an array keeps the page small).
#[derive(Serialize)]
pub struct Entry(String, &'static str, String, String, String);

pub fn entries(sources: &[Source<'_>]) -> Vec<Entry> {
    let mut out = Vec::new();
    for s in sources {
        let d = s.device;
        let krate = s.crate_name.to_string();
        for l in &d.layouts {
            let url = layout_url(s.crate_name, &l.name);
            out.push(Entry(
                l.name.clone(),
                "layout",
                krate.clone(),
                // The Rust name too, so that a search for it finds the layout.
                format!("{} bits · {}", l.width, rust_paths::layout(l)),
                url.clone(),
            ));
            for f in l.fields.iter().filter(|f| !f.is_reserved()) {
                out.push(Entry(
                    f.name.clone(),
                    "field",
                    krate.clone(),
                    format!(
                        "{}{} · {}",
                        l.name,
                        bits(f.msb(), f.lsb),
                        rust_paths::field(l, f).unwrap_or_default()
                    ),
                    format!("{url}#field-{}", slug(&f.name)),
                ));
            }
        }
        for r in &d.sysregs {
            out.push(Entry(
                r.name.clone(),
                kind(r.path),
                krate.clone(),
                r.path.to_string(),
                layout_url(s.crate_name, &r.layout.name),
            ));
        }
        for b in &d.blocks {
            out.push(Entry(
                b.name.clone(),
                "block",
                krate.clone(),
                format!("{} bytes", hex(b.size)),
                format!("{}#block-{}", device_url(s.crate_name), slug(&b.name)),
            ));
            for r in &b.registers {
                out.push(Entry(
                    r.name.clone(),
                    "MMIO register",
                    krate.clone(),
                    format!("{} + {}", b.name, paths::place(r, 0)),
                    layout_url(s.crate_name, &r.layout.name),
                ));
            }
        }
        for i in &d.instances {
            out.push(Entry(
                i.name.clone(),
                "instance",
                krate.clone(),
                format!("{} at {}", i.block.name, hex(i.base)),
                format!("{}#block-{}", device_url(s.crate_name), slug(&i.block.name)),
            ));
        }
        for e in &d.events {
            out.push(Entry(
                e.name.clone(),
                "event",
                krate.clone(),
                format!("{:#06x}", e.code),
                format!("{}#event-{}", device_url(s.crate_name), slug(&e.name)),
            ));
        }
    }
    out
}

/// The index as JSON that can sit inside a `<script>` element: `<` is escaped so that no text in
/// it can close the element.
pub fn json(entries: &[Entry]) -> Result<String, String> {
    serde_json::to_string(entries)
        .map(|j| j.replace('<', "\\u003c"))
        .map_err(|e| e.to_string())
}
