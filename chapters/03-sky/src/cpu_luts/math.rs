//! Small vector and scalar helpers on `Rgb` and `f64`, written as WGSL defines its built-ins,
//! so that the passes read like the shaders they port.

use super::Rgb;

// ---------------------------------------------------------------------------------------------
// Small vector and scalar helpers, written as WGSL defines its built-ins.

pub(super) fn add(a: Rgb, b: Rgb) -> Rgb {
    std::array::from_fn(|k| a[k] + b[k])
}

pub(super) fn sub(a: Rgb, b: Rgb) -> Rgb {
    std::array::from_fn(|k| a[k] - b[k])
}

pub(super) fn mul(a: Rgb, b: Rgb) -> Rgb {
    std::array::from_fn(|k| a[k] * b[k])
}

pub(super) fn scale(a: Rgb, s: f64) -> Rgb {
    a.map(|v| v * s)
}

/// WGSL `mix`.
pub(super) fn mix(a: Rgb, b: Rgb, t: f64) -> Rgb {
    std::array::from_fn(|k| a[k] * (1.0 - t) + b[k] * t)
}

/// WGSL `clamp` (min(max(x, lo), hi)): unlike `f64::clamp` it never panics.
pub(super) fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}

pub(super) fn clamp_cosine(mu: f64) -> f64 {
    clamp(mu, -1.0, 1.0)
}

pub(super) fn safe_sqrt(a: f64) -> f64 {
    a.max(0.0).sqrt()
}

pub(super) fn smoothstep(low: f64, high: f64, x: f64) -> f64 {
    let t = clamp((x - low) / (high - low), 0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

pub(super) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn normalize(a: [f64; 3]) -> [f64; 3] {
    scale(a, 1.0 / dot(a, a).sqrt())
}
