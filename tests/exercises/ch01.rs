//! Chapter 1's answer keys: each reads its answer from the page's "Try this", computes it from
//! the page's formula in plain f64, and checks that the chapter's CPU reference agrees.

use super::{close, numbers_after, page_answer};
use fogbook_core::params::set_by_name;
use fogbook_distance_fog::{DistanceFogParams, reference};

const PAGE: &str = "ch01-distance-fog.md";

/// Try this exercise `start` of the page, its line breaks and indents made single spaces.
fn exercise(start: &str) -> String {
    page_answer(PAGE, start).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The chapter's fog as the shader receives it after `sets` (`name=value`).
fn resolved(sets: &[&str]) -> reference::ResolvedFog {
    let mut p = DistanceFogParams::default();
    for s in sets {
        let (name, value) = s.split_once('=').unwrap();
        set_by_name(&mut p, name, value).unwrap();
    }
    reference::ResolvedFog::new(&p)
}

/// Try this 1: exponential fog 1 − e^(−ρ d) is ½ where ρ d = ln 2.
#[test]
fn half_the_colour_is_gone() {
    let answer = exercise("1. With `falloff=exponential`");
    let density = numbers_after(&answer, "`density=")[0];
    let page = numbers_after(&answer, "= ");
    assert_eq!(page.len(), 1, "one distance: {answer}");
    let half = std::f64::consts::LN_2 / density;
    close(half, page[0], 0.05, "distance where half is gone (m)");
    let fog = resolved(&["falloff=exponential", &format!("density={density}")]);
    close(fog.density, density, 1e-9, "the chapter's density");
    close(reference::exponential(half, fog.density), 0.5, 1e-7, "the chapter's fog at that distance");
}

/// Try this 2: Koschmieder's law, e^(−σ V) = C_t, at the page's 5 % threshold.
#[test]
fn density_from_a_visibility() {
    let answer = exercise("2. Set `use_visibility=true`");
    let visibility = numbers_after(&answer, "`visibility_m=")[0];
    let density = numbers_after(&answer, "*(")[0];
    let kept = numbers_after(&answer, "m⁻¹; ")[0] / 100.0;
    // The threshold is what a black object keeps at the visibility distance: σ = −ln C_t / V.
    let sigma = -kept.ln() / visibility;
    close(sigma, density, 5e-5, "density from the visibility (1/m)");
    close((-sigma * visibility).exp(), kept, 1e-12, "contrast a black object keeps at V");
    assert_eq!(DistanceFogParams::default().contrast_threshold, kept as f32, "the default threshold");
    let fog = resolved(&["falloff=exponential", "use_visibility=true", &format!("visibility_m={visibility}")]);
    close(fog.density, sigma, 1e-7, "the chapter's density from the visibility (1/m)");
    close(1.0 - reference::exponential(visibility, fog.density), kept, 1e-7, "the chapter's contrast left at V");
}
