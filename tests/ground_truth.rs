//! Chapter 9, the path tracer, against answers it does not compute: Beer–Lambert through a
//! homogeneous slab, single scattering under a sun at the zenith in closed form, furnaces (an
//! albedo-1 medium, and an albedo-½ one whose emission balances its absorption, in a uniform
//! environment return the environment), the 1/√N fall of its error, its phase sampling against
//! the phase's own density, and finite pixels at extremes. Every tolerance is the estimator's own
//! standard error (from the image's spread, or the Bernoulli variance where each path returns
//! 0 or 1), times four.

mod common;

use common::{SHARED, headless, render_with};
use fogbook_core::capture::FloatImage;
use fogbook_ground_truth::reference;

const SIZE: [u32; 2] = [16, 16];
/// Looking down −Z from 5 m up, 1° across: every pixel's ray is within 0.01° of the axis.
const CAMERA: &str = "0,5,0,0,0,1";
/// The slab: a 4 m cube centred 20 m ahead at the camera's height (top 7 m, 2 m above the rays),
/// axis-aligned (the chapter's first default volume is turned), constant, with a hard edge.
const SLAB: [&str; 14] = [
    "local-fog.volume_count=1",
    "volumes[0].shape=box",
    "volumes[0].x_m=0",
    "volumes[0].y_m=5",
    "volumes[0].z_m=-20",
    "volumes[0].size_x_m=4",
    "volumes[0].size_y_m=4",
    "volumes[0].size_z_m=4",
    "volumes[0].edge_fade_m=0",
    "volumes[0].yaw_deg=0",
    "volumes[0].pitch_deg=0",
    "volumes[0].roll_deg=0",
    "volumes[0].density_source=constant",
    "volumes[0].emission=0,0,0,1",
];
const SLAB_LENGTH_M: f64 = 4.0;
const SLAB_DEPTH_M: f64 = 2.0;

/// The ground-truth view of the slab with `sets`, after `frames` frames.
fn traced(sets: &[String], frames: u32) -> FloatImage {
    let mut all: Vec<String> = SLAB.iter().map(|s| s.to_string()).collect();
    all.extend(["volumes[0].falloff=0".into(), "ground-truth.surfaces=false".into(), "local_lights=false".into()]);
    all.extend(sets.iter().cloned());
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    h.resize(SIZE).unwrap();
    render_with(h, "local-fog,ground-truth", "ground-truth/ground-truth", &all, Some(CAMERA), frames).raw
}

fn sets(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Per channel: the mean over the pixels, and its standard error from their spread.
fn mean_and_error(image: &FloatImage) -> [(f64, f64); 3] {
    let n = (image.width * image.height) as usize;
    std::array::from_fn(|c| {
        let values: Vec<f64> = (0..n).map(|i| f64::from(image.rgba[4 * i + c])).collect();
        assert!(values.iter().all(|v| v.is_finite()), "non-finite pixel in channel {c}");
        let mean = values.iter().sum::<f64>() / n as f64;
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
        (mean, (variance / n as f64).sqrt())
    })
}

/// Paths per pixel of `frames` frames at `per_frame`.
fn spp(frames: u32, per_frame: u32) -> f64 {
    f64::from(frames * per_frame)
}

// ANCHOR: slab
#[test]
fn a_slab_transmits_by_beer_lambert() {
    // Albedo 0 in a white uniform environment: each path is 0 (absorbed) or 1 (through), so a
    // pixel's mean is T with the Bernoulli variance T (1 − T) / N.
    for sigma_t in [0.05, 0.25, 0.75] {
        let image = traced(
            &sets(&[
                &format!("volumes[0].density={sigma_t}"),
                "volumes[0].albedo=0,0,0,1",
                "constant_environment=true",
                "environment=1,1,1,1",
                "sun=false",
                "samples_per_frame=64",
            ]),
            2,
        );
        let expected = reference::transmittance(sigma_t, SLAB_LENGTH_M);
        let paths = spp(2, 64) * f64::from(SIZE[0] * SIZE[1]);
        let error = (expected * (1.0 - expected) / paths).sqrt();
        for (c, (mean, _)) in mean_and_error(&image).into_iter().enumerate() {
            assert!(
                (mean - expected).abs() < 4.0 * error,
                "σt {sigma_t}, channel {c}: T = {mean:.5}, Beer–Lambert {expected:.5} (± {error:.5})"
            );
        }
    }
}
// ANCHOR_END: slab

// ANCHOR: single_scattering
#[test]
fn single_scattering_under_a_zenith_sun_is_its_closed_form() {
    // One vertex per path (single scattering), no environment, the sun straight up: every
    // point of the horizontal rays sees the sun through the same 2 m of the slab.
    let (sigma_t, albedo, g) = (0.25, 0.8, 0.5);
    let image = traced(
        &sets(&[
            &format!("volumes[0].density={sigma_t}"),
            &format!("volumes[0].albedo={albedo},{albedo},{albedo},1"),
            &format!("volumes[0].phase_g={g}"),
            "constant_environment=true",
            "environment=0,0,0,1",
            "max_bounces=1",
            "scene.sun_elevation_deg=90",
            "scene.sun_illuminance=1",
            "scene.sun_color=1,1,1,1",
            "samples_per_frame=64",
        ]),
        2,
    );
    // The scene's sun is E / π (frame.sun_color · illuminance): E = π.
    let e = std::f64::consts::PI;
    let expected = reference::single_scattering_zenith_sun(sigma_t, albedo, g, SLAB_DEPTH_M, SLAB_LENGTH_M, e);
    for (c, (mean, error)) in mean_and_error(&image).into_iter().enumerate() {
        assert!(
            (mean - expected).abs() < 4.0 * error + 2e-3 * expected,
            "channel {c}: L = {mean:.6}, closed form {expected:.6} (± {error:.6})"
        );
    }
}
// ANCHOR_END: single_scattering

// ANCHOR: furnace
#[test]
fn furnaces_return_their_environment() {
    // A uniform environment L around a medium that loses nothing returns L at every pixel,
    // whatever its optical thickness: albedo 1, or albedo ½ emitting what it absorbs
    // (ε = σa L per metre). Channels differ, so a mixed-up channel fails.
    let l = [0.5, 1.0, 2.0];
    for (tau, albedo) in [(0.1, 1.0), (1.0, 1.0), (10.0, 1.0), (1.0, 0.5), (10.0, 0.5)] {
        let sigma_t = tau / SLAB_LENGTH_M;
        let emission = l.map(|c| (1.0 - albedo) * sigma_t * c);
        let image = traced(
            &sets(&[
                &format!("volumes[0].density={sigma_t}"),
                &format!("volumes[0].albedo={albedo},{albedo},{albedo},1"),
                &format!("volumes[0].emission={},{},{},1", emission[0], emission[1], emission[2]),
                "volumes[0].phase_g=0.6",
                "constant_environment=true",
                &format!("environment={},{},{},1", l[0], l[1], l[2]),
                "sun=false",
                "samples_per_frame=32",
            ]),
            2,
        );
        for (c, (mean, error)) in mean_and_error(&image).into_iter().enumerate() {
            assert!(
                (mean - l[c]).abs() < 4.0 * error + 1e-4,
                "τ {tau}, albedo {albedo}, channel {c}: L = {mean:.5}, environment {} (± {error:.5})",
                l[c]
            );
        }
    }
}
// ANCHOR_END: furnace

// ANCHOR: convergence
#[test]
fn the_error_falls_as_one_over_root_n() {
    // The RMS over the pixels of (pixel − Beer–Lambert) at N = 16 … 1024 paths per pixel, and
    // the slope of log RMS against log N by least squares.
    let sigma_t = 0.25;
    let expected = reference::transmittance(sigma_t, SLAB_LENGTH_M);
    let counts = [16u32, 64, 256, 1024];
    let points: Vec<(f64, f64)> = counts
        .iter()
        .map(|&n| {
            let per_frame = n.min(256);
            let image = traced(
                &sets(&[
                    &format!("volumes[0].density={sigma_t}"),
                    "volumes[0].albedo=0,0,0,1",
                    "constant_environment=true",
                    "environment=1,1,1,1",
                    "sun=false",
                    &format!("samples_per_frame={per_frame}"),
                ]),
                n / per_frame,
            );
            let pixels = (image.width * image.height) as usize;
            let sq: f64 = (0..pixels).map(|i| (f64::from(image.rgba[4 * i + 1]) - expected).powi(2)).sum();
            (f64::from(n).ln(), (sq / pixels as f64).sqrt().ln())
        })
        .collect();
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / points.len() as f64;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
    let slope = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum::<f64>()
        / points.iter().map(|p| (p.0 - mean_x).powi(2)).sum::<f64>();
    assert!((slope + 0.5).abs() <= 0.1, "log–log slope {slope:.3} (points {points:?})");
}
// ANCHOR_END: convergence

#[test]
fn extremes_give_finite_pixels_and_count_cut_paths() {
    // The densest volume the chapter allows, σt = 10 /m over 4 m (τ = 40), albedo 1 and g
    // 0.99, with a cap of 16 collisions: paths are cut, the pixels stay finite, and the cut view
    // says how many were.
    let mut all: Vec<String> = SLAB.iter().map(|s| s.to_string()).collect();
    all.extend(sets(&[
        "volumes[0].density=10",
        "volumes[0].albedo=1,1,1,1",
        "volumes[0].phase_g=0.99",
        "ground-truth.max_collisions=16",
        "samples_per_frame=4",
    ]));
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    h.resize(SIZE).unwrap();
    let truth = render_with(h, "local-fog,ground-truth", "ground-truth/ground-truth", &all, Some(CAMERA), 1).raw;
    assert!(truth.rgba.iter().all(|v| v.is_finite()), "a non-finite pixel");
    let cut = render_with(h, "local-fog,ground-truth", "ground-truth/cut", &all, Some(CAMERA), 1).raw;
    let share = cut.rgba.iter().step_by(4).map(|&v| f64::from(v)).sum::<f64>() / f64::from(SIZE[0] * SIZE[1]);
    assert!(share > 0.5, "only {share:.3} of the paths were cut at 16 collisions in τ = 40");
}
