//! With chapter 4's grid: the handover at its far end, the froxel path's error, no pop, no flicker.

use crate::common::*;
use crate::{SIZE, froxel_grid, perpendiculars};
use fogbook_core::media::density::NoiseModel::Baked;
use fogbook_local_fog::LocalFogParams;
use fogbook_local_fog::reference::{optical_depth, textured_optical_depth_with};
use glam::DVec3;

/// With chapter 4 in the stack, the grid draws the volumes up to its far end f and this chapter
/// from f on: the `path` view per pixel against the crossings computed on the CPU (blue where a
/// crossing starts before f, orange where one ends beyond it), for the default volumes and a grid
/// ending at 30 m, which cuts the sphere (about 27–35 m away), draws the mist and leaves the
/// cylinder (about 57–63 m) beyond.
/// Pixels whose classification changes under a 1e-6 rad turn of the ray, or with a crossing's end
/// within 1 mm of f, are left out (they are counted and must be few).
#[test]
fn the_grid_draws_volumes_up_to_its_far_end_and_this_chapter_beyond() {
    use fogbook_local_fog::reference::chord;
    const FAR: f64 = 30.0;
    let sets = [
        "froxel-fog.grid_width=64",
        "froxel-fog.grid_height=36",
        "froxel-fog.grid_depth=32",
        "froxel-fog.fog_distance_m=30",
    ];
    // The default camera, spelled out.
    let camera = "0,2,0,0,-2,60";
    let img = render("froxel-fog,local-fog", "local-fog/path", &sets, Some(camera), [160, 90]).raw;
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(camera), [160, 90]).raw;
    let volumes = LocalFogParams::default().fog_volumes();
    // ANCHOR: handover_classify
    let classify = |o: DVec3, v: DVec3, d: f64| {
        let (mut froxel, mut analytic, mut near_edge) = (false, false, false);
        for vol in &volumes {
            if let Some((a, b)) = chord(vol, o, v) {
                let (a, b) = (a.max(0.0), b.min(d));
                if b > a {
                    froxel |= a < FAR;
                    analytic |= b > FAR;
                    near_edge |= (a - FAR).abs() < 1e-3 || (b - FAR).abs() < 1e-3;
                }
            }
        }
        (froxel, analytic, near_edge)
    };
    // ANCHOR_END: handover_classify
    let (mut counts, mut skipped) = ([0usize; 4], 0);
    for y in 0..90 {
        for x in 0..160 {
            let (o, v) = pose_ray(camera, [160, 90], x, y);
            let d = distance.pixel(x, y)[0] as f64;
            let (froxel, analytic, near_edge) = classify(o, v, d);
            let stable = perpendiculars(v)
                .iter()
                .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                .all(|w| {
                    let c = classify(o, w, d);
                    (c.0, c.1) == (froxel, analytic)
                });
            if near_edge || !stable {
                skipped += 1;
                continue;
            }
            // ANCHOR: handover_test
            let p = img.pixel(x, y);
            let (f, a) = (froxel as u8 as f32, analytic as u8 as f32);
            let want = [0.2 * f + 1.0 * a, 0.45 * f + 0.55 * a, 1.0 * f + 0.1 * a];
            assert!(
                (0..3).all(|c| (p[c] - want[c]).abs() < 1e-6),
                "({x},{y}): GPU {:?}, CPU froxel {froxel} analytic {analytic}",
                &p[..3]
            );
            counts[froxel as usize * 2 + analytic as usize] += 1;
        }
    }
    eprintln!(
        "path: none {}, analytic {}, froxel {}, both {}; {skipped} skipped",
        counts[0], counts[1], counts[2], counts[3]
    );
    assert!(counts[1] > 100 && counts[2] > 100 && counts[3] > 20, "every path occurs: {counts:?}");
    assert!(skipped * 50 < 160 * 90, "{skipped} pixels left out");
    // ANCHOR_END: handover_test
}

/// A slab wider than the view, from the ground to 80 m up (its falloff's reference height y₀ is
/// the ground), `thickness` m thick, its near face `near` m in front of the eye (along −z), as
/// settings of volume 0.
fn slab(near: f64, thickness: f64, extra: &[&str]) -> Vec<String> {
    let mut s = vec!["volume_count=1".to_string()];
    for (f, v) in [
        ("shape", "box".to_string()),
        ("x_m", "0".into()),
        ("y_m", "40".into()),
        ("z_m", format!("{}", -(near + thickness / 2.0))),
        ("size_x_m", "400".into()),
        ("size_y_m", "80".into()),
        ("size_z_m", format!("{thickness}")),
        ("yaw_deg", "0".into()),
        ("density", "0.2".into()),
        ("falloff", "0".into()),
        ("edge_fade_m", "0".into()),
    ] {
        s.push(format!("volumes[0].{f}={v}"));
    }
    s.extend(extra.iter().map(|e| format!("volumes[0].{e}")));
    s
}

/// The froxel path's error for a large volume (the book derives it): a volume enters each froxel
/// as its exact optical depth along the column's ray through the slice, so a column's
/// transmittance is exact and the only error left is the reconstruction across columns — the
/// composite's bilinear blend of the four nearest columns. So chapter 4's `transmittance` view
/// must lie within the range of the f64 closed form along those four columns' rays (plus 1e-4),
/// for a 6 m slab of constant density 0.2 /m 20–26 m ahead, and with a height falloff; the
/// error against the pixel's own ray is reported. (With the density sampled at one point per
/// froxel instead, the error is up to σ (Δ_a + Δ_b) / 2 in τ, Δ the slices' lengths at the
/// faces — 0.7 here — and this test fails.)
#[test]
fn froxel_path_is_exact_per_column_and_blends_columns() {
    const CAMERA_UP: &str = "0,2,0,0,35,60"; // only sky: every ray crosses the whole slab
    let grid = [64u32, 36];
    // A noise-textured slab has no closed form: the media pass integrates each slice's piece of
    // the crossing by the midpoint rule in 8 steps, and the reference does the same in f64 over
    // chapter 4's slices (1–100 m, 32 of them), so the same bound holds.
    const NOISE: &[&str] = &["density_source=noise", "noise_frequency=0.4", "noise_contrast=0.8"];
    let slices = fogbook_froxel_fog::reference::Slices::new(1.0, 100.0, 32);
    for extra in [&[][..], &["falloff=0.03"][..], NOISE] {
        let sets: Vec<String> = froxel_grid("100").into_iter().chain(slab(20.0, 6.0, extra)).collect();
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        let img = render("froxel-fog,local-fog", "froxel-fog/transmittance", &sets, Some(CAMERA_UP), SIZE).raw;
        let (params, _) = typed_settings::<LocalFogParams>(
            &sets.iter().filter(|s| !s.starts_with("froxel")).copied().collect::<Vec<_>>(),
        );
        let volume = params.fog_volumes()[0];
        let textured = !extra.is_empty() && extra[0].starts_with("density_source");
        let t = |o: DVec3, v: DVec3| {
            if textured {
                // The noise as the GPU reads it, baked (its own error is `check_textured`'s).
                let per_slice =
                    |k| textured_optical_depth_with(Baked, &volume, o, v, slices.begin(k), slices.end(k), &[], 8);
                (-(0..32).map(per_slice).sum::<f64>()).exp()
            } else {
                (-optical_depth(&volume, o, v, 0.0, 100.0)).exp()
            }
        };
        let (mut worst_pixel, mut worst_outside) = (0.0f64, 0.0f64);
        // ANCHOR: froxel_error_test
        for y in 0..SIZE[1] {
            for x in 0..SIZE[0] {
                // The four columns the composite blends (clamped at the grid's border).
                let u = (x as f64 + 0.5) / SIZE[0] as f64 * grid[0] as f64 - 0.5;
                let w = (y as f64 + 0.5) / SIZE[1] as f64 * grid[1] as f64 - 0.5;
                let cols = |c: f64, n: u32| {
                    [c.floor().clamp(0.0, n as f64 - 1.0) as u32, (c.floor() + 1.0).clamp(0.0, n as f64 - 1.0) as u32]
                };
                let mut range = (f64::INFINITY, f64::NEG_INFINITY);
                for i in cols(u, grid[0]) {
                    for j in cols(w, grid[1]) {
                        let (o, v) = pose_ray(CAMERA_UP, grid, i, j);
                        let c = t(o, v);
                        range = (range.0.min(c), range.1.max(c));
                    }
                }
                let got = img.pixel(x, y)[0] as f64;
                let (o, v) = pose_ray(CAMERA_UP, SIZE, x, y);
                worst_pixel = worst_pixel.max((got - t(o, v)).abs());
                let outside = (range.0 - got).max(got - range.1).max(0.0);
                worst_outside = worst_outside.max(outside);
                assert!(outside <= 1e-4 + 1e-4 * got, "{extra:?} ({x},{y}): {got} outside the columns' {range:?}");
            }
        }
        // ANCHOR_END: froxel_error_test
        eprintln!(
            "{extra:?}: froxel transmittance vs the pixel's ray: worst {worst_pixel:.2e}; outside the columns' range by {worst_outside:.1e}"
        );
    }
}

/// A volume moved across the grid's far end f (40 m) in steps of 1 % of f changes no pixel by
/// more than 2 % from one step to the next: a 3 m slab of constant density and one with a height
/// falloff, lit by the sun (with the volume's phase g = 0.6 and its self-shadowing, which both
/// paths have) and the ambient light, its near face from 35.6 m (all of it in the
/// grid along every ray of the view, 2°–12° up) to 40.4 m (all beyond) in front of the eye; and
/// the constant slab again in the shadow of another volume, a 2 m thick layer of 0.05 /m far
/// above it towards the sun (wide enough that its shadow covers the whole view evenly, a
/// transmittance of 0.56): both paths shadow one volume by another, so it does not pop either
/// (with the froxels lit by the unshadowed sun, it stepped by 6.9 %). One stack is prepared once
/// and drawn at every step.
#[test]
fn a_volume_crossing_the_far_end_does_not_pop() {
    use fogbook_core::time::TimeControl;
    const CAMERA_LOW: &str = "0,2,0,0,7,10"; // rays 2°–12° above the horizon: only sky
    let size = [96u32, 54];
    let mut h = headless(size);
    // The layer over the slab: 200 m wide, 15 m up, along the sun's ray from the view's patch of
    // the slab (its shadow's optical depth is 2 m / sin(10°) · 0.05 /m wherever it falls).
    let sun = fogbook_core::scene_settings::SceneSettings::default().sun_direction().as_dvec3();
    let layer = DVec3::new(0.0, 5.0, -38.0) + sun * (10.0 / sun.y);
    let shade = [
        "volume_count=2".to_string(),
        "volumes[1].shape=box".into(),
        format!("volumes[1].x_m={}", layer.x),
        format!("volumes[1].y_m={}", layer.y),
        format!("volumes[1].z_m={}", layer.z),
        "volumes[1].size_x_m=200".into(),
        "volumes[1].size_y_m=2".into(),
        "volumes[1].size_z_m=200".into(),
        "volumes[1].yaw_deg=0".into(),
        "volumes[1].density=0.05".into(),
        "volumes[1].falloff=0".into(),
        "volumes[1].edge_fade_m=0".into(),
        "volumes[1].density_source=constant".into(),
    ];
    for (extra, shaded) in [(&[][..], false), (&["falloff=0.1"][..], false), (&[][..], true)] {
        let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
        let mut base: Vec<String> = froxel_grid("40");
        // Sunlit, with the volume's own phase g (the grid's is 0) and without the scene's shadow
        // map, whose edges move over the slab as it moves.
        let light = ["froxel-fog.volume_shadows=false", "local-fog.volume_scene_shadows=false", "froxel-fog.phase_g=0"];
        base.extend(light.iter().map(|s| s.to_string()).chain(["volumes[0].phase_g=0.6".to_string()]));
        setup.apply(None, &base, Some(CAMERA_LOW)).unwrap();
        h.prepare_stack(&mut setup.stack).unwrap();
        let view = setup.stack.find_view("final").unwrap();
        let mut last: Option<Vec<f32>> = None;
        let mut worst = (0.0f32, 0.0f64);
        // ANCHOR: no_pop_test
        for step in 0..=12 {
            let near = 35.6 + 0.4 * step as f64;
            for s in slab(near, 3.0, extra) {
                setup.set(&s).unwrap();
            }
            for s in shade.iter().filter(|_| shaded) {
                setup.set(s).unwrap();
            }
            let mut time = TimeControl::fixed(0.0);
            h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
            let img = h.capture().unwrap().raw.rgba;
            if let Some(prev) = &last {
                for (a, b) in prev.chunks_exact(4).zip(img.chunks_exact(4)) {
                    for c in 0..3 {
                        let change = (b[c] - a[c]).abs() / a[c].abs().max(1e-6);
                        if change > worst.0 {
                            worst = (change, near);
                        }
                    }
                }
            }
            last = Some(img);
        }
        eprintln!(
            "{extra:?} shaded {shaded}: largest change of a pixel between steps {:.3} % (near face at {:.1} m)",
            100.0 * worst.0,
            worst.1
        );
        assert!(
            worst.0 <= 0.02,
            "{extra:?} shaded {shaded}: a pixel changed by {:.2} % at {:.1} m",
            100.0 * worst.0,
            worst.1
        );
        // ANCHOR_END: no_pop_test
    }
}

/// A thin volume does not flicker under temporal accumulation: a wall of fog 0.3 m thick (τ 0.3,
/// a tenth of the 3 m slices around it) 20 m ahead, in chapter 4's grid with jitter and history
/// on, in a static view. Over 8 frames after 8 of warm-up, its in-scattering (chapter 4's
/// `inscattering` view) averaged over its inside (pixels against the sky whose neighbours a
/// column away see it too; at the silhouette the jitter across the columns moves it by design)
/// changes from one frame to the next by at most 2 % of its mean luminance, and no pixel there by
/// more than 10 %.
#[test]
fn a_thin_volume_does_not_flicker() {
    use fogbook_core::time::TimeControl;
    const CAMERA_WALL: &str = "0,6,0,0,10,60"; // above the scene's boxes, the wall against the sky
    let size = [96u32, 54];
    let mut sets: Vec<String> = froxel_grid("60");
    sets.extend(["froxel-fog.temporal=true".to_string(), "volume_count=1".to_string()]);
    if let Ok(extra) = std::env::var("EXTRA") {
        sets.extend(extra.split(' ').map(String::from));
    }
    for (f, v) in [("shape", "box"), ("x_m", "0"), ("y_m", "12"), ("z_m", "-20"), ("size_x_m", "16")] {
        sets.push(format!("volumes[0].{f}={v}"));
    }
    for (f, v) in [
        ("size_y_m", "8"),
        ("size_z_m", "0.3"),
        ("yaw_deg", "0"),
        ("density", "1"),
        ("edge_fade_m", "0"),
        ("falloff", "0"),
    ] {
        sets.push(format!("volumes[0].{f}={v}"));
    }
    let mut h = headless(size);
    let mut setup = fogbook::state::Setup::new("froxel-fog,local-fog").unwrap();
    setup.apply(None, &sets, Some(CAMERA_WALL)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let view = setup.stack.find_view("froxel-fog/inscattering").unwrap();
    let own: Vec<&String> = sets.iter().filter(|s| !s.starts_with("froxel")).collect();
    let (params, _) = typed_settings::<LocalFogParams>(&own);
    let volume = params.fog_volumes()[0];
    let column = 1.2 * 2.0 * (30f64.to_radians().tan()) / 36.0; // a column's width at unit distance, and some
    let inside: Vec<bool> = (0..size[0] * size[1])
        .map(|i| {
            let (o, v) = pose_ray(CAMERA_WALL, size, i % size[0], i / size[0]);
            let [a, b] = perpendiculars(v);
            [a, -a, b, -b, DVec3::ZERO]
                .iter()
                .all(|&p| fogbook_local_fog::reference::chord(&volume, o, (v + p * column).normalize()).is_some())
        })
        .collect();
    let luminance = |p: &[f32]| 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
    let mut time = TimeControl::fixed(0.0);
    let mut frames: Vec<Vec<f32>> = Vec::new();
    for f in 0..16 {
        h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
        if f >= 8 {
            let raw = h.capture().unwrap().raw.rgba;
            frames.push(raw.chunks_exact(4).map(luminance).collect());
        }
    }
    // ANCHOR: flicker_test
    let count = inside.iter().filter(|&&i| i).count();
    let means: Vec<f64> = frames
        .iter()
        .map(|f| f.iter().zip(&inside).filter(|(_, i)| **i).map(|(l, _)| *l as f64).sum::<f64>() / count as f64)
        .collect();
    let mean = means.iter().sum::<f64>() / means.len() as f64;
    let (mut worst_mean, mut worst_pixel) = (0.0f64, 0.0f64);
    for (pair, m) in frames.windows(2).zip(means.windows(2)) {
        worst_mean = worst_mean.max((m[1] - m[0]).abs() / mean);
        for (i, (a, b)) in pair[0].iter().zip(&pair[1]).enumerate() {
            if inside[i] {
                worst_pixel = worst_pixel.max((b - a).abs() as f64 / mean);
            }
        }
    }
    eprintln!(
        "thin volume: {count} pixels, mean luminance {mean:.4}; largest change between frames: of the mean {:.3} %, of a pixel {:.2} %",
        100.0 * worst_mean,
        100.0 * worst_pixel
    );
    assert!(count > 300 && mean > 1e-3, "{count} {mean}");
    assert!(worst_mean <= 0.02, "the thin volume flickers by {:.2} % of its mean", 100.0 * worst_mean);
    // A pixel at the edge of a scene object's shadow on the wall changes more: the jitter moves
    // the shadow lookups across the edge (as it does in chapter 4's own fog).
    assert!(worst_pixel <= 0.1, "a pixel of the thin volume flickers by {:.2} % of its mean", 100.0 * worst_pixel);
    // ANCHOR_END: flicker_test
}
