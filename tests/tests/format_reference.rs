//! `descriptions/FORMAT.md` documents exactly the keys the native frontend reads.
//!
//! - The keys the frontend accepts are read from its source, `codegen/src/frontend/native.rs`:
//!   the serde structs from `RawFile` down, each field a key (`#[serde(rename)]` honoured), a
//!   field whose type is another of those structs a table of keys. Every struct must deny unknown
//!   fields, or the frontend would accept keys no list can give.
//! - The keys FORMAT.md documents are those of its ```` ```toml ```` examples before "Patch
//!   files" (the patch format is another file format), read with the `toml` crate.
//!
//! A key the frontend accepts that no example shows fails the test, and so does a key an example
//! shows that the frontend has no field for. Each example with a `[device]` is also given to the
//! generator (`dump-ir`), which must not report `toml_syntax` on it: the keys are read where the
//! document puts them.
use std::collections::{BTreeMap, BTreeSet};

use integration_tests::{codegen_binary, root};

const FRONTEND: &str = "codegen/src/frontend/native.rs";
const REFERENCE: &str = "descriptions/FORMAT.md";
/// Where the reference's native format ends and the patch files' begins.
const PATCHES_HEADING: &str = "\n## Patch files\n";

/// A key path: `layout.fields.enum.name` (arrays of tables add no level).
type Keys = BTreeSet<String>;

/// The serde structs of the frontend: name -> its fields (key, the struct its type names, if any).
fn frontend_structs(source: &str) -> BTreeMap<String, Vec<(String, Option<String>)>> {
    let file = syn::parse_file(source).expect("the frontend parses as Rust");
    let mut structs = BTreeMap::new();
    for item in &file.items {
        let syn::Item::Struct(item) = item else {
            continue;
        };
        let deserialized = item.attrs.iter().any(|a| match &a.meta {
            syn::Meta::List(list) if list.path.is_ident("derive") => {
                list.tokens.to_string().contains("Deserialize")
            }
            _ => false,
        });
        if !deserialized {
            continue;
        }
        let name = item.ident.to_string();
        assert!(
            serde_words(&item.attrs).contains(&"deny_unknown_fields".to_string()),
            "{FRONTEND}: `{name}` is deserialized without `#[serde(deny_unknown_fields)]`: it \
             would accept any key, which FORMAT.md cannot document"
        );
        let mut fields = Vec::new();
        for field in &item.fields {
            let ident = field.ident.as_ref().expect("named fields").to_string();
            let mut key = ident.clone();
            for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
                attr.parse_nested_meta(|meta| {
                    if meta.path.is_ident("rename") {
                        let value: syn::LitStr = meta.value()?.parse()?;
                        key = value.value();
                    } else if meta.path.is_ident("default") {
                        if meta.input.peek(syn::Token![=]) {
                            let _: syn::LitStr = meta.value()?.parse()?;
                        }
                    } else {
                        let word = meta.path.get_ident().map(ToString::to_string);
                        panic!(
                            "{FRONTEND}: `{name}.{ident}` has `#[serde({})]`, which this test does \
                             not read (it knows `rename` and `default`)",
                            word.unwrap_or_default()
                        );
                    }
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{FRONTEND}: `{name}.{ident}`: {e}"));
            }
            fields.push((key, innermost(&field.ty)));
        }
        structs.insert(name, fields);
    }
    structs
}

/// The words of an item's `#[serde(...)]` attributes.
fn serde_words(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut words = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(ident) = meta.path.get_ident() {
                words.push(ident.to_string());
            }
            Ok(())
        });
    }
    words
}

/// The type a field's type holds through `Option`, `Vec`, `S` and `Spanned`.
fn innermost(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    let name = last.ident.to_string();
    if matches!(name.as_str(), "Option" | "Vec" | "S" | "Spanned") {
        if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
            if let Some(syn::GenericArgument::Type(inner)) = args.args.first() {
                return innermost(inner);
            }
        }
        return None;
    }
    Some(name)
}

/// The key paths of `structs` from `name` down.
fn frontend_keys(
    structs: &BTreeMap<String, Vec<(String, Option<String>)>>,
    name: &str,
    prefix: &str,
    keys: &mut Keys,
) {
    let fields = structs
        .get(name)
        .unwrap_or_else(|| panic!("{FRONTEND}: no deserialized struct `{name}`"));
    for (key, inner) in fields {
        let path = format!("{prefix}{key}");
        keys.insert(path.clone());
        if let Some(inner) = inner.as_deref().filter(|i| structs.contains_key(*i)) {
            frontend_keys(structs, inner, &format!("{path}."), keys);
        }
    }
}

/// The ```` ```toml ```` blocks of `text`, with the line each starts on.
fn toml_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        match &mut open {
            None if trimmed == "```toml" => open = Some((index + 2, String::new())),
            None => {}
            Some(_) if trimmed == "```" => blocks.push(open.take().unwrap()),
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    assert!(
        open.is_none(),
        "{REFERENCE}: a ```toml block is never closed"
    );
    blocks
}

/// The key paths of a TOML value's tables, arrays of tables and inline tables.
fn documented_keys(table: &toml::Table, prefix: &str, keys: &mut Keys) {
    for (key, value) in table {
        let path = format!("{prefix}{key}");
        keys.insert(path.clone());
        let tables: Vec<&toml::Table> = match value {
            toml::Value::Table(t) => vec![t],
            toml::Value::Array(items) => items.iter().filter_map(toml::Value::as_table).collect(),
            _ => Vec::new(),
        };
        for t in tables {
            documented_keys(t, &format!("{path}."), keys);
        }
    }
}

/// FORMAT.md's native format: the text before "Patch files".
fn native_part() -> String {
    let text = std::fs::read_to_string(root().join(REFERENCE)).unwrap();
    let end = text
        .find(PATCHES_HEADING)
        .unwrap_or_else(|| panic!("{REFERENCE} has no `## Patch files` heading"));
    text[..end].to_string()
}

#[test]
fn format_md_documents_every_key_the_native_frontend_accepts_and_no_other() {
    let source = std::fs::read_to_string(root().join(FRONTEND)).unwrap();
    let structs = frontend_structs(&source);
    let mut accepted = Keys::new();
    frontend_keys(&structs, "RawFile", "", &mut accepted);
    assert!(
        accepted.contains("layout.fields.enum.name") && accepted.contains("instance.base"),
        "the frontend's keys were not read as expected: {accepted:?}"
    );

    let mut documented = Keys::new();
    let blocks = toml_blocks(&native_part());
    assert!(!blocks.is_empty(), "{REFERENCE} has no ```toml example");
    for (line, body) in &blocks {
        let table: toml::Table = toml::from_str(body)
            .unwrap_or_else(|e| panic!("{REFERENCE}:{line}: the example is not TOML: {e}"));
        documented_keys(&table, "", &mut documented);
    }

    let undocumented: Vec<&String> = accepted.difference(&documented).collect();
    let unknown: Vec<&String> = documented.difference(&accepted).collect();
    let mut problems = String::new();
    if !undocumented.is_empty() {
        problems.push_str(&format!(
            "\nthe native frontend ({FRONTEND}) accepts keys no example of {REFERENCE} shows: \
             {undocumented:?}"
        ));
    }
    if !unknown.is_empty() {
        problems.push_str(&format!(
            "\n{REFERENCE} shows keys the native frontend ({FRONTEND}) rejects: {unknown:?}"
        ));
    }
    assert!(problems.is_empty(), "{problems}");
    println!(
        "{} keys, each accepted by the frontend and shown in {REFERENCE}",
        accepted.len()
    );
}

#[test]
fn format_md_examples_are_read_by_the_generator_without_a_syntax_error() {
    let binary = codegen_binary();
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (line, body) in toml_blocks(&native_part()) {
        if !body.lines().any(|l| l.trim() == "[device]") {
            continue;
        }
        let path = dir.path().join(format!("format-md-line-{line}.toml"));
        std::fs::write(&path, &body).unwrap();
        let out = std::process::Command::new(&binary)
            .arg("dump-ir")
            .arg(&path)
            .output()
            .expect("the generator runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("[toml_syntax]"),
            "{REFERENCE}:{line}: the generator rejects the example's keys:\n{stderr}"
        );
        checked += 1;
    }
    assert!(
        checked > 0,
        "{REFERENCE} has no example with a `[device]` table"
    );
}
