//! The clouds' shadow map against the f64 slab, and that shadow on the scene and in the froxel fog.

use crate::common::*;
use crate::{draw, stack};
use fogbook::state::Setup;
use fogbook_clouds::{CloudParams, Clouds};
use fogbook_core::Loaded;
use glam::DVec3;

/// The slab of the shadow-map checks: thin (600 m at σt = 10⁻³/m: τ = 0.6 straight up), a map of
/// 32² texels over 8 km (250 m texels), and a march of 4 steps (the slab's density is constant,
/// so the midpoint rule is exact and only the geometry can be wrong).
fn shadow_slab() -> Vec<String> {
    [
        "density_model=slab",
        "noise_resolution=low",
        "layer_bottom_m=1000",
        "layer_thickness_m=600",
        "extinction=0.001",
        "view_steps=8",
        "light_steps=1",
        "jitter=false",
        "shadow_resolution=32",
        "shadow_extent_km=8",
        "shadow_steps=4",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The f64 transmittance from `ground` towards the sun `sun` through the slab of `p` on its
/// spherical planet: e^(−σt·L), L from where the ray leaves the sphere of the layer's bottom to
/// where it leaves the sphere of its top (capped at the longest march), the sun clamped to 3° of
/// elevation as the map's builder clamps it.
// ANCHOR: shadow_f64
fn slab_shadow_f64(p: &CloudParams, sun: DVec3, ground: DVec3) -> f64 {
    let min_sin = fogbook_core::cloud_shadow::MIN_SUN_SIN as f64;
    let l = if sun.y >= min_sin {
        sun.normalize()
    } else {
        let h = DVec3::new(sun.x, 0.0, sun.z).normalize();
        h * (1.0 - min_sin * min_sin).sqrt() + DVec3::Y * min_sin
    };
    let radius = p.planet_radius_km as f64 * 1000.0;
    let rel = ground - DVec3::new(0.0, -radius, 0.0);
    let (r, mu) = (rel.length(), rel.dot(l) / rel.length());
    let leaves = |s: f64| -r * mu + (r * r * (mu * mu - 1.0) + s * s).sqrt();
    let bottom = radius + p.layer_bottom_m as f64;
    let t0 = leaves(bottom).max(0.0);
    let t1 = leaves(bottom + p.layer_thickness_m as f64).min(t0 + p.max_march_km as f64 * 1000.0);
    (-(p.extinction as f64) * (t1 - t0).max(0.0)).exp()
}
// ANCHOR_END: shadow_f64

/// The shadow map of the homogeneous slab against the f64 transmittance, texel by texel, for
/// four suns (60°, 25°, 8°, and 5° below the horizon, which the map takes at 3°). The `cloud-
/// shadow` view at the map's own size shows each texel once. Tolerance 2·10⁻³ relative (plus
/// 10⁻⁶): the map is rgba16float (relative rounding 2⁻¹¹ = 4.9·10⁻⁴) and its rays' ends come from
/// f32 sphere intersections on a 6.36·10⁶ m planet (~0.5 m each, so σt·1 m = 10⁻³ in τ).
#[test]
fn shadow_map_matches_the_f64_slab_transmittance() {
    const N: u32 = 32;
    let camera = "0,2,0,0,10,70";
    let mut h = headless([N, N]);
    let mut clouds = stack(&h, "clouds");
    let builds = |setup: &mut Setup| {
        let loaded = setup.stack.chapters_mut()[0].as_any_mut().downcast_mut::<Loaded<Clouds>>().unwrap();
        loaded.gpu.as_ref().unwrap().shadow.builds
    };
    let mut built = builds(&mut clouds);
    for elevation in [60.0, 25.0, 8.0, -5.0] {
        let mut sets = shadow_slab();
        sets.push(format!("scene.sun_elevation_deg={elevation}"));
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        let map = &draw(&mut h, &mut clouds, &sets, camera, &["cloud-shadow"])[0];
        // A new sun builds the map again; a frame with nothing changed does not (the first
        // redraw's clock stands at 0, the draw's one step on: the wind moved the clouds).
        assert!(builds(&mut clouds) > built, "sun at {elevation}°: the map was not rebuilt");
        let view = clouds.stack.find_view("final").unwrap();
        h.redraw(&mut clouds.stack, &clouds.camera, &clouds.scene, view);
        built = builds(&mut clouds);
        h.redraw(&mut clouds.stack, &clouds.camera, &clouds.scene, view);
        assert_eq!(builds(&mut clouds), built, "sun at {elevation}°: a still frame rebuilt the map");
        let (p, scene) = typed_settings::<CloudParams>(&sets);
        let sun = scene.sun_direction().as_dvec3();
        let extent = p.shadow_extent_km as f64 * 1000.0;
        // ANCHOR: shadow_test
        let (mut worst, mut worst_rel, mut mean) = (0.0f64, 0.0f64, 0.0f64);
        for y in 0..N {
            for x in 0..N {
                let at = |i: u32| ((i as f64 + 0.5) / N as f64 - 0.5) * extent;
                let want = slab_shadow_f64(&p, sun, DVec3::new(at(x), 0.0, at(y)));
                let got = map.pixel(x, y)[0] as f64;
                let err = (got - want).abs();
                assert!(err <= 2e-3 * want + 1e-6, "sun at {elevation}°, texel ({x},{y}): map {got}, f64 {want}");
                (worst, worst_rel, mean) = (worst.max(err), worst_rel.max(err / want), mean + want);
            }
        }
        // ANCHOR_END: shadow_test
        mean /= (N * N) as f64;
        let flat = (-(p.extinction as f64) * p.layer_thickness_m as f64 / sun.y.max(0.0523)).exp();
        eprintln!(
            "shadow map, sun at {elevation}°: mean T {mean:.5} (flat slab {flat:.5}), worst error {worst:.2e} ({worst_rel:.2e} relative)"
        );
    }
}

/// Under the slab, in a stack of froxel fog and the clouds: (b) the sunlit ground as the fog's
/// stage receives it (`froxel-fog/scene`) is darker, with the clouds' shadow on, by the slab's
/// transmittance (no ambient light: the sun term is all of it); (c) the fog's in-scattered sun
/// light inside its grid drops by the same factor (the transmittance is the same for every
/// point under the slab, up to 10⁻⁵). Tolerance 1%: both images pass through rgba16float
/// targets and the map is rgba16float too.
#[test]
fn the_slab_shadows_the_scene_and_the_froxel_fog() {
    let size = [64, 36];
    let camera = "0,2,0,0,-2,60";
    let mut h = headless(size);
    let mut setup = stack(&h, "froxel-fog,clouds");
    let mut sets: Vec<String> = shadow_slab().iter().map(|s| format!("clouds.{s}")).collect();
    sets.extend(
        ["grid_width=64", "grid_height=36", "grid_depth=32", "froxel-fog.ambient_scale=0", "constant_density=0.01"]
            .map(String::from),
    );
    sets.extend(["scene.ambient=0,0,0", "scene.sun_elevation_deg=30"].map(String::from));
    let off: Vec<String> = sets.iter().cloned().chain(["clouds.cloud_shadows=false".to_string()]).collect();
    let views = ["froxel-fog/scene", "froxel-fog/inscattering", "froxel-fog/transmittance"];
    let on_refs: Vec<&str> = sets.iter().map(String::as_str).collect();
    let off_refs: Vec<&str> = off.iter().map(String::as_str).collect();
    let shadowed = draw(&mut h, &mut setup, &on_refs, camera, &views);
    let lit = draw(&mut h, &mut setup, &off_refs, camera, &views);
    let plain: Vec<String> = shadow_slab().into_iter().chain(["scene.sun_elevation_deg=30".to_string()]).collect();
    let (p, scene) = typed_settings::<CloudParams>(&plain);
    let want = slab_shadow_f64(&p, scene.sun_direction().as_dvec3(), DVec3::ZERO);
    let luminance = |v: [f32; 4]| 0.2126 * v[0] as f64 + 0.7152 * v[1] as f64 + 0.0722 * v[2] as f64;
    for (k, what) in [(0, "scene"), (1, "fog in-scattering")] {
        let (mut n, mut worst, mut sum) = (0, 0.0f64, 0.0f64);
        for y in 0..size[1] {
            for x in 0..size[0] {
                let (a, b) = (luminance(shadowed[k].pixel(x, y)), luminance(lit[k].pixel(x, y)));
                // Sunlit ground (the scene), or a ray that has crossed some fog (in the grid).
                let ground = lit[2].pixel(x, y)[0] < 0.999 && y > size[1] / 2;
                if b <= 1e-4 || !ground {
                    continue;
                }
                let ratio = a / b;
                assert!((ratio - want).abs() <= 0.01 * want, "{what} ({x},{y}): ratio {ratio}, slab {want}");
                (n, worst, sum) = (n + 1, worst.max((ratio / want - 1.0).abs()), sum + ratio);
            }
        }
        eprintln!(
            "{what} under the slab: mean ratio {:.5} over {n} pixels, f64 transmittance {want:.5}, worst relative error {worst:.2e}",
            sum / n as f64
        );
        assert!(n > 100, "{what}: only {n} pixels compared");
    }
}

/// A point above the ground looks the map up where its ray towards the sun starts from the
/// ground. The map's edge (beyond it the lookup gives 1) makes a shadow boundary: with a 500 m map
/// whose west edge lies at x = 15.6 m and the sun 30° up in the east (+x), the tower's
/// sunlit east face (x = 52 m) projects to x = 52 − √3·y, inside the map below y ≈ 21 m and
/// outside above. Every pixel of the scene (its point from the scene's distance) darkens by the
/// factor the CPU predicts from its own projection: the slab's transmittance inside the map, 1
/// outside, pixels within 8 m of the edge (a pixel's footprint) left out.
#[test]
fn points_above_the_ground_look_up_their_projection_along_the_sun() {
    let size = [64, 36];
    let camera = "267,20,-154,90,0,20";
    let mut h = headless(size);
    let mut clouds = stack(&h, "clouds");
    let mut surfaces = stack(&h, "distance-fog");
    let mut sets = shadow_slab();
    sets.extend(
        ["shadow_extent_km=0.5", "shadow_resolution=64", "scene.ambient=0,0,0"]
            .into_iter()
            .chain(["scene.sun_elevation_deg=30", "scene.sun_azimuth_deg=-90"])
            .map(String::from),
    );
    let on: Vec<&str> = sets.iter().map(String::as_str).collect();
    let off: Vec<&str> = on.iter().copied().chain(["cloud_shadows=false"]).collect();
    let shadowed = &draw(&mut h, &mut clouds, &on, camera, &["final"])[0];
    let lit = &draw(&mut h, &mut clouds, &off, camera, &["final"])[0];
    let distance = &draw(&mut h, &mut surfaces, &[], camera, &["distance"])[0];
    let (p, scene) = typed_settings::<CloudParams>(&on);
    let sun = scene.sun_direction().as_dvec3();
    let extent = p.shadow_extent_km as f64 * 1000.0;
    let texel = extent / p.shadow_resolution as f64;
    let centre = DVec3::new((267.0 / texel).round() * texel, 0.0, (-154.0 / texel).round() * texel);
    let slab = slab_shadow_f64(&p, sun, DVec3::ZERO);
    let (mut inside, mut outside) = (0, 0);
    for y in 0..size[1] {
        for x in 0..size[0] {
            let d = distance.pixel(x, y)[0] as f64;
            let (a, b) = (shadowed.pixel(x, y)[1] as f64, lit.pixel(x, y)[1] as f64);
            if d >= scene.sky_distance_m as f64 * 0.999 || b <= 1e-4 {
                continue;
            }
            let (o, v) = pose_ray(camera, size, x, y);
            let point = o + v * d;
            let ground = point - sun * (point.y / sun.y);
            let edge = extent / 2.0 - (ground - centre).x.abs().max((ground - centre).z.abs());
            if edge.abs() < 8.0 {
                continue;
            }
            let want = if edge > 0.0 { slab } else { 1.0 };
            let ratio = a / b;
            assert!(
                (ratio - want).abs() <= 0.01 * want,
                "pixel ({x},{y}) at {point:.1}: ratio {ratio}, want {want} (ground point {ground:.1})"
            );
            if point.y > 1.0 {
                if edge > 0.0 { inside += 1 } else { outside += 1 }
            }
        }
    }
    eprintln!("above the ground: {inside} pixels in the map's shadow, {outside} beyond its edge (slab T {slab:.4})");
    assert!(inside > 20 && outside > 20, "the edge does not cross the tower: {inside} in, {outside} out");
}
