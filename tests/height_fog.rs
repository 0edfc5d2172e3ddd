//! Chapter 2 on the GPU against the CPU reference (f64).
//!
//! The optical-depth view (float output) is compared pixel by pixel with the closed form
//! evaluated in f64 along rays built from the camera pose alone, to distances from the closed-form
//! ground intersection: nothing the GPU computed enters the expected values.

mod common;

use common::*;
use fogbook_core::camera::CameraPose;
use fogbook_core::params::set_by_name;
use fogbook_core::scene_settings::SceneSettings;
use fogbook_height_fog::{HeightFogParams, model};
use glam::DVec3;

const SIZE: [u32; 2] = [160, 90];

fn ray(camera: &str, x: u32, y: u32) -> (DVec3, DVec3) {
    pose_ray(camera, SIZE, x, y)
}

/// Distance to the ground, or the sky distance for rays that miss it; `None` near the horizon
/// or the ground's edge, where a pixel's distance is not well defined.
fn distance(o: DVec3, v: DVec3) -> Option<f64> {
    if v.y < -1e-3 {
        let t = o.y / -v.y;
        let hit = o + v * t;
        return (t < 400.0 && hit.x.abs() < 990.0 && hit.z.abs() < 990.0).then_some(t);
    }
    (v.y > 0.01).then_some(SceneSettings::default().sky_distance_m as f64)
}

fn params(sets: &[&str]) -> HeightFogParams {
    let mut p = HeightFogParams::default();
    for s in sets {
        let (n, v) = s.split_once('=').unwrap();
        set_by_name(&mut p, n, v).unwrap();
    }
    p
}

/// Compares the optical-depth view with the f64 closed form; returns the worst relative error.
///
/// Two comparisons per pixel. (1) The closed form at the GPU's own surface distance, along the
/// ray built from the pose on the CPU: this holds the fog maths to 1e-4 everywhere, grazing rays
/// and sky included. (2) The closed form at the CPU's own ground distance, for rays steeper than
/// 3°: this adds the rasteriser's distance and is independent of every GPU value; its tolerance
/// adds ρ(surface) × the distance view's error bound. Grazing rays
/// are left out of (2) because there a 1e-6 rad error in the f32 projection moves the hit point
/// by 1e-4 of its distance.
fn check_optical_depth(camera: &str, sets: &[&str]) -> f64 {
    let img = render("height-fog", "optical-depth", sets, Some(camera), SIZE).raw;
    let gpu_distance = render_distance(camera);
    let m = model(&params(sets));
    let (mut worst, mut checked) = (0.0f64, 0);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let (o, v) = ray(camera, x, y);
            let got = img.pixel(x, y)[0] as f64;
            let d_gpu = gpu_distance.pixel(x, y)[0] as f64;
            let want = m.optical_depth(o.y, v.y, d_gpu);
            // f32 carries ~1e-7 relative per operation; 1e-4 is the target for τ well above
            // zero, and near τ = 0 an absolute 1e-7 applies.
            let err = (got - want).abs();
            assert!(
                err <= 1e-4 * want + 1e-7,
                "{camera} {sets:?} ({x},{y}) d={d_gpu:.3} v_y={:.2e}: GPU {got}, CPU {want}",
                v.y
            );
            if want > 1e-3 {
                worst = worst.max(err / want);
            }
            checked += 1;
            if let Some(d) = distance(o, v).filter(|_| v.y.abs() > 0.05) {
                let independent = m.optical_depth(o.y, v.y, d);
                // Plus what the rasterised distance may add: ρ at the surface times its error
                // (the bound distance_fog.rs holds the distance view to, `distance_error_bound`).
                let end = o.y + v.y * d;
                let fov = CameraPose::parse(camera).unwrap().fov_y_deg as f64;
                let slack = (m.layers[0].density_at(end) + m.layers[1].density_at(end))
                    * distance_error_bound(d, v.y, fov, SIZE[1]);
                assert!(
                    (got - independent).abs() <= 1e-4 * independent + 1e-7 + slack,
                    "{camera} {sets:?} ({x},{y}): GPU {got}, CPU at its own distance {independent}"
                );
            }
        }
    }
    assert_eq!(checked, SIZE[0] * SIZE[1]);
    worst
}

fn render_distance(camera: &str) -> fogbook_core::capture::FloatImage {
    render("distance-fog", "distance", &[] as &[&str], Some(camera), SIZE).raw
}

#[test]
fn optical_depth_matches_the_closed_form() {
    let cases: &[(&str, &[&str])] = &[
        // Inside the fog, looking along the ground: near-horizontal rays use the series.
        ("0,2,0,180,-10,60", &[]),
        ("0,2,0,180,0,60", &["fog_height_m=2", "height_falloff=1"]),
        // Above the fog looking down, below it looking up, both layers, start distance.
        ("0,60,0,180,-30,60", &["fog_height_m=-2"]),
        ("0,1,0,180,10,60", &["fog_height_m=30", "height_falloff=0.05"]),
        (
            "0,5,0,180,-5,60",
            &[
                "second_fog_density=0.004",
                "second_height_falloff=0.05",
                "second_fog_height_m=20",
                "start_distance_m=15",
            ],
        ),
        // Small falloff: every ground pixel has |k·v_y·L| = k·2 m < 0.01, the series branch.
        ("0,2,0,180,-10,60", &["height_falloff=0.004"]),
        // No falloff: plain exponential fog.
        ("0,2,0,180,-10,60", &["height_falloff=0", "fog_density=0.01"]),
        // 5 km up, looking down into fog that thickens all the way: k·v_y·L ≈ −100, so e^(−x)
        // alone is beyond f32 (e^88.7). From the ground end nothing overflows; clamping the two
        // exponents one by one, as this chapter once did, gave τ = 50 instead of 40.9.
        ("0,5000,0,0,-89,60", &["fog_density=1", "height_falloff=0.02", "fog_height_m=-10"]),
    ];
    for (camera, sets) in cases {
        let worst = check_optical_depth(camera, sets);
        eprintln!("optical depth {camera} {sets:?}: worst relative error {worst:.2e}");
    }
}

#[test]
fn falloff_zero_reproduces_chapter_one_exponential_fog() {
    let rho = "0.015";
    let height = render(
        "height-fog",
        "final",
        &[
            "height_falloff=0",
            &format!("fog_density={rho}"),
            "inscattering_color=0.7,0.8,0.9",
            "directional_color=0,0,0",
        ],
        None,
        SIZE,
    );
    let distance = render(
        "distance-fog",
        "final",
        &["falloff=exponential", &format!("density={rho}"), "color=0.7,0.8,0.9,1", "glow_color=1,1,1,0"],
        None,
        SIZE,
    );
    let worst = height
        .raw
        .rgba
        .iter()
        .zip(&distance.raw.rgba)
        .map(|(a, b)| (a - b).abs() / (1.0 + b.abs()))
        .fold(0.0f32, f32::max);
    assert!(worst <= 1e-6, "height fog with no falloff differs from exponential distance fog by {worst}");
}

#[test]
fn every_view_is_finite_at_the_parameter_extremes() {
    let cases: &[&[&str]] = &[
        &["fog_density=1", "height_falloff=2", "fog_height_m=10000"],
        &["fog_density=1", "height_falloff=2", "fog_height_m=-1000"],
        &["height_falloff=0", "fog_density=1"],
        &["fog_density=0", "second_fog_density=0"],
        &["cutoff_distance_m=0"],
        &["start_distance_m=100000", "directional_start_m=100000"],
        &["max_opacity=0"],
        &["directional_exponent=512", "use_sky_color=true"],
        &["second_fog_density=1", "second_height_falloff=2", "second_fog_height_m=-1000"],
    ];
    let cameras = [None, Some("0,5000,0,0,-89,60"), Some("0,-50,0,0,89,60"), Some("0,2,0,0,0,1")];
    let mut h = headless([64, 36]);
    let chapter = fogbook::registry::find("height-fog").unwrap();
    for sets in cases {
        for camera in cameras {
            for view in chapter.views() {
                let c = render_with(&mut h, "height-fog", view.name, sets, camera, 1);
                assert_eq!(c.raw.red_stats().2, 0, "{sets:?} {camera:?} {}", view.name);
            }
        }
    }
}

/// Height fog over distance fog is a stack of chapters 1 and 2: extreme parameters of both stay
/// finite in every view the stack offers.
#[test]
fn height_fog_over_distance_fog_is_finite_at_the_extremes() {
    let mut h = headless([64, 36]);
    let sets = ["falloff=exponential-squared", "density=1", "fog_density=1", "height_falloff=0"];
    let stack = fogbook::registry::stack("distance-fog,height-fog").unwrap();
    for view in stack.views() {
        let c = render_with(&mut h, "distance-fog,height-fog", &view.name, &sets, None, 1);
        assert_eq!(c.raw.red_stats().2, 0, "{}", view.name);
    }
}

#[test]
fn cutoff_removes_all_fog_and_start_delays_it() {
    let scene = render("height-fog", "final", &["height_fog=false"], None, SIZE).raw;
    let cut = render("height-fog", "final", &["cutoff_distance_m=0"], None, SIZE).raw;
    assert_eq!(scene.rgba, cut.rgba, "a zero cutoff leaves every surface unfogged");
    // The start delays the fog: no fog at all on surfaces nearer than it, less fog on those
    // beyond it than without a start, by the fog of the first 20 m. Distances are chapter 1's
    // distance view, not this shader's masks.
    let camera = CameraPose::default().to_cli();
    let d = render_distance(&camera);
    let from_eye = render("height-fog", "optical-depth", &[] as &[&str], None, SIZE).raw;
    let delayed = render("height-fog", "optical-depth", &["start_distance_m=20"], None, SIZE).raw;
    let m = model(&params(&[]));
    let (mut near, mut far) = (0, 0);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let (dist, tau0, tau20) = (d.pixel(x, y)[0], from_eye.pixel(x, y)[0], delayed.pixel(x, y)[0]);
            if dist < 19.9 {
                assert_eq!(tau20, 0.0, "({x},{y}) {dist} m, before the start: τ = {tau20}");
                near += 1;
            } else if dist > 20.1 {
                let (o, v) = ray(&camera, x, y);
                let segment = m.optical_depth(o.y, v.y, 20.0) as f32; // τ over the first 20 m
                let want = tau0 - segment;
                assert!(
                    (tau20 - want).abs() <= 1e-4 * tau0 + 1e-6,
                    "({x},{y}) {dist} m: τ with start {tau20}, without {tau0}, first 20 m {segment}"
                );
                assert!(tau20 < tau0);
                far += 1;
            }
        }
    }
    assert!(near > 100 && far > 100, "{near} pixels before the start, {far} beyond it");
}
