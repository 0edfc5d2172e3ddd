//! The book includes real code by anchor; mdBook silently includes nothing for a missing
//! anchor, so every `{{#include path:anchor}}` must resolve to non-empty text here.

use std::path::{Path, PathBuf};

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            markdown_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

/// The text between `ANCHOR: name` and `ANCHOR_END: name`, without other anchor lines.
fn anchored(text: &str, anchor: &str) -> Option<String> {
    let start = format!("ANCHOR: {anchor}");
    let end = format!("ANCHOR_END: {anchor}");
    let mut inside = false;
    let mut found = false;
    let mut body = String::new();
    for line in text.lines() {
        if line.trim_end().ends_with(&start) {
            inside = true;
            found = true;
        } else if line.trim_end().ends_with(&end) {
            inside = false;
        } else if inside && !line.contains("ANCHOR") {
            body.push_str(line);
            body.push('\n');
        }
    }
    found.then_some(body)
}

#[test]
fn every_include_resolves_to_non_empty_text() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let mut files = Vec::new();
    markdown_files(&src, &mut files);
    assert!(files.len() >= 3, "the book has its pages");
    let mut includes = 0;
    for md in files {
        let text = std::fs::read_to_string(&md).unwrap();
        for (i, _) in text.match_indices("{{#include ") {
            let rest = &text[i + "{{#include ".len()..];
            let spec = rest[..rest.find("}}").expect("closed include")].trim();
            let (file, anchor) = match spec.rsplit_once(':') {
                Some((f, a)) if !a.chars().all(|c| c.is_ascii_digit() || c == ':') => (f, Some(a)),
                _ => (spec, None),
            };
            let path = md.parent().unwrap().join(file);
            let source = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("{}: include of missing {}", md.display(), path.display()));
            let body = match anchor {
                Some(a) => {
                    anchored(&source, a).unwrap_or_else(|| panic!("{}: no anchor {a:?} in {file}", md.display()))
                }
                None => source,
            };
            assert!(!body.trim().is_empty(), "{}: {spec} includes nothing", md.display());
            includes += 1;
        }
    }
    assert!(includes >= 5, "only {includes} includes: the book shows real code");
}

#[test]
fn summary_lists_every_page() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if name.ends_with(".md") && name != "SUMMARY.md" {
            assert!(summary.contains(&format!("({name})")), "SUMMARY.md does not list {name}");
        }
    }
}
