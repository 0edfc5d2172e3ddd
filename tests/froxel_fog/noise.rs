//! The noise and its wind against the CPU noise.

use crate::common::*;
use crate::{CAMERA, SIZE, with_grid};
use fogbook_froxel_fog::FroxelFogParams;
use fogbook_froxel_fog::reference::Slices;
use glam::DVec3;

/// The noise: the density-slice view at two times against the f64 noise (the same integer hash,
/// gradient noise in f64) at every froxel's sample point, with the wind's offset at that time;
/// 1e-4 relative (f32 positions and fade polynomials). The two times differ (the wind moves it).
#[test]
fn the_noise_and_its_wind_match_the_cpu_noise() {
    use fogbook::state::Setup;
    use fogbook_core::time::TimeControl;
    use fogbook_froxel_fog::reference::noise_factor;
    let sets: Vec<String> = with_grid(&[
        "constant_density=0.01",
        "layer_density=0",
        "noise_amount=0.8",
        "noise_scale_m=6",
        "wind_speed_m_s=3",
        "wind_heading_deg=30",
        "slice=20",
    ])
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (p, _): (FroxelFogParams, _) = typed_settings(&sets);
    let slices = Slices::new(p.near_m as f64, p.fog_distance_m as f64, 32);
    let eye = fogbook_core::camera::CameraPose::parse(CAMERA).unwrap().eye().as_dvec3();
    let mut h = headless(SIZE);
    let mut images = Vec::new();
    // ANCHOR: noise_test
    for t in [0.0, 7.5] {
        let mut setup = Setup::new("froxel-fog").unwrap();
        setup.apply(None, &sets, Some(CAMERA)).unwrap();
        h.prepare_stack(&mut setup.stack).unwrap();
        let view = setup.stack.find_view("density-slice").unwrap();
        let mut time = TimeControl::fixed(t);
        time.paused = true; // the frame is drawn at exactly t
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        let img = h.capture().unwrap().raw;
        let w = fogbook_froxel_fog::wind_offset(&p, t);
        let wind = DVec3::new(w[0] as f64, w[1] as f64, w[2] as f64);
        let (mut worst, mut lo, mut hi) = (0.0f64, f64::MAX, f64::MIN);
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                let (fx, fy) = ((2 * x + 1) * 64 / (2 * SIZE[0]), (2 * y + 1) * 36 / (2 * SIZE[1]));
                let (_, col) = pose_ray(CAMERA, [64, 36], fx, fy);
                let q = eye + col * slices.middle(20);
                let want = 0.01 * noise_factor(0.8, 6.0, wind, q);
                let got = img.pixel(x, y)[0] as f64;
                assert!((got - want).abs() <= 1e-4 * want, "t={t} ({x},{y}): GPU σt {got}, CPU {want}");
                worst = worst.max((got - want).abs() / want);
                (lo, hi) = (lo.min(want), hi.max(want));
            }
        }
        eprintln!("noise at t = {t} s: σt {lo:.4}..{hi:.4} /m, worst relative difference {worst:.2e}");
        assert!(hi / lo > 1.5, "the noise varies across the slice: {lo}..{hi}");
        images.push(img);
    }
    let moved = (0..SIZE[1])
        .flat_map(|y| (0..SIZE[0]).map(move |x| (x, y)))
        .filter(|&(x, y)| (images[0].pixel(x, y)[0] - images[1].pixel(x, y)[0]).abs() > 1e-4)
        .count();
    assert!(moved > (SIZE[0] * SIZE[1]) as usize / 2, "the wind carries the noise: {moved} pixels changed");
    // ANCHOR_END: noise_test
}
