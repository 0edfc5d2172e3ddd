//! Helpers shared by the integration tests: headless rendering of a chapter view and
//! snapshot comparison with NVIDIA's FLIP metric.
#![allow(dead_code)]

use fogbook::state::Setup;
use fogbook_core::capture::save_png;
use fogbook_core::headless::{Capture, Headless};
use fogbook_core::time::TimeControl;
use fogbook_core::views::find_view;
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
    let h = Headless::new(&Default::default(), size).unwrap_or_else(|e| panic!("{e:#}"));
    assert_ne!(h.gpu.info.backend, wgpu::Backend::Gl, "tests must not run on wgpu's GL backend: {}", h.gpu.describe());
    h
}

/// Renders `view` of `chapter` with `sets` applied, at `size`, after `frames` fixed steps.
pub fn render(chapter: &str, view: &str, sets: &[&str], camera: Option<&str>, size: [u32; 2]) -> Capture {
    let mut h = headless(size);
    render_with(&mut h, chapter, view, sets, camera, 1)
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
    let view = find_view(setup.chapter.views(), view).unwrap();
    h.prepare(setup.chapter.as_mut()).unwrap();
    let mut time = TimeControl::fixed(0.0);
    h.run(setup.chapter.as_mut(), &setup.camera, &setup.scene, &mut time, view, frames);
    h.capture().unwrap()
}

pub fn snapshot_path(chapter: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(chapter).join(format!("{name}.png"))
}

/// Mean FLIP error between two images of the same size (0 = identical, 1 = opposite).
pub fn flip_mean(reference: &image::RgbaImage, test: &image::RgbaImage) -> f32 {
    let rgb = |img: &image::RgbaImage| {
        let data: Vec<u8> = img.pixels().flat_map(|p| [p[0], p[1], p[2]]).collect();
        nv_flip::FlipImageRgb8::with_data(img.width(), img.height(), &data)
    };
    let error = nv_flip::flip(rgb(reference), rgb(test), nv_flip::DEFAULT_PIXELS_PER_DEGREE);
    nv_flip::FlipPool::from_image(&error).mean()
}

/// Largest FLIP mean accepted for a snapshot. Measured: lavapipe against itself 0; lavapipe
/// against an NVIDIA H200 below 0.002 (see the book's testing section); a 10% density change in
/// exponential fog scores above 0.01.
pub const FLIP_TOLERANCE: f32 = 0.005;

/// Compares `image` with the stored reference. Writes `-actual` and `-difference` images next to
/// the reference on failure. With `FOGBOOK_UPDATE_SNAPSHOTS=1` (or a missing reference and the
/// variable set) rewrites the reference instead.
pub fn check_snapshot(chapter: &str, name: &str, image: &image::RgbaImage) -> Result<f32, String> {
    let path = snapshot_path(chapter, name);
    let update = std::env::var_os(UPDATE_VAR).is_some_and(|v| v == "1");
    if update {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        save_png(image, &path).unwrap();
        return Ok(0.0);
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
    let mean = flip_mean(&reference, image);
    if mean > FLIP_TOLERANCE {
        let stem = path.with_extension("");
        let _ = save_png(image, &PathBuf::from(format!("{}-actual.png", stem.display())));
        let diff = image::RgbaImage::from_fn(image.width(), image.height(), |x, y| {
            let (a, b) = (reference.get_pixel(x, y), image.get_pixel(x, y));
            let d = (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap();
            let v = (d as u32 * 8).min(255) as u8;
            image::Rgba([v, v, v, 255])
        });
        let _ = save_png(&diff, &PathBuf::from(format!("{}-difference.png", stem.display())));
        return Err(format!(
            "{chapter}/{name}: FLIP mean {mean:.5} > {FLIP_TOLERANCE} (see {}-actual.png)",
            stem.display()
        ));
    }
    Ok(mean)
}
