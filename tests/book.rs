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

/// Every `{{#include …}}` of every page: the page's name, the include's spec and the text it
/// includes.
fn includes() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let mut files = Vec::new();
    markdown_files(&src, &mut files);
    files.sort();
    assert!(files.len() >= 3, "the book has its pages");
    let mut out = Vec::new();
    for md in files {
        let text = std::fs::read_to_string(&md).unwrap();
        let page = md.file_name().unwrap().to_string_lossy().into_owned();
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
            out.push((page.clone(), spec.to_string(), body));
        }
    }
    out
}

#[test]
fn every_include_resolves_to_non_empty_text() {
    let all = includes();
    for (page, spec, body) in &all {
        assert!(!body.trim().is_empty(), "{page}: {spec} includes nothing");
    }
    assert!(all.len() >= 5, "only {} includes: the book shows real code", all.len());
}

/// The longest listing a page may include: a listing shows the lines that carry the idea and
/// names the file for the rest (a whole test becomes its assertions, a parameter struct a
/// pointer to its file).
const LONGEST_LISTING: usize = 40;

/// The listings allowed to be longer, each because the listing is the idea itself.
const LONG_LISTINGS: &[(&str, &str)] = &[(
    "chapters/core/src/chapter.rs:chapter",
    "the `Chapter` trait is the contract every chapter implements; the page walks through each method",
)];

#[test]
fn no_included_listing_is_longer_than_40_lines() {
    assert!(LONG_LISTINGS.len() <= 5, "at most five long listings in the book");
    let mut long = Vec::new();
    for (page, spec, body) in includes() {
        let lines = body.lines().count();
        if lines > LONGEST_LISTING && !LONG_LISTINGS.iter().any(|(s, _)| spec.ends_with(s)) {
            long.push(format!("{page}: {spec} is {lines} lines"));
        }
    }
    assert!(long.is_empty(), "listings over {LONGEST_LISTING} lines:\n{}", long.join("\n"));
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

/// The text of a page outside fenced code blocks and code spans, where links are links.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        let marker: String = t.chars().take_while(|&c| c == '`' || c == '~').collect();
        match &fence {
            // A fence closes with a run of its own character at least as long, and nothing else.
            Some(open) if marker.starts_with(open.as_str()) && marker.len() == t.trim_end().len() => fence = None,
            Some(_) => {}
            None if marker.len() >= 3 => fence = Some(marker),
            None => {
                // Drop code spans: every other run of backticks on the line.
                for (i, part) in line.split('`').enumerate() {
                    if i % 2 == 0 {
                        out.push_str(part);
                    }
                }
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn every_link_between_pages_resolves() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let mut files = Vec::new();
    markdown_files(&src, &mut files);
    let mut links = 0;
    let mut broken = Vec::new();
    for md in &files {
        let text = prose(&std::fs::read_to_string(md).unwrap());
        // Inline links `](target)` and reference definitions `[name]: target`.
        let inline = text.match_indices("](").map(|(i, _)| &text[i + 2..]);
        let defs = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix('[')?.split_once("]:").map(|(_, t)| t.trim_start()));
        for rest in inline.chain(defs) {
            let target = rest.split(|c: char| c == ')' || c.is_whitespace()).next().unwrap_or("");
            let page = target.split('#').next().unwrap_or("");
            let same_page = page.is_empty() && target.starts_with('#');
            if target.contains("://") || target.starts_with("mailto:") || !(page.ends_with(".md") || same_page) {
                continue;
            }
            links += 1;
            let file = if page.is_empty() { md.clone() } else { md.parent().unwrap().join(page) };
            let here = md.strip_prefix(&src).unwrap().display();
            if !file.is_file() {
                broken.push(format!("{here}: link to missing page {target}"));
            } else if let Some((_, anchor)) = target.split_once('#') {
                // mdBook does not check anchors: a heading renamed or moved to another page
                // leaves the link pointing at the top of the page.
                if !heading_ids(&std::fs::read_to_string(&file).unwrap()).iter().any(|id| id == anchor) {
                    broken.push(format!("{here}: link to missing heading {target}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "links to pages that do not exist:\n{}", broken.join("\n"));
    assert!(links >= 20, "only {links} links between pages");
}

/// The ids mdBook gives a page's headings: the heading's text without its markup, lower case,
/// spaces as `-`, other punctuation dropped, and `-1`, `-2`, … on repeats.
fn heading_ids(text: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence {
            continue;
        }
        // A code span's text stays in the id; its backticks go.
        let line = line.replace('`', "");
        let Some(title) = line.strip_prefix('#').map(|t| t.trim_start_matches('#')) else { continue };
        if !title.starts_with(' ') {
            continue;
        }
        // Keep a link's text, drop its target: `[text](target)` reads as `text`.
        let mut plain = String::new();
        let mut rest = title.trim();
        while let Some(open) = rest.find("](") {
            plain.push_str(&rest[..open]);
            rest = rest[open + 2..].split_once(')').map_or("", |(_, after)| after);
        }
        plain.push_str(rest);
        let base: String = plain
            .trim()
            .chars()
            .filter_map(|c| match c {
                c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c.to_lowercase().next().unwrap()),
                c if c.is_whitespace() => Some('-'),
                _ => None,
            })
            .collect();
        let repeats = ids
            .iter()
            .filter(|id| **id == base || id.strip_prefix(&format!("{base}-")).is_some_and(|n| n.parse::<u32>().is_ok()))
            .count();
        ids.push(if repeats == 0 { base } else { format!("{base}-{repeats}") });
    }
    ids
}

/// The chapters' pages (not the introduction or the table of contents).
fn chapter_pages() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let mut files = Vec::new();
    markdown_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("ch")))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

/// mdBook eats one backslash before a bracket or parenthesis, so maths delimiters are written
/// `\\(` … `\\)` and `\\[` … `\\]`; a single `\(` renders as a plain "(" and the formula as text,
/// which the rendered page cannot show as an error.
#[test]
fn maths_delimiters_have_two_backslashes() {
    let mut bad = Vec::new();
    for (name, text) in chapter_pages() {
        for (i, line) in prose(&text).lines().enumerate() {
            let b = line.as_bytes();
            for k in 0..b.len().saturating_sub(1) {
                let single = b[k] == b'\\'
                    && matches!(b[k + 1], b'(' | b')' | b'[' | b']' | b',')
                    && (k == 0 || b[k - 1] != b'\\');
                if single {
                    bad.push(format!("{name}: prose line {}: {}", i + 1, line.trim()));
                    break;
                }
            }
        }
    }
    assert!(bad.is_empty(), "single-backslash maths delimiters:\n{}", bad.join("\n"));
}

/// A page is a course, not a lab notebook: no "part 1" / "part 2" of the project's history.
#[test]
fn no_page_speaks_of_parts() {
    let mut bad = Vec::new();
    for (name, text) in chapter_pages() {
        for (i, line) in prose(&text).lines().enumerate() {
            let lower = line.to_lowercase();
            if lower.contains("part 1") || lower.contains("part 2") {
                bad.push(format!("{name}: prose line {}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(bad.is_empty(), "pages that speak of parts:\n{}", bad.join("\n"));
}

/// Every page of a chapter ends its teaching with a summary and exercises.
#[test]
fn every_page_has_a_summary_and_try_this() {
    let mut missing = Vec::new();
    for (name, text) in chapter_pages() {
        for heading in ["## Summary", "## Try this"] {
            if !text.lines().any(|l| l.trim_end() == heading) {
                missing.push(format!("{name}: no {heading:?}"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// One notation table serves the whole book: every chapter's page links it.
#[test]
fn every_chapter_page_links_the_notation_table() {
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/notation.md");
    assert!(table.is_file(), "book/src/notation.md is missing");
    let unlinked: Vec<String> = chapter_pages()
        .into_iter()
        .filter(|(_, text)| !prose(text).contains("](notation.md"))
        .map(|(name, _)| name)
        .collect();
    assert!(unlinked.is_empty(), "pages that do not link notation.md: {}", unlinked.join(", "));
}
