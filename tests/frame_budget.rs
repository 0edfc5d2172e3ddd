//! Chapter 9's frame budget: the viewer's frames trace one class of 1/k of the screen's tiles
//! (`budget`), and the picture must not know it. A cycle of k frames reaches every pixel once
//! (the `samples` view counts each pixel's paths), each pixel's n-th path is the same path
//! whatever share traced it (its seed comes from the pixel's own count), so the paced mean is the
//! whole frames' mean, and headless frames stay whole whatever the settings.

mod common;

use common::{SHARED, checked_capture, headless, mean_and_error};
use fogbook::state::Setup;
use fogbook_core::capture::FloatImage;
use fogbook_core::time::TimeControl;

/// 5 × 3 tiles of 8 × 8, the last column and row cut short: 15 tiles.
const SIZE: [u32; 2] = [36, 20];
const TILES: u32 = 15;
/// Classes of 15 tiles by 4: 4, 4, 4 and 3 tiles.
const K: u32 = 4;
const STACK: &str = "local-fog,ground-truth";
/// Looking down −Z from 5 m up at a 4 m box of fog 20 m ahead, 20° across: the box and the sky
/// around it.
const CAMERA: &str = "0,5,0,0,0,20";
const SLAB: [&str; 11] = [
    "local-fog.volume_count=1",
    "volumes[0].shape=box",
    "volumes[0].x_m=0",
    "volumes[0].y_m=5",
    "volumes[0].z_m=-20",
    "volumes[0].size_x_m=4",
    "volumes[0].size_y_m=4",
    "volumes[0].size_z_m=4",
    "volumes[0].density_source=constant",
    "volumes[0].density=0.5",
    "ground-truth.surfaces=false",
];

/// The slab's stack with `more` settings, seen from `CAMERA`.
fn slab(more: &[String]) -> Setup {
    let mut setup = Setup::new(STACK).unwrap();
    let sets: Vec<String> = SLAB.iter().map(|s| s.to_string()).chain(more.iter().cloned()).collect();
    setup.apply(None, &sets, Some(CAMERA)).unwrap();
    setup
}

/// `view` of the slab with `more` settings after `frames` frames, paced as the viewer's or not,
/// and the ground truth's status line.
fn run(more: &[String], view: &str, paced: bool, frames: u32) -> (FloatImage, String) {
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    h.resize(SIZE).unwrap();
    let mut setup = slab(more);
    let view = setup.stack.find_view(view).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    h.paced = paced;
    let mut time = TimeControl::fixed(0.0);
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, frames);
    h.paced = false;
    let status = setup.stack.chapters().iter().filter_map(|c| c.status()).collect::<Vec<_>>().join("; ");
    (checked_capture(h).raw, status)
}

/// Each pixel's path count after `frames` frames.
fn counts(more: &[String], paced: bool, frames: u32) -> Vec<f32> {
    let (image, _) = run(more, "ground-truth/samples", paced, frames);
    image.rgba.chunks_exact(4).map(|p| p[0]).collect()
}

fn share(k: u32) -> Vec<String> {
    vec![format!("interleave={k}")]
}

// ANCHOR: coverage
#[test]
fn a_cycle_of_k_frames_traces_every_pixel_once() {
    for (frames, want) in [(K, 1.0), (2 * K, 2.0)] {
        let n = counts(&share(K), true, frames);
        assert!(n.iter().all(|&c| c == want), "after {frames} frames at 1/{K}: counts {:?}", distinct(&n));
    }
    // One frame short of the cycle, the last class has no path yet, and the rest one each: tiles
    // 3, 7 and 11 of the 5 × 3, two whole and one in the last row, 4 pixels high.
    let n = counts(&share(K), true, K - 1);
    let zeros = n.iter().filter(|&&c| c == 0.0).count();
    assert_eq!(zeros, 2 * 8 * 8 + 8 * 4, "after {} frames: counts {:?}", K - 1, distinct(&n));
    assert!(n.iter().all(|&c| c == 0.0 || c == 1.0));
}
// ANCHOR_END: coverage

/// The distinct values of `v`, for failure messages.
fn distinct(v: &[f32]) -> Vec<(f32, usize)> {
    let mut out: Vec<(f32, usize)> = Vec::new();
    for &x in v {
        match out.iter_mut().find(|(y, _)| *y == x) {
            Some((_, n)) => *n += 1,
            None => out.push((x, 1)),
        }
    }
    out
}

#[test]
fn headless_frames_stay_whole() {
    // Neither a fixed share nor a budget splits a frame that is not paced.
    let n = counts(&[format!("interleave={K}"), "frame_budget_ms=0.001".into()], false, 1);
    assert!(n.iter().all(|&c| c == 1.0), "counts {:?}", distinct(&n));
}

// ANCHOR: same_mean
#[test]
fn a_paced_mean_is_the_whole_frames_mean() {
    // 8 paths per pixel either way: 4 whole frames of 2, or 16 frames of 2 at a quarter each.
    let per_frame = vec!["samples_per_frame=2".to_string()];
    let (whole, _) = run(&per_frame, "ground-truth/ground-truth", false, 4);
    let mut paced_sets = share(K);
    paced_sets.extend(per_frame);
    let (paced, status) = run(&paced_sets, "ground-truth/ground-truth", true, 4 * K);
    assert!(status.starts_with("8 paths per pixel") && status.contains("1/4 of the tiles"), "{status}");
    // The same expected value: the images' means within four standard errors of the pixels'
    // spread (which holds the Monte Carlo noise of 8 paths).
    for (c, ((a, ea), (b, eb))) in mean_and_error(&whole).into_iter().zip(mean_and_error(&paced)).enumerate() {
        assert!(a > 0.01, "channel {c}: a black picture ({a}) proves nothing");
        let tolerance = 4.0 * (ea * ea + eb * eb).sqrt();
        assert!((a - b).abs() < tolerance, "channel {c}: whole {a:.5}, paced {b:.5} (± {tolerance:.5})");
    }
    // And the same paths: a pixel's n-th path is seeded by n, whichever frame traced it.
    for (i, (a, b)) in whole.rgba.iter().zip(&paced.rgba).enumerate() {
        assert!((a - b).abs() <= 1e-5 * a.abs().max(1.0), "pixel {}, channel {}: whole {a}, paced {b}", i / 4, i % 4);
    }
}
// ANCHOR_END: same_mean

#[test]
fn without_timestamps_the_share_comes_from_the_fallback_estimate() {
    // Headless frames hand no GPU times back, as on a device without timestamp queries: the share
    // is the fallback cost of a whole frame, 15 tiles × 64 pixels × 66 ms / (1280 × 720) =
    // 0.0688 ms, over a budget of 0.01 ms: ⌈6.875⌉ = 7.
    let whole_ms = f64::from(TILES * 64) * 66.0 / (1280.0 * 720.0);
    let k = (whole_ms / 0.01).ceil() as u32;
    assert_eq!(k, 7);
    let (_, status) = run(&["frame_budget_ms=0.01".into()], "ground-truth/samples", true, 3);
    assert!(status.contains(&format!("1/{k} of the tiles")) && status.contains("fallback"), "{status}");
    // Under the budget a path may also wait between frames: the counts are of dispatches.
    assert!(status.starts_with("0..1 dispatches per pixel"), "{status}");
    // A budget of 0 is off: whole frames.
    let n = counts(&["frame_budget_ms=0".into()], true, 1);
    assert!(n.iter().all(|&c| c == 1.0), "counts {:?}", distinct(&n));
}

#[test]
fn a_path_over_its_step_budget_goes_on_in_the_next_frame() {
    // One tentative collision a frame: a path through the fog waits at its first null
    // collision, one past it through the sky ends at once.
    let one_step = vec!["path_steps=1".to_string()];
    let n = counts(&one_step, false, 1);
    let waiting = n.iter().filter(|&&c| c == 0.0).count();
    assert!(waiting > 20 && n.iter().filter(|&&c| c == 1.0).count() > 20, "counts {:?}", distinct(&n));
    assert!(n.iter().all(|&c| c == 0.0 || c == 1.0), "counts {:?}", distinct(&n));
    // In noise, bounded by its range, nearly every path through the fog meets a null collision:
    // only a path that goes on where it waited ends there at all.
    let noisy = [one_step[0].clone(), "volumes[0].density_source=noise".into()];
    let n = counts(&noisy, false, 24);
    assert!(n.iter().all(|&c| c >= 1.0), "after 24 frames some pixels have no path: {:?}", distinct(&n));
    // Paths spread over frames are the same paths in law: the mean of whole paths (24 a pixel)
    // and of paths one collision a frame (as many as end in 48 frames), within four standard
    // errors of the pixels' spread.
    let per_frame = "samples_per_frame=2".to_string();
    let (whole, _) = run(std::slice::from_ref(&per_frame), "ground-truth/ground-truth", false, 12);
    let stepped_sets = [per_frame, "path_steps=1".into()];
    let (stepped, status) = run(&stepped_sets, "ground-truth/ground-truth", false, 48);
    assert!(status.contains("96 dispatches per pixel, a path taking at most 1 collisions"), "{status}");
    for (c, ((a, ea), (b, eb))) in mean_and_error(&whole).into_iter().zip(mean_and_error(&stepped)).enumerate() {
        assert!(a > 0.01, "channel {c}: a black picture ({a}) proves nothing");
        let tolerance = 4.0 * (ea * ea + eb * eb).sqrt();
        assert!((a - b).abs() < tolerance, "channel {c}: whole {a:.5}, stepped {b:.5} (± {tolerance:.5})");
    }
}

/// Each pixel's path count after a frame with `first` settings and then, on the same stack, a
/// frame with `then` (a change the sums restart for).
fn counts_after_restart(first: &[String], then: &[String]) -> Vec<f32> {
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    h.resize(SIZE).unwrap();
    let mut setup = slab(first);
    let view = setup.stack.find_view("ground-truth/samples").unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let mut time = TimeControl::fixed(0.0);
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
    setup.apply(None, then, None).unwrap();
    h.run(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
    checked_capture(h).raw.rgba.chunks_exact(4).map(|p| p[0]).collect()
}

#[test]
fn a_restart_drops_the_waiting_paths() {
    // A frame of seed 1 leaves paths waiting; the sums restart for seed 2, and its first frame
    // must count what a fresh stack's first frame of seed 2 counts: an old path that went on
    // would end where the new one waits, or wait where it ends.
    let step = |seed: u32| vec!["path_steps=1".to_string(), format!("ground-truth.seed={seed}")];
    let fresh = counts(&step(2), false, 1);
    let restarted = counts_after_restart(&step(1), &step(2));
    assert!(fresh.contains(&0.0), "seed 2's first frame leaves paths waiting: {:?}", distinct(&fresh));
    assert_eq!(restarted, fresh);
}

#[test]
fn the_viewers_paths_take_a_step_budget_from_the_frame_budget() {
    // Paced with k from the budget, before any time is measured: the top of the step budget.
    let (_, status) = run(&["frame_budget_ms=0.01".into()], "ground-truth/samples", true, 2);
    let top = fogbook_ground_truth::budget::MAX_PATH_STEPS;
    assert!(status.contains(&format!("at most {top} collisions")), "{status}");
    // A fixed share leaves the paths whole (they are the whole frames' paths, `same_mean`).
    let (_, status) = run(&share(K), "ground-truth/samples", true, 2);
    assert!(status.contains("paths per pixel summed"), "{status}");
}
