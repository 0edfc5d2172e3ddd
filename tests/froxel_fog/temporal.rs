//! Temporal accumulation: convergence, and no ghost of a moving sun or light beyond the blend's.

use crate::common::*;
use crate::{CAMERA, LIGHT_CAMERA, SIZE, with_grid};
use fogbook_froxel_fog::FroxelFogParams;
use fogbook_froxel_fog::reference::homogeneous_inscattering;

/// Temporal accumulation (`temporal=true`): each frame samples every froxel at a point moved
/// inside the froxel (across its column and along its slice) by the core's Halton jitter and blends with last frame's value, reprojected.
/// With a static camera: (1) in a homogeneous medium jitter changes nothing, so after 16 frames the
/// result still matches the closed form to 1e-4 (the reprojection adds no bias); (2) in chapter 2's
/// layer one jittered frame differs from the unjittered midpoint sample to first order in the
/// offset, while the accumulated frames average the offsets out: the accumulated result must lie
/// far closer to the unjittered one than a single jittered frame does.
#[test]
fn temporal_accumulation_converges_to_the_unjittered_integral() {
    let mut h = headless(SIZE);
    let homogeneous = with_grid(&[
        "constant_density=0.01",
        "layer_density=0",
        "sun_scale=0",
        "volume_shadows=false",
        "temporal=true",
    ]);
    let (_, scene): (FroxelFogParams, _) = typed_settings(&homogeneous);
    let img = render_with(&mut h, "froxel-fog", "inscattering", &homogeneous, Some(CAMERA), 16).raw;
    let distance = render_with(&mut h, "distance-fog", "distance", &[] as &[&str], Some(CAMERA), 1).raw;
    let mut worst = 0.0f64;
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let d = distance.pixel(x, y)[0] as f64;
            let l = scene.ambient[1] as f64;
            let want = homogeneous_inscattering(l, 0.9 * 0.01, 0.01, d);
            let got = img.pixel(x, y)[1] as f64;
            assert!((got - want).abs() <= 1e-4 * want + 1e-6, "({x},{y}): temporal {got}, closed form {want}");
            worst = worst.max((got - want).abs() / want);
        }
    }
    eprintln!("temporal, homogeneous, 16 frames: worst relative error {worst:.2e}");

    // ANCHOR: temporal_test
    let layer = with_grid(&["constant_density=0", "layer_density=0.02", "fog_distance_m=1000"]);
    let with = |extra: &[&'static str]| -> Vec<&str> { layer.iter().copied().chain(extra.iter().copied()).collect() };
    let unjittered = render_with(&mut h, "froxel-fog", "transmittance", &layer, Some(CAMERA), 1).raw;
    // The second frame's own jittered samples: history weight 0 keeps that frame alone.
    let single = render_with(
        &mut h,
        "froxel-fog",
        "transmittance",
        &with(&["temporal=true", "history_blend=0"]),
        Some(CAMERA),
        2,
    )
    .raw;
    let frames = 64;
    let accumulated = render_with(
        &mut h,
        "froxel-fog",
        "transmittance",
        &with(&["temporal=true", "history_blend=0.9"]),
        Some(CAMERA),
        frames,
    )
    .raw;
    let (mut single_diff, mut accumulated_diff) = (0.0f64, 0.0f64);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let u = unjittered.pixel(x, y)[0] as f64;
            single_diff += (single.pixel(x, y)[0] as f64 - u).abs();
            accumulated_diff += (accumulated.pixel(x, y)[0] as f64 - u).abs();
            assert!(accumulated.pixel(x, y)[0].is_finite());
        }
    }
    let n = (SIZE[0] * SIZE[1]) as f64;
    eprintln!(
        "temporal, chapter 2's layer: mean |T − T_unjittered| {:.2e} for one jittered frame, {:.2e} after {frames} frames",
        single_diff / n,
        accumulated_diff / n
    );
    assert!(single_diff > 0.0, "the jitter moves the samples");
    assert!(accumulated_diff < 0.25 * single_diff, "accumulation converges towards the unjittered integral");
    // ANCHOR_END: temporal_test
}

/// A moving sun leaves no ghost: the core invalidates history when a scene setting changes, so
/// the first frame after the sun moved is this frame's own sample alone (K = 1). After 32
/// accumulated frames with the sun at −20°, one frame with the sun at +20° must equal a fresh
/// render at +20° (both frames have the same jitter: frames 1 and 33, the sequence repeating
/// every 16 frames).
#[test]
fn a_moving_sun_leaves_no_ghost() {
    use fogbook::state::Setup;
    use fogbook_core::time::TimeControl;
    let mut h = headless(SIZE);
    // ANCHOR: ghost_test
    let sets: Vec<String> = with_grid(&["temporal=true", "ambient_scale=0"]).iter().map(|s| s.to_string()).collect();
    let view_of = |setup: &Setup| setup.stack.find_view("inscattering").unwrap();
    let mut setup = Setup::new("froxel-fog").unwrap();
    setup.apply(None, &sets, Some(CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let mut time = TimeControl::fixed(0.0);
    let view = view_of(&setup);
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 32);
    setup.scene.sun_azimuth_deg = 20.0;
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
    let moved = h.capture().unwrap().raw;

    let mut fresh = Setup::new("froxel-fog").unwrap();
    fresh.apply(None, &sets, Some(CAMERA)).unwrap();
    fresh.scene.sun_azimuth_deg = 20.0;
    h.prepare_stack(&mut fresh.stack).unwrap();
    let mut time = TimeControl::fixed(0.0);
    let view = view_of(&fresh);
    h.run(&mut fresh.stack, &fresh.camera, &fresh.scene, &mut time, view, 1);
    let want = h.capture().unwrap().raw;
    let mut worst = 0.0f32;
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            for c in 0..3 {
                let (a, b) = (moved.pixel(x, y)[c], want.pixel(x, y)[c]);
                worst = worst.max((a - b).abs() / b.abs().max(1e-3));
            }
        }
    }
    eprintln!("moving sun: largest relative difference from a fresh frame after K = 1: {worst:.2e}");
    assert!(worst < 1e-5, "history of the old sun leaks into the first frame after it moved: {worst}");
    // ANCHOR_END: ghost_test

    // Control: without the move, frame 33 does carry history (else the check above is empty).
    let mut still = Setup::new("froxel-fog").unwrap();
    still.apply(None, &sets, Some(CAMERA)).unwrap();
    h.prepare_stack(&mut still.stack).unwrap();
    let mut time = TimeControl::fixed(0.0);
    let view = view_of(&still);
    h.run(&mut still.stack, &still.camera, &still.scene, &mut time, view, 33);
    let accumulated = h.capture().unwrap().raw;
    let mut control = Setup::new("froxel-fog").unwrap();
    control.apply(None, &sets, Some(CAMERA)).unwrap();
    h.prepare_stack(&mut control.stack).unwrap();
    h.run(&mut control.stack, &control.camera, &control.scene, &mut TimeControl::fixed(0.0), view, 1);
    let single = h.capture().unwrap().raw;
    let differ = (0..SIZE[1])
        .flat_map(|y| (0..SIZE[0]).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            (accumulated.pixel(x, y)[1] - single.pixel(x, y)[1]).abs() > 1e-4 * single.pixel(x, y)[1].abs()
        })
        .count();
    eprintln!("control: {differ} of {} pixels differ between 33 accumulated frames and one", SIZE[0] * SIZE[1]);
    assert!(differ > 100, "history is in use when nothing moves");
}

/// A moving light's ghost. Time is held still while 40 frames accumulate with a point light at
/// one place on its ring; then time jumps by 1 s and the light, orbiting at 90°/s, stands 14 m
/// away. Nothing invalidates the history (the settings are unchanged; the camera is still), so
/// the old light fades as the blend says: with history weight b the difference from a fresh
/// render of the new frame is b^K of the difference at the jump, after K frames. Measured at
/// K = 1, 10 and 44 against 0.9^K (±2 %); K = 44 is where the ghost falls below 1 %.
#[test]
fn a_moving_light_fades_from_the_history_as_the_blend_predicts() {
    use fogbook::state::Setup;
    use fogbook_core::time::TimeControl;
    let sets: Vec<String> = with_grid(&[
        "constant_density=0.01",
        "layer_density=0",
        "sun_scale=0",
        "ambient_scale=0",
        "temporal=true",
        "history_blend=0.9",
        "scene.point_lights=1",
        "scene.light_ring_radius_m=10",
        "scene.light_orbit_deg_s=90",
    ])
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut h = headless(SIZE);
    let paused_at = |t: f64| {
        let mut time = TimeControl::fixed(t);
        time.paused = true;
        time
    };
    // ANCHOR: light_ghost_test
    let mut fresh = Setup::new("froxel-fog").unwrap();
    fresh.apply(None, &sets, Some(LIGHT_CAMERA)).unwrap();
    h.prepare_stack(&mut fresh.stack).unwrap();
    let view = fresh.stack.find_view("inscattering").unwrap();
    h.run(&mut fresh.stack, &fresh.camera, &fresh.scene, &mut paused_at(1.0), view, 1);
    let new = h.capture().unwrap().raw;

    let mut setup = Setup::new("froxel-fog").unwrap();
    setup.apply(None, &sets, Some(LIGHT_CAMERA)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let mut time = paused_at(0.0);
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 40);
    let old = h.capture().unwrap().raw;
    let diff = |a: &fogbook_core::capture::FloatImage| {
        let mut sum = 0.0f64;
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                sum += (a.pixel(x, y)[1] as f64 - new.pixel(x, y)[1] as f64).abs();
            }
        }
        sum
    };
    let at_jump = diff(&old);
    assert!(at_jump > 1e-3, "the light moved visibly: {at_jump}");
    time.time = 1.0;
    let mut k = 0;
    for target in [1, 10, 44] {
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, target - k);
        k = target;
        let ratio = diff(&h.capture().unwrap().raw) / at_jump;
        let theory = 0.9f64.powi(k as i32);
        eprintln!("moving light: after K = {k} frames the ghost is {ratio:.4} of the jump (0.9^K = {theory:.4})");
        assert!((ratio - theory).abs() <= 0.02 * theory + 1e-4, "K = {k}: ghost {ratio}, 0.9^K = {theory}");
    }
    assert!(0.9f64.powi(44) < 0.01);
    // ANCHOR_END: light_ghost_test
}
