//! Snapshot tests: every debug view of every chapter (and every book figure), rendered headless
//! at 256×144 with the default camera and time, against committed references, compared pixel by pixel in steps of 1/255 (see `common::image_diff`).

mod common;

use common::*;
use fogbook::registry;
use fogbook_core::headless::{Capture, Headless};
use fogbook_core::views::SnapshotTolerance;

/// Stacks with a snapshot each: (chapters, view, reference name).
const STACK_SNAPSHOTS: &[(&str, &str, &str)] = &[
    ("sky,height-fog,distance-fog", "final", "sky-height-fog-distance-fog"),
    ("atmosphere", "final", "atmosphere"),
    ("sky,height-fog,distance-fog", "height-fog/optical-depth", "sky-height-fog-optical-depth"),
    ("sky,smoke", "final", "sky-smoke"),
];

/// What the walk over every snapshot found: the failures, the images that passed, and the
/// passing image nearest its tolerance.
#[derive(Default)]
struct Tally {
    failures: Vec<String>,
    checked: usize,
    worst: (f64, u8, String),
}

impl Tally {
    fn record(&mut self, name: String, result: Result<ImageDiff, String>) {
        match result {
            Ok(d) => {
                if (d.fraction_over, d.max_steps) >= (self.worst.0, self.worst.1) {
                    self.worst = (d.fraction_over, d.max_steps, name);
                }
                self.checked += 1;
            }
            Err(e) => self.failures.push(e),
        }
    }

    fn finite(&mut self, name: &str, capture: &Capture) {
        let (_, _, non_finite) = capture.raw.red_stats();
        if non_finite > 0 {
            self.failures.push(format!("{name}: {non_finite} non-finite pixels"));
        }
    }
}

#[test]
// One walk over every chapter's views, figures and stacks, reporting every failure at the end.
fn every_view_of_every_chapter_matches_its_reference() {
    let mut h = headless(SNAPSHOT_SIZE);
    let mut tally = Tally::default();
    // FOGBOOK_SNAPSHOT_CHAPTERS=id,id checks only those chapters (and no stack), for working on one.
    let only: Option<Vec<String>> =
        std::env::var("FOGBOOK_SNAPSHOT_CHAPTERS").ok().map(|v| v.split(',').map(str::to_string).collect());
    for chapter in registry::chapters() {
        if only.as_ref().is_some_and(|o| !o.iter().any(|c| c == chapter.info().id)) {
            continue;
        }
        check_views(&mut h, chapter.as_ref(), &mut tally);
        check_figures(&mut h, chapter.as_ref(), &mut tally);
    }
    if only.is_none() {
        check_stacks(&mut h, &mut tally);
    }
    let Tally { failures, checked, worst } = tally;
    eprintln!(
        "worst of the {checked} passing snapshots: {:.4}% of pixels over tolerance, largest {}/255 ({}) on {}",
        worst.0 * 100.0,
        worst.1,
        worst.2,
        h.gpu.describe()
    );
    assert!(failures.is_empty(), "{} snapshot failures:\n{}", failures.len(), failures.join("\n"));
    // Exactly the images the registry asks for were checked: every view and figure of every
    // chapter (of those asked for), and the stacks.
    let expected = expected_references(only.as_deref());
    assert_eq!(checked, expected.len(), "images checked against the registry's views, figures and stacks");
    // And every committed reference is one of them: a view or figure that stops being listed
    // leaves its image here, unchecked.
    if only.is_none() {
        let on_disk = committed_references();
        let wanted: std::collections::BTreeSet<String> = expected.iter().cloned().collect();
        let orphans: Vec<_> = on_disk.difference(&wanted).collect();
        let missing: Vec<_> = wanted.difference(&on_disk).collect();
        assert!(
            orphans.is_empty() && missing.is_empty(),
            "references no view checks: {orphans:?}; missing: {missing:?}"
        );
    }
}

/// Every debug view of a chapter, at its test settings.
fn check_views(h: &mut Headless, chapter: &dyn fogbook_core::chapter::DynChapter, tally: &mut Tally) {
    let id = chapter.info().id;
    let book = chapter.book();
    let names: Vec<&str> = chapter.views().iter().map(|v| v.name).collect();
    let captures = render_views(h, id, &names, &book.test_settings, None, book.test_frames);
    for (view, capture) in chapter.views().iter().zip(captures) {
        tally.finite(&format!("{id}/{}", view.name), &capture);
        let result = check_snapshot(id, &format!("view-{}", view.name), &capture.display, book.snapshot_tolerance);
        tally.record(format!("{id}/view-{}", view.name), result);
    }
}

/// The book's figures: the same views under other settings (each falloff, glow masking).
/// Consecutive figures of the same settings, chapters and camera share a frame.
fn check_figures(h: &mut Headless, chapter: &dyn fogbook_core::chapter::DynChapter, tally: &mut Tally) {
    let id = chapter.info().id;
    let book = chapter.book();
    let figures = book.figures;
    let mut start = 0;
    while start < figures.len() {
        let first = &figures[start];
        let same = |f: &&fogbook_core::chapter::Figure| {
            (&f.settings, &f.with, f.camera) == (&first.settings, &first.with, first.camera)
        };
        let group: Vec<_> = figures[start..].iter().take_while(same).collect();
        start += group.len();
        // The chapters a figure brings along run with their test settings too (the sky's coarse
        // tables: the full ones take 45 s on a software driver).
        let with_settings = first.with.iter().flat_map(|w| registry::find(w).unwrap().book().test_settings);
        let settings: Vec<&str> =
            book.test_settings.iter().copied().chain(with_settings).chain(first.settings.iter().copied()).collect();
        let spec = std::iter::once(id).chain(first.with.iter().copied()).collect::<Vec<_>>().join(",");
        let names: Vec<&str> = group.iter().map(|f| f.view).collect();
        let captures = render_views(h, &spec, &names, &settings, first.camera, book.test_frames);
        for (figure, capture) in group.iter().zip(captures) {
            let result = check_snapshot(id, figure.name, &capture.display, book.snapshot_tolerance);
            tally.record(format!("{id}/{}", figure.name), result);
        }
    }
}

/// Stacks: several chapters in one frame, each in its stage.
fn check_stacks(h: &mut Headless, tally: &mut Tally) {
    for (spec, view, name) in STACK_SNAPSHOTS {
        let stack = registry::stack(spec).unwrap();
        let chapters = stack.chapters();
        let settings: Vec<&str> = chapters.iter().flat_map(|c| c.book().test_settings).collect();
        let frames = chapters.iter().map(|c| c.book().test_frames).max().unwrap();
        // The loosest of the chapters' tolerances: the drift of each adds up in the frame.
        let tolerance =
            chapters.iter().map(|c| c.book().snapshot_tolerance).fold(SnapshotTolerance::default(), |a, b| {
                SnapshotTolerance {
                    steps: a.steps.max(b.steps),
                    max_fraction: a.max_fraction.max(b.max_fraction),
                    block: a.block.max(b.block),
                }
            });
        let capture = render_with(h, spec, view, &settings, None, frames);
        tally.finite(&format!("stacks/{name}"), &capture);
        let result = check_snapshot("stacks", name, &capture.display, tolerance);
        tally.record(format!("stacks/{name}"), result);
    }
}

/// The reference images the registry asks for, as `chapter/name` (`stacks/name` for the stacks):
/// each chapter's views (`view-…`) and book figures, for the chapters in `only` if given, and
/// the stacks when it is not. Refuses two of the same name (one would hide the other).
fn expected_references(only: Option<&[String]>) -> Vec<String> {
    let mut names = Vec::new();
    for chapter in registry::chapters() {
        let id = chapter.info().id;
        if only.is_some_and(|o| !o.iter().any(|c| c == id)) {
            continue;
        }
        names.extend(chapter.views().iter().map(|v| format!("{id}/view-{}", v.name)));
        names.extend(chapter.book().figures.iter().map(|f| format!("{id}/{}", f.name)));
    }
    if only.is_none() {
        names.extend(STACK_SNAPSHOTS.iter().map(|(.., name)| format!("stacks/{name}")));
    }
    let unique: std::collections::BTreeSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "two snapshots share a reference name: {names:?}");
    names
}

/// The committed reference images, as `chapter/name`.
fn committed_references() -> std::collections::BTreeSet<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut out = std::collections::BTreeSet::new();
    for dir in std::fs::read_dir(&root).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "png") {
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                out.insert(format!("{}/{stem}", dir.file_name().to_string_lossy()));
            }
        }
    }
    out
}

/// The registry's reference names and the committed images are the same set, without
/// rendering anything (the full comparison above needs every image rendered).
#[test]
fn every_committed_reference_is_a_view_or_figure_of_the_registry() {
    let expected: std::collections::BTreeSet<String> = expected_references(None).into_iter().collect();
    let on_disk = committed_references();
    let orphans: Vec<_> = on_disk.difference(&expected).collect();
    let missing: Vec<_> = expected.difference(&on_disk).collect();
    assert!(orphans.is_empty() && missing.is_empty(), "references no view checks: {orphans:?}; missing: {missing:?}");
    eprintln!("{} reference images, one per view, figure and stack", expected.len());
}

/// The comparison must reject a small but real change: exponential fog 10% denser.
#[test]
fn snapshot_comparison_rejects_a_ten_percent_density_change() {
    let mut h = headless(SNAPSHOT_SIZE);
    let base = render_with(&mut h, "distance-fog", "final", &["falloff=exponential", "density=0.02"], None, 1);
    let same = render_with(&mut h, "distance-fog", "final", &["falloff=exponential", "density=0.02"], None, 1);
    let denser = render_with(&mut h, "distance-fog", "final", &["falloff=exponential", "density=0.022"], None, 1);
    let tolerance = SnapshotTolerance::default();
    assert_eq!(image_diff(&base.display, &same.display, tolerance).max_steps, 0, "rendering is deterministic");
    let changed = image_diff(&base.display, &denser.display, tolerance);
    eprintln!("a 10% density change: {changed:?}");
    assert!(!changed.passes, "a 10% density change passes the comparison: {changed:?}");
    // With a wide margin: at least ten times the allowed share of pixels moves.
    assert!(changed.fraction_over > 10.0 * tolerance.max_fraction, "{changed:?}");
}

/// The sky's comparison must reject a 10% change of the Rayleigh coefficients.
#[test]
fn sky_comparison_rejects_a_ten_percent_rayleigh_change() {
    let mut h = headless(SNAPSHOT_SIZE);
    let tolerance = fogbook::registry::find("sky").unwrap().book().snapshot_tolerance;
    for view in ["final", "luminance"] {
        let base = render_with(&mut h, "sky", view, &["lut_resolution=quarter"], None, 1);
        let changed = ["lut_resolution=quarter", "rayleigh_scattering=6.382,14.914,36.41"];
        let bad = render_with(&mut h, "sky", view, &changed, None, 1);
        let d = image_diff(&base.display, &bad.display, tolerance);
        eprintln!("sky {view} with Rayleigh ×1.1: {d:?}");
        assert!(!d.passes, "sky {view} with Rayleigh ×1.1 passes the comparison: {d:?}");
    }
}

/// The smoke's looser comparison must still reject a solver without vorticity confinement
/// (the vorticity view after 36 steps; on the staggered grid the divergence view after 12 steps
/// changes on only 0.7 % of its pixels without it, the vorticity view on 1.6 %), one that
/// under-projects by 10% (the residual view), lighting with an octave missing or a mirrored phase
/// function (the fluid view), and a fire whose heat lift or cooling is off by a factor of 2.
#[test]
fn smoke_comparison_rejects_broken_passes() {
    let mut h = headless(SNAPSHOT_SIZE);
    let smoke = fogbook::registry::find("smoke").unwrap();
    let tolerance = smoke.book().snapshot_tolerance;
    let frames = smoke.book().test_frames;
    // The solver's checks on the textbook settings the views' figures use. Confinement needs a
    // few dozen steps to show: 36 for its case.
    let textbook: Vec<&str> = ["grid_size=32"].into_iter().chain(fogbook_smoke::TEXTBOOK.iter().copied()).collect();
    for (view, broken, steps) in
        [("vorticity", "vorticity=0", 3 * frames), ("residual", "pressure_gradient_scale=0.9", frames)]
    {
        let base = render_with(&mut h, "smoke", view, &textbook, None, steps);
        let settings: Vec<&str> = textbook.iter().copied().chain([broken]).collect();
        let bad = render_with(&mut h, "smoke", view, &settings, None, steps);
        let d = image_diff(&base.display, &bad.display, tolerance);
        eprintln!("smoke {view} with {broken}: {d:?}");
        assert!(!d.passes, "smoke {view} with {broken} passes the comparison: {d:?}");
    }
    // The lit default plume without multiple scattering, or with the phase function mirrored:
    // each a lighting term broken (3.7 % and 4.4 % of the pixels move; the ambient term, weak
    // against the sun, is held by the numeric test in tests/smoke/lighting.rs).
    // Seen from close up, as the `fluid-default` figure is.
    let close = Some(fogbook_smoke::CLOSE_CAMERA);
    let base = render_with(&mut h, "smoke", "fluid", &["grid_size=32"], close, frames);
    for broken in ["scattering_octaves=1", "phase_g=-0.4"] {
        let bad = render_with(&mut h, "smoke", "fluid", &["grid_size=32", broken], close, frames);
        let d = image_diff(&base.display, &bad.display, tolerance);
        eprintln!("smoke fluid with {broken}: {d:?}");
        assert!(!d.passes, "smoke fluid with {broken} passes the comparison: {d:?}");
    }
    // The fire's temperature figure with half the heat lift (buoyancy) or twice the cooling.
    let fire: Vec<&str> = textbook
        .iter()
        .copied()
        .chain(["field_display=max-projection"])
        .chain(fogbook_smoke::FIRE.iter().copied())
        .collect();
    let base = render_with(&mut h, "smoke", "temperature", &fire, None, frames);
    for broken in ["heat_lift=0.01", "cooling_rate=2"] {
        let settings: Vec<&str> = fire.iter().copied().chain([broken]).collect();
        let bad = render_with(&mut h, "smoke", "temperature", &settings, None, frames);
        let d = image_diff(&base.display, &bad.display, tolerance);
        eprintln!("smoke fire with {broken}: {d:?}");
        assert!(!d.passes, "the fire with {broken} passes the comparison: {d:?}");
    }
}

#[test]
fn references_are_small() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut n = 0;
    for chapter in std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for f in std::fs::read_dir(chapter.path()).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            if name.ends_with(".png") && !name.ends_with("-actual.png") && !name.ends_with("-difference.png") {
                let len = f.metadata().unwrap().len();
                assert!(len <= MAX_REFERENCE_BYTES, "{name}: {len} bytes");
                n += 1;
            }
        }
    }
    assert!(n > 0);
}

/// Colour views are dithered for 8-bit output (the snapshots above turn it off): at most one
/// code value from the undithered image, with the mean kept, and active on most pixels.
#[test]
fn dither_moves_colour_views_by_at_most_one_code_value() {
    let mut h = headless(SNAPSHOT_SIZE);
    let sets = ["lut_resolution=quarter", "scene.sun_elevation_deg=40"];
    let plain = render_with(&mut h, "sky", "sky", &sets, Some("0,2,0,0,30,60"), 1).display;
    h.renderer.dither = true;
    let dithered = render_with(&mut h, "sky", "sky", &sets, Some("0,2,0,0,30,60"), 1).display;
    h.renderer.dither = false;
    let (mut moved, mut sum) = (0usize, 0i64);
    for (a, b) in plain.pixels().zip(dithered.pixels()) {
        for k in 0..3 {
            let d = b[k] as i32 - a[k] as i32;
            assert!(d.abs() <= 1, "dither moved a channel by {d}");
            moved += usize::from(d != 0);
            sum += d as i64;
        }
    }
    let n = (plain.width() * plain.height() * 3) as f64;
    eprintln!(
        "dither: {:.1}% of channels moved, mean shift {:.4} code values",
        100.0 * moved as f64 / n,
        sum as f64 / n
    );
    // Uniform noise of ±½ code value changes the rounding of a quarter of the values.
    assert!(moved as f64 > 0.15 * n, "dither inactive: {moved} channels moved");
    assert!((sum as f64 / n).abs() < 0.05);
}

/// A NaN in the view target is shown, in magenta, by the display pass, in scalar and colour
/// views alike: the shader tests the bits, which no compiler may fold away.
#[test]
fn a_nan_is_shown_in_magenta() {
    use fogbook_core::display::DisplaySettings;
    use fogbook_core::timing::{PassRecorder, TimingMode};
    use fogbook_core::views::{ColorMap, ViewKind};
    let mut h = headless([8, 8]);
    h.resize([8, 8]).unwrap();
    let texels: Vec<f32> =
        (0..64).flat_map(|i| if i % 2 == 0 { [f32::NAN; 4] } else { [0.5, 0.5, 0.5, 1.0] }).collect();
    h.gpu.queue.write_texture(
        h.renderer.frame.view.texture.as_image_copy(),
        bytemuck::cast_slice(&texels),
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(8 * 16), rows_per_image: None },
        wgpu::Extent3d { width: 8, height: 8, depth_or_array_layers: 1 },
    );
    let scalar = ViewKind::Scalar { min: 0.0, max: 1.0, unit: "", map: ColorMap::Viridis, log: false, auto: false };
    for kind in [scalar, ViewKind::Color] {
        let settings = DisplaySettings { kind, range: (0.0, 1.0), exposure_ev: 0.0, legend: false, dither: false };
        let mut passes = PassRecorder::new(&h.gpu, None, TimingMode::Off);
        h.renderer.display.record(&h.gpu, &mut passes, &settings, &h.output.create_view(&Default::default()));
        passes.submit();
        let image = fogbook_core::capture::read_rgba8(&h.gpu, &h.output).unwrap();
        for (i, p) in image.pixels().enumerate() {
            let magenta = p.0 == [255, 0, 255, 255];
            assert_eq!(magenta, i % 2 == 0, "{kind:?}: pixel {i} is {:?}", p.0);
        }
    }
}

/// The display pass draws the image into a viewport (the viewer's area beside its panel) and
/// reads the image's own pixels there: the left of the output stays clear, the image's left
/// column lands at the viewport's left edge.
#[test]
fn the_display_draws_into_its_viewport() {
    use fogbook_core::display::DisplaySettings;
    use fogbook_core::timing::{PassRecorder, TimingMode};
    use fogbook_core::views::ViewKind;
    let mut h = headless([4, 8]);
    h.resize([4, 8]).unwrap();
    // The image: column 0 bright, the rest dark.
    let texels: Vec<f32> =
        (0..32).flat_map(|i| if i % 4 == 0 { [4.0, 4.0, 4.0, 1.0] } else { [0.01, 0.01, 0.01, 1.0] }).collect();
    h.gpu.queue.write_texture(
        h.renderer.frame.view.texture.as_image_copy(),
        bytemuck::cast_slice(&texels),
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * 16), rows_per_image: None },
        wgpu::Extent3d { width: 4, height: 8, depth_or_array_layers: 1 },
    );
    let output = h.gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("wide output"),
        size: wgpu::Extent3d { width: 8, height: 8, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: fogbook_core::headless::OUTPUT_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    h.renderer.display.viewport = Some([4, 0, 4, 8]);
    let settings =
        DisplaySettings { kind: ViewKind::Color, range: (0.0, 1.0), exposure_ev: 0.0, legend: false, dither: false };
    let mut passes = PassRecorder::new(&h.gpu, None, TimingMode::Off);
    h.renderer.display.record(&h.gpu, &mut passes, &settings, &output.create_view(&Default::default()));
    passes.submit();
    h.renderer.display.viewport = None;
    let image = fogbook_core::capture::read_rgba8(&h.gpu, &output).unwrap();
    for y in 0..8 {
        for x in 0..8 {
            let v = image.get_pixel(x, y)[0];
            match x {
                0..4 => assert_eq!(v, 0, "({x},{y}) left of the viewport is cleared"),
                4 => assert!(v > 200, "({x},{y}) the image's bright column starts the viewport: {v}"),
                _ => assert!(v < 60, "({x},{y}) the image's dark columns: {v}"),
            }
        }
    }
}

/// Negative controls: the snapshot comparison, at each chapter's own tolerance and on the
/// settings and frames the snapshot test uses, must notice a small change to what the chapter
/// computes — a 10 % change of a density, a few per cent of coverage, a phase, a weighting or a
/// solver's sweeps — each in the view that shows it. (Chapters 1, 3, 5 and 7 have theirs in their
/// own test files; these are chapters 2, 4, 6, 7's 2D warm-up and 8.) A control whose change is
/// no change, as `height_fog=true`, passes the comparison, and the test then fails. The 2D
/// warm-up's plume covers about 3 % of the pixels at its test settings (64², 40 frames), inside
/// its tolerance (8 steps over 3 %), so its `fluid` view does not notice a 10 % change of the
/// emitter's speed or size (0.6 % and 1.7 % of the pixels over); its solver views, which cover the
/// whole domain, do: 10 % fewer pressure sweeps in `residual` (≈ 39 %), 10 % more turbulence in
/// `pressure` (≈ 39 %) and a 10 % wider emitter in `vorticity` (≈ 54 %, on lavapipe).
#[test]
fn snapshot_comparison_rejects_small_changes() {
    let cases: [(&str, &str, &str); 11] = [
        ("height-fog", "final", "fog_density=0.022"),
        ("height-fog", "final", "height_falloff=0.22"),
        ("froxel-fog", "final", "layer_density=0.022"),
        ("froxel-fog", "inscattering", "phase_g=0.55"),
        ("clouds", "final", "coverage=0.52"),
        ("clouds", "final", "extinction=0.055"),
        ("smoke-2d", "residual", "pressure_iterations=54"),
        ("smoke-2d", "pressure", "turbulence=0.33"),
        ("smoke-2d", "vorticity", "emitter_radius=0.066"),
        ("six-way-cards", "final", "fog_card_opacity=0.45"),
        ("six-way-cards", "final", "weighting=linear"),
    ];
    let mut h = headless(SNAPSHOT_SIZE);
    let mut passed = Vec::new();
    for (id, view, change) in cases {
        let book = registry::find(id).unwrap().book();
        let base: Vec<&str> = book.test_settings.clone();
        let changed: Vec<&str> = base.iter().copied().chain([change]).collect();
        let a = render_with(&mut h, id, view, &base, None, book.test_frames).display;
        let b = render_with(&mut h, id, view, &changed, None, book.test_frames).display;
        let d = image_diff(&a, &b, book.snapshot_tolerance);
        eprintln!(
            "{id}/{view} with {change}: {:.3}% of pixels over, largest {}/255",
            d.fraction_over * 100.0,
            d.max_steps
        );
        if d.passes {
            passed.push(format!("{id}/{view} with {change}"));
        }
    }
    assert!(passed.is_empty(), "these changes pass the snapshot comparison: {passed:?}");
}
