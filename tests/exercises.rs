//! The answer keys of the book's "Try this" exercises, one file of keys per chapter. Each key
//! reads the number a page gives as the answer from the page's text, so page and key cannot
//! drift; computes it independently of the code under test, from the formula on the page in
//! plain f64 (a closed form, or a short numerical integral written in the key); and, where the
//! exercise is about what the chapter's code does, checks that the chapter's CPU reference agrees
//! with that number. No GPU needed.

/// The text of the page `page` of the book.
fn page_text(page: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src").join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the numbered "Try this" exercise of `page` that starts with `start`, up to the
/// next exercise: the answer key reads its numbers from there, so page and key cannot drift.
fn page_answer(page: &str, start: &str) -> String {
    let text = page_text(page);
    let at = text.find(start).unwrap_or_else(|| panic!("{page}: no exercise {start:?}"));
    let rest = &text[at + start.len()..];
    // The next exercise starts a line with its number, or the next section begins.
    let next = (1..=20).map(|d| format!("\n{d}. ")).chain(["\n## ".to_string()]);
    let end = next.filter_map(|m| rest.find(&m)).min().unwrap_or(rest.len());
    rest[..end].to_string()
}

/// The number `text` starts with (after any spaces), if it starts with one.
fn leading_number(text: &str) -> Option<f64> {
    let digits: String = text.trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    digits.trim_end_matches('.').parse().ok()
}

/// The whole number `text` starts with, written in groups of three digits ("1 048 576").
fn grouped_number(text: &str) -> Option<f64> {
    let digits: String = text.trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == ' ').collect();
    digits.replace(' ', "").parse().ok()
}

/// The number written after each `marker` in `text`, and after each " and " that follows it
/// ("ω = 1.945 and 1.972" gives both).
fn numbers_after(text: &str, marker: &str) -> Vec<f64> {
    let mut out = Vec::new();
    for piece in text.split(marker).skip(1) {
        let mut parts = piece.split(" and ");
        out.extend(parts.next().and_then(leading_number));
        out.extend(parts.next().and_then(leading_number));
    }
    out
}

/// Every decimal number written in `s`, in order.
fn numbers_in(s: &str) -> Vec<f64> {
    s.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter_map(|n| n.trim_matches('.').parse().ok()).collect()
}

/// The numbers in `text` between the first `from` and the next `to`.
fn numbers_between(text: &str, from: &str, to: &str) -> Vec<f64> {
    let rest = &text[text.find(from).unwrap_or_else(|| panic!("no {from:?} in {text}")) + from.len()..];
    numbers_in(&rest[..rest.find(to).unwrap_or(rest.len())])
}

/// The integer written in superscript digits (ⁿ, ⁻ⁿ) right after the first `marker` in `text`.
fn superscript_after(text: &str, marker: &str) -> i32 {
    let rest = &text[text.find(marker).unwrap_or_else(|| panic!("no {marker:?} in {text}")) + marker.len()..];
    let digits: String = rest
        .chars()
        .map_while(|c| match c {
            '⁻' => Some('-'),
            '⁰' => Some('0'),
            '¹' => Some('1'),
            '²' => Some('2'),
            '³' => Some('3'),
            c @ '⁴'..='⁹' => char::from_digit(c as u32 - '⁴' as u32 + 4, 10),
            _ => None,
        })
        .collect();
    digits.parse().unwrap_or_else(|_| panic!("no superscript number after {marker:?}: {rest}"))
}

/// The number written `m·10ⁿ` (n in superscript digits) after `marker`: (m, n).
fn scientific_after(text: &str, marker: &str) -> (f64, i32) {
    let mantissa = numbers_after(text, marker)[0];
    let rest = &text[text.find(marker).unwrap() + marker.len()..];
    (mantissa, superscript_after(rest, "·10"))
}

fn close(got: f64, want: f64, tolerance: f64, what: &str) {
    eprintln!("{what}: {got}");
    assert!((got - want).abs() <= tolerance, "{what}: {got}, the book says {want}");
}

#[path = "exercises/ch00.rs"]
mod chapter_0;
#[path = "exercises/ch01.rs"]
mod chapter_1;
#[path = "exercises/ch02.rs"]
mod chapter_2;
#[path = "exercises/ch03.rs"]
mod chapter_3;
#[path = "exercises/ch04.rs"]
mod chapter_4;
#[path = "exercises/ch05.rs"]
mod chapter_5;
#[path = "exercises/ch06.rs"]
mod chapter_6;
#[path = "exercises/ch07.rs"]
mod chapter_7;
#[path = "exercises/ch08.rs"]
mod chapter_8;
#[path = "exercises/ch09.rs"]
mod chapter_9;
