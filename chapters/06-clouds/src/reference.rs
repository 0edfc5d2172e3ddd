//! The f64 reference the GPU march is checked against: single scattering of the sun in a
//! homogeneous slab — the cloud layer's spherical shell at constant density, one phase lobe, one
//! octave, no ambient light — integrated along the view ray with composite Simpson's rule:
//!
//! L = ∫ e^(−σt (t − t₀)) · σs · π E · p_HG(g, cos θ) · e^(−σt ℓ(x(t))) dt,   T = e^(−σt (t₁ − t₀)),
//!
//! with ℓ(x) the distance from x to the shell's boundary towards the sun (capped at the light
//! march's length) and E the sun's light in the units of the frame's `sun_color`.

use glam::DVec3;
use std::f64::consts::PI;

// ANCHOR: slab
/// A homogeneous cloud layer lit by a sun of constant colour (no sky in the stack).
#[derive(Clone, Copy, Debug)]
pub struct Slab {
    pub planet_radius_m: f64,
    pub bottom_m: f64,
    pub thickness_m: f64,
    /// Extinction σt (1/m) and single-scattering albedo σs / σt.
    pub extinction: f64,
    pub albedo: f64,
    /// Henyey–Greenstein asymmetry of the one lobe.
    pub g: f64,
    /// Longest light march (m): beyond it the sun's ray is taken as clear.
    pub light_march_m: f64,
    /// Longest view march through the layer (m).
    pub max_march_m: f64,
    /// Unit vector towards the sun, and its light (frame.sun_color × illuminance scale).
    pub sun_dir: DVec3,
    pub sun: DVec3,
}
// ANCHOR_END: slab

/// Light scattered towards the eye by the slab and its transmittance along the view ray.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlabLight {
    pub radiance: DVec3,
    pub transmittance: f64,
}

pub fn henyey_greenstein(g: f64, cos_theta: f64) -> f64 {
    let d = 1.0 + g * g - 2.0 * g * cos_theta;
    (1.0 - g * g) / (4.0 * PI * d * d.sqrt())
}

/// (near, far) distances to a sphere of radius s from radius r along a ray with zenith cosine
/// μ; `None` when the ray misses it.
fn sphere_hits(r: f64, mu: f64, s: f64) -> Option<(f64, f64)> {
    let b = r * mu;
    let disc = b * b - r * r + s * s;
    (disc >= 0.0).then(|| (-b - disc.sqrt(), -b + disc.sqrt()))
}

impl Slab {
    fn centre(&self) -> DVec3 {
        DVec3::new(0.0, -self.planet_radius_m, 0.0)
    }

    fn bottom_radius(&self) -> f64 {
        self.planet_radius_m + self.bottom_m
    }

    fn top_radius(&self) -> f64 {
        self.bottom_radius() + self.thickness_m
    }

    fn zenith(&self, p: DVec3, dir: DVec3) -> (f64, f64) {
        let rel = p - self.centre();
        let r = rel.length();
        (r, rel.dot(dir) / r)
    }

    // ANCHOR: segment
    /// The first stretch of the ray from o along unit v inside the layer, before `end`.
    pub fn segment(&self, o: DVec3, v: DVec3, end: f64) -> Option<(f64, f64)> {
        let (r, mu) = self.zenith(o, v);
        let (top0, top1) = sphere_hits(r, mu, self.top_radius())?;
        if top1 <= 0.0 {
            return None;
        }
        let (mut t0, mut t1) = (top0.max(0.0), top1);
        if let Some((b0, b1)) = sphere_hits(r, mu, self.bottom_radius()).filter(|b| b.1 > t0) {
            if b0 > t0 {
                t1 = t1.min(b0);
            } else {
                t0 = b1;
            }
        }
        if let Some((g0, g1)) = sphere_hits(r, mu, self.planet_radius_m)
            && g1 > 0.0
            && g0.max(0.0) < t0
        {
            return None;
        }
        let t1 = t1.min(end).min(t0 + self.max_march_m);
        (t1 > t0).then_some((t0, t1))
    }
    // ANCHOR_END: segment

    /// Distance from p to the layer's boundary towards the sun, capped at the light march;
    /// `None` when the planet hides the sun.
    fn sun_path(&self, p: DVec3) -> Option<f64> {
        let (r, mu) = self.zenith(p, self.sun_dir);
        if mu < 0.0 && r * r * (1.0 - mu * mu) < self.planet_radius_m * self.planet_radius_m {
            return None;
        }
        let mut exit = sphere_hits(r, mu, self.top_radius()).map_or(0.0, |h| h.1);
        if let Some((b0, _)) = sphere_hits(r, mu, self.bottom_radius())
            && b0 > 0.0
        {
            exit = exit.min(b0);
        }
        Some(exit.clamp(0.0, self.light_march_m))
    }

    // ANCHOR: integral
    /// The single-scattering integral along the ray from o along unit v, up to `end`.
    pub fn single_scattering(&self, o: DVec3, v: DVec3, end: f64) -> SlabLight {
        let Some((t0, t1)) = self.segment(o, v, end) else {
            return SlabLight { radiance: DVec3::ZERO, transmittance: 1.0 };
        };
        let sigma = self.extinction;
        let phase = henyey_greenstein(self.g, v.dot(self.sun_dir));
        let source = |t: f64| {
            let sun = self.sun_path(o + v * t).map_or(0.0, |l| (-sigma * l).exp());
            (-sigma * (t - t0)).exp() * sun
        };
        // Composite Simpson's rule; the integrand is smooth inside the layer.
        let n = 512;
        let h = (t1 - t0) / n as f64;
        let mut sum = source(t0) + source(t1);
        for i in 1..n {
            sum += source(t0 + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        let integral = sum * h / 3.0;
        SlabLight {
            radiance: self.sun * (PI * phase * sigma * self.albedo * integral),
            transmittance: (-sigma * (t1 - t0)).exp(),
        }
    }
    // ANCHOR_END: integral
}

/// The share of the sun's light that octave `i` of the multiple-scattering approximation scatters
/// at a point through optical depth `tau` towards the sun, over all directions (each octave's
/// phase function integrates to 1): bⁱ e^(−aⁱ τ), as lighting.wgsl's `sun_octaves` weighs it.
pub fn octave_share(i: i32, tau: f64, a: f64, b: f64) -> f64 {
    b.powi(i) * (-a.powi(i) * tau).exp()
}

/// The sum of `octave_share` over `octaves` octaves. Single scattering at a point with no cloud
/// between it and the sun gives 1.
pub fn octaves_share(octaves: u32, tau: f64, a: f64, b: f64) -> f64 {
    (0..octaves as i32).map(|i| octave_share(i, tau, a, b)).sum()
}

/// The weather map's coverage `map` moved by the `coverage` parameter, as density.wgsl's
/// `coverage_at`: 0 clears every texel, 1 fills every texel, ½ leaves the map as it is.
pub fn coverage_at(map: f64, coverage: f64) -> f64 {
    (map + 2.0 * coverage - 1.0).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slab() -> Slab {
        Slab {
            planet_radius_m: 6.36e6,
            bottom_m: 1000.0,
            thickness_m: 500.0,
            extinction: 0.004,
            albedo: 1.0,
            g: 0.0,
            light_march_m: 1e5,
            max_march_m: 1e6,
            sun_dir: DVec3::Y,
            sun: DVec3::ONE,
        }
    }

    /// Looking straight up with the sun overhead the integral has a closed form:
    /// L = σs π E p ∫₀^H e^(−σ t) e^(−σ (H − t)) dt = σs π E p H e^(−σ H).
    #[test]
    fn overhead_sun_matches_the_closed_form() {
        let s = slab();
        let got = s.single_scattering(DVec3::ZERO, DVec3::Y, f64::INFINITY);
        let h = s.thickness_m;
        let want = s.extinction * PI * henyey_greenstein(0.0, 1.0) * h * (-s.extinction * h).exp();
        assert!((got.radiance.x - want).abs() < 1e-9 * want, "{} {want}", got.radiance.x);
        assert!((got.transmittance - (-s.extinction * h).exp()).abs() < 1e-12);
    }

    /// From below, above and inside, the segment has the layer's length along the vertical.
    #[test]
    fn segments_from_below_inside_and_above() {
        let s = slab();
        let len = |o: DVec3, v: DVec3| s.segment(o, v, f64::INFINITY).map(|(a, b)| b - a);
        assert!((len(DVec3::ZERO, DVec3::Y).unwrap() - 500.0).abs() < 1e-6);
        assert!((len(DVec3::new(0.0, 1200.0, 0.0), DVec3::Y).unwrap() - 300.0).abs() < 1e-6);
        assert!((len(DVec3::new(0.0, 3000.0, 0.0), -DVec3::Y).unwrap() - 500.0).abs() < 1e-6);
        assert_eq!(len(DVec3::ZERO, -DVec3::Y), None, "towards the ground");
        assert_eq!(len(DVec3::new(0.0, 3000.0, 0.0), DVec3::Y), None, "away from the layer");
    }
}
