//! CPU reference for froxel fog, in f64: the slice distribution and its inverse, the
//! energy-conserving step integral, the Henyey–Greenstein and Cornette–Shanks phase functions,
//! the noise-modulated medium and the local fog volumes, the closed form of a homogeneous medium
//! and the discretised column integral the GPU performs, so that the tests can separate the
//! discretisation error from mistakes.

use std::f64::consts::PI;

/// Smallest near distance and the smallest far / near ratio accepted (bad input is moved here).
pub const MIN_NEAR_M: f64 = 0.01;
pub const MIN_RANGE_RATIO: f64 = 1.01;

// ANCHOR: slices
/// Exponential depth slices along each column's ray: boundary k of N lies at
/// z_k = n · (f / n)^(k / N) for k ≥ 1, and boundary 0 at the eye, so the first slice reaches
/// back to the camera. Depths are distances along the ray (as the core's scene distance is).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slices {
    pub near: f64,
    pub far: f64,
    pub count: u32,
}

impl Slices {
    /// z(s) = n · (f / n)^(s / N) for a continuous slice coordinate s.
    pub fn depth(&self, s: f64) -> f64 {
        self.near * (self.far / self.near).powf(s / self.count as f64)
    }

    /// The inverse, s(z) = N · ln(z / n) / ln(f / n) (−∞ at the eye).
    pub fn slice(&self, z: f64) -> f64 {
        self.count as f64 * (z / self.near).ln() / (self.far / self.near).ln()
    }

    /// Where slice k begins (0 for the first).
    pub fn begin(&self, k: u32) -> f64 {
        if k == 0 { 0.0 } else { self.depth(k as f64) }
    }

    pub fn end(&self, k: u32) -> f64 {
        self.depth(k as f64 + 1.0)
    }

    /// Where the media pass samples slice k: the middle of its segment (midpoint rule).
    pub fn middle(&self, k: u32) -> f64 {
        0.5 * (self.begin(k) + self.end(k))
    }
}
// ANCHOR_END: slices

// Construction (bad input made valid) and the lookup of a depth's slice.
impl Slices {
    /// Near and far made valid: n ≥ 1 cm, f ≥ 1.01 n, at least one slice.
    pub fn new(near: f64, far: f64, count: u32) -> Self {
        let near = if near.is_finite() { near.max(MIN_NEAR_M) } else { 1.0 };
        let far = if far.is_finite() { far.max(near * MIN_RANGE_RATIO) } else { near * 100.0 };
        Self { near, far, count: count.max(1) }
    }

    /// The slice holding depth z (clamped to the grid) and how far into it z lies (m).
    pub fn locate(&self, z: f64) -> (u32, f64) {
        let z = z.clamp(0.0, self.far);
        let k = if z <= 0.0 { 0 } else { self.slice(z).floor().clamp(0.0, self.count as f64 - 1.0) as u32 };
        (k, (z - self.begin(k)).max(0.0))
    }
}

// ANCHOR: step_integral
/// Light a slice of length Δ with constant extinction σt and in-scattered radiance per metre S
/// adds at its near end: ∫₀^Δ S e^(−σt t) dt = S (1 − e^(−σt Δ)) / σt (Hillaire 2015), → S Δ as
/// σt → 0 (series below σt Δ = 1e-4).
pub fn step_integral(s: f64, sigma_t: f64, length: f64) -> f64 {
    let x = sigma_t * length;
    if x < 1e-4 { s * length * (1.0 - 0.5 * x) } else { s * (1.0 - (-x).exp()) / sigma_t }
}
// ANCHOR_END: step_integral

// ANCHOR: phase
/// Henyey–Greenstein phase function (1/sr), normalised over the sphere; `cos_theta` is the
/// cosine between the view ray and the direction towards the light.
pub fn henyey_greenstein(g: f64, cos_theta: f64) -> f64 {
    let g = g.clamp(-0.999, 0.999);
    let denom = 1.0 + g * g - 2.0 * g * cos_theta;
    (1.0 - g * g) / (4.0 * PI * denom * denom.sqrt())
}

/// Cornette & Shanks (1992) phase function (1/sr): Henyey–Greenstein times Rayleigh's
/// (1 + cos²θ), renormalised by 3 / (2 (2 + g²)); closer to Mie scattering by fog droplets.
pub fn cornette_shanks(g: f64, cos_theta: f64) -> f64 {
    let g = g.clamp(-0.999, 0.999);
    let denom = 1.0 + g * g - 2.0 * g * cos_theta;
    3.0 * (1.0 - g * g) * (1.0 + cos_theta * cos_theta) / (8.0 * PI * (2.0 + g * g) * denom * denom.sqrt())
}
// ANCHOR_END: phase

// ANCHOR: media_reference
/// The noise's factor on the global medium at p: max(0, 1 + a · fbm((p − wind) / size)), in
/// [0, 1 + a · GRADIENT_NOISE_BOUND] (|fbm| reaches 1.0364, so an amount near 1 would make σt
/// negative without the clamp).
pub fn noise_factor(amount: f64, size: f64, wind: glam::DVec3, p: glam::DVec3) -> f64 {
    (1.0 + amount * fogbook_core::noise::fbm((p - wind) / size)).max(0.0)
}

/// The share of a local fog volume's density at p (0 outside; the edge fade times the height
/// falloff inside), as `fog_volume_weight` in common/media/fog_volume.wgsl: the core's definition.
pub fn fog_volume_weight(v: &fogbook_core::media::volumes::FogVolume, p: glam::DVec3) -> f64 {
    v.weight_at(p)
}
// ANCHOR_END: media_reference

// ANCHOR: homogeneous
/// In-scattered radiance at distance d in a homogeneous medium lit by isotropic radiance L
/// without shadows: L · (σs / σt) · (1 − e^(−σt d)), → L σs d as σt → 0.
pub fn homogeneous_inscattering(l: f64, sigma_s: f64, sigma_t: f64, d: f64) -> f64 {
    l * step_integral(sigma_s, sigma_t, d)
}
// ANCHOR_END: homogeneous

/// The column integral as the GPU performs it, along one ray: media sampled at each slice's
/// middle by `media(t) = (S, σt)`, full slices integrated front to back with the step integral,
/// and the partial slice holding `d` integrated with the same slice's media up to d.
/// Returns (in-scattered radiance, transmittance).
pub fn integrate_column(slices: &Slices, d: f64, media: impl Fn(f64) -> (f64, f64)) -> (f64, f64) {
    let (k_end, partial) = slices.locate(d);
    let (mut light, mut transmittance) = (0.0, 1.0);
    for k in 0..=k_end {
        let (s, sigma_t) = media(slices.middle(k));
        let length = if k == k_end { partial } else { slices.end(k) - slices.begin(k) };
        light += transmittance * step_integral(s, sigma_t, length);
        transmittance *= (-sigma_t * length).exp();
    }
    (light, transmittance)
}

/// The same column summed with the naive Riemann step S·Δ (for the book's comparison).
pub fn integrate_column_riemann(slices: &Slices, d: f64, media: impl Fn(f64) -> (f64, f64)) -> f64 {
    let (k_end, partial) = slices.locate(d);
    let (mut light, mut transmittance) = (0.0, 1.0);
    for k in 0..=k_end {
        let (s, sigma_t) = media(slices.middle(k));
        let length = if k == k_end { partial } else { slices.end(k) - slices.begin(k) };
        light += transmittance * s * length;
        transmittance *= (-sigma_t * length).exp();
    }
    light
}

// ANCHOR: midpoint_bound
/// Bound on |τ_grid − τ| along one ray for an exponential layer σt(t) = ρ(o_y + v_y t) sampled at
/// each slice's middle: the midpoint rule errs by at most Δ³/24 · max|σt''| over a full slice,
/// with σt'' = (b v_y)² σt; the partial slice holding d uses the middle of its whole slice, an
/// error of at most ℓ · Δ · max|σt'| with σt' = b v_y σt (ℓ: the part of the slice before d).
/// An exponential is monotone along the ray, so its maxima over a slice lie at the slice's ends.
pub fn midpoint_bound(slices: &Slices, d: f64, density_at: impl Fn(f64) -> f64, falloff_along_ray: f64) -> f64 {
    let (k_end, partial) = slices.locate(d);
    let c = falloff_along_ray.abs();
    let mut bound = 0.0;
    for k in 0..=k_end {
        let (a, b) = (slices.begin(k), slices.end(k));
        let delta = b - a;
        let largest = density_at(a).max(density_at(b));
        if k == k_end {
            bound += partial * delta * c * largest;
        } else {
            bound += delta.powi(3) / 24.0 * c * c * largest;
        }
    }
    bound
}
// ANCHOR_END: midpoint_bound

/// Temporal accumulation blends each frame's sample with the reprojected history,
/// mix(now, history, b) (`lighting.wgsl`): of a change in the lighting (a light that moved
/// without a setting changing) b^K of the old value is left after K frames.
pub fn history_share(blend: f64, frames: u32) -> f64 {
    blend.powi(frames as i32)
}

/// The frames after which less than `fraction` of a change's old value is left: the smallest K
/// with b^K < fraction, for a blend b in [0, 1).
pub fn frames_to_fade(blend: f64, fraction: f64) -> u32 {
    assert!((0.0..1.0).contains(&blend) && fraction > 0.0, "blend {blend}, fraction {fraction}");
    (1..).find(|&k| history_share(blend, k) < fraction).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs().max(1e-300)
    }

    #[test]
    fn slice_formula_and_its_inverse_agree() {
        let s = Slices::new(1.0, 300.0, 64);
        assert_eq!(s.begin(0), 0.0);
        assert!(rel(s.depth(64.0), 300.0) < 1e-14);
        assert!(rel(s.depth(0.0), 1.0) < 1e-14);
        for i in 0..=640 {
            let x = i as f64 / 10.0;
            assert!((s.slice(s.depth(x)) - x).abs() < 1e-12, "{x}");
        }
        // Each slice is the same fraction deeper than the last: (f/n)^(1/N).
        let ratio = 300f64.powf(1.0 / 64.0);
        for k in 1..63 {
            assert!(rel(s.end(k) / s.begin(k), ratio) < 1e-12);
        }
        assert_eq!(s.locate(0.5), (0, 0.5));
        assert_eq!(s.locate(1e9).0, 63);
        assert!(rel(s.locate(1e9).1, 300.0 - s.begin(63)) < 1e-12);
    }

    #[test]
    fn bad_ranges_are_made_valid() {
        for (n, f) in [(0.0, 0.0), (-1.0, 5.0), (10.0, 1.0), (f64::NAN, f64::INFINITY)] {
            let s = Slices::new(n, f, 0);
            assert!(s.near > 0.0 && s.far > s.near && s.count == 1, "{s:?}");
            assert!(s.depth(0.5).is_finite() && s.slice(2.0).is_finite());
        }
    }

    #[test]
    fn step_integral_is_exact_for_a_homogeneous_column() {
        // Constant S and σt: the sum of step integrals is the closed form at every depth.
        let slices = Slices::new(1.0, 300.0, 64);
        for sigma_t in [0.0, 1e-6, 0.002, 0.05, 10.0] {
            let sigma_s = 0.9 * sigma_t;
            for d in [0.3, 1.0, 7.5, 100.0, 299.0, 300.0] {
                let (got, t) = integrate_column(&slices, d, |_| (sigma_s * 1.5, sigma_t));
                let want = homogeneous_inscattering(1.5, sigma_s, sigma_t, d);
                assert!((got - want).abs() <= 1e-12 + 1e-9 * want, "σt={sigma_t} d={d}: {got} vs {want}");
                assert!((t - (-sigma_t * d).exp()).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn riemann_step_overshoots_in_dense_slices() {
        // The naive S·Δ is not bounded by the closed form's L σs/σt: at σt = 0.5 /m it overshoots.
        let slices = Slices::new(1.0, 300.0, 32);
        let (l, sigma_t) = (1.0, 0.5);
        let riemann = integrate_column_riemann(&slices, 300.0, |_| (l * sigma_t, sigma_t));
        let (energy, _) = integrate_column(&slices, 300.0, |_| (l * sigma_t, sigma_t));
        assert!(rel(energy, 1.0) < 1e-9, "{energy}");
        assert!(riemann > 1.2, "{riemann}"); // 1.23: 23 % more light than the medium can scatter
    }

    #[test]
    fn cornette_shanks_is_normalised_and_tends_to_rayleigh() {
        for g in [-0.9, -0.3, 0.0, 0.5, 0.8, 0.95] {
            // Smooth enough for g ≤ 0.95 on a uniform grid in μ (Simpson, 200 000 intervals).
            let n = 200_000;
            let h = 2.0 / n as f64;
            let sum: f64 = (0..=n)
                .map(|i| {
                    let w = if i == 0 || i == n {
                        1.0
                    } else if i % 2 == 1 {
                        4.0
                    } else {
                        2.0
                    };
                    w * cornette_shanks(g, -1.0 + i as f64 * h)
                })
                .sum();
            let total = 2.0 * PI * sum * h / 3.0;
            assert!((total - 1.0).abs() < 1e-6, "g={g}: {total}");
        }
        // g = 0: Rayleigh's 3 / (16π) (1 + cos²θ).
        assert!(rel(cornette_shanks(0.0, 0.4), 3.0 / (16.0 * PI) * 1.16) < 1e-14);
    }

    #[test]
    fn henyey_greenstein_is_normalised() {
        for g in [-0.999, -0.6, 0.0, 0.3, 0.9, 0.999] {
            // ∫ p dω = 2π ∫ p dμ, in x = 1 − μ on a logarithmic grid (trapezoids in ln x): for
            // g = 0.999 the forward peak is only (1 − g)² / 2g ≈ 5e-7 wide in x.
            let (lo, hi, n) = (1e-14f64, 2.0f64, 400_000);
            let step = (hi / lo).ln() / n as f64;
            let f = |i: usize| {
                let x = lo * (i as f64 * step).exp();
                // x from the peak: μ = 1 − x forwards, μ = x − 1 for a backward peak (g < 0).
                henyey_greenstein(g, if g < 0.0 { x - 1.0 } else { 1.0 - x }) * x
            };
            let sum: f64 = (1..n).map(f).sum::<f64>() + 0.5 * (f(0) + f(n));
            let total = 2.0 * PI * sum * step;
            assert!((total - 1.0).abs() < 1e-4, "g={g}: {total}");
            assert!(henyey_greenstein(g, 1.0).is_finite() && henyey_greenstein(g, -1.0).is_finite());
        }
        assert!(rel(henyey_greenstein(0.0, 0.3), 1.0 / (4.0 * PI)) < 1e-15);
    }

    #[test]
    fn a_height_layer_converges_to_chapter_two_within_the_midpoint_bound() {
        use fogbook_height_fog::reference::Layer;
        let layer = Layer { density: 0.02, falloff: 0.2, height: 0.0 };
        for n in [32, 64, 128] {
            let slices = Slices::new(1.0, 300.0, n);
            for (oy, vy) in [(2.0, -0.02), (2.0, 0.1), (20.0, -0.3), (2.0, 0.0)] {
                for d in [5.0, 50.0, 250.0] {
                    if oy + vy * d < 0.0 {
                        continue; // below the ground: no scene ray goes there
                    }
                    let density = |t: f64| layer.density_at(oy + vy * t);
                    let (_, t) = integrate_column(&slices, d, |t| (0.0, density(t)));
                    let tau_grid = -t.ln();
                    let tau = layer.optical_depth(oy, vy, 0.0, d);
                    let bound = midpoint_bound(&slices, d, density, layer.falloff * vy);
                    assert!((tau_grid - tau).abs() <= bound + 1e-12, "N={n} y={oy} v={vy} d={d}");
                }
            }
        }
    }
}
