//! Chapter 6 on the GPU against its f64 references: the noise textures texel by texel (and their
//! tiling), the homogeneous slab's single scattering per pixel and its shadow map (and that shadow
//! on the scene and in the froxel fog), and nothing non-finite in any view from the ground to
//! 100 km, with the sun below the horizon, at coverage 0 and 1.

mod common;

use common::*;
use fogbook::state::Setup;
use fogbook_clouds::textures::read_volume;
use fogbook_clouds::{CloudParams, Clouds, noise};
use fogbook_core::Loaded;
use fogbook_core::camera::CameraPose;
use fogbook_core::capture::FloatImage;
use fogbook_core::frame::FrameUniform;
use fogbook_core::headless::Headless;
use fogbook_core::time::TimeControl;
use glam::DVec3;

/// Every texel of the four textures (at the tests' low resolution: 32³, 16³, 128² and the curl
/// noise's 32²) is the f64 noise at its centre, to the rgba8 rounding (±1/255 with a little for f32); and each
/// texture tiles: across each wrapping edge the step between neighbouring texels is no larger
/// than the largest step inside the texture (a seam would be a step of any size).
#[test]
// Four textures checked the same way, listed as one table of cases.
#[allow(clippy::too_many_lines)]
fn noise_textures_match_the_cpu_noise_and_tile() {
    let mut h = headless([16, 16]);
    let mut setup = fogbook::state::Setup::new("clouds").unwrap();
    setup.apply(None, &["noise_resolution=low".to_string(), "noise_seed=7".to_string()], None).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("base-noise").unwrap();
    h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
    let loaded = setup.stack.chapters_mut()[0].as_any_mut().downcast_mut::<Loaded<Clouds>>().unwrap();
    let noise_gpu = &loaded.gpu.as_ref().unwrap().noise;
    let base = read_volume(&h.gpu, &noise_gpu.base).unwrap();
    let detail = read_volume(&h.gpu, &noise_gpu.detail).unwrap();
    let weather = read_volume(&h.gpu, &noise_gpu.weather).unwrap();
    let curl = read_volume(&h.gpu, &noise_gpu.curl).unwrap();
    let [nb, nd, nw] = fogbook_clouds::NoiseResolution::Low.sizes();
    let volume = |n: u32, f: &dyn Fn(DVec3) -> [f64; 4]| -> Vec<[f64; 4]> {
        let mut out = Vec::new();
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    out.push(f(noise::texel_uvw([x, y, z], n)));
                }
            }
        }
        out
    };
    let nc = nw / 4;
    // (name, side, depth, the GPU's texels, the CPU's values)
    type Case = (&'static str, u32, u32, Vec<[u8; 4]>, Vec<[f64; 4]>);
    let cases: [Case; 4] = [
        ("base shape", nb, nb, base, volume(nb, &|p| noise::base_shape(p, 7))),
        ("detail", nd, nd, detail, volume(nd, &|p| noise::detail(p, 7))),
        (
            "weather map",
            nw,
            1,
            weather,
            (0..nw * nw)
                .map(|i| {
                    let uvw = noise::texel_uvw([i % nw, i / nw, 0], nw);
                    noise::weather([uvw.x, uvw.y], 7)
                })
                .collect(),
        ),
        (
            "curl noise",
            nc,
            1,
            curl,
            (0..nc * nc)
                .map(|i| {
                    let uvw = noise::texel_uvw([i % nc, i / nc, 0], nc);
                    noise::curl([uvw.x, uvw.y], nc, 7)
                })
                .collect(),
        ),
    ];
    // ANCHOR: noise_test
    for (name, n, depth, gpu, cpu) in &cases {
        assert_eq!(gpu.len(), cpu.len(), "{name}");
        let mut worst = 0.0f64;
        for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
            for k in 0..4 {
                let err = (g[k] as f64 / 255.0 - c[k]).abs();
                worst = worst.max(err);
                assert!(
                    err <= 0.51 / 255.0 + 1e-4,
                    "{name} texel {i} channel {k}: GPU {} CPU {:.5}",
                    g[k],
                    c[k] * 255.0
                );
            }
        }
        // Edge continuity along x (and y): the step from the last texel to the first, against
        // the largest step between neighbours inside.
        let at = |x: u32, y: u32, z: u32, k: usize| gpu[((z * n + y) * n + x) as usize][k] as i32;
        for axis in 0..2 {
            let (mut inside, mut seam) = (0, 0);
            for z in 0..*depth {
                for a in 0..*n {
                    for k in 0..4 {
                        let v = |i: u32| if axis == 0 { at(i, a, z, k) } else { at(a, i, z, k) };
                        for i in 0..n - 1 {
                            inside = inside.max((v(i + 1) - v(i)).abs());
                        }
                        seam = seam.max((v(0) - v(n - 1)).abs());
                    }
                }
            }
            eprintln!(
                "{name}: worst texel error {:.2}/255; axis {axis}: largest step inside {inside}, across the seam {seam}",
                worst * 255.0
            );
            assert!(seam <= inside && inside > 0, "{name}: a seam along axis {axis} ({seam} > {inside})");
        }
    }
    // ANCHOR_END: noise_test
}

const SIZE: [u32; 2] = [64, 36];

/// A stack made once and reused for several settings and cameras (pipelines, noise and the
/// sky's tables are made once).
fn stack(h: &Headless, spec: &str) -> Setup {
    let mut setup = Setup::new(spec).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    setup
}

/// `views` of `setup` after one step with its parameters and scene reset, then `sets` and
/// `camera` applied: the raw values.
fn draw(h: &mut Headless, setup: &mut Setup, sets: &[&str], camera: &str, views: &[&str]) -> Vec<FloatImage> {
    for chapter in setup.stack.chapters_mut() {
        chapter.params().reset();
    }
    setup.scene = Default::default();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    setup.apply(None, &sets, Some(camera)).unwrap();
    let mut out = Vec::new();
    for (i, name) in views.iter().enumerate() {
        let view = setup.stack.find_view(name).unwrap();
        if i == 0 {
            h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut TimeControl::fixed(0.0), view, 1);
        } else {
            h.redraw(&mut setup.stack, &setup.camera, &setup.scene, view);
        }
        out.push(h.capture().unwrap().raw);
    }
    out
}

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

/// Nothing non-finite reaches the frame: from the ground, inside the layer, above it, at 10 and
/// 100 km; the sun below the horizon; coverage 0 and 1; the real-time mode; alone and under the sky. One stack per
/// case list, its settings and camera changed between frames (the sky's tables are made once).
#[test]
fn no_view_writes_a_non_finite_value() {
    let cameras = ["0,0,0,0,10,70", "0,2500,0,0,0,70", "0,10000,0,0,-10,70", "0,100000,0,0,-30,70"];
    let extremes: [&[&str]; 5] = [
        &["scene.sun_elevation_deg=-10"],
        &["mode=realtime", "neighbourhood_margin=0", "coverage=1"],
        &["coverage=0"],
        &["coverage=1", "extinction=1", "powder=true"],
        &["density_model=slab", "layer_bottom_m=0", "scene.sun_elevation_deg=-2"],
    ];
    let mut h = headless([48, 27]);
    for (spec, prefix) in [("clouds", ""), ("sky,clouds", "clouds/")] {
        let mut setup = stack(&h, spec);
        // The shadow map too: its sun is clamped to 3° when lower or set.
        let views = ["final".to_string(), format!("{prefix}light-transmittance"), format!("{prefix}cloud-shadow")];
        let views: Vec<&str> = views.iter().map(String::as_str).collect();
        for camera in cameras {
            for extra in extremes {
                let mut sets = vec!["noise_resolution=low", "view_steps=16", "light_steps=3"];
                if spec != "clouds" {
                    sets.push("sky.lut_resolution=quarter");
                }
                sets.extend_from_slice(extra);
                // The march's result, the one view that divides by the cloud's opacity, the map.
                for (view, image) in views.iter().zip(draw(&mut h, &mut setup, &sets, camera, &views)) {
                    let bad = image.rgba.iter().filter(|v| !v.is_finite()).count();
                    assert_eq!(bad, 0, "{spec} {view} from {camera} with {extra:?}");
                }
            }
        }
    }
}

/// In the stack: with no cloud (coverage 0) the clouds' stage hands the sky's colour on exactly;
/// with clouds, the sky's aerial perspective changes them (it dims and veils the distant ones).
#[test]
fn the_stack_passes_a_clear_sky_through_and_veils_the_clouds() {
    let mut h = headless([64, 36]);
    let mut setup = stack(&h, "sky,clouds");
    let camera = "0,2,0,0,10,70";
    let sets = |extra: &[&'static str]| {
        let base = ["sky.lut_resolution=quarter", "noise_resolution=low", "view_steps=16", "light_steps=3"];
        base.iter().chain(extra).copied().collect::<Vec<&str>>()
    };
    let clear = draw(&mut h, &mut setup, &sets(&["coverage=0"]), camera, &["final", "sky/final"]);
    assert_eq!(clear[0].rgba, clear[1].rgba, "the clouds' stage changed a clear sky");
    let veiled = &draw(&mut h, &mut setup, &sets(&[]), camera, &["final"])[0];
    let bare = &draw(&mut h, &mut setup, &sets(&["aerial_perspective=false"]), camera, &["final"])[0];
    let changed =
        veiled.rgba.chunks(4).zip(bare.rgba.chunks(4)).filter(|(a, b)| (a[2] - b[2]).abs() > 1e-3 * b[2].abs()).count();
    eprintln!("aerial perspective changes {changed} of {} pixels", veiled.rgba.len() / 4);
    assert!(changed > 100, "the aerial perspective changes only {changed} pixels");
}

/// Relative luminance error of `got` against `want` over the pixels where the reference has
/// cloud (its colour differs from the scene's colour without clouds, `bare`): (mean, 99th
/// percentile, pixels).
fn luminance_error(got: &FloatImage, want: &FloatImage, bare: &FloatImage) -> (f64, f64, usize) {
    let y = |p: &[f32]| 0.2126 * p[0] as f64 + 0.7152 * p[1] as f64 + 0.0722 * p[2] as f64;
    let mut errors: Vec<f64> = got
        .rgba
        .chunks(4)
        .zip(want.rgba.chunks(4))
        .zip(bare.rgba.chunks(4))
        .filter(|((_, w), b)| (y(w) - y(b)).abs() > 1e-3 * y(b).abs())
        .map(|((g, w), _)| (y(g) - y(w)).abs() / y(w).max(1e-6))
        .collect();
    errors.sort_by(f64::total_cmp);
    let n = errors.len();
    let mean = errors.iter().sum::<f64>() / n.max(1) as f64;
    (mean, errors.get(n * 99 / 100).copied().unwrap_or(0.0), n)
}

/// Frames `frames` of `setup` in its current settings from a fresh time, each with `camera(i)`,
/// the last in `view`; returns the last frame's raw values.
fn run_frames(
    h: &mut Headless,
    setup: &mut Setup,
    time: &mut TimeControl,
    frames: u32,
    camera: &dyn Fn(u32) -> CameraPose,
    view: &str,
) -> FloatImage {
    for i in 0..frames {
        let name = if i + 1 == frames { view } else { "final" };
        let view = setup.stack.find_view(name).unwrap();
        h.run(&mut setup.stack, &camera(i), &setup.scene, time, view, 1);
    }
    h.capture().unwrap().raw
}

/// The real-time mode against the reference mode of the same frame (the same time, so the same
/// wind), for a still camera below the layer: after 16 frames every pixel has been marched once
/// and holds its own march (rgba16f history: 1e-3), after 8 only half have; a further 16 frames
/// keep it there. Then cameras turning and moving below, inside and above the layer, whose
/// error stays bounded by the neighbourhood rejection.
#[test]
fn realtime_mode_converges_to_the_reference() {
    // No wind: the reference is this frame's clouds, the history's were marched up to 15 frames
    // earlier (the wind's share of the error is measured in the book).
    const SETS: &[&str] =
        &["noise_resolution=low", "view_steps=24", "light_steps=4", "jitter=false", "wind_speed_m_s=0"];
    let mut h = headless(SIZE);
    let mut setup = stack(&h, "clouds");
    let mut measure = |setup: &mut Setup, frames: u32, camera: &dyn Fn(u32) -> CameraPose, extra: &[&str]| {
        for chapter in setup.stack.chapters_mut() {
            chapter.params().reset();
        }
        let sets: Vec<String> = SETS.iter().chain(&["mode=realtime"]).chain(extra).map(|s| s.to_string()).collect();
        setup.apply(None, &sets, None).unwrap();
        let mut time = TimeControl::fixed(0.0);
        let got = run_frames(&mut h, setup, &mut time, frames, camera, "final");
        // The same frame (time stands still) in the reference mode, and without clouds.
        time.paused = true;
        let last = camera(frames - 1);
        setup.apply(None, &["mode=reference".to_string()], None).unwrap();
        let view = setup.stack.find_view("final").unwrap();
        h.run(&mut setup.stack, &last, &setup.scene, &mut time, view, 1);
        let want = h.capture().unwrap().raw;
        setup.apply(None, &["clouds=false".to_string()], None).unwrap();
        h.run(&mut setup.stack, &last, &setup.scene, &mut time, view, 1);
        let bare = h.capture().unwrap().raw;
        let bad = got.rgba.iter().filter(|v| !v.is_finite()).count();
        assert_eq!(bad, 0, "non-finite values after {frames} frames");
        luminance_error(&got, &want, &bare)
    };
    // ANCHOR: realtime_test
    let still = |_| CameraPose::parse("0,2,0,0,20,70").unwrap();
    let mut errors = Vec::new();
    for frames in [8, 16, 32] {
        let (mean, p99, n) = measure(&mut setup, frames, &still, &[]);
        eprintln!(
            "still camera, {frames} frames: relative luminance error mean {mean:.2e}, 99th percentile {p99:.2e} over {n} cloud pixels"
        );
        assert!(n > 500, "only {n} cloud pixels");
        errors.push((mean, p99));
    }
    let [(mean8, _), (mean16, p99_16), (mean32, p99_32)] = errors[..] else { unreachable!() };
    assert!(mean16 < 1e-3 && p99_16 < 3e-3, "16 frames: mean {mean16:.2e}, p99 {p99_16:.2e}");
    assert!(mean32 < 1e-3 && p99_32 < 3e-3, "32 frames: mean {mean32:.2e}, p99 {p99_32:.2e}");
    assert!(mean8 > 10.0 * mean16, "8 frames ({mean8:.2e}) not worse than 16 ({mean16:.2e})");
    // ANCHOR_END: realtime_test

    // Moving: 24 frames, turning 0.5° (about 0.3 pixel here) and moving 0.5 m a frame. At 64×36
    // a pixel is 1.6° wide and the clouds have detail below it, so every resampling of the
    // history costs a few per cent; the reprojection must still beat keeping each pixel's own
    // history as if the camera stood still.
    // ANCHOR: realtime_moving
    let cases = [("below", "0,2,0", 45.0), ("inside", "0,2600,0", 10.0), ("above", "0,5000,0", -30.0)];
    for (name, at, pitch) in cases {
        let moving = |i: u32| {
            let mut pose = CameraPose::parse(&format!("{at},0,{pitch},70")).unwrap();
            pose.yaw_deg += 0.5 * i as f32;
            pose.position[0] += 0.5 * i as f32;
            pose
        };
        let (mean, p99, n) = measure(&mut setup, 24, &moving, &[]);
        let (naive, naive_p99, _) = measure(&mut setup, 24, &moving, &["reproject=false"]);
        eprintln!(
            "moving {name}: relative luminance error mean {mean:.2e}, 99th percentile {p99:.2e} over {n} cloud pixels; without reprojection {naive:.2e}, {naive_p99:.2e}"
        );
        assert!(n > 500 && mean < 0.15, "moving {name}: mean {mean:.2e}, p99 {p99:.2e}, {n} pixels");
        // Inside the layer the cloud surrounds the camera: one distance per block (its fresh
        // sample's) is a poor depth for the other fifteen pixels, and there the reprojection
        // measures no better than none (7.3% against 6.6% on lavapipe); only bounded.
        if name != "inside" {
            assert!(mean < 0.9 * naive, "moving {name}: reprojected {mean:.2e}, not reprojected {naive:.2e}");
        }
    }
    // ANCHOR_END: realtime_moving
}

/// With a still camera every pixel has been marched within the last 16 frames (no interpolated
/// value left: the age view has data everywhere and at most 15), and the rejection view then
/// shows every pixel kept, fresh or cloudless, none rejected.
#[test]
fn realtime_ages_stay_below_sixteen_frames() {
    let mut h = headless([48, 27]);
    let mut setup = stack(&h, "clouds");
    let sets = ["noise_resolution=low", "view_steps=16", "light_steps=3", "mode=realtime"].map(String::from);
    setup.apply(None, &sets, None).unwrap();
    let camera = |_| CameraPose::parse("0,2,0,0,20,70").unwrap();
    let mut time = TimeControl::fixed(0.0);
    let age = run_frames(&mut h, &mut setup, &mut time, 17, &camera, "age");
    let none = age.rgba.chunks(4).filter(|p| p[3] == 0.0).count();
    let oldest = age.rgba.chunks(4).filter(|p| p[3] > 0.0).map(|p| p[0]).fold(0.0f32, f32::max);
    eprintln!("after 17 still frames: oldest age {oldest}, {none} interpolated pixels");
    assert_eq!(none, 0, "interpolated pixels after 17 still frames");
    assert!(oldest <= 15.0, "oldest age {oldest}");
    let view = setup.stack.find_view("rejection").unwrap();
    h.run(&mut setup.stack, &camera(0), &setup.scene, &mut time, view, 1);
    let why = h.capture().unwrap().raw;
    // Black (kept), white (fresh) or dark grey (no cloud possible): nothing coloured.
    let coloured = why.rgba.chunks(4).filter(|p| p[0] != p[1] || p[1] != p[2]).count();
    assert_eq!(coloured, 0, "{coloured} pixels rejected with a still camera");
}

// ANCHOR: weather_file_test
/// The weather map from a PNG: a good file of the map's size, one of another size (resampled), a
/// missing file and a corrupt one. The weather-map view's first three panels show the map's
/// red, green and blue; a bad file leaves the previous map in place with a message, never a panic.
#[test]
fn weather_map_from_a_png_file() {
    let dir = std::env::temp_dir().join(format!("fogbook-weather-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, w: u32, h: u32, rgb: [u8; 3]| {
        let path = dir.join(name);
        image::RgbaImage::from_pixel(w, h, image::Rgba([rgb[0], rgb[1], rgb[2], 255])).save(&path).unwrap();
        path.display().to_string()
    };
    let good = write("good.png", 128, 128, [200, 100, 50]);
    let odd = write("odd.png", 37, 53, [40, 220, 120]);
    let corrupt = dir.join("corrupt.png");
    std::fs::write(&corrupt, b"\x89PNG\r\n\x1a\nnot really a png").unwrap();
    let missing = dir.join("missing.png");

    let mut h = headless([32, 32]);
    let mut setup = stack(&h, "clouds");
    let view = setup.stack.find_view("weather-map").unwrap();
    let mut time = TimeControl::fixed(0.0);
    // The mean of each of the four panels (r | g over b | the coverage after the remap), and the
    // chapter's message.
    let mut show = |setup: &mut Setup, file: &str, coverage: f32| -> ([f32; 4], Option<String>) {
        let sets =
            ["noise_resolution=low".to_string(), format!("weather_map_file={file}"), format!("coverage={coverage}")];
        setup.apply(None, &sets, None).unwrap();
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        let image = h.capture().unwrap().raw;
        let panel = |x0: u32, y0: u32| {
            let mut sum = 0.0;
            for y in y0..y0 + 16 {
                for x in x0..x0 + 16 {
                    sum += image.pixel(x, y)[0];
                }
            }
            sum / 256.0
        };
        ([panel(0, 0), panel(16, 0), panel(0, 16), panel(16, 16)], setup.stack.chapters()[0].status())
    };
    let close =
        |got: [f32; 4], want: [u8; 3]| got.iter().zip(want).all(|(g, w)| (g - w as f32 / 255.0).abs() < 1.5 / 255.0);

    let (generated, status) = show(&mut setup, "", 0.5);
    assert_eq!(status, None);
    let (got, status) = show(&mut setup, &good, 0.5);
    assert!(close(got, [200, 100, 50]) && status.is_none(), "good file: {got:?} {status:?}");
    // The fourth panel is the map's coverage moved by the `coverage` parameter, as the f64
    // `coverage_at` moves it: unchanged at ½.
    for coverage in [0.5f32, 0.3, 0.8] {
        let want = fogbook_clouds::reference::coverage_at(200.0 / 255.0, coverage as f64) as f32;
        let (got, _) = show(&mut setup, &good, coverage);
        assert!((got[3] - want).abs() < 1.5 / 255.0, "coverage {coverage}: the panel shows {}, not {want}", got[3]);
    }
    let (got, status) = show(&mut setup, &odd, 0.5);
    assert!(close(got, [40, 220, 120]) && status.is_none(), "37×53 file: {got:?} {status:?}");
    for (bad, says) in
        [(missing.display().to_string(), "cannot read"), (corrupt.display().to_string(), "not a readable image")]
    {
        let (got, status) = show(&mut setup, &bad, 0.5);
        let status = status.unwrap_or_default();
        eprintln!("{bad}: {status}");
        assert!(status.contains(says) && status.contains("keeping"), "{bad}: {status:?}");
        assert!(close(got, [40, 220, 120]), "{bad}: the previous map was not kept: {got:?}");
    }
    // Back to the generated map.
    let (got, status) = show(&mut setup, "", 0.5);
    assert!(got == generated && status.is_none(), "generated again: {got:?} against {generated:?}, {status:?}");
    std::fs::remove_dir_all(&dir).ok();
}
// ANCHOR_END: weather_file_test

/// The curl noise moves the detail: at 300 m the eroded edges move, and the transmittance of
/// the rays through them changes.
#[test]
fn curl_noise_distorts_the_detail() {
    let mut h = headless([48, 27]);
    let mut setup = stack(&h, "clouds");
    let camera = "0,2,0,0,30,70";
    let sets = |s: &'static str| vec!["noise_resolution=low", "view_steps=16", "light_steps=2", "jitter=false", s];
    let plain = &draw(&mut h, &mut setup, &sets("curl_strength_m=0"), camera, &["transmittance"])[0];
    let swirled = &draw(&mut h, &mut setup, &sets("curl_strength_m=300"), camera, &["transmittance"])[0];
    let moved = plain.rgba.chunks(4).zip(swirled.rgba.chunks(4)).filter(|(a, b)| (a[0] - b[0]).abs() > 0.01).count();
    eprintln!("curl noise at 300 m changes the transmittance of {moved} of {} pixels", plain.rgba.len() / 4);
    assert!(moved > 50, "the curl noise moved only {moved} pixels");
}

/// The slab of the shadow-map checks: thin (600 m at σt = 10⁻³/m: τ = 0.6 straight up), a map of
/// 32² texels over 8 km (250 m texels), and a march of 4 steps (the slab's density is constant,
/// so the midpoint rule is exact and only the geometry can be wrong).
fn shadow_slab() -> Vec<String> {
    [
        "density_model=slab",
        "noise_resolution=low",
        "layer_bottom_m=1000",
        "layer_thickness_m=600",
        "extinction=0.001",
        "view_steps=8",
        "light_steps=1",
        "jitter=false",
        "shadow_resolution=32",
        "shadow_extent_km=8",
        "shadow_steps=4",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The f64 transmittance from `ground` towards the sun `sun` through the slab of `p` on its
/// spherical planet: e^(−σt·L), L from where the ray leaves the sphere of the layer's bottom to
/// where it leaves the sphere of its top (capped at the longest march), the sun clamped to 3° of
/// elevation as the map's builder clamps it.
// ANCHOR: shadow_f64
fn slab_shadow_f64(p: &CloudParams, sun: DVec3, ground: DVec3) -> f64 {
    let min_sin = fogbook_core::cloud_shadow::MIN_SUN_SIN as f64;
    let l = if sun.y >= min_sin {
        sun.normalize()
    } else {
        let h = DVec3::new(sun.x, 0.0, sun.z).normalize();
        h * (1.0 - min_sin * min_sin).sqrt() + DVec3::Y * min_sin
    };
    let radius = p.planet_radius_km as f64 * 1000.0;
    let rel = ground - DVec3::new(0.0, -radius, 0.0);
    let (r, mu) = (rel.length(), rel.dot(l) / rel.length());
    let leaves = |s: f64| -r * mu + (r * r * (mu * mu - 1.0) + s * s).sqrt();
    let bottom = radius + p.layer_bottom_m as f64;
    let t0 = leaves(bottom).max(0.0);
    let t1 = leaves(bottom + p.layer_thickness_m as f64).min(t0 + p.max_march_km as f64 * 1000.0);
    (-(p.extinction as f64) * (t1 - t0).max(0.0)).exp()
}
// ANCHOR_END: shadow_f64

/// The shadow map of the homogeneous slab against the f64 transmittance, texel by texel, for
/// four suns (60°, 25°, 8°, and 5° below the horizon, which the map takes at 3°). The `cloud-
/// shadow` view at the map's own size shows each texel once. Tolerance 2·10⁻³ relative (plus
/// 10⁻⁶): the map is rgba16float (relative rounding 2⁻¹¹ = 4.9·10⁻⁴) and its rays' ends come from
/// f32 sphere intersections on a 6.36·10⁶ m planet (~0.5 m each, so σt·1 m = 10⁻³ in τ).
#[test]
fn shadow_map_matches_the_f64_slab_transmittance() {
    const N: u32 = 32;
    let camera = "0,2,0,0,10,70";
    let mut h = headless([N, N]);
    let mut clouds = stack(&h, "clouds");
    let builds = |setup: &mut Setup| {
        let loaded = setup.stack.chapters_mut()[0].as_any_mut().downcast_mut::<Loaded<Clouds>>().unwrap();
        loaded.gpu.as_ref().unwrap().shadow.builds
    };
    let mut built = builds(&mut clouds);
    for elevation in [60.0, 25.0, 8.0, -5.0] {
        let mut sets = shadow_slab();
        sets.push(format!("scene.sun_elevation_deg={elevation}"));
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        let map = &draw(&mut h, &mut clouds, &sets, camera, &["cloud-shadow"])[0];
        // A new sun builds the map again; a frame with nothing changed does not (the first
        // redraw's clock stands at 0, the draw's one step on: the wind moved the clouds).
        assert!(builds(&mut clouds) > built, "sun at {elevation}°: the map was not rebuilt");
        let view = clouds.stack.find_view("final").unwrap();
        h.redraw(&mut clouds.stack, &clouds.camera, &clouds.scene, view);
        built = builds(&mut clouds);
        h.redraw(&mut clouds.stack, &clouds.camera, &clouds.scene, view);
        assert_eq!(builds(&mut clouds), built, "sun at {elevation}°: a still frame rebuilt the map");
        let (p, scene) = typed_settings::<CloudParams>(&sets);
        let sun = scene.sun_direction().as_dvec3();
        let extent = p.shadow_extent_km as f64 * 1000.0;
        // ANCHOR: shadow_test
        let (mut worst, mut worst_rel, mut mean) = (0.0f64, 0.0f64, 0.0f64);
        for y in 0..N {
            for x in 0..N {
                let at = |i: u32| ((i as f64 + 0.5) / N as f64 - 0.5) * extent;
                let want = slab_shadow_f64(&p, sun, DVec3::new(at(x), 0.0, at(y)));
                let got = map.pixel(x, y)[0] as f64;
                let err = (got - want).abs();
                assert!(err <= 2e-3 * want + 1e-6, "sun at {elevation}°, texel ({x},{y}): map {got}, f64 {want}");
                (worst, worst_rel, mean) = (worst.max(err), worst_rel.max(err / want), mean + want);
            }
        }
        // ANCHOR_END: shadow_test
        mean /= (N * N) as f64;
        let flat = (-(p.extinction as f64) * p.layer_thickness_m as f64 / sun.y.max(0.0523)).exp();
        eprintln!(
            "shadow map, sun at {elevation}°: mean T {mean:.5} (flat slab {flat:.5}), worst error {worst:.2e} ({worst_rel:.2e} relative)"
        );
    }
}

/// Under the slab, in a stack of froxel fog and the clouds: (b) the sunlit ground as the fog's
/// stage receives it (`froxel-fog/scene`) is darker, with the clouds' shadow on, by the slab's
/// transmittance (no ambient light: the sun term is all of it); (c) the fog's in-scattered sun
/// light inside its grid drops by the same factor (the transmittance is the same for every
/// point under the slab, up to 10⁻⁵). Tolerance 1%: both images pass through rgba16float
/// targets and the map is rgba16float too.
#[test]
fn the_slab_shadows_the_scene_and_the_froxel_fog() {
    let size = [64, 36];
    let camera = "0,2,0,0,-2,60";
    let mut h = headless(size);
    let mut setup = stack(&h, "froxel-fog,clouds");
    let mut sets: Vec<String> = shadow_slab().iter().map(|s| format!("clouds.{s}")).collect();
    sets.extend(
        ["grid_width=64", "grid_height=36", "grid_depth=32", "froxel-fog.ambient_scale=0", "constant_density=0.01"]
            .map(String::from),
    );
    sets.extend(["scene.ambient=0,0,0", "scene.sun_elevation_deg=30"].map(String::from));
    let off: Vec<String> = sets.iter().cloned().chain(["clouds.cloud_shadows=false".to_string()]).collect();
    let views = ["froxel-fog/scene", "froxel-fog/inscattering", "froxel-fog/transmittance"];
    let on_refs: Vec<&str> = sets.iter().map(String::as_str).collect();
    let off_refs: Vec<&str> = off.iter().map(String::as_str).collect();
    let shadowed = draw(&mut h, &mut setup, &on_refs, camera, &views);
    let lit = draw(&mut h, &mut setup, &off_refs, camera, &views);
    let plain: Vec<String> = shadow_slab().into_iter().chain(["scene.sun_elevation_deg=30".to_string()]).collect();
    let (p, scene) = typed_settings::<CloudParams>(&plain);
    let want = slab_shadow_f64(&p, scene.sun_direction().as_dvec3(), DVec3::ZERO);
    let luminance = |v: [f32; 4]| 0.2126 * v[0] as f64 + 0.7152 * v[1] as f64 + 0.0722 * v[2] as f64;
    for (k, what) in [(0, "scene"), (1, "fog in-scattering")] {
        let (mut n, mut worst, mut sum) = (0, 0.0f64, 0.0f64);
        for y in 0..size[1] {
            for x in 0..size[0] {
                let (a, b) = (luminance(shadowed[k].pixel(x, y)), luminance(lit[k].pixel(x, y)));
                // Sunlit ground (the scene), or a ray that has crossed some fog (in the grid).
                let ground = lit[2].pixel(x, y)[0] < 0.999 && y > size[1] / 2;
                if b <= 1e-4 || !ground {
                    continue;
                }
                let ratio = a / b;
                assert!((ratio - want).abs() <= 0.01 * want, "{what} ({x},{y}): ratio {ratio}, slab {want}");
                (n, worst, sum) = (n + 1, worst.max((ratio / want - 1.0).abs()), sum + ratio);
            }
        }
        eprintln!(
            "{what} under the slab: mean ratio {:.5} over {n} pixels, f64 transmittance {want:.5}, worst relative error {worst:.2e}",
            sum / n as f64
        );
        assert!(n > 100, "{what}: only {n} pixels compared");
    }
}

/// A point above the ground looks the map up where its ray towards the sun starts from the
/// ground. The map's edge (beyond it the lookup gives 1) makes a shadow boundary: with a 500 m map
/// whose west edge lies at x = 15.6 m and the sun 30° up in the east (+x), the tower's
/// sunlit east face (x = 52 m) projects to x = 52 − √3·y, inside the map below y ≈ 21 m and
/// outside above. Every pixel of the scene (its point from the scene's distance) darkens by the
/// factor the CPU predicts from its own projection: the slab's transmittance inside the map, 1
/// outside, pixels within 8 m of the edge (a pixel's footprint) left out.
#[test]
fn points_above_the_ground_look_up_their_projection_along_the_sun() {
    let size = [64, 36];
    let camera = "267,20,-154,90,0,20";
    let mut h = headless(size);
    let mut clouds = stack(&h, "clouds");
    let mut surfaces = stack(&h, "distance-fog");
    let mut sets = shadow_slab();
    sets.extend(
        ["shadow_extent_km=0.5", "shadow_resolution=64", "scene.ambient=0,0,0"]
            .into_iter()
            .chain(["scene.sun_elevation_deg=30", "scene.sun_azimuth_deg=-90"])
            .map(String::from),
    );
    let on: Vec<&str> = sets.iter().map(String::as_str).collect();
    let off: Vec<&str> = on.iter().copied().chain(["cloud_shadows=false"]).collect();
    let shadowed = &draw(&mut h, &mut clouds, &on, camera, &["final"])[0];
    let lit = &draw(&mut h, &mut clouds, &off, camera, &["final"])[0];
    let distance = &draw(&mut h, &mut surfaces, &[], camera, &["distance"])[0];
    let (p, scene) = typed_settings::<CloudParams>(&on);
    let sun = scene.sun_direction().as_dvec3();
    let extent = p.shadow_extent_km as f64 * 1000.0;
    let texel = extent / p.shadow_resolution as f64;
    let centre = DVec3::new((267.0 / texel).round() * texel, 0.0, (-154.0 / texel).round() * texel);
    let slab = slab_shadow_f64(&p, sun, DVec3::ZERO);
    let (mut inside, mut outside) = (0, 0);
    for y in 0..size[1] {
        for x in 0..size[0] {
            let d = distance.pixel(x, y)[0] as f64;
            let (a, b) = (shadowed.pixel(x, y)[1] as f64, lit.pixel(x, y)[1] as f64);
            if d >= scene.sky_distance_m as f64 * 0.999 || b <= 1e-4 {
                continue;
            }
            let (o, v) = pose_ray(camera, size, x, y);
            let point = o + v * d;
            let ground = point - sun * (point.y / sun.y);
            let edge = extent / 2.0 - (ground - centre).x.abs().max((ground - centre).z.abs());
            if edge.abs() < 8.0 {
                continue;
            }
            let want = if edge > 0.0 { slab } else { 1.0 };
            let ratio = a / b;
            assert!(
                (ratio - want).abs() <= 0.01 * want,
                "pixel ({x},{y}) at {point:.1}: ratio {ratio}, want {want} (ground point {ground:.1})"
            );
            if point.y > 1.0 {
                if edge > 0.0 { inside += 1 } else { outside += 1 }
            }
        }
    }
    eprintln!("above the ground: {inside} pixels in the map's shadow, {outside} beyond its edge (slab T {slab:.4})");
    assert!(inside > 20 && outside > 20, "the edge does not cross the tower: {inside} in, {outside} out");
}
