//! The scene's local lights: up to eight point and spot lights on a ring around the tower, which
//! the scene's surfaces and the volumetric grid's fog are lit by. They are part of the frame uniform
//! (`Frame::lights`), laid out here from the scene settings and the simulated time.
//!
//! Each light is a point source of intensity I (relative units per steradian, like the sun's
//! relative illuminance): at distance d it gives irradiance I / d², times a window that reaches
//! zero at the light's range (Karis 2013, "Real Shading in Unreal Engine 4"), and for a spot the
//! cone falloff. The distance is clamped below at `LIGHT_RADIUS_M`, the size of the bulb, so a
//! point inside it receives a finite value.

use crate::scene_settings::SceneSettings;
use bytemuck::{Pod, Zeroable};
use glam::DVec3;

/// Most local lights a frame carries (the frame uniform's array size; the WGSL's
/// `MAX_LOCAL_LIGHTS` comes from here, `shaders::core_constants`).
pub const MAX_LOCAL_LIGHTS: usize = 8;
/// The bulb's radius (m): irradiance is I / max(d, r)², finite inside it.
pub const LIGHT_RADIUS_M: f64 = 0.25;
/// Centre of the ring the lights stand on: the foot of the tower's near side, on the ground.
pub const RING_CENTRE: [f64; 3] = [46.0, 0.0, -130.0];
/// A spot's inner cone (full intensity) as a fraction of its outer half-angle.
pub const SPOT_INNER_FRACTION: f64 = 0.8;

// ANCHOR: local_light
/// Mirrors `struct LocalLight` in shaders/common/frame.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct LocalLight {
    /// xyz: position (m); w: range (m), where the window reaches zero.
    pub position: [f32; 4],
    /// rgb: intensity I × colour (relative units per steradian); w: cos of the inner cone.
    pub intensity: [f32; 4],
    /// xyz: unit direction the spot points along; w: cos of the outer cone (−2 for a point light).
    pub spot: [f32; 4],
}
// ANCHOR_END: local_light

/// A light in f64, for the CPU references.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    pub position: DVec3,
    pub range: f64,
    pub intensity: DVec3,
    /// (direction, cos inner, cos outer) for a spot.
    pub spot: Option<(DVec3, f64, f64)>,
}

// ANCHOR: attenuation
impl Light {
    /// Irradiance per unit intensity reaching `p` (1/m²): 1 / max(d, r)² · window · cone, with
    /// window = (1 − (d / range)⁴)² clamped to [0, 1] and cone the squared linear ramp from the
    /// outer to the inner cosine.
    pub fn attenuation(&self, p: DVec3) -> f64 {
        let to_point = p - self.position;
        let d = to_point.length();
        let window = (1.0 - (d / self.range).powi(4)).clamp(0.0, 1.0).powi(2);
        let mut a = window / d.max(LIGHT_RADIUS_M).powi(2);
        if let Some((dir, cos_inner, cos_outer)) = self.spot {
            let cos = if d > 0.0 { to_point.dot(dir) / d } else { 1.0 };
            let t = ((cos - cos_outer) / (cos_inner - cos_outer).max(1e-4)).clamp(0.0, 1.0);
            a *= t * t;
        }
        a
    }

    /// Unit vector from `p` towards the light (any unit vector at the light itself).
    pub fn direction_from(&self, p: DVec3) -> DVec3 {
        (self.position - p).normalize_or(DVec3::Y)
    }
}
// ANCHOR_END: attenuation

fn finite_or(v: f32, lo: f32, hi: f32, fallback: f32) -> f64 {
    crate::params::finite_in(v, lo, hi, fallback) as f64
}

// ANCHOR: ring
/// The lights of these settings at time `time_s`: `point_lights` point lights, then `spot_lights`
/// spots pointing straight down (at most `MAX_LOCAL_LIGHTS` in all), evenly spaced on a ring of
/// radius `light_ring_radius_m` at height `light_height_m` around `RING_CENTRE`, which turns at
/// `light_orbit_deg_s`.
pub fn scene_lights(scene: &SceneSettings, time_s: f64) -> Vec<Light> {
    let points = scene.point_lights.min(MAX_LOCAL_LIGHTS as u32) as usize;
    let count = (points + scene.spot_lights as usize).min(MAX_LOCAL_LIGHTS);
    let radius = finite_or(scene.light_ring_radius_m, 0.0, 500.0, 0.0);
    let height = finite_or(scene.light_height_m, 0.0, 500.0, 0.0);
    let range = finite_or(scene.light_range_m, 0.5, 1.0e4, 1.0);
    let i = finite_or(scene.light_intensity, 0.0, 1.0e6, 0.0);
    let c = scene.light_color.map(|v| finite_or(v, 0.0, 1.0, 0.0));
    let half_angle = finite_or(scene.spot_angle_deg, 1.0, 89.0, 30.0).to_radians();
    let orbit = finite_or(scene.light_orbit_deg_s, -360.0, 360.0, 0.0).to_radians();
    let turn = (orbit * time_s).rem_euclid(std::f64::consts::TAU);
    (0..count)
        .map(|k| {
            let a = turn + std::f64::consts::TAU * k as f64 / count as f64;
            let position = DVec3::from(RING_CENTRE) + DVec3::new(radius * a.cos(), height, radius * a.sin());
            let spot = (k >= points).then(|| {
                let (inner, outer) = ((half_angle * SPOT_INNER_FRACTION).cos(), half_angle.cos());
                (DVec3::NEG_Y, inner, outer)
            });
            Light { position, range, intensity: i * DVec3::new(c[0], c[1], c[2]), spot }
        })
        .collect()
}
// ANCHOR_END: ring

impl LocalLight {
    pub fn from_light(l: &Light) -> Self {
        let p = l.position.as_vec3();
        let (dir, inner, outer) = l.spot.unwrap_or((DVec3::NEG_Y, 1.0, -2.0));
        let i = l.intensity.as_vec3();
        let d = dir.as_vec3();
        Self {
            position: [p.x, p.y, p.z, l.range as f32],
            intensity: [i.x, i.y, i.z, inner as f32],
            spot: [d.x, d.y, d.z, outer as f32],
        }
    }
}

/// The frame uniform's light array and count for these settings.
pub fn frame_lights(scene: &SceneSettings, time_s: f64) -> ([LocalLight; MAX_LOCAL_LIGHTS], u32) {
    let lights = scene_lights(scene, time_s);
    let mut out = [LocalLight::default(); MAX_LOCAL_LIGHTS];
    for (slot, l) in out.iter_mut().zip(&lights) {
        *slot = LocalLight::from_light(l);
    }
    (out, lights.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_holds_the_requested_lights_and_never_more_than_eight() {
        let mut s = SceneSettings { point_lights: 3, spot_lights: 2, ..Default::default() };
        let lights = scene_lights(&s, 0.0);
        assert_eq!(lights.len(), 5);
        assert_eq!(lights.iter().filter(|l| l.spot.is_some()).count(), 2);
        s.point_lights = 8;
        s.spot_lights = 8;
        assert_eq!(scene_lights(&s, 0.0).len(), MAX_LOCAL_LIGHTS);
        s.light_intensity = f32::NAN;
        s.light_ring_radius_m = f32::INFINITY;
        for l in scene_lights(&s, 1.0) {
            assert!(l.position.is_finite() && l.intensity.is_finite(), "{l:?}");
        }
    }

    #[test]
    fn attenuation_is_inverse_square_inside_the_window_and_zero_past_the_range() {
        let l = Light { position: DVec3::ZERO, range: 100.0, intensity: DVec3::ONE, spot: None };
        // At 10 m the window is (1 − 1e-4)², within 2e-4 of 1.
        let a = l.attenuation(DVec3::new(10.0, 0.0, 0.0));
        assert!((a * 100.0 - 1.0).abs() < 2.1e-4, "{a}");
        assert_eq!(l.attenuation(DVec3::new(100.0, 0.0, 0.0)), 0.0);
        // Inside the bulb: finite, 1/r².
        assert!((l.attenuation(DVec3::ZERO) - 1.0 / (LIGHT_RADIUS_M * LIGHT_RADIUS_M)).abs() < 1e-9);
        let spot = Light { spot: Some((DVec3::NEG_Y, 0.9, 0.8)), ..l };
        assert!(spot.attenuation(DVec3::new(0.0, -5.0, 0.0)) > 0.0);
        assert_eq!(spot.attenuation(DVec3::new(5.0, -1.0, 0.0)), 0.0, "outside the cone");
    }
}
