//! CPU reference for analytic height fog, in f64: the closed form the shader uses, and an
//! independent Simpson integral of the density along the ray to hold it to.

/// One exponential layer: ρ(h) = density · e^(−falloff · (h − height)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layer {
    /// Density at `height` (1/m).
    pub density: f64,
    /// How fast density falls with altitude (1/m); 0 is uniform fog.
    pub falloff: f64,
    /// Altitude where the density equals `density` (m).
    pub height: f64,
}

// ANCHOR: constants
/// The density alone (the density view and plot) clamps its exponent here so that f32 on the
/// GPU never overflows (e^80 ≈ 5.5e34); the optical depth needs no clamp (it is summed in logs).
pub const MAX_EXPONENT: f64 = 80.0;
/// Optical depth is capped here: beyond it the fog is total in any precision.
pub const MAX_OPTICAL_DEPTH: f64 = 1.0e4;
/// The closed form's product is formed directly while the density's exponent at the segment's
/// denser end stays below this (e^60 ≈ 1.1e26, times at most 1e6 m, stays inside f32); beyond,
/// it is summed in logarithms before the cap.
pub const MAX_DIRECT_EXPONENT: f64 = 60.0;
/// Below this |k·v_y·L| the closed form's (1 − e^(−x))/x is replaced by its series.
pub const SERIES_THRESHOLD: f64 = 0.01;
// ANCHOR_END: constants

impl Layer {
    pub fn density_at(&self, h: f64) -> f64 {
        self.density * (-self.falloff * (h - self.height)).clamp(-MAX_EXPONENT, MAX_EXPONENT).exp()
    }

    // ANCHOR: closed_form
    /// Optical depth τ = ∫ ρ(o_y + v_y t) dt over t ∈ [t0, t1], in closed form:
    ///   τ = ρ(y0) · L · (1 − e^(−x)) / x,  with y0 = o_y + v_y t0, L = t1 − t0, x = k v_y L,
    /// or equally ρ(y1) · L · (1 − e^(x)) / (−x) from the end y1, used where x < 0.
    /// As x → 0 (horizontal rays, or no falloff) the fraction tends to 1; there the series
    /// 1 − x/2 + x²/6 − x³/24 replaces the 0/0 form.
    pub fn optical_depth(&self, origin_y: f64, dir_y: f64, t0: f64, t1: f64) -> f64 {
        let len = (t1 - t0).max(0.0);
        if self.density <= 0.0 || len <= 0.0 {
            return 0.0;
        }
        // From the segment's denser end, as the shader does (see there): the shape factor then
        // lies in (0, 1] and only the density at that end can be large.
        let x = self.falloff * dir_y * len;
        let (dense_y, shape) = if x.abs() < SERIES_THRESHOLD {
            (origin_y + dir_y * t0, 1.0 - x * (0.5 - x * (1.0 / 6.0 - x / 24.0)))
        } else if x > 0.0 {
            (origin_y + dir_y * t0, (1.0 - (-x).exp()) / x)
        } else {
            (origin_y + dir_y * t1, (1.0 - x.exp()) / -x)
        };
        let a = -self.falloff * (dense_y - self.height);
        if a < MAX_DIRECT_EXPONENT {
            return (self.density * a.exp() * len * shape).min(MAX_OPTICAL_DEPTH);
        }
        let ln_tau = self.density.ln() + a + len.ln() + shape.ln();
        ln_tau.min(MAX_OPTICAL_DEPTH.ln() + 1.0).exp().min(MAX_OPTICAL_DEPTH)
    }
    // ANCHOR_END: closed_form

    // ANCHOR: simpson
    /// The same integral by composite Simpson's rule with `steps` (even) intervals.
    pub fn optical_depth_simpson(&self, origin_y: f64, dir_y: f64, t0: f64, t1: f64, steps: usize) -> f64 {
        let n = steps + steps % 2;
        let h = (t1 - t0) / n as f64;
        let f = |t: f64| self.density_at(origin_y + dir_y * t);
        let mut sum = f(t0) + f(t1);
        for i in 1..n {
            sum += f(t0 + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        sum * h / 3.0
    }
    // ANCHOR_END: simpson
}

/// The fog seen along one ray, as the shader computes it.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightFogModel {
    pub layers: [Layer; 2],
    pub start: f64,
    pub cutoff: f64,
    pub max_opacity: f64,
}

// ANCHOR: model
impl HeightFogModel {
    /// Total optical depth from the camera at `origin_y` along `dir_y` to distance `d`,
    /// honouring the start distance and the cutoff (no fog at all beyond it).
    pub fn optical_depth(&self, origin_y: f64, dir_y: f64, d: f64) -> f64 {
        if d > self.cutoff {
            return 0.0;
        }
        let t0 = self.start.min(d);
        self.layers.iter().map(|l| l.optical_depth(origin_y, dir_y, t0, d)).sum()
    }

    /// Fog amount: min(1 − e^(−τ), max opacity).
    pub fn fog_amount(&self, origin_y: f64, dir_y: f64, d: f64) -> f64 {
        (1.0 - (-self.optical_depth(origin_y, dir_y, d)).exp()).min(self.max_opacity)
    }
}
// ANCHOR_END: model

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs().max(1e-300)
    }

    const LAYERS: [Layer; 3] = [
        Layer { density: 0.02, falloff: 0.2, height: 0.0 },
        Layer { density: 0.005, falloff: 0.05, height: 30.0 },
        Layer { density: 0.1, falloff: 1.0, height: -5.0 },
    ];

    // ANCHOR: simpson_test
    #[test]
    fn closed_form_matches_simpson_for_every_direction() {
        // Camera inside (y = 2), above (y = 80) and below (y = −3) the fog's reference height.
        for layer in LAYERS {
            for origin_y in [2.0, 80.0, -3.0] {
                for dir_y in [1.0, -1.0, 0.5, -0.3, 0.1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 0.0, -1e-7, -1e-4] {
                    for (t0, t1) in [(0.0, 100.0), (10.0, 400.0), (0.0, 1.0)] {
                        // Stay inside the unclamped range (the clamp is a guard, not the model).
                        let exponent = |y: f64| layer.falloff * (y - layer.height);
                        if exponent(origin_y + dir_y * t0).abs() > MAX_EXPONENT
                            || exponent(origin_y + dir_y * t1).abs() > MAX_EXPONENT
                        {
                            continue;
                        }
                        let closed = layer.optical_depth(origin_y, dir_y, t0, t1);
                        let simpson = layer.optical_depth_simpson(origin_y, dir_y, t0, t1, 10_000);
                        if simpson > MAX_OPTICAL_DEPTH {
                            assert_eq!(closed, MAX_OPTICAL_DEPTH, "capped");
                            continue;
                        }
                        assert!(
                            rel(closed, simpson) <= 1e-6,
                            "{layer:?} y={origin_y} v_y={dir_y} [{t0},{t1}]: closed {closed} simpson {simpson}"
                        );
                    }
                }
            }
        }
    }
    // ANCHOR_END: simpson_test

    // ANCHOR: zero_falloff_test
    #[test]
    fn zero_falloff_is_plain_exponential_fog() {
        let layer = Layer { density: 0.03, falloff: 0.0, height: 12.0 };
        for dir_y in [1.0, 0.0, -0.7] {
            let tau = layer.optical_depth(5.0, dir_y, 0.0, 150.0);
            assert_eq!(tau, 0.03 * 150.0);
        }
    }
    // ANCHOR_END: zero_falloff_test

    // ANCHOR: series_test
    /// A camera 5 km up looking straight down at fog of density 1 /m at 10 m below the ground,
    /// falling off at 2 /m: τ = ∫₀⁵⁰⁰⁰ e^(−2(y+10)) dy = e^(−20) (1 − e^(−10⁴)) / 2. From the camera
    /// the closed form holds e^(−10020) × e^(10⁴); clamping each exponent to ±80 on its own gave
    /// e^(−80) × e^(80) × ½ = ½, e^20 times too much.
    #[test]
    fn a_ray_descending_far_into_the_fog_is_exact() {
        let layer = Layer { density: 1.0, falloff: 2.0, height: -10.0 };
        let exact = (-20.0f64).exp() / 2.0;
        let tau = layer.optical_depth(5000.0, -1.0, 0.0, 5000.0);
        assert!((tau / exact - 1.0).abs() < 1e-12, "{tau} vs {exact}");
        // And from below, looking up: the same integral.
        let up = layer.optical_depth(0.0, 1.0, 0.0, 5000.0);
        assert!((up / exact - 1.0).abs() < 1e-12, "{up} vs {exact}");
    }

    #[test]
    fn series_and_exact_forms_agree_at_the_threshold() {
        let layer = Layer { density: 1.0, falloff: 1.0, height: 0.0 };
        let x = SERIES_THRESHOLD;
        let exact = (1.0 - (-x).exp()) / x;
        let series = 1.0 - x * (0.5 - x * (1.0 / 6.0 - x / 24.0));
        assert!(rel(series, exact) < 1e-10);
        // And the layer function is continuous across it.
        let below = layer.optical_depth(0.0, x * 0.999, 0.0, 1.0);
        let above = layer.optical_depth(0.0, x * 1.001, 0.0, 1.0);
        assert!(rel(below, above) < 1e-5);
    }
    // ANCHOR_END: series_test

    #[test]
    fn two_layers_add() {
        let m = HeightFogModel { layers: [LAYERS[0], LAYERS[1]], start: 0.0, cutoff: 1e9, max_opacity: 1.0 };
        for dir_y in [0.3, -0.01, 0.0] {
            let sum = LAYERS[0].optical_depth_simpson(2.0, dir_y, 0.0, 200.0, 10_000)
                + LAYERS[1].optical_depth_simpson(2.0, dir_y, 0.0, 200.0, 10_000);
            assert!(rel(m.optical_depth(2.0, dir_y, 200.0), sum) < 1e-6);
        }
    }

    #[test]
    fn start_cutoff_and_max_opacity() {
        let m = HeightFogModel {
            layers: [LAYERS[0], Layer { density: 0.0, ..LAYERS[1] }],
            start: 50.0,
            cutoff: 300.0,
            max_opacity: 0.7,
        };
        assert_eq!(m.optical_depth(2.0, 0.0, 40.0), 0.0, "nothing before the start distance");
        assert_eq!(m.optical_depth(2.0, 0.0, 301.0), 0.0, "no fog beyond the cutoff");
        let want = LAYERS[0].optical_depth_simpson(2.0, 0.0, 50.0, 250.0, 10_000);
        assert!(rel(m.optical_depth(2.0, 0.0, 250.0), want) < 1e-6);
        assert_eq!(m.fog_amount(2.0, 0.0, 299.0), 0.7);
    }

    #[test]
    fn extremes_stay_finite() {
        let dense = Layer { density: 1.0, falloff: 2.0, height: 1000.0 };
        for origin_y in [-1000.0, 0.0, 1e5] {
            for dir_y in [-1.0, -1e-7, 0.0, 1e-7, 1.0] {
                let tau = dense.optical_depth(origin_y, dir_y, 0.0, 1e6);
                assert!(tau.is_finite() && (0.0..=MAX_OPTICAL_DEPTH).contains(&tau), "y={origin_y} v={dir_y}: {tau}");
            }
        }
    }
}
