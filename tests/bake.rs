//! Chapter 8's baker end to end on the software driver: a small bake is the same file for file
//! when run twice, writes what its metadata says, and bad settings give one message each. And
//! the lighting of a density volume that chapter 7's solver made on the GPU against the f64
//! reference.

use fogbook::cli::BakeArgs;
use fogbook::commands::bake;
use fogbook_core::timing::run_now;
use fogbook_core::{Chapter, Loaded};
use fogbook_six_way::card::{ViewAxis, to_card};
use fogbook_six_way::light::{Medium, bake_frame};
use fogbook_six_way::reference::{Medium64, bake_frame_f64};
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("fogbook-bake-{name}-{}", std::process::id()))
}

/// 3 frames of a 16³ smoke in a 2 × 2 layout of 24 × 16 texels (one slot empty, frames not
/// square), with emission from a hot emitter.
fn small(out_dir: PathBuf) -> BakeArgs {
    BakeArgs {
        frames: Some(3),
        steps_per_frame: Some(3),
        warmup: Some(24),
        grid: Some(16),
        layout: Some("2x2".into()),
        frame_size: Some("24x16".into()),
        emission: true,
        set: vec!["emitter_temperature_k=1500".into()],
        out_dir,
        prefix: "puff".into(),
        ..Default::default()
    }
}

// ANCHOR: determinism
#[test]
fn a_bake_is_deterministic_and_writes_what_its_metadata_says() {
    let (one, two) = (temp_dir("one"), temp_dir("two"));
    let first = bake::run(&small(one.clone())).unwrap_or_else(|e| panic!("{e:#}"));
    eprintln!("{first}");
    let second = bake::run(&small(two.clone())).unwrap();
    assert_eq!(first.files.len(), 5);
    for (a, b) in first.files.iter().zip(&second.files) {
        let (x, y) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
        assert!(x == y, "{} and {} differ", a.display(), b.display());
    }
    let meta: serde_json::Value = serde_json::from_slice(&std::fs::read(one.join("puff.json")).unwrap()).unwrap();
    assert_eq!(meta["atlas_size"], serde_json::json!([48, 32]));
    assert_eq!(meta["swizzle"], "TLRA/BKFE");
    let w = meta["world_size_m"].as_array().unwrap();
    assert!((w[0].as_f64().unwrap() / w[1].as_f64().unwrap() - 1.5).abs() < 1e-9, "square cells: {w:?}");
    let a = image::open(one.join("puff_a.exr")).unwrap().to_rgba32f();
    let b = image::open(one.join("puff_b.exr")).unwrap().to_rgba32f();
    let png = image::open(one.join("puff_a.png")).unwrap().to_rgba8();
    assert_eq!((a.width(), a.height(), png.width(), png.height()), (48, 32, 48, 32));
    let values = a.as_raw().iter().chain(b.as_raw());
    assert!(values.clone().all(|v| v.is_finite() && *v >= 0.0));
    // Smoke in every frame; the fourth slot (bottom right) empty.
    for (x0, y0, filled) in [(0, 0, true), (24, 0, true), (0, 16, true), (24, 16, false)] {
        let alpha: f32 =
            (0..16).flat_map(|y| (0..24).map(move |x| (x, y))).map(|(x, y)| a.get_pixel(x0 + x, y0 + y)[3]).sum();
        assert_eq!(alpha > 1.0, filled, "slot at {x0},{y0}: alpha {alpha}");
    }
    // The PNG is the EXR in 8 bits.
    for (p, q) in png.pixels().zip(a.pixels()) {
        for c in 0..4 {
            assert_eq!(p[c], (q[c].clamp(0.0, 1.0) * 255.0).round() as u8);
        }
    }
    let hottest = b.pixels().map(|p| p[3]).fold(0.0f32, f32::max);
    assert!(hottest > 0.05, "the hot emitter glows in B's alpha (emission): {hottest}");
    let apart = a.pixels().zip(b.pixels()).map(|(p, q)| (p[3] - q[3]).abs()).fold(0.0f32, f32::max);
    assert!(apart > 0.05, "B's alpha holds emission, not a copy of alpha: largest difference {apart}");
    for dir in [one, two] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
// ANCHOR_END: determinism

#[test]
fn bad_settings_get_one_message() {
    let dir = temp_dir("bad");
    let file = temp_dir("a-file");
    std::fs::write(&file, b"").unwrap();
    let cases: Vec<(BakeArgs, &str)> = vec![
        (BakeArgs { frames: Some(0), ..small(dir.clone()) }, "frames 0"),
        (BakeArgs { frames: Some(5), ..small(dir.clone()) }, "holds 4 frames"),
        (BakeArgs { frame_size: None, atlas_size: Some("49x32".into()), ..small(dir.clone()) }, "does not divide"),
        (BakeArgs { albedo: Some(f32::NAN), ..small(dir.clone()) }, "albedo NaN"),
        (BakeArgs { set: vec!["extinction=NaN".into()], ..small(dir.clone()) }, "finite"),
        (BakeArgs { out_dir: file.join("sub"), ..small(dir.clone()) }, "cannot be made"),
        (BakeArgs { grid: Some(18), ..small(dir.clone()) }, "multiple of 4"),
        (BakeArgs { grid: Some(4000), ..small(dir.clone()) }, "grid"),
        (BakeArgs { grid: Some(512), ..small(dir.clone()) }, "over the 4 GiB budget"),
        (BakeArgs { layout: Some("2by2".into()), ..small(dir.clone()) }, "layout"),
        (BakeArgs { view_axis: Some("w".into()), ..small(dir.clone()) }, "view axis"),
    ];
    for (args, want) in cases {
        let e = format!("{:#}", bake::run(&args).expect_err(want));
        eprintln!("{want}: {e}");
        assert!(e.contains(want), "{e:?} should mention {want:?}");
        assert!(!e.contains('\n'), "one line: {e:?}");
    }
    assert!(!dir.join("puff.json").exists());
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_dir_all(dir);
}

// ANCHOR: gpu_volume
/// The density of chapter 7's 16³ smoke after 30 steps on the GPU, lit by the production bake
/// and by the f64 reference along each axis: the same tolerance as the unit test on the analytic
/// blob (2e-6; see `reference.rs`), now on a volume the solver made.
#[test]
fn the_bake_of_a_simulated_volume_matches_the_f64_reference() {
    let mut smoke = Loaded::new(fogbook_smoke::Smoke::new());
    smoke.chapter.params.grid_size = 16;
    let headless = fogbook_core::headless::Headless::new(&smoke.chapter.requirements(), [16, 16]).unwrap();
    headless.prepare(&mut smoke).unwrap();
    let (chapter, state) = smoke.parts().unwrap();
    run_now(&headless.gpu, |passes| {
        for _ in 0..30 {
            chapter.step(state, &headless.gpu, passes);
        }
    });
    let fluid = state.download(&headless.gpu, fogbook_smoke::fields::FieldId::Fluid).unwrap();
    let density: Vec<f32> = fluid.chunks_exact(4).map(|c| c[3]).collect();
    assert!(density.iter().cloned().fold(0.0, f32::max) > 0.1, "the emitter has made smoke");
    let cell = chapter.params.box_size_m / 16.0;
    let m = Medium { extinction: 4.0, cell_m: cell, albedo: 0.8 };
    let m64 = Medium64 { extinction: 4.0, cell_m: cell as f64, albedo: 0.8 };
    let mut worst = 0.0f64;
    for view in [ViewAxis::X, ViewAxis::Y, ViewAxis::Z] {
        let got = bake_frame(16, &to_card(16, &density, view), None, m);
        let want = bake_frame_f64(16, &density, None, view, m64);
        for d in 0..6 {
            for (a, b) in got.lit[d].iter().zip(&want.lit[d]) {
                worst = worst.max((*a as f64 - b).abs());
            }
        }
        for (a, b) in got.alpha.iter().zip(&want.alpha) {
            worst = worst.max((*a as f64 - b).abs());
        }
    }
    eprintln!("simulated 16³ volume: largest |f32 bake − f64 bake| {worst:.3e}");
    assert!(worst < 2e-6, "{worst}");
}
// ANCHOR_END: gpu_volume
