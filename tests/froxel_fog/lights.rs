//! Light in the grid: the tower's shaft in the sun, and point and spot lights against the grid's model.

use crate::common::*;
use crate::{CAMERA, LIGHT_CAMERA, SIZE, column_weights, gpu_distance, with_grid};
use fogbook_froxel_fog::FroxelFogParams;
use fogbook_froxel_fog::reference::{Slices, integrate_column};
use glam::DVec3;

/// Whether the ray from `p` towards `l` hits the axis-aligned box.
fn ray_hits_box(p: DVec3, l: DVec3, min: DVec3, max: DVec3) -> bool {
    let (mut t0, mut t1) = (0.0f64, f64::INFINITY);
    for a in 0..3 {
        let inv = 1.0 / l[a];
        let (mut lo, mut hi) = ((min[a] - p[a]) * inv, (max[a] - p[a]) * inv);
        if lo > hi {
            std::mem::swap(&mut lo, &mut hi);
        }
        t0 = t0.max(lo);
        t1 = t1.min(hi);
    }
    t0 <= t1
}

/// Light shafts: with the sun as the only light, the froxels of one slice that the CPU finds in
/// the tower's shadow (a ray cast towards the sun hits the tower's box) scatter far less than the
/// froxels of the same slice that see the sun, and as much once volume shadows are off.
#[test]
fn the_towers_shadow_darkens_the_inscattering_behind_it() {
    let base = ["ambient_scale=0", "constant_density=0.01", "layer_density=0", "phase_g=0"];
    let slice = 25; // 86–103 m at N = 32, n = 1 m, f = 300 m: between the eye and the tower
    let slice_set = format!("slice={slice}");
    let mut sets = with_grid(&base);
    sets.push(&slice_set);
    let (p, scene): (FroxelFogParams, _) = typed_settings(&sets);
    let slices = Slices::new(p.near_m as f64, p.fog_distance_m as f64, 32);
    let towards_sun = scene.sun_direction().as_dvec3();
    let boxes = fogbook_core::scene::scene_boxes();
    let tower = boxes.last().unwrap();
    let eye = fogbook_core::camera::CameraPose::parse(CAMERA).unwrap().eye().as_dvec3();
    let mut ratios = Vec::new();
    // ANCHOR: shaft_test
    for shadows in ["volume_shadows=true", "volume_shadows=false"] {
        let mut s = sets.clone();
        s.push(shadows);
        let img = render("froxel-fog", "inscattering-slice", &s, Some(CAMERA), SIZE).raw;
        let (mut dark, mut lit) = (Vec::new(), Vec::new());
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                // The froxel this pixel shows (nearest, as the slice views do) and its centre.
                let (fx, fy) = ((2 * x + 1) * 64 / (2 * SIZE[0]), (2 * y + 1) * 36 / (2 * SIZE[1]));
                let (_, dir) = pose_ray(CAMERA, [64, 36], fx, fy);
                let centre = eye + dir * slices.middle(slice);
                if centre.y < 1.0 {
                    continue; // under the ground
                }
                let in_tower_shadow = ray_hits_box(centre, towards_sun, tower.min.as_dvec3(), tower.max.as_dvec3());
                let any_box =
                    boxes.iter().any(|b| ray_hits_box(centre, towards_sun, b.min.as_dvec3(), b.max.as_dvec3()));
                let v = img.pixel(x, y)[0] as f64;
                if in_tower_shadow {
                    dark.push(v);
                } else if !any_box {
                    lit.push(v);
                }
            }
        }
        assert!(dark.len() > 50 && lit.len() > 50, "{} shadowed, {} lit pixels", dark.len(), lit.len());
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        ratios.push(mean(&dark) / mean(&lit));
        eprintln!(
            "{shadows}: {} shadowed pixels, {} lit; mean ratio {:.4}",
            dark.len(),
            lit.len(),
            ratios.last().unwrap()
        );
    }
    assert!(ratios[0] < 0.1, "the tower's shadow darkens the fog behind it: ratio {}", ratios[0]);
    assert!(ratios[1] > 0.8, "without volume shadows the same froxels are lit: ratio {}", ratios[1]);
    // ANCHOR_END: shaft_test
}

/// One point light, then one spot light (with the Cornette–Shanks phase), in a homogeneous
/// medium with no sun and no ambient: the GPU's in-scattering per pixel against the f64 model of
/// the grid (each column's ray sampled at the middle of every slice, S = σs · I · a(p) · p(v·l),
/// step integrals, bilinear between columns), to 2e-3 relative (f32 sample positions near the
/// bulb, where a(p) ∝ 1/d², move the samples of both by ~1e-6 of their distance). Then against
/// the exact integral along each pixel's own ray: the grid's error, which must shrink when the
/// slices are made finer (32 → 128).
/// The medium of the light tests: a constant fog lit by one local light alone.
const LIGHT_MEDIUM: [&str; 8] = [
    "constant_density=0.01",
    "layer_density=0",
    "sun_scale=0",
    "ambient_scale=0",
    "fog_albedo=0.8,0.8,0.8",
    "phase_g=0.5",
    "scene.light_ring_radius_m=0",
    "scene.light_height_m=8",
];

/// The chapter's phase function at its settings, in f64.
fn phase_of(p: &FroxelFogParams) -> impl Fn(f64) -> f64 {
    use fogbook_froxel_fog::reference::{cornette_shanks, henyey_greenstein};
    let (cs, g) = (p.phase_function == fogbook_froxel_fog::PhaseFunction::CornetteShanks, p.phase_g as f64);
    move |cos| if cs { cornette_shanks(g, cos) } else { henyey_greenstein(g, cos) }
}

/// The in-scattered light along one ray from `eye` to distance `d`, exactly: Simpson's rule on
/// 4000 intervals of source × transmittance.
fn simpson_along(source: impl Fn(DVec3, DVec3) -> f64, eye: DVec3, dir: DVec3, d: f64, sigma_t: f64) -> f64 {
    let n = 4000;
    let h = d / n as f64;
    let weight = |i: usize| {
        if i == 0 || i == n {
            1.0
        } else if i % 2 == 1 {
            4.0
        } else {
            2.0
        }
    };
    let sum: f64 = (0..=n)
        .map(|i| i as f64 * h)
        .enumerate()
        .map(|(i, t)| weight(i) * source(eye + dir * t, dir) * (-sigma_t * t).exp())
        .sum();
    sum * h / 3.0
}

#[test]
fn point_and_spot_lights_match_the_grid_model() {
    use fogbook_core::lights::scene_lights;
    let base = LIGHT_MEDIUM;
    let distance = gpu_distance(LIGHT_CAMERA);
    let eye = fogbook_core::camera::CameraPose::parse(LIGHT_CAMERA).unwrap().eye().as_dvec3();
    for (light, phase_set) in [
        ("scene.point_lights=1", "phase_function=henyey-greenstein"),
        ("scene.spot_lights=1", "phase_function=cornette-shanks"),
    ] {
        let mut exact_errors = Vec::new();
        for depth in ["grid_depth=32", "grid_depth=128"] {
            let sets: Vec<&str> = ["grid_width=64", "grid_height=36", depth, light, phase_set]
                .iter()
                .chain(base.iter())
                .copied()
                .collect();
            let (p, scene): (FroxelFogParams, _) = typed_settings(&sets);
            let lights = scene_lights(&scene, 0.0);
            assert_eq!(lights.len(), 1);
            let l = lights[0];
            let phase = phase_of(&p);
            // ANCHOR: light_test
            let (sigma_t, sigma_s) = (0.01, 0.8 * 0.01);
            let source = |q: DVec3, v: DVec3| sigma_s * l.attenuation(q) * phase(v.dot(l.direction_from(q)));
            let slices = Slices::new(p.near_m as f64, p.fog_distance_m as f64, p.grid_depth);
            let img = render("froxel-fog", "inscattering", &sets, Some(LIGHT_CAMERA), SIZE).raw;
            let (mut worst_model, mut exact_sum, mut peak) = (0.0f64, 0.0f64, 0.0f64);
            for y in 0..SIZE[1] {
                for x in 0..SIZE[0] {
                    let d = (distance.pixel(x, y)[0] as f64).min(slices.far);
                    let model: f64 = column_weights(LIGHT_CAMERA, [64, 36], x, y)
                        .iter()
                        .map(|&(w, col)| w * integrate_column(&slices, d, |t| (source(eye + col * t, col), sigma_t)).0)
                        .sum();
                    // `exact`: the integral along the pixel's own ray, Simpson's rule on 4000 intervals.
                    // ANCHOR_END: light_test
                    let (_, dir) = pose_ray(LIGHT_CAMERA, SIZE, x, y);
                    let exact = simpson_along(source, eye, dir, d, sigma_t);
                    // ANCHOR: light_test
                    for c in 0..3 {
                        let i = l.intensity[c];
                        let got = img.pixel(x, y)[c] as f64;
                        let want = i * model;
                        assert!(
                            (got - want).abs() <= 2e-3 * want + 1e-6,
                            "{light} {depth} ({x},{y}) channel {c}: GPU {got}, f64 model of the grid {want}"
                        );
                        worst_model = worst_model.max((got - want).abs() / want.max(1e-6));
                    }
                    exact_sum += (model - exact).abs() * l.intensity[1];
                    peak = peak.max(exact * l.intensity[1]);
                }
            }
            let mean_exact = exact_sum / (SIZE[0] * SIZE[1]) as f64;
            eprintln!(
                "{light} {depth}: |GPU − grid model| ≤ {worst_model:.2e} relative; mean |grid − exact| {mean_exact:.3e} (peak in-scattering {peak:.3e})"
            );
            exact_errors.push(mean_exact);
        }
        assert!(
            exact_errors[1] < exact_errors[0],
            "{light}: finer slices bring the grid closer to the exact integral: {exact_errors:?}"
        );
        // ANCHOR_END: light_test
    }
}
