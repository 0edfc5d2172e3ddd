//! Snapshot tests: every debug view of every chapter (and every book figure), rendered headless
//! at 256×144 with the default camera and time, against committed references, compared with FLIP.

mod common;

use common::*;
use fogbook::registry;

#[test]
fn every_view_of_every_chapter_matches_its_reference() {
    let mut h = headless(SNAPSHOT_SIZE);
    let mut failures = Vec::new();
    let mut checked = 0;
    for chapter in registry::chapters() {
        let id = chapter.info().id;
        for view in chapter.views() {
            let capture = render_with::<&str>(&mut h, id, view.name, &[], None, 1);
            let (_, _, non_finite) = capture.raw.red_stats();
            if non_finite > 0 {
                failures.push(format!("{id}/{}: {non_finite} non-finite pixels", view.name));
            }
            match check_snapshot(id, &format!("view-{}", view.name), &capture.display) {
                Ok(_) => checked += 1,
                Err(e) => failures.push(e),
            }
        }
        // The book's figures: the same views under other settings (each falloff, glow masking).
        for figure in chapter.figures() {
            let capture = render_with(&mut h, id, figure.view, &figure.settings, figure.camera, 1);
            match check_snapshot(id, figure.name, &capture.display) {
                Ok(_) => checked += 1,
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(failures.is_empty(), "{} snapshot failures:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 13, "only {checked} views checked");
}

/// The comparison must reject a small but real change: exponential fog 10% denser.
#[test]
fn snapshot_comparison_rejects_a_ten_percent_density_change() {
    let mut h = headless(SNAPSHOT_SIZE);
    let base = render_with(&mut h, "distance-fog", "final", &["falloff=exponential", "density=0.02"], None, 1);
    let same = render_with(&mut h, "distance-fog", "final", &["falloff=exponential", "density=0.02"], None, 1);
    let denser = render_with(&mut h, "distance-fog", "final", &["falloff=exponential", "density=0.022"], None, 1);
    assert_eq!(flip_mean(&base.display, &same.display), 0.0, "rendering is deterministic");
    let changed = flip_mean(&base.display, &denser.display);
    eprintln!("FLIP mean of a 10% density change: {changed:.4}");
    assert!(
        changed > FLIP_TOLERANCE,
        "a 10% density change scores only {changed}, under the tolerance {FLIP_TOLERANCE}"
    );
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
