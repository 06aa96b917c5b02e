//! The register-map site: static HTML for every device of the manifest. An index of devices and
//! blocks with a search box, a page per device with its system registers, the address map of
//! each block (offsets, and absolute addresses per instance), its layouts and events, and a page
//! per layout with its diagram, every access path with its encoding or address, and a field table
//! with enumerated values; the source of each fact sits beside it.
//!
//! Pages come from minijinja templates (HTML-escaped), with the style, the search script and its
//! JSON index inline: the site is a folder of files that works from `file://`, loads nothing from
//! anywhere else, and is the same bytes for the same descriptions.
mod pages;
mod paths;
mod search;
mod text;

use minijinja::{context, AutoEscape, Environment};

use crate::backend::diagram::xml::escape;

use crate::backend::File;

pub use pages::Source;

/// The marker every page carries, by which `codegen doc` recognises a folder it may replace.
pub const GENERATOR: &str = r#"<meta name="generator" content="codegen register-site">"#;

const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("index.html", include_str!("templates/index.html")),
    ("device.html", include_str!("templates/device.html")),
    ("register.html", include_str!("templates/register.html")),
];
const STYLE: &str = include_str!("templates/style.css");
const SCRIPT: &str = include_str!("templates/search.js");

/// Every file of the site for `sources`, paths relative to the site's folder.
pub fn generate(sources: &[Source<'_>]) -> Result<Vec<File>, String> {
    let mut env = Environment::new();
    env.set_keep_trailing_newline(true);
    // minijinja's HTML escaping also escapes `/`, which makes every link `..&#x2f;index.html`;
    // escaping what can end an attribute or start markup is enough.
    env.set_formatter(|out, state, value| {
        if value.is_undefined() || value.is_none() {
            Ok(())
        } else if state.auto_escape() == AutoEscape::Html && !value.is_safe() {
            out.write_str(&escape(&value.to_string())).map_err(|e| {
                minijinja::Error::new(minijinja::ErrorKind::WriteFailure, e.to_string())
            })
        } else {
            minijinja::escape_formatter(out, state, value)
        }
    });
    for (name, text) in TEMPLATES {
        env.add_template(name, text).map_err(|e| e.to_string())?;
    }
    let render = |template: &str, path: String, ctx: minijinja::Value| -> Result<File, String> {
        let content = env
            .get_template(template)
            .and_then(|t| t.render(ctx))
            .map_err(|e| format!("site page {path}: {e:#}"))?;
        Ok(File { path, content })
    };

    let index = search::json(&search::entries(sources))?;
    let mut files = vec![render(
        "index.html",
        "index.html".to_string(),
        context! {
            root => "",
            style => STYLE,
            script => SCRIPT,
            index => index,
            devices => sources.iter().map(pages::summary).collect::<Vec<_>>(),
        },
    )?];
    for s in sources {
        files.push(render(
            "device.html",
            pages::device_url(s.crate_name),
            context! { root => "../", style => STYLE, d => pages::device(s) },
        )?);
        for l in &s.device.layouts {
            files.push(render(
                "register.html",
                pages::layout_url(s.crate_name, &l.name),
                context! { root => "../../", style => STYLE, r => pages::register(s, l) },
            )?);
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}
