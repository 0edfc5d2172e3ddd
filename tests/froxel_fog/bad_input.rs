//! Bad input: extreme settings stay finite, grids outside the range are refused.

use crate::common::*;
use crate::{CAMERA, SIZE, with_grid};
use fogbook_froxel_fog::FroxelFogParams;

// ANCHOR: finite_test
/// No NaN or Inf in any view for extreme settings: g = ±0.999 (a phase peak of 1.6e5 /sr) with
/// either phase function, density 0 and 10 /m, a layer 10 /m dense far above the eye (its
/// exponent clamped), a near distance beyond the first boxes (the eye deep inside the first
/// slice), the smallest range, the finest noise at the fastest wind, eight lights at the eye
/// (inside their bulbs) and eight of the brightest with the longest range in dense fog.
#[test]
fn extreme_settings_stay_finite() {
    let cases: &[&[&str]] = &[
        &["phase_g=0.999"],
        &["phase_g=-0.999"],
        &["constant_density=0", "layer_density=0"],
        &["constant_density=10"],
        &["layer_density=10", "layer_falloff=2", "layer_height_m=1000"],
        &["near_m=100", "fog_distance_m=101"],
        &["near_m=50", "fog_distance_m=1", "constant_density=10", "phase_g=0.999"],
        &["phase_function=cornette-shanks", "phase_g=-0.999"],
        &["noise_amount=1", "noise_scale_m=0.5", "wind_speed_m_s=50"],
        // Eight lights at the eye: the camera inside every bulb (see the camera below).
        &["scene.point_lights=4", "scene.spot_lights=4", "scene.light_ring_radius_m=0", "scene.light_height_m=2"],
        &["scene.point_lights=8", "scene.light_intensity=10000", "scene.light_range_m=1000", "constant_density=10"],
    ];
    for case in cases {
        for view in fogbook_froxel_fog::VIEWS.iter().map(|v| v.name) {
            let sets = with_grid(case);
            // At the ring's centre, 2 m up: where the lights of the third case stand.
            let camera = if case.iter().any(|s| s.contains("ring_radius_m=0")) { "46,2,-130,0,0,60" } else { CAMERA };
            let img = render("froxel-fog", view, &sets, Some(camera), SIZE).raw;
            for y in 0..SIZE[1] {
                for x in 0..SIZE[0] {
                    let px = img.pixel(x, y);
                    assert!(px.iter().all(|c| c.is_finite()), "{case:?} {view} ({x},{y}): {px:?}");
                }
            }
        }
    }
}
// ANCHOR_END: finite_test

#[test]
fn grids_outside_the_range_are_refused_with_a_message() {
    let mut p = FroxelFogParams::default();
    for bad in ["grid_width=300", "grid_height=10", "grid_depth=0", "grid_depth=129"] {
        let (n, v) = bad.split_once('=').unwrap();
        let err = fogbook_core::params::set_by_name(&mut p, n, v).unwrap_err().to_string();
        assert!(err.contains(n), "{bad}: {err}");
    }
    assert_eq!(p, FroxelFogParams::default());
}
