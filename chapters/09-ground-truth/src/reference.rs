//! Independent f64 answers for the path tracer's tests: closed forms of homogeneous media
//! (transmittance, single scattering under a sun at the zenith), the Henyey–Greenstein phase,
//! and the furnace's answer; the absorbing furnace's slab by adding–doubling in
//! [`adding_doubling`].

pub mod adding_doubling;

use std::f64::consts::PI;

// ANCHOR: closed_forms
/// Transmittance through a homogeneous medium of extinction `sigma_t` (1/m) over `length` (m).
pub fn transmittance(sigma_t: f64, length: f64) -> f64 {
    (-sigma_t * length).exp()
}

/// Henyey–Greenstein (1/sr) at cos θ between the direction of travel before and after.
pub fn henyey_greenstein(g: f64, cos_theta: f64) -> f64 {
    let denom = 1.0 + g * g - 2.0 * g * cos_theta;
    (1.0 - g * g) / (4.0 * PI * denom * denom.sqrt())
}

/// Cornette–Shanks (1/sr): Henyey–Greenstein with Rayleigh's 1 + cos²θ, renormalised.
pub fn cornette_shanks(g: f64, cos_theta: f64) -> f64 {
    let denom = 1.0 + g * g - 2.0 * g * cos_theta;
    3.0 * (1.0 - g * g) * (1.0 + cos_theta * cos_theta) / (8.0 * PI * (2.0 + g * g) * denom * denom.sqrt())
}

/// The probability that a direction drawn from `phase` (1/sr, a function of cos θ) has cos θ in
/// [lo, hi]: 2π ∫ p dμ by Simpson's rule on 20 000 intervals.
pub fn phase_probability(phase: impl Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let n = 20_000;
    let h = (hi - lo) / n as f64;
    let mut s = phase(lo) + phase(hi);
    for i in 1..n {
        s += if i % 2 == 1 { 4.0 } else { 2.0 } * phase(lo + i as f64 * h);
    }
    2.0 * PI * s * h / 3.0
}

/// Single scattering along a horizontal ray of length `length` (m) through a homogeneous medium
/// (σt, albedo) whose top lies `depth` metres above the ray everywhere along it, under a sun at
/// the zenith of irradiance `e` (at normal incidence): every point sees the sun through the
/// same `depth`, so
///   L = σs p(d·l) E e^(−σt depth) ∫₀^len e^(−σt t) dt = a p E e^(−σt depth) (1 − e^(−σt len)).
pub fn single_scattering_zenith_sun(sigma_t: f64, albedo: f64, g: f64, depth: f64, length: f64, e: f64) -> f64 {
    // The ray is horizontal and the sun at the zenith: cos θ = d · l = 0.
    albedo * henyey_greenstein(g, 0.0) * e * transmittance(sigma_t, depth) * (1.0 - transmittance(sigma_t, length))
}
// ANCHOR_END: closed_forms

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn henyey_greenstein_integrates_to_one() {
        for g in [-0.9, -0.3, 0.0, 0.5, 0.9] {
            // ∫ p dω = 2π ∫₋₁¹ p(μ) dμ, by Simpson's rule on 20 000 intervals.
            let n = 20_000;
            let h = 2.0 / n as f64;
            let mut s = henyey_greenstein(g, -1.0) + henyey_greenstein(g, 1.0);
            for i in 1..n {
                let w = if i % 2 == 1 { 4.0 } else { 2.0 };
                s += w * henyey_greenstein(g, -1.0 + i as f64 * h);
            }
            let integral = 2.0 * PI * s * h / 3.0;
            assert!((integral - 1.0).abs() < 1e-6, "g = {g}: ∫p = {integral}");
        }
    }

    #[test]
    fn cornette_shanks_integrates_to_one() {
        for g in [-0.8, 0.0, 0.5, 0.9] {
            let total = phase_probability(|mu| cornette_shanks(g, mu), -1.0, 1.0);
            assert!((total - 1.0).abs() < 1e-6, "g = {g}: ∫p = {total}");
        }
    }

    #[test]
    fn single_scattering_is_the_march_of_its_integrand() {
        // The closed form against a midpoint march of σs p E e^(−σt depth) e^(−σt t).
        let (sigma_t, albedo, g, depth, length, e) = (0.3, 0.8, 0.4, 2.0, 5.0, 3.0);
        let n = 100_000;
        let dt = length / n as f64;
        let march: f64 = (0..n)
            .map(|i| {
                let t = (i as f64 + 0.5) * dt;
                albedo * sigma_t * henyey_greenstein(g, 0.0) * e * (-sigma_t * depth).exp() * (-sigma_t * t).exp() * dt
            })
            .sum();
        let closed = single_scattering_zenith_sun(sigma_t, albedo, g, depth, length, e);
        assert!((march / closed - 1.0).abs() < 1e-8, "{march} vs {closed}");
    }
}
