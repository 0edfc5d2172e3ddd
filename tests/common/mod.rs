//! Helpers shared by the integration tests: headless rendering of a chapter view and
//! snapshot comparison.
#![allow(dead_code)]

use fogbook::state::Setup;
use fogbook_core::capture::save_png;
use fogbook_core::headless::{Capture, Headless};
use fogbook_core::time::TimeControl;
use fogbook_core::views::SnapshotTolerance;
use std::path::PathBuf;

/// Snapshot size: small enough for software rendering and tiny reference files.
pub const SNAPSHOT_SIZE: [u32; 2] = [256, 144];
/// Reference PNGs must stay below this (bytes).
pub const MAX_REFERENCE_BYTES: u64 = 64 * 1024;
/// Environment variable that rewrites every reference image.
pub const UPDATE_VAR: &str = "FOGBOOK_UPDATE_SNAPSHOTS";

/// A headless device, or a test failure that says how to get one. Also checks the backend:
/// wgpu's GL fallback breaks 3D storage textures, so it must never be what tests run on.
pub fn headless(size: [u32; 2]) -> Headless {
    let mut h = Headless::new(&fogbook::registry::requirements(), size).unwrap_or_else(|e| panic!("{e:#}"));
    // Reference images without dither noise stay small; the dither is tested on its own.
    h.renderer.dither = false;
    assert_ne!(h.gpu.info.backend, wgpu::Backend::Gl, "tests must not run on wgpu's GL backend: {}", h.gpu.describe());
    h
}

/// One device per test process, shared by `render`: creating dozens of Vulkan instances in one
/// process exhausted the NVIDIA driver (later ones found "no drivers"), and it is faster.
pub static SHARED: std::sync::Mutex<Option<Headless>> = std::sync::Mutex::new(None);

/// Renders `view` of `chapter` (an id, a comma-separated stack or a named stack) with `sets`
/// applied, at `size`, after one fixed step.
pub fn render(chapter: &str, view: &str, sets: &[&str], camera: Option<&str>, size: [u32; 2]) -> Capture {
    let mut shared = SHARED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let h = shared.get_or_insert_with(|| headless(size));
    h.resize(size).unwrap();
    render_with(h, chapter, view, sets, camera, 1)
}

/// Like `render`, with a preset file applied first and the clock started at `start_s`; returns
/// the capture and the time (s) the frame was drawn at.
pub fn render_at(
    chapter: &str,
    view: &str,
    preset: Option<&std::path::Path>,
    sets: &[&str],
    camera: Option<&str>,
    size: [u32; 2],
    start_s: f64,
) -> (Capture, f64) {
    let mut shared = SHARED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let h = shared.get_or_insert_with(|| headless(size));
    h.resize(size).unwrap();
    let mut setup = Setup::new(chapter).unwrap();
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    setup.apply(preset, &sets, camera).unwrap();
    let view = setup.stack.find_view(view).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let mut time = TimeControl::fixed(start_s);
    h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, 1);
    (checked_capture(h), time.time)
}

pub fn render_with<S: AsRef<str>>(
    h: &mut Headless,
    chapter: &str,
    view: &str,
    sets: &[S],
    camera: Option<&str>,
    frames: u32,
) -> Capture {
    let mut setup = Setup::new(chapter).unwrap();
    let sets: Vec<String> = sets.iter().map(|s| s.as_ref().to_string()).collect();
    setup.apply(None, &sets, camera).unwrap();
    render_prepared(h, &mut setup, view, frames)
}

/// `view` of a stack already set up, after `frames` frames from time 0.
fn render_prepared(h: &mut Headless, setup: &mut Setup, view: &str, frames: u32) -> Capture {
    let view = setup.stack.find_view(view).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let mut time = TimeControl::fixed(0.0);
    h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, frames);
    checked_capture(h)
}

/// The ground-truth view of a stack set up by hand (a preset, sets, a camera), after `frames`
/// frames at the tests' 16 × 16, on the shared renderer.
pub fn render_setup(setup: &mut Setup, frames: u32) -> fogbook_core::capture::FloatImage {
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless([16, 16]));
    h.resize([16, 16]).unwrap();
    render_prepared(h, setup, "ground-truth/ground-truth", frames).raw
}

/// Renders each of `views` of `chapter` with `sets` and `camera`, after `frames` steps. When
/// every chapter of the stack keeps no history (`Book::warmup_steps_only`) the stack is stepped
/// once and each view drawn from that state with time paused: the image each view gets on its
/// own. A stack with a history (temporal accumulation) is rendered afresh for each view.
pub fn render_views<S: AsRef<str>>(
    h: &mut Headless,
    chapter: &str,
    views: &[&str],
    sets: &[S],
    camera: Option<&str>,
    frames: u32,
) -> Vec<Capture> {
    let mut setup = Setup::new(chapter).unwrap();
    let owned: Vec<String> = sets.iter().map(|s| s.as_ref().to_string()).collect();
    setup.apply(None, &owned, camera).unwrap();
    // Asked with the settings applied: whether a chapter keeps a history may depend on them.
    if !setup.stack.chapters().iter().all(|c| c.book().warmup_steps_only) {
        return views.iter().map(|v| render_with(h, chapter, v, sets, camera, frames)).collect();
    }
    h.prepare_stack(&mut setup.stack).unwrap();
    let mut captures = Vec::new();
    for (i, name) in views.iter().enumerate() {
        let view = setup.stack.find_view(name).unwrap();
        if i == 0 {
            let mut time = TimeControl::fixed(0.0);
            h.run_warmed(&mut setup.stack, &setup.camera, &setup.scene, &mut time, view, frames);
        } else {
            h.redraw(&mut setup.stack, &setup.camera, &setup.scene, view);
        }
        captures.push(checked_capture(h));
    }
    captures
}

/// The frame just rendered, after checking that no buffer was written twice before one of its
/// submissions (`GpuContext::take_rewrites`): every test that renders through these helpers,
/// the snapshot sweep over every chapter, view and stack among them, checks it.
pub fn checked_capture(h: &mut Headless) -> Capture {
    let rewrites = h.gpu.take_rewrites();
    assert!(rewrites.is_empty(), "a buffer was written twice before one submission:\n{}", rewrites.join("\n"));
    h.capture().unwrap()
}

pub fn snapshot_path(chapter: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(chapter).join(format!("{name}.png"))
}

/// How two 8-bit images differ: the largest per-pixel channel difference, and the fraction of
/// pixels whose largest channel difference exceeds the tolerance's steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImageDiff {
    pub max_steps: u8,
    pub fraction_over: f64,
    pub passes: bool,
}

/// Compares in steps of 1/255: counts pixels whose largest channel difference exceeds
/// `tolerance.steps` (see `SnapshotTolerance` for the measured defaults).
pub fn image_diff(reference: &image::RgbaImage, test: &image::RgbaImage, tolerance: SnapshotTolerance) -> ImageDiff {
    let mut max_steps = 0u8;
    let mut over = 0usize;
    for (a, b) in reference.pixels().zip(test.pixels()) {
        let d = (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap();
        max_steps = max_steps.max(d);
        over += (d > tolerance.steps) as usize;
    }
    let fraction_over = over as f64 / (reference.width() * reference.height()).max(1) as f64;
    ImageDiff { max_steps, fraction_over, passes: fraction_over <= tolerance.max_fraction }
}

/// Compares `image` with the stored reference (see `image_diff`). Writes `-actual` and
/// `-difference` (differences × 8) images next to the reference on failure. With `FOGBOOK_UPDATE_SNAPSHOTS=1` (or a missing reference and the
/// variable set) rewrites the reference instead.
/// The image's `block` × `block` means (the image itself for 1; partial blocks at the right and
/// bottom edges are dropped).
pub fn block_means(image: &image::RgbaImage, block: u32) -> image::RgbaImage {
    if block <= 1 {
        return image.clone();
    }
    let n = f64::from(block * block);
    image::RgbaImage::from_fn(image.width() / block, image.height() / block, |bx, by| {
        let mut sum = [0.0f64; 4];
        for y in by * block..(by + 1) * block {
            for x in bx * block..(bx + 1) * block {
                let p = image.get_pixel(x, y);
                (0..4).for_each(|c| sum[c] += f64::from(p[c]));
            }
        }
        image::Rgba(sum.map(|s| (s / n).round() as u8))
    })
}

pub fn check_snapshot(
    chapter: &str,
    name: &str,
    image: &image::RgbaImage,
    tolerance: SnapshotTolerance,
) -> Result<ImageDiff, String> {
    let path = snapshot_path(chapter, name);
    let averaged = block_means(image, tolerance.block);
    let image = &averaged;
    let update = std::env::var_os(UPDATE_VAR).is_some_and(|v| v == "1");
    if update {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        save_png(image, &path).unwrap();
        return Ok(ImageDiff { max_steps: 0, fraction_over: 0.0, passes: true });
    }
    let Ok(reference) = image::open(&path) else {
        return Err(format!("no reference image {}; run the tests with {UPDATE_VAR}=1 to create it", path.display()));
    };
    let reference = reference.to_rgba8();
    if reference.dimensions() != image.dimensions() {
        return Err(format!(
            "{}: size {:?} differs from the render's {:?}",
            path.display(),
            reference.dimensions(),
            image.dimensions()
        ));
    }
    let size = std::fs::metadata(&path).unwrap().len();
    if size > MAX_REFERENCE_BYTES {
        return Err(format!("{} is {size} bytes, over the {MAX_REFERENCE_BYTES}-byte cap", path.display()));
    }
    let diff = image_diff(&reference, image, tolerance);
    if !diff.passes {
        let stem = path.with_extension("");
        let _ = save_png(image, &PathBuf::from(format!("{}-actual.png", stem.display())));
        let picture = image::RgbaImage::from_fn(image.width(), image.height(), |x, y| {
            let (a, b) = (reference.get_pixel(x, y), image.get_pixel(x, y));
            let d = (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap();
            let v = (d as u32 * 8).min(255) as u8;
            image::Rgba([v, v, v, 255])
        });
        let _ = save_png(&picture, &PathBuf::from(format!("{}-difference.png", stem.display())));
        return Err(format!(
            "{chapter}/{name}: {:.3}% of pixels differ by more than {}/255 (allowed {:.3}%; largest {}/255; see {}-actual.png)",
            diff.fraction_over * 100.0,
            tolerance.steps,
            tolerance.max_fraction * 100.0,
            diff.max_steps,
            stem.display()
        ));
    }
    Ok(diff)
}

/// Bound on the error of a rasterised surface distance `d` along a ray with vertical component
/// `v_y`, relative to the exact ray cast: f32 rounding (1e-5 of d), plus the shift of the hit
/// point when vertices snap to the rasteriser's sub-pixel grid (1/256 pixel, the usual 8 bits):
/// an angle of one sub-pixel step, δθ, moves a grazing hit by d·δθ/|v_y|.
pub fn distance_error_bound(d: f64, v_y: f64, fov_y_deg: f64, rows: u32) -> f64 {
    let subpixel_angle = fov_y_deg.to_radians() / rows as f64 / 256.0;
    d * (1e-5 + subpixel_angle / v_y.abs().max(1e-6))
}

/// f64 view ray (origin, unit direction) through the centre of pixel (x, y) of a `size` image,
/// built from the camera pose alone (not from the GPU's matrices): an independent reference.
pub fn pose_ray(camera: &str, size: [u32; 2], x: u32, y: u32) -> (glam::DVec3, glam::DVec3) {
    pose_ray_at(camera, size, x as f64 + 0.5, y as f64 + 0.5)
}

/// The same ray through any point (x, y) of the image, in pixels from its top left corner.
pub fn pose_ray_at(camera: &str, size: [u32; 2], x: f64, y: f64) -> (glam::DVec3, glam::DVec3) {
    use glam::DVec3;
    let pose = fogbook_core::camera::CameraPose::parse(camera).unwrap();
    let (yaw, pitch) = ((pose.yaw_deg as f64).to_radians(), (pose.pitch_deg as f64).to_radians());
    let forward = DVec3::new(-yaw.sin() * pitch.cos(), pitch.sin(), -yaw.cos() * pitch.cos());
    let right = forward.cross(DVec3::Y).normalize();
    let up = right.cross(forward);
    let tan_half = ((pose.fov_y_deg as f64).to_radians() / 2.0).tan();
    let aspect = size[0] as f64 / size[1] as f64;
    let ndc_x = x / size[0] as f64 * 2.0 - 1.0;
    let ndc_y = 1.0 - y / size[1] as f64 * 2.0;
    let dir = (forward + right * (ndc_x * tan_half * aspect) + up * (ndc_y * tan_half)).normalize();
    (pose.eye().as_dvec3(), dir)
}

/// A chapter's parameters and the scene's settings after `name=value` settings, as `Setup`
/// applies them (`scene.` prefix for the scene), for CPU references that need typed values.
pub fn typed_settings<P: fogbook_core::params::Parameters + Default>(
    sets: &[impl AsRef<str>],
) -> (P, fogbook_core::scene_settings::SceneSettings) {
    use fogbook_core::params::set_by_name;
    let (mut params, mut scene) = (P::default(), Default::default());
    for s in sets {
        let (name, value) = s.as_ref().split_once('=').unwrap();
        match name.strip_prefix(fogbook::state::SCENE_PREFIX) {
            Some(name) => set_by_name(&mut scene, name, value).unwrap(),
            None => set_by_name(&mut params, name, value).unwrap(),
        }
    }
    (params, scene)
}

/// Per channel: the mean over the pixels, and its standard error from their spread.
pub fn mean_and_error(image: &fogbook_core::capture::FloatImage) -> [(f64, f64); 3] {
    let n = (image.width * image.height) as usize;
    std::array::from_fn(|c| {
        let values: Vec<f64> = (0..n).map(|i| f64::from(image.rgba[4 * i + c])).collect();
        assert!(values.iter().all(|v| v.is_finite()), "non-finite pixel in channel {c}");
        let mean = values.iter().sum::<f64>() / n as f64;
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
        (mean, (variance / n as f64).sqrt())
    })
}
