//! The optical-depth and ambient in-scattering views per pixel against the f64 closed form.

use crate::common::*;
use crate::{CAMERA, SIZE, perpendiculars, reference_tau, settings};
use fogbook_local_fog::LocalFogParams;

/// Holds the optical-depth view to the f64 closed form; returns (worst relative error over
/// pixels with τ > 1e-3 off the silhouettes, pixels inside a volume, pixels on a silhouette).
fn check(extra: &[&str]) -> (f64, usize, usize) {
    let sets = settings(extra);
    let img = render("local-fog", "optical-depth", &sets, Some(CAMERA), SIZE).raw;
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), SIZE).raw;
    let (params, _) = typed_settings::<LocalFogParams>(&sets);
    let volumes = params.fog_volumes();
    let (mut worst, mut inside, mut silhouette) = (0.0f64, 0, 0);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let (o, v) = pose_ray(CAMERA, SIZE, x, y);
            let d = distance.pixel(x, y)[0] as f64;
            let got = img.pixel(x, y)[0] as f64;
            let want = reference_tau(&volumes, o, v, d);
            // The GPU's ray is the f32 camera basis: its direction is good to a few 1e-7. Where
            // τ changes faster than 1e-4 relative under a 1e-6 rad turn of the ray (at a
            // silhouette, where the crossing shrinks to nothing), that change is added to the bound.
            let turned = perpendiculars(v)
                .iter()
                .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                .map(|w| (reference_tau(&volumes, o, w, d) - want).abs())
                .fold(0.0f64, f64::max);
            // 1e-4 relative with an absolute floor of 1e-6 in τ (the chapter's bound).
            let bound = 1e-4 * want + 1e-6;
            let on_silhouette = turned > bound;
            silhouette += on_silhouette as usize;
            let err = (got - want).abs();
            assert!(
                err <= bound + turned,
                "{extra:?} ({x},{y}) d={d:.3}: GPU {got}, CPU {want} (error {err:.3e}, turn {turned:.3e})"
            );
            if want > 1e-3 {
                inside += 1;
                if !on_silhouette {
                    worst = worst.max(err / want);
                }
            }
        }
    }
    eprintln!(
        "{extra:?}: worst relative error {worst:.2e} off the silhouettes; {inside} pixels inside, {silhouette} on a silhouette"
    );
    assert!(inside > 800, "{extra:?}: the volume covers too little of the image ({inside} pixels)");
    assert!(silhouette * 10 < inside, "{extra:?}: {silhouette} silhouette pixels of {inside}");
    (worst, inside, silhouette)
}

// ANCHOR: optical_depth_test
/// A box, a sphere and a cylinder, each rotated, with constant density and with a height
/// falloff; and two overlapping volumes, whose optical depths add.
#[test]
fn optical_depth_matches_the_closed_form() {
    let rotated = ["volumes[0].yaw_deg=30", "volumes[0].pitch_deg=10", "volumes[0].roll_deg=-15"];
    let cases: Vec<Vec<&str>> = vec![
        ["volumes[0].shape=box"].iter().chain(&rotated).copied().collect(),
        vec!["volumes[0].shape=box", "volumes[0].falloff=0.6"],
        vec!["volumes[0].shape=ellipsoid", "volumes[0].size_x_m=7", "volumes[0].size_y_m=7", "volumes[0].size_z_m=7"],
        ["volumes[0].shape=ellipsoid", "volumes[0].falloff=0.5"].iter().chain(&rotated).copied().collect(),
        ["volumes[0].shape=cylinder"].iter().chain(&rotated).copied().collect(),
        vec!["volumes[0].shape=cylinder", "volumes[0].falloff=0.4", "volumes[0].roll_deg=70"],
        // Overlapping: a sphere inside the box's right half.
        vec![
            "volume_count=2",
            "volumes[1].edge_fade_m=0",
            "volumes[1].x_m=0",
            "volumes[1].y_m=4",
            "volumes[1].z_m=-29",
            "volumes[1].size_x_m=6",
            "volumes[1].size_y_m=6",
            "volumes[1].size_z_m=6",
            "volumes[1].falloff=0.3",
            "volumes[1].density=0.3",
        ],
    ];
    let mut worst = 0.0f64;
    for case in &cases {
        worst = worst.max(check(case).0);
    }
    eprintln!("optical depth, all cases: worst relative error {worst:.2e}");
}
// ANCHOR_END: optical_depth_test

/// The in-scattering against the closed form where it is exact: ambient light alone (the sun
/// off, no emission), where every volume's source per unit extinction is albedo × L_amb, so the
/// radiance is albedo × L_amb × (1 − e^(−τ)) whatever the densities' profiles and overlaps. A
/// rotated cylinder with falloff; a box and a sphere overlapping, with different falloffs. Each
/// channel per pixel within 1e-4 relative plus 1e-6, plus the silhouette allowance of
/// `optical_depth_matches_the_closed_form`.
#[test]
fn ambient_inscattering_matches_the_closed_form() {
    let ambient = fogbook_core::scene_settings::SceneSettings::default().ambient;
    let albedo = [0.8, 0.6, 0.4];
    let cases: [&[&str]; 2] = [
        &["volumes[0].shape=cylinder", "volumes[0].falloff=0.4", "volumes[0].roll_deg=30", "volumes[0].yaw_deg=20"],
        &[
            "volume_count=2",
            "volumes[0].falloff=0.3",
            "volumes[1].shape=ellipsoid",
            "volumes[1].edge_fade_m=0",
            "volumes[1].falloff=0",
            "volumes[1].x_m=0",
            "volumes[1].y_m=4",
            "volumes[1].z_m=-29",
            "volumes[1].size_x_m=6",
            "volumes[1].size_y_m=6",
            "volumes[1].size_z_m=6",
            "volumes[1].density=0.3",
            "volumes[1].albedo=0.8,0.6,0.4",
        ],
    ];
    for extra in cases {
        let mut sets = settings(extra);
        sets.extend(["volume_sun_scale=0", "volumes[0].emission=0,0,0", "volumes[0].albedo=0.8,0.6,0.4"]);
        let img = render("local-fog", "inscattering", &sets, Some(CAMERA), SIZE).raw;
        let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), SIZE).raw;
        let (params, _) = typed_settings::<LocalFogParams>(&sets);
        let volumes = params.fog_volumes();
        // ANCHOR: ambient_test
        let radiance = |tau: f64, c: usize| albedo[c] * ambient[c] as f64 * -(-tau).exp_m1();
        let (mut worst, mut inside) = (0.0f64, 0);
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                let (o, v) = pose_ray(CAMERA, SIZE, x, y);
                let d = distance.pixel(x, y)[0] as f64;
                let tau = reference_tau(&volumes, o, v, d);
                let turned: Vec<f64> = perpendiculars(v)
                    .iter()
                    .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                    .map(|w| reference_tau(&volumes, o, w, d))
                    .collect();
                for c in 0..3 {
                    let want = radiance(tau, c);
                    let slack = turned.iter().map(|&t| (radiance(t, c) - want).abs()).fold(0.0, f64::max);
                    let got = img.pixel(x, y)[c] as f64;
                    let err = (got - want).abs();
                    assert!(
                        err <= 1e-4 * want + 1e-6 + slack,
                        "{extra:?} ({x},{y}) channel {c}: GPU {got}, CPU {want} (τ {tau})"
                    );
                    if want > 1e-3 && slack <= 1e-4 * want {
                        worst = worst.max(err / want);
                    }
                }
                inside += (tau > 1e-3) as usize;
            }
        }
        // ANCHOR_END: ambient_test
        eprintln!("{extra:?}: ambient in-scattering, worst relative error {worst:.2e} on {inside} pixels");
        assert!(inside > 800, "{inside}");
    }
}
