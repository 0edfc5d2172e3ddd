//! Chapter 2's answer keys: each reads its answer from the page's "Try this", integrates the
//! page's density law ρ(h) = ρ₀ e^(−b (h − h₀)) along the ray in plain f64, and checks that the
//! chapter's closed form agrees.

use super::{close, numbers_after, page_answer};
use fogbook_core::params::set_by_name;
use fogbook_height_fog::{HeightFogParams, model};

const PAGE: &str = "ch02-height-fog.md";

/// Try this exercise `start` of the page, its line breaks and indents made single spaces.
fn exercise(start: &str) -> String {
    page_answer(PAGE, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// ∫₀ᵈ ρ₀ e^(−b (y₀ + v t − h₀)) dt by the midpoint rule: the optical depth of a ray from height
/// `y0` rising `v` metres a metre, through one layer (ρ₀, b, h₀).
fn tau_by_steps(layer: (f64, f64, f64), y0: f64, v: f64, d: f64) -> f64 {
    let (rho, b, h0) = layer;
    let steps = 20_000;
    let dt = d / steps as f64;
    (0..steps).map(|i| rho * (-b * (y0 + v * (i as f64 + 0.5) * dt - h0)).exp() * dt).sum()
}

/// Try this 1: a level ray at the eye's height through the default fog.
#[test]
fn a_level_ray_through_the_default_fog() {
    let answer = exercise("1. The default fog");
    let eye = numbers_after(&answer, "at the eye's ")[0];
    let surface = numbers_after(&answer, "a surface ")[0];
    let (density, falloff) = (numbers_after(&answer, "τ = ")[0], numbers_after(&answer, "e^(−")[0]);
    let written = numbers_after(&answer, "· ");
    assert_eq!(written, [eye, surface], "the page's formula uses the eye's height and the distance: {answer}");
    let (tau_page, amount_page) =
        (numbers_after(&answer, &format!("{surface} = "))[0], numbers_after(&answer, "e^(−τ) = ")[0]);
    let p = HeightFogParams::default();
    let defaults = (p.fog_density as f64, p.height_falloff as f64, p.fog_height_m as f64);
    assert_eq!((defaults.0, defaults.1), (density as f32 as f64, falloff as f32 as f64), "the default layer");
    assert_eq!((defaults.2, p.second_fog_density, p.start_distance_m), (0.0, 0.0, 0.0), "one layer from 0 m");
    let eye_y = fogbook_core::camera::CameraPose::default().eye().y as f64;
    close(eye_y, eye, 1e-6, "the default camera's height (m)");
    let tau = tau_by_steps((density, falloff, 0.0), eye, 0.0, surface);
    close(tau, tau_page, 5e-4, "optical depth, level ray at the eye's height");
    close(1.0 - (-tau).exp(), amount_page, 5e-4, "fog amount there");
    close(model(&p).optical_depth(eye, 0.0, surface), tau, 1e-6, "the chapter's closed form");
}

/// Try this 2: with no falloff the layer is chapter 1's exponential fog of density `fog_density`,
/// τ = δ d, along any ray.
#[test]
fn no_falloff_is_distance_fog() {
    let answer = exercise("2. Set `height_falloff=0`");
    assert!(answer.contains("density `fog_density`: τ = δ d"), "{answer}");
    let mut p = HeightFogParams::default();
    set_by_name(&mut p, "height_falloff", "0").unwrap();
    let delta = p.fog_density as f64;
    for (y0, v, d) in [(2.0, -0.3, 80.0), (0.0, 0.6, 250.0), (40.0, 0.0, 10.0)] {
        let tau = tau_by_steps((delta, 0.0, p.fog_height_m as f64), y0, v, d);
        close(tau, delta * d, 1e-9, "no falloff: the integral is δ d");
        close(model(&p).optical_depth(y0, v, d), tau, 1e-6, "the chapter's closed form with no falloff");
    }
}
