//! The book in `docs/` and the README: every relative link reaches a file, and every `#anchor` a
//! heading of its page; the book builds with mdBook with no error or warning, every chapter of
//! `SUMMARY.md` is rendered, and every `{{#include file:anchor}}` finds its file and its anchor
//! (mdBook itself only logs a missing file, and includes nothing for a missing anchor).
//!
//! Links are read with pulldown-cmark, as Markdown, after the includes are expanded, so that a
//! link of an included file is checked where the book shows it. A link in the book must stay in
//! `docs/src/` (the built book has nothing else); a link in the README may reach any file of the
//! repository. Anchors are the ids mdBook (and GitHub) give headings: the heading's text in lower
//! case, spaces as `-`, punctuation but `-` and `_` dropped, `-1`, `-2`... after a repeated one.
//!
//! The Rust blocks of the book are built by `doc_snippets.rs`, as the README's are.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use integration_tests::root;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The mdBook version `tests/docs/install-mdbook.sh` installs.
const MDBOOK_VERSION: &str = "0.4.52";
const INSTALL: &str = "bash tests/docs/install-mdbook.sh";

fn src() -> PathBuf {
    root().join("docs/src")
}

/// The Markdown files of the book's source.
fn chapters() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(src())
        .expect("docs/src exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files
}

/// `{{#include path}}` or `{{#include path:anchor}}`: the path (relative to the chapter) and the
/// anchor.
fn includes(text: &str) -> Vec<(String, String, Option<String>)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{#include ") {
        let after = &rest[start + "{{#include ".len()..];
        let end = after.find("}}").expect("an include closes with }}");
        let target = after[..end].trim();
        let (path, anchor) = match target.split_once(':') {
            Some((p, a)) => (p.to_string(), Some(a.to_string())),
            None => (target.to_string(), None),
        };
        found.push((
            rest[start..start + "{{#include ".len() + end + 2].to_string(),
            path,
            anchor,
        ));
        rest = &after[end + 2..];
    }
    found
}

/// The lines of `text` between `ANCHOR: name` and `ANCHOR_END: name`, without anchor lines, as
/// mdBook includes them.
fn anchored(text: &str, anchor: &str) -> Option<String> {
    let begin = format!("ANCHOR: {anchor}");
    let end = format!("ANCHOR_END: {anchor}");
    let mut inside = false;
    let mut out = String::new();
    let mut closed = false;
    for line in text.lines() {
        if line.contains(&end) {
            closed = inside;
            break;
        }
        if line.contains(&begin) {
            inside = true;
            continue;
        }
        if inside && !line.contains("ANCHOR: ") && !line.contains("ANCHOR_END: ") {
            out.push_str(line);
            out.push('\n');
        }
    }
    closed.then_some(out)
}

/// A chapter's text with its includes expanded; a missing file or anchor is an error.
fn expanded(chapter: &Path, errors: &mut Vec<String>) -> String {
    let mut text = std::fs::read_to_string(chapter).unwrap();
    for (directive, path, anchor) in includes(&text.clone()) {
        let file = chapter.parent().unwrap().join(&path);
        let Ok(included) = std::fs::read_to_string(&file) else {
            errors.push(format!(
                "{}: {directive}: no file {}",
                shown(chapter),
                file.display()
            ));
            continue;
        };
        let part = match &anchor {
            None => Some(included),
            Some(anchor) => anchored(&included, anchor),
        };
        let Some(part) = part else {
            errors.push(format!(
                "{}: {directive}: {path} has no `ANCHOR: {}` closed by `ANCHOR_END: {0}`",
                shown(chapter),
                anchor.unwrap_or_default()
            ));
            continue;
        };
        text = text.replacen(&directive, &part, 1);
    }
    text
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The id mdBook gives a heading of this text.
fn heading_id(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A page's links (with their line) and its headings' ids.
struct Page {
    links: Vec<(usize, String)>,
    ids: BTreeSet<String>,
}

fn read_page(text: &str) -> Page {
    let mut links = Vec::new();
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let _: HeadingLevel = level;
                heading = Some(String::new());
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = heading_id(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_default();
                ids.insert(if *n == 0 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                });
                *n += 1;
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = &mut heading {
                    h.push_str(&t);
                }
            }
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => {
                links.push((line_of(range.start), dest_url.to_string()));
            }
            _ => {}
        }
    }
    Page { links, ids }
}

fn is_external(link: &str) -> bool {
    link.contains("://") || link.starts_with("mailto:")
}

/// Checks the links of `pages` (path -> text); `allowed` is the folder links must stay in.
fn check_links(pages: &BTreeMap<PathBuf, String>, allowed: &Path, errors: &mut Vec<String>) {
    let mut ids: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in pages {
        ids.insert(path.clone(), read_page(text).ids);
    }
    for (path, text) in pages {
        for (line, link) in read_page(text).links {
            if is_external(&link) {
                continue;
            }
            // A chapter with includes is read expanded: its line numbers are the expanded text's.
            let expanded = std::fs::read_to_string(path).is_ok_and(|raw| &raw != text);
            let at = format!(
                "{}{}:{line}: link `{link}`",
                shown(path),
                if expanded { " (includes expanded)" } else { "" }
            );
            let (file, anchor) = match link.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                path.clone()
            } else {
                normalize(&path.parent().unwrap().join(file))
            };
            if !target.starts_with(allowed) {
                errors.push(format!(
                    "{at}: leaves {} (write the path as code, or link inside it)",
                    shown(allowed)
                ));
                continue;
            }
            if !target.exists() {
                errors.push(format!("{at}: no file {}", shown(&target)));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if target.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let target_ids = match ids.get(&target) {
                Some(ids) => ids.clone(),
                None => read_page(&std::fs::read_to_string(&target).unwrap()).ids,
            };
            if !target_ids.contains(anchor) {
                errors.push(format!(
                    "{at}: {} has no heading with the id `{anchor}`",
                    shown(&target)
                ));
            }
        }
    }
}

/// `path` with its `.` and `..` parts resolved (without touching the file system).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn every_link_of_the_book_and_the_readme_reaches_its_target() {
    let mut errors = Vec::new();
    let mut pages = BTreeMap::new();
    for chapter in chapters() {
        let text = expanded(&chapter, &mut errors);
        pages.insert(chapter, text);
    }
    check_links(&pages, &src(), &mut errors);
    let readme = root().join("README.md");
    let mut readme_page = BTreeMap::new();
    readme_page.insert(readme.clone(), std::fs::read_to_string(&readme).unwrap());
    check_links(&readme_page, &root(), &mut errors);
    assert!(
        errors.is_empty(),
        "{} broken links or includes:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn every_chapter_is_in_the_summary() {
    let summary = std::fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = read_page(&summary)
        .links
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    let missing: Vec<String> = chapters()
        .iter()
        .map(|c| c.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "SUMMARY.md" && !listed.contains(name))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/src has chapters SUMMARY.md does not list, which the book would leave out: {missing:?}"
    );
}

/// The mdbook executable: on `PATH`, or in cargo's bin folder, where the install script puts it.
fn mdbook() -> PathBuf {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let candidates = [
        Some(PathBuf::from("mdbook")),
        cargo_home.map(|c| c.join("bin/mdbook")),
    ];
    for candidate in candidates.into_iter().flatten() {
        if let Ok(out) = Command::new(&candidate).arg("--version").output() {
            let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if version == format!("mdbook v{MDBOOK_VERSION}") {
                return candidate;
            }
        }
    }
    panic!("mdbook {MDBOOK_VERSION} is not installed: run `{INSTALL}`");
}

#[test]
fn the_install_script_pins_the_version_this_test_expects() {
    let script = std::fs::read_to_string(root().join("tests/docs/install-mdbook.sh")).unwrap();
    assert!(
        script.contains(&format!("version={MDBOOK_VERSION}\n")),
        "tests/docs/install-mdbook.sh does not install mdbook {MDBOOK_VERSION}"
    );
}

#[test]
fn the_book_builds_without_errors_and_renders_every_chapter() {
    let mdbook = mdbook();
    let out_dir = integration_tests::target_subdir("book-test");
    let _ = std::fs::remove_dir_all(&out_dir);
    let run = Command::new(&mdbook)
        .current_dir(root())
        .args(["build", "docs", "--dest-dir"])
        .arg(&out_dir)
        .output()
        .expect("mdbook runs");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "mdbook build docs failed:\n{log}");
    let complaints: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("[ERROR]") || l.contains("[WARN]"))
        .collect();
    assert!(
        complaints.is_empty(),
        "mdbook build docs reported:\n{}",
        complaints.join("\n")
    );
    let summary = std::fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    let mut rendered = 0;
    for (_, link) in read_page(&summary).links {
        let page = out_dir.join(Path::new(&link).with_extension("html"));
        let html = std::fs::read_to_string(&page)
            .unwrap_or_else(|e| panic!("{}: {e} (the chapter {link})", page.display()));
        assert!(
            !html.contains("{{#"),
            "{}: an mdBook directive was not expanded",
            page.display()
        );
        rendered += 1;
    }
    assert!(rendered >= 10, "only {rendered} chapters in SUMMARY.md");
}
