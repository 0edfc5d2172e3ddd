//! The grid and the reference march against closed forms, and the grid measured against the march.

use crate::common::*;
use crate::{CAMERA, SIZE, gpu_distance, with_grid};
use fogbook_froxel_fog::FroxelFogParams;
use fogbook_froxel_fog::reference::homogeneous_inscattering;
use fogbook_height_fog::reference::Layer;

/// A homogeneous medium under constant ambient light, no sun: the in-scattered radiance at every
/// pixel is L · (σs/σt) · (1 − e^(−σt d)), up to the grid's far distance from the grid and beyond
/// it (the sky's pixels at 4 km) from the closed-form continuation.
///
/// The grid adds no discretisation error here: the media are the same in every froxel, so each
/// slice's step integral is exact, and the composite finishes the partial slice up to d with the
/// same integral (the CPU reference sums the slices the same way and agrees to 1e-9). What remains
/// is f32: 32 slices of exp and products, ~1e-6 relative, and slice boundaries from f32 exp,
/// which shift their lengths by about 1e-6 of the depth. The test allows 1e-4 relative plus
/// 1e-6 absolute.
// ANCHOR: homogeneous_test
#[test]
fn homogeneous_medium_matches_the_closed_form_per_pixel() {
    let sets = with_grid(&[
        "constant_density=0.01",
        "layer_density=0",
        "sun_scale=0",
        "volume_shadows=false",
        "fog_albedo=0.8,0.6,0.4",
        "fog_distance_m=300",
    ]);
    let (p, scene): (FroxelFogParams, _) = typed_settings(&sets);
    let inscattering = render("froxel-fog", "inscattering", &sets, Some(CAMERA), SIZE).raw;
    let transmittance = render("froxel-fog", "transmittance", &sets, Some(CAMERA), SIZE).raw;
    let distance = gpu_distance(CAMERA);
    let sigma_t = p.constant_density as f64;
    let (mut worst, mut worst_t) = (0.0f64, 0.0f64);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let d = distance.pixel(x, y)[0] as f64;
            let got = inscattering.pixel(x, y);
            for c in 0..3 {
                let l = scene.ambient[c] as f64;
                let sigma_s = p.fog_albedo[c] as f64 * sigma_t;
                let want = homogeneous_inscattering(l, sigma_s, sigma_t, d);
                let err = (got[c] as f64 - want).abs();
                assert!(err <= 1e-4 * want + 1e-6, "({x},{y}) channel {c} d={d:.2}: GPU {}, CPU {want}", got[c]);
                worst = worst.max(err / want.max(1e-12));
            }
            let want_t = (-sigma_t * d).exp();
            let err_t = (transmittance.pixel(x, y)[0] as f64 - want_t).abs();
            assert!(err_t <= 1e-4 * want_t + 1e-6, "({x},{y}) d={d:.2}: transmittance {err_t}");
            worst_t = worst_t.max(err_t / want_t);
        }
    }
    eprintln!("homogeneous: worst relative error {worst:.2e} (in-scattering), {worst_t:.2e} (transmittance)");
}
// ANCHOR_END: homogeneous_test

/// The per-pixel reference march (the `reference` view) against the closed form, in a constant
/// density plus chapter 2's layer under constant ambient light and no sun: whatever the density
/// along the ray, the light scattered in is L · a · (1 − T), so the colour is c · T + L · a · (1 − T)
/// with T = e^(−τ), τ the constant's plus the layer's closed form along the pixel's own ray (to
/// 4 km for the sky's pixels: the march continues beyond the grid). What remains is the march's
/// midpoint rule in τ over its 512 steps and f32. Measured: 2.6e-5 relative at worst; the test
/// allows 2e-4.
// ANCHOR: reference_march_test
#[test]
fn the_reference_march_matches_the_closed_form_per_pixel() {
    let sets = with_grid(&[
        "constant_density=0.004",
        "layer_density=0.05",
        "layer_falloff=0.3",
        "layer_height_m=0",
        "sun_scale=0",
        "fog_albedo=0.8,0.6,0.4",
    ]);
    let (p, scene): (FroxelFogParams, _) = typed_settings(&sets);
    let layer = Layer { density: 0.05, falloff: 0.3, height: 0.0 };
    let reference = render("froxel-fog", "reference", &sets, Some(CAMERA), SIZE).raw;
    let colour = render("froxel-fog", "scene", &sets, Some(CAMERA), SIZE).raw;
    let distance = gpu_distance(CAMERA);
    let eye = fogbook_core::camera::CameraPose::parse(CAMERA).unwrap().eye().as_dvec3();
    let mut worst = 0.0f64;
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let d = distance.pixel(x, y)[0] as f64;
            let (_, dir) = pose_ray(CAMERA, SIZE, x, y);
            let t = (-(p.constant_density as f64 * d + layer.optical_depth(eye.y, dir.y, 0.0, d))).exp();
            for c in 0..3 {
                let light = scene.ambient[c] as f64 * p.fog_albedo[c] as f64;
                let want = colour.pixel(x, y)[c] as f64 * t + light * (1.0 - t);
                let err = (reference.pixel(x, y)[c] as f64 - want).abs() / want;
                assert!(
                    err <= 2e-4,
                    "({x},{y}) channel {c} d={d:.1}: reference {}, closed form {want}",
                    reference.pixel(x, y)[c]
                );
                worst = worst.max(err);
            }
        }
    }
    eprintln!("reference march: worst relative error {worst:.2e}");
}
// ANCHOR_END: reference_march_test
