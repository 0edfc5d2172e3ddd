//! Chapter 6's answer keys: each reads its number from the page's "Try this" and computes it
//! from the chapter's CPU reference or the core.

use super::{close, numbers_after, page_answer, scientific_after};
use fogbook_clouds::reference::{Slab, coverage_at, octaves_share};
use fogbook_clouds::{CloudParams, noise, shadow};
use fogbook_core::camera::CameraPose;
use fogbook_core::params::set_by_name;
use fogbook_core::scene_settings::SceneSettings;
use glam::DVec3;

const PAGE: &str = "ch06-clouds.md";

/// The clouds' parameters after `sets` (`name=value`).
fn params(sets: &[&str]) -> CloudParams {
    let mut p = CloudParams::default();
    for s in sets {
        let (name, value) = s.split_once('=').unwrap();
        set_by_name(&mut p, name, value).unwrap();
    }
    p
}

/// The scene's sun direction at `elevation_deg` (the default azimuth unless given).
fn sun(elevation_deg: f32, azimuth_deg: Option<f32>) -> [f32; 3] {
    let mut scene = SceneSettings::default();
    set_by_name(&mut scene, "sun_elevation_deg", &elevation_deg.to_string()).unwrap();
    if let Some(a) = azimuth_deg {
        set_by_name(&mut scene, "sun_azimuth_deg", &a.to_string()).unwrap();
    }
    scene.sun_direction().to_array()
}

/// The layer of `p` as the f64 reference's slab, lit by a white sun from `sun_dir`.
fn slab(p: &CloudParams, sun_dir: DVec3) -> Slab {
    p.slab(sun_dir, DVec3::ONE)
}

/// The length of the first stretch of the ray from `o` along `dir` inside the layer.
fn stretch(s: &Slab, o: DVec3, dir: DVec3) -> f64 {
    let (t0, t1) = s.segment(o, dir, f64::INFINITY).expect("the ray meets the layer");
    t1 - t0
}

/// Try this 1: 1 km of the default extinction, straight up through a slab 1 km thick.
#[test]
fn optical_depth_of_a_cloud() {
    let answer = page_answer(PAGE, "1. **Optical depth of a cloud.**");
    let s = slab(&params(&["layer_thickness_m=1000"]), DVec3::Y);
    let t = s.single_scattering(DVec3::ZERO, DVec3::Y, f64::INFINITY).transmittance;
    close(-t.ln(), numbers_after(&answer, "τ = ")[0], 1e-4, "optical depth of 1 km at the default extinction");
    let (mantissa, power) = scientific_after(&answer, "e^(−50) ≈ ");
    close(t / 10f64.powi(power), mantissa, 0.05, "direct sunlight left, × 10^-power");
}

/// Try this 2: the optical depth towards the sun below which three octaves pass on more than
/// single scattering gives a point with no cloud in front of it.
#[test]
fn the_octaves_budget() {
    let answer = page_answer(PAGE, "2. **The octaves' budget.**");
    let depths = numbers_after(&answer, "τ = ");
    assert_eq!(depths.len(), 2, "Try this 2 gives τ for the exercise's settings and the defaults: {answer}");
    let above_one = |p: &CloudParams| {
        let share = |tau: f64| octaves_share(p.octaves, tau, p.octave_extinction as f64, p.octave_contribution as f64);
        assert!(share(0.0) > 1.0, "the octaves start below 1");
        let (mut lo, mut hi) = (0.0, 1000.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if share(mid) > 1.0 { lo = mid } else { hi = mid }
        }
        lo
    };
    let bright = params(&["octave_contribution=1", "octave_extinction=0.1"]);
    close(above_one(&bright), depths[0], 0.05, "τ below which b = 1, a = 0.1 overshoot");
    close(above_one(&CloudParams::default()), depths[1], 0.005, "τ below which the defaults overshoot");
}

/// Try this 3: the remap adds 2 × coverage − 1; the mean coverage of the generated map (default
/// seed, full resolution) at 0.4, ½ and 0.6.
#[test]
fn coverage() {
    let answer = page_answer(PAGE, "3. **Coverage.**");
    for k in 0..=255 {
        let r = k as f64 / 255.0;
        assert!((coverage_at(r, 0.5) - r).abs() < 1e-15, "coverage ½ changes the map at {r}");
        assert_eq!((coverage_at(r, 0.0), coverage_at(r, 1.0)), (0.0, 1.0), "coverage 0 and 1 at {r}");
    }
    let p = CloudParams::default();
    let n = p.noise_resolution.sizes()[2];
    let map: Vec<f64> = (0..n * n)
        .map(|i| {
            let uv = noise::texel_uvw([i % n, i / n, 0], n);
            noise::weather([uv.x, uv.y], p.noise_seed)[0]
        })
        .collect();
    let mean = |c: f64| map.iter().map(|&r| coverage_at(r, c)).sum::<f64>() / map.len() as f64;
    for (c, marker) in [(0.4, "at 0.4, "), (0.5, "at ½, "), (0.6, "at 0.6, ")] {
        close(mean(c), numbers_after(&answer, marker)[0], 0.005, &format!("the map's mean coverage at {c}"));
    }
}

/// Try this 4: the step length of the figures' view (20° up from 2 m) at 64 and 32 steps.
#[test]
fn step_count() {
    let answer = page_answer(PAGE, "4. **Step count.**");
    let steps = numbers_after(&answer, "Δ = ");
    assert_eq!(steps.len(), 2, "Try this 4 gives Δ at 64 and at 32 steps: {answer}");
    let p = CloudParams::default();
    let pose = CameraPose::parse("0,2,0,0,20,70").unwrap();
    let length = stretch(&slab(&p, DVec3::Y), pose.eye().as_dvec3(), pose.forward().as_dvec3().normalize());
    close(length / 1000.0, numbers_after(&answer, "crosses ")[0], 0.05, "the view ray in the layer (km)");
    close(length / p.view_steps as f64, steps[0], 0.5, "step length at the default steps (m)");
    close(length / (p.view_steps / 2) as f64, steps[1], 0.5, "step length at half the steps (m)");
}

/// Try this 5: the thickness that scatters most towards an eye below an overhead sun, found on
/// the f64 single-scattering integral itself.
#[test]
fn the_slab_by_hand() {
    let answer = page_answer(PAGE, "5. **The slab by hand.**");
    let p = CloudParams::default();
    let light = |h: f64| {
        let s = Slab { thickness_m: h, ..slab(&p, DVec3::Y) };
        s.single_scattering(DVec3::ZERO, DVec3::Y, f64::INFINITY).radiance.x
    };
    // Golden-section search for the maximum.
    let (mut a, mut b) = (1.0, 500.0);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let (c, d) = (b - r * (b - a), a + r * (b - a));
        if light(c) > light(d) { b = d } else { a = c }
    }
    close(0.5 * (a + b), numbers_after(&answer, "which is ")[0], 0.05, "brightest slab's thickness (m)");
}

/// Try this 6: how far from the camera the froxels' lookups land, for the worst sun azimuth.
#[test]
fn how_big_a_square() {
    let answer = page_answer(PAGE, "6. **How big a square?**");
    let number = |marker: &str| numbers_after(&answer, marker)[0];
    // The farthest ground point, along either axis, of points 100 m from the camera and 20 m up.
    let reach = |elevation: f32, extent_km: f32| {
        let (mut farthest, mut all_inside) = (0.0f64, true);
        for azimuth in (0..360).map(|a| a as f32 - 180.0) {
            let (extent_m, resolution) = shadow::map_size(extent_km, 256);
            let map = shadow::map_uniform([0.0, 2.0, 0.0], sun(elevation, Some(azimuth)), extent_m, resolution, 1.0);
            for k in 0..360 {
                let a = (k as f64).to_radians();
                let uv = shadow::lookup_uv(&map, [100.0 * a.cos(), 20.0, 100.0 * a.sin()]);
                all_inside &= uv.is_some();
                // The same point on a map large enough to hold it, in metres from the camera.
                let big = shadow::map_uniform([0.0, 2.0, 0.0], map.towards_sun, 4000.0, 4000, 1.0);
                let uv = shadow::lookup_uv(&big, [100.0 * a.cos(), 20.0, 100.0 * a.sin()]).unwrap();
                farthest = farthest.max((uv[0] - 0.5).abs().max((uv[1] - 0.5).abs()) * 4000.0);
            }
        }
        (farthest, all_inside)
    };
    let beyond = |elevation: f32| {
        let (extent_m, resolution) = shadow::map_size(16.0, 256);
        let map = shadow::map_uniform([0.0, 0.0, 0.0], sun(elevation, None), extent_m, resolution, 1.0);
        let uv = shadow::lookup_uv(&map, [0.0, 20.0, 0.0]).unwrap();
        ((uv[0] - 0.5) * extent_m as f64).hypot((uv[1] - 0.5) * extent_m as f64)
    };
    close(beyond(10.0), number("tan 10° = "), 0.5, "how far a froxel 20 m up looks at a 10° sun (m)");
    close(beyond(4.0), number("looks "), 0.5, "and at a 4° sun (m)");
    let smallest = number("smallest square, ");
    let (at_10, inside_10) = reach(10.0, smallest as f32);
    close(at_10, number("100 + 113 = "), 0.5, "half-extent needed at 10° (m)");
    assert!(inside_10, "at 10° the {smallest} km square misses a froxel");
    let (at_4, inside_4) = reach(4.0, smallest as f32);
    close(at_4, number("away, "), 0.5, "half-extent needed at 4° (m)");
    assert!(!inside_4, "at 4° the {smallest} km square holds every froxel");
    let needed = number("needs ");
    assert!(reach(4.0, needed as f32).1, "at 4° the {needed} km square misses a froxel");
    assert!(needed - 0.1 < 2.0 * at_4 / 1000.0, "at 4° a square of {:.1} km would do", needed - 0.1);
    // The smallest square the parameter takes.
    let mut p = CloudParams::default();
    assert!(set_by_name(&mut p, "shadow_extent_km", &smallest.to_string()).is_ok(), "{smallest} km refused");
    assert!(
        set_by_name(&mut p, "shadow_extent_km", &(smallest * 0.99).to_string()).is_err(),
        "below {smallest} km taken"
    );
}

/// Try this 7: the stretch of the default layer along a 10° sun from the ground, and the
/// distance between the shadow map's samples on it.
#[test]
fn shadow_steps() {
    let answer = page_answer(PAGE, "7. **Shadow steps.**");
    let p = CloudParams::default();
    let l = fogbook_core::cloud_shadow::CloudShadowUniform::clamped_sun(sun(10.0, None));
    let l = DVec3::new(l[0] as f64, l[1] as f64, l[2] as f64);
    // From just above the ground (on it, the ray would graze the planet).
    let length = stretch(&slab(&p, l), DVec3::new(0.0, 0.01, 0.0), l);
    close(length / 1000.0, numbers_after(&answer, "crosses ")[0], 0.05, "the layer along a 10° sun (km)");
    close(length / 1000.0 / p.shadow_steps as f64, numbers_after(&answer, "layer: ")[0], 0.005, "between samples (km)");
}
