//! Chapter 5's answer keys: each reads its number from the page's "Try this" and computes it
//! from the chapter's CPU reference or the core.

use super::{close, numbers_after, page_answer};
use fogbook_core::camera::CameraPose;
use fogbook_core::media::volumes::{BIN_WORDS, FogVolume, SHAPE_BOX, VolumeBins};
use fogbook_core::params::set_by_name;
use fogbook_core::scene_settings::SceneSettings;
use fogbook_local_fog::LocalFogParams;
use fogbook_local_fog::reference::{chord, numeric_optical_depth, optical_depth, quadrature_optical_depth};
use glam::DVec3;

const CLOSED_FORM: &str = "ch05-local-fog-volumes.md";
const MANY: &str = "ch05-many-volumes.md";
const TEXTURES: &str = "ch05-density-textures.md";

/// Chapter 5's parameters, camera and scene after loading `preset` the way the viewer does
/// (the preset's stack, then the chapter's parameters read back from it).
fn preset(preset: &str) -> (LocalFogParams, CameraPose, SceneSettings) {
    use fogbook_core::params::DynParameters;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(preset);
    let spec = fogbook_core::preset::chapters_of(&path).unwrap();
    let mut setup = fogbook::state::Setup::new(&spec).unwrap();
    setup.apply(Some(&path), &[], None).unwrap();
    let i = setup.stack.ids().iter().position(|id| *id == "local-fog").expect("the preset has chapter 5");
    let text = setup.stack.chapter_mut(i).params().to_ron();
    let mut params = LocalFogParams::default();
    params.load_ron(&text).unwrap();
    (params, setup.camera, setup.scene)
}

/// Closed form, Try this 3: 5 m of uniform fog of 0.2 /m, then the same with the density ramping
/// over the first and last 2 m (a box's edge fade of 2 m along a ray through its middle); the
/// fewest midpoint steps that integrate the ramps exactly.
#[test]
fn ramps_and_midpoint_steps() {
    let answer = page_answer(CLOSED_FORM, "3. A ray crosses 5 m of a box of uniform fog");
    let t = numbers_after(&answer, "\\approx ");
    assert_eq!(t.len(), 2, "two transmittances: {answer}");
    let steps = numbers_after(&answer, "exactly: ");
    assert_eq!(steps.len(), 1, "the steps: {answer}");
    // 5 m along z, wide across (the fade from the x and y faces never reaches the ray).
    let mut v = FogVolume {
        centre: [0.0, 0.0, -10.0, SHAPE_BOX],
        half_size: [10.0, 10.0, 2.5, 0.0],
        albedo_density: [1.0, 1.0, 1.0, 0.2],
        ..FogVolume::AXIS_ALIGNED
    };
    let (o, d) = (DVec3::ZERO, DVec3::new(0.0, 0.0, -1.0));
    close((-optical_depth(&v, o, d, 0.0, 100.0)).exp(), t[0], 5e-4, "uniform box's transmittance");
    v.half_size[3] = 2.0;
    let exact = numeric_optical_depth(&v, o, d, 0.0, 100.0, 20_000, 2_000);
    close((-exact).exp(), t[1], 5e-4, "ramped box's transmittance");
    let fewest = (1..=64)
        .find(|&n| (quadrature_optical_depth(&v, o, d, 0.0, 100.0, n) - exact).abs() < 1e-9)
        .expect("some step count is exact");
    close(fewest as f64, steps[0], 0.0, "fewest exact midpoint steps");
    for multiple in [2, 3] {
        let n = multiple * fewest;
        assert!((quadrature_optical_depth(&v, o, d, 0.0, 100.0, n) - exact).abs() < 1e-9, "{n} steps");
    }
}

/// Closed form, Try this 5: from inside the mist every ray crosses at least one volume, its
/// crossing of the mist clipped to start at the eye.
#[test]
fn inside_the_mist() {
    let answer = page_answer(CLOSED_FORM, "5. Move the camera into the mist");
    let least = numbers_after(&answer, "At least ");
    assert_eq!(least.len(), 1, "{answer}");
    let camera = CameraPose::parse("-6,1,-22,0,0,60").unwrap();
    let eye = camera.eye().as_dvec3();
    let volumes = LocalFogParams::default().fog_volumes();
    let mut fewest = usize::MAX;
    for i in 0..2000 {
        // Directions spread over the sphere (a Fibonacci lattice).
        let z = 1.0 - (2 * i + 1) as f64 / 2000.0;
        let phi = i as f64 * std::f64::consts::PI * (3.0 - 5f64.sqrt());
        let r = (1.0 - z * z).sqrt();
        let d = DVec3::new(r * phi.cos(), z, r * phi.sin());
        let (a, b) = chord(&volumes[0], eye, d).expect("every ray from inside crosses the mist");
        assert!(a < 0.0 && b > 0.0, "the crossing starts behind the eye: {a}..{b}");
        let crossed = volumes.iter().filter(|v| chord(v, eye, d).is_some_and(|(_, b)| b > 0.0)).count();
        fewest = fewest.min(crossed);
    }
    close(fewest as f64, least[0], 0.0, "fewest volumes a ray crosses from inside the mist");
}

/// Many volumes, Try this 2: the tiles of a 1920×1080 frame that test the benchmark's volume 0
/// before and after it is made 500 m long, and at the end of the list.
#[test]
fn a_big_volume_in_every_tile() {
    use fogbook_local_fog::binning::{bin_tiles, tile_grid};
    let answer = page_answer(MANY, "2. Load `benches/local-fog-64.ron` and look at `tile-volumes`");
    let (after, before) = (numbers_after(&answer, "All "), numbers_after(&answer, "against "));
    assert_eq!((after.len(), before.len()), (1, 1), "{answer}");
    let (mut params, camera, scene) = preset("benches/local-fog-64.ron");
    let size = [1920, 1080];
    let frame = fogbook_core::frame::FrameUniform::new(&camera, &scene, size, 0.0, 0);
    let grid = tile_grid(size);
    let tiles_with = |params: &LocalFogParams, i: usize| {
        let mut bins = VolumeBins::new(grid);
        bin_tiles(&params.fog_volumes(), 0, &frame, size, &mut bins);
        let n = (grid[0] * grid[1]) as usize;
        (0..n).filter(|t| bins.words[t * BIN_WORDS + i / 32] & (1 << (i % 32)) != 0).count()
    };
    close(tiles_with(&params, 0) as f64, before[0], 0.0, "tiles testing volume 0 as given");
    set_by_name(&mut params, "volumes[0].size_x_m", "500").unwrap();
    close(tiles_with(&params, 0) as f64, after[0], 0.0, "tiles testing volume 0, 500 m long");
    let bounds = params.fog_volumes()[0].view_bounds(&frame).expect("in front of the eye too");
    assert_eq!(bounds.ndc_min.x, f64::NEG_INFINITY, "the long box reaches behind the eye: {bounds:?}");
    close((grid[0] * grid[1]) as f64, after[0], 0.0, "every tile of the frame");
    let last = params.volumes.len() - 1;
    params.volumes.swap(0, last);
    close(tiles_with(&params, last) as f64, after[0], 0.0, "the same volume last in the list");
}

/// Many volumes, Try this 3: how often a jittered point sample per froxel lands in a wall a
/// tenth of its slice thick, over the jitter's period; what the default history blend keeps of a
/// flip.
#[test]
fn a_thin_wall_under_the_depth_jitter() {
    use fogbook_core::history::{JITTER_PERIOD, jitter_depth};
    let answer = page_answer(MANY, "3. With the point sample per froxel");
    let read = |marker| {
        let n = numbers_after(&answer, marker);
        assert!(!n.is_empty(), "no number after {marker:?}: {answer}");
        n
    };
    let (period, mean, range, blend, jump) = (
        read("period of "),
        read("lands in the wall "),
        read("between "),
        read("`history_blend` = "),
        read("a jump of "),
    );
    // Where in the slice (0–1) the sample lies each frame: chapter 4's `froxel_sample_point`.
    let samples: Vec<f64> = (0..JITTER_PERIOD).map(|f| 0.5 + jitter_depth(f) as f64).collect();
    let (wall, places) = (0.3 / 3.0, 9000);
    let counts: Vec<usize> = (0..=places)
        .map(|k| {
            let start = (1.0 - wall) * k as f64 / places as f64;
            samples.iter().filter(|&&s| s >= start && s < start + wall).count()
        })
        .collect();
    let average = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
    close(JITTER_PERIOD as f64, period[0], 0.0, "frames in the jitter's period");
    close(average, mean[0], 0.05, "frames a period the sample lands in the wall, on average");
    close(average / JITTER_PERIOD as f64, 0.1, 0.01, "about one frame in ten");
    close(*counts.iter().min().unwrap() as f64, range[0], 0.0, "fewest frames in the wall");
    close(*counts.iter().max().unwrap() as f64, range[1], 0.0, "most frames in the wall");
    let history = fogbook_froxel_fog::FroxelFogParams::default().history_blend as f64;
    close(history, blend[0], 1e-6, "chapter 4's default history blend");
    close(100.0 * (1.0 - history), jump[0], 1e-4, "a flip's share of the full change (%)");
}

/// Many volumes, Try this 4: the benchmark's sun-grid cells, for its volumes and for volumes
/// twice as large; the sun rays a refill of every grid traces.
#[test]
fn the_sun_grid_of_the_benchmark() {
    use fogbook_local_fog::SUN_GRID;
    let answer = page_answer(MANY, "4. Load `benches/local-fog-64.ron`, turn the sun low");
    let (cells, doubled) = (numbers_after(&answer, "cells are "), numbers_after(&answer, "has cells of "));
    assert!(!cells.is_empty() && !doubled.is_empty(), "{answer}");
    // "64 × 16³ = 262 144": the number after the sign, its digits grouped by spaces.
    let rays = answer.split("16³ = ").nth(1).unwrap_or_else(|| panic!("no ray count: {answer}"));
    let rays: String = rays.chars().take_while(|c| c.is_ascii_digit() || *c == ' ').filter(|c| *c != ' ').collect();
    let (params, ..) = preset("benches/local-fog-64.ron");
    let v = &params.volumes[0];
    assert!(
        params.volumes.iter().all(|w| (w.size_x_m, w.size_y_m, w.size_z_m) == (v.size_x_m, v.size_y_m, v.size_z_m))
    );
    close(v.size_x_m as f64 / SUN_GRID as f64, cells[0], 5e-3, "a cell along x (m)");
    close(2.0 * v.size_x_m as f64 / SUN_GRID as f64, doubled[0], 5e-4, "a cell along x, twice the volume (m)");
    let points = params.volumes.len() as u64 * (SUN_GRID as u64).pow(3);
    close(points as f64, rays.parse().unwrap(), 0.0, "sun rays of one refill");
    // What the grid saves is measured on a GPU (the bench commands), not computable here: the
    // answer is held to the two pages' tables instead.
    let saves = numbers_after(&answer, "grid saves ");
    assert_eq!(saves.len(), 1, "{answer}");
    let table = |page: &str| {
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src").join(page)).unwrap()
    };
    assert!(table(MANY).contains(&format!("| analytic | {:.3} ms |", saves[0])), "the per-pixel row");
    assert!(table(CLOSED_FORM).contains("| `local fog: analytic` | **0.199 ms** |"), "the default row");
    let saved = numbers_after(&answer, "0.199 = ");
    close(saves[0] - 0.199, saved[0], 5e-4, "what the grid saves (ms)");
}

/// Density textures, Try this 1: when the mist's noise of `book/presets/local-fog-noise.ron`
/// repeats, checked on the field itself: the same at t and t + T, not at t + T/2.
#[test]
fn the_noise_repeats() {
    use fogbook_core::media::density::{NOISE_PERIOD, texture_factor};
    let answer = page_answer(TEXTURES, "1. Load `book/presets/local-fog-noise.ron`");
    let (cells, metres, seconds, per_step) = (
        numbers_after(&answer, "repeats every "),
        numbers_after(&answer, "≈ "),
        numbers_after(&answer, "after about "),
        numbers_after(&answer, "spans "),
    );
    assert!(!cells.is_empty() && !metres.is_empty() && !seconds.is_empty() && !per_step.is_empty(), "{answer}");
    let (params, ..) = preset("book/presets/local-fog-noise.ron");
    let mist = &params.volumes[0];
    let speed = DVec3::new(mist.scroll_x_mps as f64, mist.scroll_y_mps as f64, mist.scroll_z_mps as f64).length();
    let period_m = NOISE_PERIOD as f64 / mist.noise_frequency as f64;
    close(NOISE_PERIOD as f64, cells[0], 0.0, "lattice cells of one period");
    close(period_m, metres[0], 0.05, "the period in metres");
    let repeat = period_m / speed;
    close(repeat, seconds[0], 0.05, "seconds until the pattern repeats");
    let field = |t: f64, p: DVec3| texture_factor(&params.fog_volumes_at(t)[0], p, &[]);
    let (mut same, mut moved) = (0.0f64, 0.0f64);
    for i in 0..200 {
        let f = i as f64;
        let p = DVec3::new(-4.0 + 8.0 * (f * 0.37).sin(), 1.5 + (f * 0.11).cos(), -24.0 + 5.0 * (f * 0.23).sin());
        same = same.max((field(3.0 + repeat, p) - field(3.0, p)).abs());
        moved = moved.max((field(3.0 + 0.5 * repeat, p) - field(3.0, p)).abs());
    }
    assert!(same < 1e-3, "the field after one period differs by {same}");
    assert!(moved > 0.1, "the field half a period later is the same: {moved}");
    // The second part: 4 cells per metre, one octave, a 16 m crossing in the analytic path's steps.
    let step = 16.0 / fogbook_local_fog::reference::FADE_STEPS as f64;
    close(step * 4.0, per_step[0], 0.0, "lattice cells per step");
}
