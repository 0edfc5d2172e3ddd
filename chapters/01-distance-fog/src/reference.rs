//! CPU reference for distance fog, in f64: the formulas the shader implements, written as
//! plainly as possible so tests can hold the GPU to them.

use crate::params::{DistanceFogParams, Falloff};

// ANCHOR: formulas
/// Linear fog: 0 before `start`, 1 after `end`.
pub fn linear(d: f64, start: f64, end: f64) -> f64 {
    1.0 - ((end - d) / (end - start).max(1e-6)).clamp(0.0, 1.0)
}

/// Exponential fog with extinction coefficient `density` (1/m).
pub fn exponential(d: f64, density: f64) -> f64 {
    1.0 - (-density * d).exp()
}

/// Exponential-squared fog: clearer near the eye, then thicker faster.
pub fn exponential_squared(d: f64, density: f64) -> f64 {
    1.0 - (-(density * d).powi(2)).exp()
}

/// Atmospheric fog: per-channel (extinction, inscattering) fractions.
pub fn atmospheric(d: f64, extinction: [f64; 3], inscattering: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    (extinction.map(|b| 1.0 - (-d * b).exp()), inscattering.map(|b| 1.0 - (-d * b).exp()))
}
// ANCHOR_END: formulas

// ANCHOR: koschmieder
/// Koschmieder's law: the extinction coefficient that leaves `contrast` of a black object's
/// contrast at distance `visibility` (m): β = −ln(C)/V. With C = 0.05, β ≈ 2.9957/V.
pub fn extinction_from_visibility(visibility: f64, contrast: f64) -> f64 {
    -contrast.ln() / visibility
}

/// The exponential-squared density with the same property: e^(−(ρV)²) = C.
pub fn squared_density_from_visibility(visibility: f64, contrast: f64) -> f64 {
    (-contrast.ln()).sqrt() / visibility
}

/// The linear end distance with the same property: 1 − f(V) = C.
pub fn linear_end_from_visibility(start: f64, visibility: f64, contrast: f64) -> f64 {
    start + (visibility - start) / (1.0 - contrast)
}
// ANCHOR_END: koschmieder

// ANCHOR: visibility_colors
/// Atmospheric coefficients from a visibility distance and two colours, mapped as a peer
/// engine's `from_visibility_colors` maps them (Bevy's `FogFalloff`): Koschmieder's β scaled per
/// channel k by (1 − e_k)^e for extinction and by i_k^e for inscattering, each also by its
/// colour's alpha to the power e. The `1 −` makes the extinction colour the colour the scene
/// keeps: a blue one extinguishes red and green and leaves distant objects blue, where scaling by
/// e_k itself would extinguish blue and leave them yellow. The exponent e is an artistic curve,
/// not physics. Black extinction and white inscattering give plain Koschmieder fog.
pub fn atmospheric_from_visibility_colors(
    visibility: f64,
    contrast: f64,
    extinction_color: [f64; 4],
    inscattering_color: [f64; 4],
) -> ([f64; 3], [f64; 3]) {
    use std::f64::consts::E;
    let beta = extinction_from_visibility(visibility, contrast);
    // Colours outside [0, 1] would raise a negative base to a fractional power (NaN).
    let unit = |c: [f64; 4]| c.map(|x| if x.is_finite() { x.clamp(0.0, 1.0) } else { 0.0 });
    let (e, i) = (unit(extinction_color), unit(inscattering_color));
    let extinction = std::array::from_fn(|k| beta * (1.0 - e[k]).powf(E) * e[3].powf(E));
    let inscattering = std::array::from_fn(|k| beta * i[k].powf(E) * i[3].powf(E));
    (extinction, inscattering)
}
// ANCHOR_END: visibility_colors

/// The fog after resolving the visibility option: the numbers the shader receives.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedFog {
    pub falloff: Falloff,
    pub start: f64,
    pub end: f64,
    pub density: f64,
    pub extinction: [f64; 3],
    pub inscattering: [f64; 3],
    /// The fog colour's alpha: how much of the fog is applied.
    pub amount: f64,
}

fn rgb(c: [f32; 4]) -> [f64; 3] {
    [c[0] as f64, c[1] as f64, c[2] as f64]
}

impl ResolvedFog {
    // ANCHOR: resolve
    pub fn new(p: &DistanceFogParams) -> Self {
        let mut fog = Self {
            falloff: p.falloff,
            start: p.start_m as f64,
            end: p.end_m as f64,
            density: p.density as f64,
            extinction: rgb(p.extinction),
            inscattering: rgb(p.inscattering),
            amount: p.color[3] as f64,
        };
        if p.use_visibility {
            let (v, c) = (p.visibility_m as f64, p.contrast_threshold as f64);
            match p.falloff {
                Falloff::Linear => {
                    fog.start = fog.start.min(v * 0.999);
                    fog.end = linear_end_from_visibility(fog.start, v, c);
                }
                Falloff::Exponential => fog.density = extinction_from_visibility(v, c),
                Falloff::ExponentialSquared => fog.density = squared_density_from_visibility(v, c),
                Falloff::Atmospheric => {
                    let rgba = |c: [f32; 4]| c.map(|x| x as f64);
                    (fog.extinction, fog.inscattering) =
                        atmospheric_from_visibility_colors(v, c, rgba(p.extinction_color), rgba(p.inscattering_color));
                }
            }
        }
        fog
    }
    // ANCHOR_END: resolve

    /// Per-channel (extinction, inscattering) at distance `d`, before the colour's alpha.
    pub fn amounts(&self, d: f64) -> ([f64; 3], [f64; 3]) {
        let f = match self.falloff {
            Falloff::Linear => linear(d, self.start, self.end),
            Falloff::Exponential => exponential(d, self.density),
            Falloff::ExponentialSquared => exponential_squared(d, self.density),
            Falloff::Atmospheric => return atmospheric(d, self.extinction, self.inscattering),
        };
        ([f; 3], [f; 3])
    }

    // ANCHOR: fog_factor
    /// The `fog-factor` view: the mean extinction, scaled by the colour's alpha.
    pub fn fog_factor(&self, d: f64) -> f64 {
        let (e, _) = self.amounts(d);
        self.amount * (e[0] + e[1] + e[2]) / 3.0
    }
    // ANCHOR_END: fog_factor

    // ANCHOR: composite
    /// The final colour: c (1 − a·ext) + fog · a·ins.
    pub fn composite(&self, scene: [f64; 3], fog_color: [f64; 3], d: f64) -> [f64; 3] {
        let (e, i) = self.amounts(d);
        std::array::from_fn(|k| scene[k] * (1.0 - self.amount * e[k]) + fog_color[k] * self.amount * i[k])
    }
    // ANCHOR_END: composite

    // ANCHOR: march_limit
    /// Distance (m) past which at most 1% of the fog lies; the glow's shadow march stops there.
    pub fn march_limit(&self) -> f64 {
        let ln100 = 100f64.ln();
        match self.falloff {
            Falloff::Linear => self.end.max(self.start),
            Falloff::Exponential => ln100 / self.density.max(1e-9),
            Falloff::ExponentialSquared => ln100.sqrt() / self.density.max(1e-9),
            Falloff::Atmospheric => {
                let weakest = self.inscattering.iter().cloned().fold(f64::INFINITY, f64::min);
                ln100 / weakest.max(1e-9)
            }
        }
    }
    // ANCHOR_END: march_limit
}

/// The glow added to the fog colour: max(v·l, 0)^exponent · sun colour · glow colour · weight.
pub fn glow(
    view_dir: [f64; 3],
    towards_sun: [f64; 3],
    exponent: f64,
    sun_color: [f64; 3],
    glow_color: [f64; 4],
) -> [f64; 3] {
    let cos = (view_dir[0] * towards_sun[0] + view_dir[1] * towards_sun[1] + view_dir[2] * towards_sun[2]).max(0.0);
    let g = cos.powf(exponent) * glow_color[3];
    std::array::from_fn(|k| g * sun_color[k] * glow_color[k])
}

#[cfg(test)]
mod tests {
    use super::*;

    // ANCHOR: invariant_test
    #[test]
    fn atmospheric_with_equal_coefficients_is_exponential() {
        for &rho in &[1e-4, 0.003, 0.02, 0.5] {
            for &d in &[0.0, 0.5, 10.0, 100.0, 4000.0] {
                let (e, i) = atmospheric(d, [rho; 3], [rho; 3]);
                let f = exponential(d, rho);
                for k in 0..3 {
                    assert!((e[k] - f).abs() < 1e-15 && (i[k] - f).abs() < 1e-15);
                }
                // And the composite collapses to mix(c, fog, f).
                let fog = ResolvedFog {
                    falloff: Falloff::Atmospheric,
                    start: 0.0,
                    end: 1.0,
                    density: rho,
                    extinction: [rho; 3],
                    inscattering: [rho; 3],
                    amount: 1.0,
                };
                let c = fog.composite([0.2, 0.5, 0.9], [1.0, 0.9, 0.8], d);
                let m = [0.2 + (1.0 - 0.2) * f, 0.5 + (0.9 - 0.5) * f, 0.9 + (0.8 - 0.9) * f];
                for k in 0..3 {
                    assert!((c[k] - m[k]).abs() < 1e-12);
                }
            }
        }
    }
    // ANCHOR_END: invariant_test

    #[test]
    fn koschmieder_constants_match_the_literature() {
        // 5% threshold: β = 2.9957/V; the classic 2%: β = 3.912/V.
        assert!((extinction_from_visibility(1.0, 0.05) - 2.9957).abs() < 1e-4);
        assert!((extinction_from_visibility(1.0, 0.02) - 3.9120).abs() < 1e-4);
    }

    // ANCHOR: visibility_test
    #[test]
    fn visibility_leaves_exactly_the_threshold_contrast_for_every_falloff() {
        for falloff in [Falloff::Linear, Falloff::Exponential, Falloff::ExponentialSquared, Falloff::Atmospheric] {
            for &(v, c) in &[(150.0f32, 0.05f32), (2000.0, 0.02), (3.0, 0.2)] {
                let p = DistanceFogParams {
                    falloff,
                    use_visibility: true,
                    visibility_m: v,
                    contrast_threshold: c,
                    start_m: 0.0,
                    ..Default::default()
                };
                let fog = ResolvedFog::new(&p);
                let contrast_left = 1.0 - fog.fog_factor(v as f64);
                assert!((contrast_left - c as f64).abs() < 1e-7, "{falloff:?} V={v} C={c}: {contrast_left}");
            }
        }
    }
    // ANCHOR_END: visibility_test

    // ANCHOR: visibility_colors_test
    #[test]
    fn visibility_colours_keep_their_meaning() {
        let (v, c) = (150.0, 0.05);
        let beta = extinction_from_visibility(v, c);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * (1.0 + b.abs());
        // Black extinction, white inscattering: plain Koschmieder fog in every channel.
        let (e, i) = atmospheric_from_visibility_colors(v, c, [0.0, 0.0, 0.0, 1.0], [1.0; 4]);
        assert!((0..3).all(|k| close(e[k], beta) && close(i[k], beta)));
        // White extinction and black inscattering switch each term off.
        let (e, i) = atmospheric_from_visibility_colors(v, c, [1.0; 4], [0.0, 0.0, 0.0, 1.0]);
        assert!(e.iter().chain(&i).all(|&x| x == 0.0));
        // A blue extinction colour keeps blue: a white wall at the visibility distance, seen
        // through fog that scatters nothing in, stays blue (not yellow), and exactly the contrast
        // threshold is left in the channels the colour does not contain.
        let (e, i) = atmospheric_from_visibility_colors(v, c, [0.1, 0.2, 0.9, 1.0], [0.0, 0.0, 0.0, 1.0]);
        let fog = ResolvedFog {
            falloff: Falloff::Atmospheric,
            start: 0.0,
            end: 1.0,
            density: 0.0,
            extinction: e,
            inscattering: i,
            amount: 1.0,
        };
        let wall = fog.composite([1.0; 3], [1.0; 3], v);
        assert!(wall[2] > wall[1] && wall[1] > wall[0], "a blue extinction colour turned {wall:?}");
        let (e, _) = atmospheric_from_visibility_colors(v, c, [0.0, 0.0, 1.0, 1.0], [1.0; 4]);
        let fog = ResolvedFog { extinction: e, ..fog };
        let wall = fog.composite([1.0; 3], [0.0; 3], v);
        assert!(close(wall[0], c) && close(wall[1], c) && close(wall[2], 1.0), "{wall:?}");
        // The (1 − e)^e and alpha^e curves, checked at one value against a hand calculation:
        // (1 − 0.5)^e = 0.151955, 0.5^e · 0.5^e = 0.023090.
        let (e, i) = atmospheric_from_visibility_colors(v, c, [0.5, 0.0, 0.0, 1.0], [0.5, 1.0, 1.0, 0.5]);
        assert!((e[0] / beta - 0.151_955).abs() < 1e-5, "{}", e[0] / beta);
        assert!((i[0] / beta - 0.023_091).abs() < 1e-5, "{}", i[0] / beta);
        // Out-of-range and NaN colours give finite coefficients.
        let (e, i) = atmospheric_from_visibility_colors(v, c, [-1.0, f64::NAN, 2.0, 1.0], [-3.0, 4.0, f64::NAN, 1.0]);
        assert!(e.iter().chain(&i).all(|x| x.is_finite() && *x >= 0.0));
    }
    // ANCHOR_END: visibility_colors_test

    #[test]
    fn falloffs_are_monotonic_and_bounded() {
        let mut prev = [0.0; 3];
        for i in 0..=1000 {
            let d = i as f64 * 0.5;
            let now = [linear(d, 10.0, 200.0), exponential(d, 0.01), exponential_squared(d, 0.01)];
            for k in 0..3 {
                assert!((0.0..=1.0).contains(&now[k]) && now[k] >= prev[k]);
            }
            prev = now;
        }
        assert_eq!(linear(5.0, 10.0, 200.0), 0.0);
        assert_eq!(linear(250.0, 10.0, 200.0), 1.0);
        assert!((linear(105.0, 10.0, 200.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn march_limit_holds_99_percent_of_the_fog() {
        for falloff in [Falloff::Exponential, Falloff::ExponentialSquared, Falloff::Atmospheric] {
            let fog = ResolvedFog::new(&DistanceFogParams { falloff, ..Default::default() });
            let (_, i) = fog.amounts(fog.march_limit());
            assert!(i.iter().all(|x| *x >= 0.99 - 1e-12), "{falloff:?}: {i:?}");
        }
    }

    #[test]
    fn glow_peaks_towards_the_sun() {
        let sun = [0.0, 0.6, -0.8];
        let g = glow(sun, sun, 8.0, [1.0; 3], [1.0, 1.0, 1.0, 0.5]);
        assert!((g[0] - 0.5).abs() < 1e-12);
        let away = glow([0.0, -0.6, 0.8], sun, 8.0, [1.0; 3], [1.0, 1.0, 1.0, 0.5]);
        assert_eq!(away, [0.0; 3]);
    }
}
