//! The homogeneous slab's single scattering per pixel against the f64 integral.

use crate::common::*;
use crate::{SIZE, draw, stack};
use fogbook_clouds::CloudParams;
use fogbook_core::camera::CameraPose;
use fogbook_core::frame::FrameUniform;
use glam::DVec3;

/// The slab of the reference check: one lobe, one octave, no ambient light, no jitter, no cone,
/// a light march long enough to leave the layer, and many view steps.
fn slab_settings<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut s = vec![
        "density_model=slab",
        "noise_resolution=low",
        "layer_bottom_m=1000",
        "layer_thickness_m=600",
        "extinction=0.002",
        "albedo=0.9",
        "phase_forward_g=0.6",
        "phase_forward_weight=1",
        "octaves=1",
        "ambient_scale=0",
        "jitter=false",
        "light_cone_spread=0",
        "light_steps=4",
        "light_march_m=20000",
        "view_steps=128",
        // At most 2 km of the layer per ray: 128 steps of ≤ 16 m, and τ ≤ 4, so that the march's
        // early exit (at a transmittance of 10⁻³) never cuts a ray short.
        "max_march_km=2",
    ];
    s.extend_from_slice(extra);
    s
}

/// The homogeneous slab against the f64 single-scattering integral, per pixel, for cameras
/// below, inside and above the layer and several suns. The tolerance: 1% of the radiance (plus
/// 1e-4 of the largest) and 2e-3 in transmittance. The GPU's steps sample the sun's
/// transmittance once per step (midpoint rule, at σt·Δ ≤ 0.016 here) and its
/// geometry is f32 on a 6.36e6 m planet (radii to ~0.5 m, so path lengths to ~1 m in 600 m:
/// ~2e-3 relative in τ); the rest is f32 rounding of the sums.
#[test]
fn homogeneous_slab_matches_the_f64_single_scattering_integral() {
    let cases: [(&str, &str, &str); 6] = [
        ("below, sun high", "0,2,0,0,35,70", "scene.sun_elevation_deg=60"),
        ("below, low sun ahead", "0,2,0,20,10,70", "scene.sun_elevation_deg=12"),
        ("below, looking up", "0,2,0,90,80,60", "scene.sun_elevation_deg=35"),
        ("inside", "0,1300,0,0,5,80", "scene.sun_elevation_deg=25"),
        ("above", "0,4000,0,30,-40,70", "scene.sun_elevation_deg=40"),
        ("above, sun behind", "0,3000,0,200,-20,70", "scene.sun_elevation_deg=8"),
    ];
    let mut worst_overall = (0.0f64, 0.0f64);
    let mut h = headless(SIZE);
    let mut clouds = stack(&h, "clouds");
    let mut surfaces = stack(&h, "distance-fog");
    for (name, camera, sun) in cases {
        let sets = slab_settings(&[sun]);
        let views = draw(&mut h, &mut clouds, &sets, camera, &["octave0", "transmittance"]);
        let (light, transmittance) = (&views[0], &views[1]);
        // The scene's surfaces end the rays that hit them (the sky distance marks the others).
        let distance = &draw(&mut h, &mut surfaces, &[], camera, &["distance"])[0];
        let (p, scene) = typed_settings::<CloudParams>(&sets);
        let pose = CameraPose::parse(camera).unwrap();
        let frame = FrameUniform::new(&pose, &scene, SIZE, 0.0, 0);
        let sun_dir = DVec3::new(frame.sun_dir[0] as f64, frame.sun_dir[1] as f64, frame.sun_dir[2] as f64);
        let sun = DVec3::new(frame.sun_color[0] as f64, frame.sun_color[1] as f64, frame.sun_color[2] as f64)
            * frame.sun_dir[3] as f64;
        let slab = p.slab(sun_dir.normalize(), sun);
        // ANCHOR: slab_test
        let want: Vec<_> = (0..SIZE[1])
            .flat_map(|y| (0..SIZE[0]).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (o, v) = pose_ray(camera, SIZE, x, y);
                let d = distance.pixel(x, y)[0] as f64;
                let end = if d >= scene.sky_distance_m as f64 * 0.999 { f64::INFINITY } else { d };
                slab.single_scattering(o, v, end)
            })
            .collect();
        let peak = want.iter().map(|w| w.radiance.max_element()).fold(0.0, f64::max);
        let (mut worst_l, mut worst_t, mut covered) = (0.0f64, 0.0f64, 0);
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                let w = want[(y * SIZE[0] + x) as usize];
                let g = light.pixel(x, y);
                for c in 0..3 {
                    let err = (g[c] as f64 - w.radiance[c]).abs();
                    let bound = 0.01 * w.radiance[c] + 1e-4 * peak;
                    assert!(err <= bound, "{name} ({x},{y}) channel {c}: GPU {} CPU {}", g[c], w.radiance[c]);
                    if w.radiance[c] > 0.05 * peak {
                        worst_l = worst_l.max(err / w.radiance[c]);
                    }
                }
                let t = transmittance.pixel(x, y)[0] as f64;
                worst_t = worst_t.max((t - w.transmittance).abs());
                assert!((t - w.transmittance).abs() <= 2e-3, "{name} ({x},{y}): T GPU {t} CPU {}", w.transmittance);
                covered += (w.transmittance < 0.999) as usize;
            }
        }
        // ANCHOR_END: slab_test
        eprintln!(
            "slab {name}: worst relative radiance error {worst_l:.2e}, transmittance error {worst_t:.2e}, {covered} pixels in the layer"
        );
        assert!(covered > 200 && peak > 0.0, "{name}: the layer covers {covered} pixels");
        worst_overall = (worst_overall.0.max(worst_l), worst_overall.1.max(worst_t));
    }
    eprintln!(
        "slab, all cases: worst relative radiance error {:.2e}, transmittance {:.2e}",
        worst_overall.0, worst_overall.1
    );
}
