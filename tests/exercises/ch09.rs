//! Chapter 9's answer keys: each reads its answer from the page's "Try this", computes it from
//! the page's formula in plain f64, and checks that the chapter's parameters, grid and closed
//! forms agree.

use super::{close, grouped_number, numbers_after, page_answer};
use fogbook_core::scene::GROUND_HALF_SIZE_M;
use fogbook_ground_truth::GroundTruthParams;
use fogbook_ground_truth::gpu::{MAJORANT_GRID, PLACED_GRID};
use fogbook_ground_truth::reference;

const PAGE: &str = "ch09-ground-truth.md";

/// Try this exercise `start` of the page, its line breaks and indents made single spaces.
fn exercise(start: &str) -> String {
    page_answer(PAGE, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `text` after the first `marker`.
fn after<'a>(text: &'a str, marker: &str) -> &'a str {
    let at = text.find(marker).unwrap_or_else(|| panic!("no {marker:?} in {text}"));
    &text[at + marker.len()..]
}

/// The first number after `marker` in `text`.
fn first(text: &str, marker: &str) -> f64 {
    *numbers_after(text, marker).first().unwrap_or_else(|| panic!("no number after {marker:?} in {text}"))
}

/// Try this 1: each path through an albedo-0 slab returns 0 or 1, so the image's mean is
/// T = e^(−σt ℓ) with the Bernoulli standard error √(T (1 − T) / N).
#[test]
fn beer_lambert_by_counting() {
    let answer = exercise("1. **Beer–Lambert, by counting.**");
    let (side, per_pixel) = (first(&answer, "traces "), first(&answer, "pixels of "));
    let (length, sigma_t) = (first(&answer, "slab "), first(&answer, "extinction "));
    let t = (-sigma_t * length).exp();
    close(sigma_t * length, 1.0, 1e-12, "the page's optical depth, e^{-1}");
    close(t, first(&answer, r"e^{-1}\\) = "), 5e-5, "Beer–Lambert transmittance");
    let paths = side * side * per_pixel;
    close(paths, grouped_number(after(&answer, "N = ")).unwrap(), 0.0, "paths in the image");
    let error = (t * (1.0 - t) / paths).sqrt();
    close(error, first(&answer, "paths: "), 5e-6, "standard error of the mean");
    close(4.0 * error, first(&answer, "that, "), 5e-5, "the test's tolerance");
    let target = first(&answer, "error to ");
    let needed = grouped_number(after(&answer, "take ")).unwrap();
    close(t * (1.0 - t) / (target * target), needed, 1.0, "paths for the target error");
    close(reference::transmittance(sigma_t, length), t, 1e-15, "the chapter's closed form");
}

/// Try this 2: tentative collisions are a Poisson process of rate σ̄, so σ̄ L of them fall on a
/// segment of length L on average.
#[test]
fn a_bound_for_the_whole_world() {
    let answer = exercise("2. **A bound for the whole world.**");
    let slab_length = first(&exercise("1. **Beer–Lambert, by counting.**"), "slab ");
    let tau = first(&answer, r"\tau = ");
    let sigma = first(&answer, "slab, ");
    close(tau / slab_length, sigma, 1e-12, "the τ = 10 slab's extinction");
    let length = first(&answer, "along a ");
    close(length, 2.0 * f64::from(GROUND_HALF_SIZE_M), 0.0, "the ground's width (m)");
    let cap = first(&answer, "cap of ");
    close(cap, f64::from(GroundTruthParams::default().max_collisions), 0.0, "the default collision cap");
    let expected = sigma * length;
    close(expected, first(&answer, r"\bar\sigma\\): "), 0.5, "tentative collisions along the segment");
    assert!(expected > cap, "{expected} tentative collisions do not pass the cap {cap}");
    let cell = first(&answer, "A cell of ");
    let grid_cell = 2.0 * f64::from(GROUND_HALF_SIZE_M) / f64::from(MAJORANT_GRID[0]);
    close(grid_cell, cell, 1e-12, "the majorant grid's cell (m)");
    let height_cell = f64::from(GroundTruthParams::default().medium_top_m) / f64::from(MAJORANT_GRID[1]);
    close(height_cell, cell, 1e-12, "the cell's height (m): the cells are cubes");
    close(sigma * cell, first(&answer, "holds "), 0.05, "tentative collisions across one cell");
    let placed_cm = first(&answer, "cells of ");
    close(placed_cm, 100.0 * 4.0 / f64::from(PLACED_GRID), 1e-12, "the placed grid's cell (cm)");
    close(sigma * placed_cm / 100.0, first(&answer, "across its 4 m, "), 5e-4, "collisions in a placed cell");
}

/// Try this 3: L = a p(0) E e^(−σt h) (1 − e^(−σt ℓ)) with Henyey–Greenstein at cos θ = 0.
#[test]
fn single_scattering_by_hand() {
    let answer = exercise("3. **Single scattering by hand.**");
    let (length, depth) = (first(&answer, "along "), first(&answer, "top is "));
    let (sigma_t, albedo, g) = (first(&answer, "extinction "), first(&answer, "albedo "), first(&answer, "and g "));
    let cos_theta = first(&answer, "cos θ = ");
    close(cos_theta, 0.0, 0.0, "a horizontal ray under a zenith sun");
    let pi = std::f64::consts::PI;
    let phase = (1.0 - g * g) / (4.0 * pi * (1.0 + g * g - 2.0 * g * cos_theta).powf(1.5));
    close(phase, first(&answer, "the phase is "), 5e-6, "Henyey–Greenstein at 90° (1/sr)");
    let e = pi;
    let radiance = albedo * phase * e * (-sigma_t * depth).exp() * (1.0 - (-sigma_t * length).exp());
    close(radiance, first(&answer, "the radiance "), 5e-6, "single-scattered radiance");
    close(reference::henyey_greenstein(g, cos_theta), phase, 1e-15, "the chapter's phase");
    let chapter = reference::single_scattering_zenith_sun(sigma_t, albedo, g, depth, length, e);
    close(chapter, radiance, 1e-15, "the chapter's closed form");
}

/// Try this 4: the standard error falls as 1/√N, so N grows with the square of the ratio.
#[test]
fn four_times_less_noise() {
    let answer = exercise("4. **Four times less noise.**");
    let readings = numbers_after(&answer, "reads ");
    assert_eq!(readings.len(), 2, "two readings: {answer}");
    let (from, to) = (readings[0], readings[1]);
    let paths = first(&answer, "after ");
    let ratio = (from / to).powi(2);
    close(ratio, first(&answer, "takes "), 1e-9, "how many times the paths");
    let needed = paths * ratio;
    close(needed, first(&answer, "paths, "), 1e-9, "paths for a quarter of the error");
    let per_frame = f64::from(GroundTruthParams::default().samples_per_frame);
    close(per_frame, first(&answer, "which at "), 0.0, "the default paths per frame");
    let frames = needed / per_frame;
    close(frames, first(&answer, "frame is "), 0.0, "frames");
    let rate = first(&answer, "` and ");
    close(frames / rate, first(&answer, "frames, "), 0.05, "seconds at 60 frames a second");
}

/// Try this 5: the shell's tentative collisions are a Poisson process of rate σ̄ inside it, σ̄
/// times the length of shell the ray crosses: the thickness straight up, and between the two
/// horizon distances √((R + h)² − R²) level with the horizon.
#[test]
fn null_collisions_in_clear_sky() {
    let answer = exercise("5. **Null collisions in clear sky.**");
    let sigma = first(&answer, r"\sigma_{t,1}\\) of ");
    let (bottom, top) =
        (grouped_number(after(&answer, "from ")).unwrap(), grouped_number(after(&answer, "m to ")).unwrap());
    let radius = grouped_number(after(&answer, "radius ")).unwrap() * 1e3;
    close(sigma * (top - bottom), first(&answer, "of shell: "), 1e-9, "collisions straight up");
    let horizon = |h: f64| ((radius + h).powi(2) - radius * radius).sqrt();
    close(horizon(bottom), grouped_number(after(&answer, r"R^2}\\) = ")).unwrap(), 0.5, "where it enters");
    let leaves = after(after(&answer, r"R^2}\\) = "), r"R^2}\\) = ");
    close(horizon(top), grouped_number(leaves).unwrap(), 0.5, "where it leaves");
    let length = horizon(top) - horizon(bottom);
    close(length, grouped_number(after(&answer, "m: ")).unwrap(), 0.5, "the shell's length");
    close(sigma * length, grouped_number(after(&answer, "of shell, ")).unwrap(), 0.5, "collisions level");
    let cap = first(&answer, "cap of ");
    assert_eq!(cap, f64::from(GroundTruthParams::default().max_collisions), "the page's cap is the default");
    assert!(sigma * length > cap, "the level ray passes the cap");
    let clouds = fogbook_clouds::CloudParams::default();
    close(f64::from(clouds.extinction), sigma, 1e-8, "the clouds' default extinction");
    close(f64::from(clouds.layer_bottom_m), bottom, 0.0, "the layer's bottom");
    close(f64::from(clouds.layer_bottom_m + clouds.layer_thickness_m), top, 0.0, "the layer's top");
    close(f64::from(clouds.planet_radius_km) * 1e3, radius, 0.0, "the planet");
}

/// Try this 6: a flight of n null collisions under a step budget of S collisions a frame takes
/// ⌈n / S⌉ frames; the collision cap counts the path's collisions over all its frames.
#[test]
fn a_path_over_frames() {
    use fogbook_ground_truth::budget::{MAX_PATH_STEPS, MIN_PATH_STEPS};
    let answer = exercise("6. **A path over frames.**");
    let (floor, top) = (first(&answer, "between "), first(&answer, "8 and "));
    assert_eq!((floor, top), (f64::from(MIN_PATH_STEPS), f64::from(MAX_PATH_STEPS)), "the budget's range");
    let straight_up = first(&exercise("5. **Null collisions in clear sky.**"), "of shell: ");
    close(straight_up, first(&answer, "Straight up its "), 0.0, "exercise 5's collisions");
    close((straight_up / floor).ceil(), first(&answer, "8⌉ = "), 0.0, "frames at the floor");
    close((straight_up / top).ceil(), first(&answer, "floor and "), 0.0, "frames at the top");
    let cap = f64::from(GroundTruthParams::default().max_collisions);
    close(cap / top, first(&answer, "4096 / 256 = "), 0.0, "the level path at the top");
    close(cap / floor, first(&answer, "and after "), 0.0, "the level path at the floor");
}
