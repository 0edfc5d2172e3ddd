//! Chapter 0's answer keys: each reads its answer from the page's "Try this" and computes it
//! independently of the core (the stage order is what the registry does, so there the key
//! checks the registry against the page's answer).

use super::{close, numbers_after, page_answer};
use fogbook::registry;

const PAGE: &str = "ch00-core.md";

/// Try this exercise `start` of the page, its line breaks and indents made single spaces.
fn exercise(start: &str) -> String {
    page_answer(PAGE, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Try this 1: the stage order does not follow the order the chapters are named in.
#[test]
fn stages_run_in_stage_order() {
    let answer = exercise("1. Render `--chapter height-fog,distance-fog`");
    let first = answer.split("*(").nth(1).and_then(|a| a.split(',').next()).expect("an answer in *( … )");
    let first = first.to_lowercase().replace(' ', "-");
    assert_eq!(first, "distance-fog", "the page's first stage: {answer}");
    assert!(answer.contains("both times"), "{answer}");
    for spec in ["height-fog,distance-fog", "distance-fog,height-fog"] {
        assert_eq!(registry::stack(spec).unwrap().ids(), [first.as_str(), "height-fog"], "{spec}");
    }
}

/// The radical inverse of `index` in `base`, from its digits: index = Σ dₖ bᵏ gives Σ dₖ b^−(k+1).
fn radical_inverse(index: u64, base: u64) -> f64 {
    let digits: Vec<u64> =
        std::iter::successors(Some(index), |i| Some(i / base)).take_while(|&i| i > 0).map(|i| i % base).collect();
    digits.iter().enumerate().map(|(k, &d)| d as f64 / (base as f64).powi(k as i32 + 1)).sum()
}

/// Try this 2: frame 1's jitter is Halton (2, 3) at the index the page gives, minus ½.
#[test]
fn the_jitter_of_frame_one() {
    let answer = exercise("2. Which sub-pixel offset does frame 1 publish");
    let index = numbers_after(&answer, "at index ")[0] as u64;
    let pair = answer.split("½: (").nth(1).and_then(|a| a.split(')').next()).expect("the pair (x, y)");
    let page: Vec<f64> = pair.split(", ").map(|v| v.replace('−', "-").parse().unwrap()).collect();
    assert_eq!(page.len(), 2, "{answer}");
    let want = [radical_inverse(index, 2) - 0.5, radical_inverse(index, 3) - 0.5];
    close(want[0], page[0], 5e-5, "Halton base 2 less ½");
    close(want[1], page[1], 5e-5, "Halton base 3 less ½");
    let j = fogbook_core::history::jitter(1);
    close(j[0] as f64, want[0], 1e-7, "the core's jitter x of frame 1");
    close(j[1] as f64, want[1], 1e-7, "the core's jitter y of frame 1");
}

/// Try this 3: the second colour target is the chain's `rgba32float` (as the page names it),
/// four channels of 32 bits a pixel.
#[test]
fn the_second_colour_target() {
    let answer = exercise("3. How much GPU memory does the colour chain's second target");
    let width = numbers_after(&answer, "*(")[0];
    let factors = numbers_after(&answer, "× ");
    assert_eq!(factors.len(), 2, "height and bytes a pixel: {answer}");
    let (height, bytes) = (factors[0], factors[1]);
    let megabytes = numbers_after(&answer, "bytes = ")[0];
    // "the previous stage's `rgba32float` (16 bytes)": the channels the name lists, of its bits.
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src").join(PAGE));
    assert!(text.unwrap().contains("previous stage's `rgba32float`"), "the chain's format on the page");
    let per_pixel = "rgba".len() as f64 * 32.0 / 8.0;
    close(per_pixel, bytes, 0.0, "bytes a pixel of rgba32float");
    close(width * height * per_pixel / 1e6, megabytes, 0.05, "second colour target at 1080p (MB)");
    let format = fogbook_core::frame::VIEW_FORMAT;
    assert_eq!(format!("{format:?}"), "Rgba32Float", "the chain's format");
    close(format.block_copy_size(None).unwrap() as f64, per_pixel, 0.0, "the core's bytes a pixel");
}
