//! f64 references for the smoke's lighting (`shaders/07-smoke/view.wgsl`): the Henyey–Greenstein
//! phase function, multiple-scattering octaves, the exponential integral E₂ by quadrature, and
//! the whole lit ray march through a box of homogeneous smoke, integrated finely with exact
//! optical depths — an independent check of the light volume and the march together.

use glam::DVec3;
use std::f64::consts::PI;

// ANCHOR: phase
/// Henyey–Greenstein phase function (1/sr) at cos θ with asymmetry g.
pub fn henyey_greenstein(cos_theta: f64, g: f64) -> f64 {
    let denom = 1.0 + g * g - 2.0 * g * cos_theta;
    (1.0 - g * g) / (4.0 * PI * denom * denom.sqrt())
}
// ANCHOR_END: phase

/// The multiple-scattering octaves (Wrenninge et al. 2013): the sun scattered towards the eye
/// per unit of extinction, × π (the scene's light units), for optical depth `tau` to the sun.
#[derive(Clone, Copy, Debug)]
pub struct Octaves {
    pub count: u32,
    /// a, b, c: extinction, contribution and eccentricity multipliers per octave.
    pub extinction: f64,
    pub contribution: f64,
    pub eccentricity: f64,
}

impl Octaves {
    /// Σ_i b^i p(θ, c^i g) e^(−a^i τ t), × π.
    pub fn sun(&self, cos_theta: f64, g: f64, tau: f64, tint: f64) -> f64 {
        let (mut a, mut b, mut gi, mut sum) = (1.0, 1.0, g, 0.0);
        for _ in 0..self.count {
            sum += b * henyey_greenstein(cos_theta, gi) * (-a * tau * tint).exp();
            a *= self.extinction;
            b *= self.contribution;
            gi *= self.eccentricity;
        }
        PI * sum
    }
}

// ANCHOR: e2
/// E₂(τ) = ∫₀¹ e^(−τ/μ) dμ by Gauss–Legendre quadrature on a substitution that resolves the
/// integrand's boundary layer at μ → 0 (μ = s², 24 panels of 8 points): good to 1e-10.
pub fn exponential_integral_e2(tau: f64) -> f64 {
    if tau <= 0.0 {
        return 1.0;
    }
    // Gauss–Legendre nodes and weights on [−1, 1], 8 points.
    const X: [f64; 4] = [0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363];
    const W: [f64; 4] = [0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763];
    let f = |s: f64| 2.0 * s * (-tau / (s * s)).exp(); // dμ = 2s ds
    let panels = 24;
    let mut sum = 0.0;
    for k in 0..panels {
        let (lo, hi) = (k as f64 / panels as f64, (k + 1) as f64 / panels as f64);
        let (mid, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        for i in 0..4 {
            sum += W[i] * half * (f(mid - half * X[i]) + f(mid + half * X[i]));
        }
    }
    sum
}

/// The GPU's closed form (Abramowitz and Stegun 5.1.53 and 5.1.56), in f64, to check it against
/// the quadrature.
pub fn exponential_integral_e2_fit(tau: f64) -> f64 {
    let x = tau.max(0.0);
    if x < 1e-6 {
        return 1.0;
    }
    if x <= 1.0 {
        let series =
            -0.57721566 + x * (0.99999193 + x * (-0.24991055 + x * (0.05519968 + x * (-0.00976004 + x * 0.00107857))));
        return (-x).exp() - x * (series - x.ln());
    }
    (-x).exp() * ((3.330657 - 2.334733) * x + (1.681534 - 0.250621)) / (x * x + 3.330657 * x + 1.681534)
}
// ANCHOR_END: e2

/// A cube of homogeneous smoke in the scene and the light on it.
#[derive(Clone, Copy, Debug)]
pub struct HomogeneousBox {
    pub min: DVec3,
    pub side_m: f64,
    /// Density × extinction (1/m) and its per-channel multiplier.
    pub sigma: f64,
    pub tint: [f64; 3],
    pub albedo: [f64; 3],
    pub phase_g: f64,
    pub octaves: Octaves,
    /// Unit vector towards the sun; the sun's light on the smoke (scene units: `sun_intensity` ×
    /// sun colour × illuminance), the sky's radiance, the ground's radiance below.
    pub towards_sun: DVec3,
    pub sun: [f64; 3],
    pub sky: [f64; 3],
    pub ground: [f64; 3],
    pub ambient_scale: f64,
}

/// Where a ray from `origin` along unit `dir` is inside the box: (t_near, t_far), t_far < t_near
/// when it misses.
pub fn box_interval(min: DVec3, side: f64, origin: DVec3, dir: DVec3) -> (f64, f64) {
    let inv = DVec3::new(1.0 / dir.x, 1.0 / dir.y, 1.0 / dir.z);
    let t0 = (min - origin) * inv;
    let t1 = (min + DVec3::splat(side) - origin) * inv;
    (t0.min(t1).max_element().max(0.0), t0.max(t1).min_element())
}

impl HomogeneousBox {
    /// Optical depth from p (inside) to the box's boundary along unit `dir`, grey.
    pub fn tau(&self, p: DVec3, dir: DVec3) -> f64 {
        let (_, far) = box_interval(self.min, self.side_m, p, dir);
        self.sigma * far.max(0.0)
    }

    /// What the march returns for a ray that ends at `t_end` (the scene's distance) with the
    /// scene colour `behind`: behind × T + in-scattered light, integrated with `samples`
    /// midpoint samples of exact optical depths.
    pub fn march(&self, origin: DVec3, dir: DVec3, t_end: f64, behind: [f64; 3], samples: usize) -> [f64; 3] {
        let (near, far) = box_interval(self.min, self.side_m, origin, dir);
        let end = far.min(t_end);
        if end <= near {
            return behind;
        }
        let ds = (end - near) / samples as f64;
        let cos_theta = self.towards_sun.dot(dir);
        let mean_tint = self.tint.iter().sum::<f64>() / 3.0;
        let mut light = [0.0; 3];
        for i in 0..samples {
            let t = near + ds * (i as f64 + 0.5);
            let p = origin + dir * t;
            let tau_sun = self.tau(p, self.towards_sun);
            let up = exponential_integral_e2(self.tau(p, DVec3::Y) * mean_tint);
            let down = exponential_integral_e2(self.tau(p, DVec3::NEG_Y) * mean_tint);
            for c in 0..3 {
                let sigma = self.sigma * self.tint[c];
                let sun = self.octaves.sun(cos_theta, self.phase_g, tau_sun, self.tint[c]);
                let ambient = self.ambient_scale * 0.5 * (self.sky[c] * up + self.ground[c] * down);
                let source = self.albedo[c] * (self.sun[c] * sun + ambient);
                // Exact for a source constant over the step; the steps are fine enough.
                light[c] += (-sigma * (t - near - 0.5 * ds)).exp() * (1.0 - (-sigma * ds).exp()) * source;
            }
        }
        let mut out = [0.0; 3];
        for c in 0..3 {
            out[c] = behind[c] * (-self.sigma * self.tint[c] * (end - near)).exp() + light[c];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn henyey_greenstein_integrates_to_one() {
        for g in [-0.5, 0.0, 0.4, 0.9] {
            // ∫ p dω = 2π ∫₋₁¹ p(μ) dμ, midpoint rule on a fine grid.
            let n = 200_000;
            let sum: f64 = (0..n).map(|i| henyey_greenstein(-1.0 + (i as f64 + 0.5) * 2.0 / n as f64, g)).sum();
            let integral = 2.0 * PI * sum * 2.0 / n as f64;
            assert!((integral - 1.0).abs() < 1e-4, "g = {g}: ∫p dω = {integral}");
        }
    }

    #[test]
    fn e2_quadrature_matches_tabulated_values_and_the_fit_matches_it() {
        // Abramowitz and Stegun, Table 5.1 (E₂(1), E₂(2) to 10 digits).
        assert!((exponential_integral_e2(1.0) - 0.1484955068).abs() < 1e-9);
        assert!((exponential_integral_e2(2.0) - 0.0375342618).abs() < 1e-9);
        assert_eq!(exponential_integral_e2(0.0), 1.0);
        let mut worst: f64 = 0.0;
        for i in 0..=3000 {
            let tau = i as f64 * 0.01;
            let exact = exponential_integral_e2(tau);
            worst = worst.max((exponential_integral_e2_fit(tau) - exact).abs() / exact);
        }
        // 5e-5 relative in E₁ becomes up to ~τ · 5e-5 in E₂ above 1 (see the fit's comment).
        assert!(worst < 2e-3, "fit vs quadrature: {worst:e}");
    }
}
