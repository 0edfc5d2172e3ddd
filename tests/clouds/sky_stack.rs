//! In the stack under the sky: a clear sky passed through, the clouds veiled.

use crate::common::*;
use crate::{draw, stack};

/// In the stack: with no cloud (coverage 0) the clouds' stage hands the sky's colour on exactly;
/// with clouds, the sky's aerial perspective changes them (it dims and veils the distant ones).
#[test]
fn the_stack_passes_a_clear_sky_through_and_veils_the_clouds() {
    let mut h = headless([64, 36]);
    let mut setup = stack(&h, "sky,clouds");
    let camera = "0,2,0,0,10,70";
    let sets = |extra: &[&'static str]| {
        let base = ["sky.lut_resolution=quarter", "noise_resolution=low", "view_steps=16", "light_steps=3"];
        base.iter().chain(extra).copied().collect::<Vec<&str>>()
    };
    let clear = draw(&mut h, &mut setup, &sets(&["coverage=0"]), camera, &["final", "sky/final"]);
    assert_eq!(clear[0].rgba, clear[1].rgba, "the clouds' stage changed a clear sky");
    let veiled = &draw(&mut h, &mut setup, &sets(&[]), camera, &["final"])[0];
    let bare = &draw(&mut h, &mut setup, &sets(&["aerial_perspective=false"]), camera, &["final"])[0];
    let changed =
        veiled.rgba.chunks(4).zip(bare.rgba.chunks(4)).filter(|(a, b)| (a[2] - b[2]).abs() > 1e-3 * b[2].abs()).count();
    eprintln!("aerial perspective changes {changed} of {} pixels", veiled.rgba.len() / 4);
    assert!(changed > 100, "the aerial perspective changes only {changed} pixels");
}
