//! Chapter 2's layer in the grid, and chapter 2 taking over where the grid ends.

use crate::common::*;
use crate::{CAMERA, SIZE, column_weights, gpu_distance, with_grid};
use fogbook_froxel_fog::FroxelFogParams;
use fogbook_froxel_fog::reference::{Slices, integrate_column, midpoint_bound};
use fogbook_height_fog::reference::Layer;

/// Chapter 2's layer alone (start 0, no cutoff, maximum opacity 1) against chapter 2's closed
/// form, per pixel, on the transmittance view. The composite forms, for the slice k holding the
/// pixel's depth d, T = B̄ · e^(−σ̄ ℓ): B̄ the transmittance to the start of slice k and σ̄ the
/// slice's extinction, each interpolated bilinearly between the four nearest columns, and ℓ the
/// part of slice k before d. Three checks per pixel:
/// (a) the GPU against this very model evaluated in f64 from the CPU's own column sums (the
///     implementation; f32 only: 1e-4 relative);
/// Beyond the grid's far distance (1 km here; the sky's pixels lie at 4 km) both are multiplied by
/// the closed-form transmittance from the far distance to the surface, which the composite adds.
/// (b) the GPU against chapter 2's closed form T = e^(−τ), allowing two errors, each from a formula:
///     depth — the model's B and σ̄ sample each slice at its middle, a midpoint rule that
///     `midpoint_bound` bounds from the slice spacing; across — the same model built from exact
///     column integrals, minus the pixel's own closed form: what interpolating between columns
///     costs.
fn check_height_fog(camera: &str, depth: u32) -> [f64; 5] {
    let n = format!("grid_depth={depth}");
    let sets = vec![
        "grid_width=64",
        "grid_height=36",
        n.as_str(),
        "constant_density=0",
        "layer_density=0.02",
        "layer_falloff=0.2",
        "layer_height_m=0",
        "fog_distance_m=1000",
    ];
    let (p, _): (FroxelFogParams, _) = typed_settings(&sets);
    let layer = Layer { density: 0.02, falloff: 0.2, height: 0.0 };
    let slices = Slices::new(p.near_m as f64, p.fog_distance_m as f64, depth);
    let transmittance = render("froxel-fog", "transmittance", &sets, Some(camera), SIZE).raw;
    let distance = gpu_distance(camera);
    let eye = fogbook_core::camera::CameraPose::parse(camera).unwrap().eye().as_dvec3();
    let (mut worst, mut worst_fraction, mut worst_model) = (0.0f64, 0.0f64, 0.0f64);
    let (mut worst_slices, mut worst_slice_bound) = (0.0f64, 0.0f64);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            // ANCHOR: height_test
            let surface = distance.pixel(x, y)[0] as f64;
            let d = surface.min(slices.far);
            let (_, dir) = pose_ray(camera, SIZE, x, y);
            let want = (-layer.optical_depth(eye.y, dir.y, 0.0, surface)).exp();
            // Beyond the grid the composite continues along the pixel's own ray in closed form.
            let beyond = (-layer.optical_depth(eye.y, dir.y, d, surface)).exp();
            let (k, len) = slices.locate(d);
            let begin = slices.begin(k);
            let (mut b_grid, mut sigma_grid, mut b_exact, mut sigma_exact) = (0.0, 0.0, 0.0, 0.0);
            let mut largest_bound = 0.0f64;
            for (w, col) in column_weights(camera, [64, 36], x, y) {
                let density = |s: f64| layer.density_at(eye.y + col.y * s);
                b_grid += w * integrate_column(&slices, begin, |s| (0.0, density(s))).1;
                sigma_grid += w * density(slices.middle(k));
                b_exact += w * (-layer.optical_depth(eye.y, col.y, 0.0, begin)).exp();
                if len > 0.0 {
                    sigma_exact += w * layer.optical_depth(eye.y, col.y, begin, d) / len;
                }
                largest_bound = largest_bound.max(midpoint_bound(&slices, d, density, layer.falloff * col.y));
            }
            let model = b_grid * (-sigma_grid * len).exp() * beyond;
            let exact_columns = b_exact * (-sigma_exact * len).exp() * beyond;
            let got = transmittance.pixel(x, y)[0] as f64;
            // (a) the implementation
            assert!(
                (got - model).abs() <= 1e-4 * model + 2e-6,
                "{camera} N={depth} ({x},{y}) d={d:.1}: GPU {got}, f64 model of the grid {model}"
            );
            worst_model = worst_model.max((got - model).abs());
            // (b) against chapter 2
            let across = (exact_columns - want).abs();
            // |B' e^(−σ' ℓ) − B e^(−σ ℓ)| ≤ B e^(−σ ℓ) · (e^(bound) − 1), bound ≥ |τ' − τ| per column
            let depth_error = exact_columns * largest_bound.exp_m1();
            let allowed = across + depth_error + 1e-4 * want + 2e-6;
            let err = (got - want).abs();
            assert!(
                err <= allowed,
                "{camera} N={depth} ({x},{y}) d={d:.1}: GPU {got}, chapter 2 {want}, allowed {allowed:.2e} (across {across:.2e}, depth {depth_error:.2e})"
            );
            // ANCHOR_END: height_test
            worst_slices = worst_slices.max((model - exact_columns).abs());
            worst_slice_bound = worst_slice_bound.max(depth_error);
            worst = worst.max(err);
            worst_fraction = worst_fraction.max(err / allowed);
        }
    }
    [worst, worst_fraction, worst_model, worst_slices, worst_slice_bound]
}

#[test]
fn height_fog_matches_chapter_two_within_the_slice_error() {
    for camera in [CAMERA, "0,20,0,0,-20,60", "0,2,0,150,5,60"] {
        let mut slice_errors = Vec::new();
        for depth in [32, 128] {
            let [worst, fraction, model, slices, slice_bound] = check_height_fog(camera, depth);
            eprintln!(
                "height fog {camera} N={depth}: worst |T_gpu − T| = {worst:.2e} ({:.0}% of the allowed error); \
                 |T_gpu − f64 model| ≤ {model:.2e}; slice-spacing error ≤ {slices:.2e} (bound {slice_bound:.2e})",
                fraction * 100.0
            );
            slice_errors.push(slices);
        }
        // The midpoint rule is second order in the slice length: four times the slices, a
        // sixteenth of the error where the density is smooth (measured 5–16×; 4× is required).
        assert!(
            slice_errors[1] <= slice_errors[0] / 4.0,
            "{camera}: slice-spacing error {:.2e} at N = 32, {:.2e} at N = 128",
            slice_errors[0],
            slice_errors[1]
        );
    }
}

/// Chapters 2 and 4 together are one medium. In the stack `height-fog,froxel-fog`:
/// (1) the froxels' density is chapter 2's two layers (this chapter's own layer is ignored);
/// (2) chapter 2's transmittance starts at the grid's far end f: e^(−τ(f, d)) beyond it and 1
///     before it, per pixel against chapter 2's closed form;
/// (3) chapter 4 does not continue beyond f itself (its transmittance there is its grid's alone).
#[test]
fn height_fog_takes_over_where_the_grid_ends() {
    use fogbook_height_fog::reference::Layer;
    let sets = with_grid(&[
        "fog_density=0.03",
        "height_falloff=0.15",
        "fog_height_m=1",
        "second_fog_density=0.004",
        "second_height_falloff=0.05",
        "second_fog_height_m=20",
        "layer_density=5",
        "constant_density=0",
        "fog_distance_m=120",
        "slice=20",
    ]);
    let stack = "height-fog,froxel-fog";
    let layers =
        [Layer { density: 0.03, falloff: 0.15, height: 1.0 }, Layer { density: 0.004, falloff: 0.05, height: 20.0 }];
    let eye = fogbook_core::camera::CameraPose::parse(CAMERA).unwrap().eye().as_dvec3();
    let slices = Slices::new(1.0, 120.0, 32);
    // (1)
    let density = render(stack, "froxel-fog/density-slice", &sets, Some(CAMERA), SIZE).raw;
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let (fx, fy) = ((2 * x + 1) * 64 / (2 * SIZE[0]), (2 * y + 1) * 36 / (2 * SIZE[1]));
            let (_, col) = pose_ray(CAMERA, [64, 36], fx, fy);
            let h = eye.y + col.y * slices.middle(20);
            let want = layers[0].density_at(h) + layers[1].density_at(h);
            let got = density.pixel(x, y)[0] as f64;
            assert!((got - want).abs() <= 1e-4 * want, "({x},{y}): froxel σt {got}, chapter 2's layers {want}");
        }
    }
    // ANCHOR: handover_test
    // (2)
    let far = 120.0;
    let t2 = render(stack, "height-fog/transmittance", &sets, Some(CAMERA), SIZE).raw;
    let distance = gpu_distance(CAMERA);
    let (mut before, mut after) = (0, 0);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let d = distance.pixel(x, y)[0] as f64;
            let (_, dir) = pose_ray(CAMERA, SIZE, x, y);
            let want = if d <= far {
                before += 1;
                1.0
            } else {
                after += 1;
                (-layers.iter().map(|l| l.optical_depth(eye.y, dir.y, far, d)).sum::<f64>()).exp()
            };
            let got = t2.pixel(x, y)[0] as f64;
            assert!((got - want).abs() <= 2e-4 * want + 1e-6, "({x},{y}) d={d:.1}: chapter 2's T {got}, want {want}");
        }
    }
    assert!(before > 1000 && after > 1000, "{before} pixels before the grid's end, {after} beyond");
    // (3)
    let mut alone = sets.clone();
    alone.push("continue_beyond_grid=false");
    let stacked = render(stack, "froxel-fog/transmittance", &sets, Some(CAMERA), SIZE).raw;
    let grid_only = render(stack, "froxel-fog/transmittance", &alone, Some(CAMERA), SIZE).raw;
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            assert_eq!(stacked.pixel(x, y)[0], grid_only.pixel(x, y)[0], "({x},{y}): chapter 4 continued beyond f");
        }
    }
    // ANCHOR_END: handover_test
}
