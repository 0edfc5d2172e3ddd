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
/// The density of chapter 7's 16³ smoke after 30 steps on the GPU (a hot emitter, for the glow),
/// lit along each axis by the GPU bake (`gpu.rs`, from the smoke's textures), by the CPU bake
/// (`light.rs`, from the read-back density) and by the f64 reference. The CPU bake meets the
/// reference within the unit test's tolerance (2e-6; see `reference.rs`). The GPU bake is
/// allowed 1e-5: Vulkan lets `exp` be off by 3 + 2|x| ulp (≈ 1e-6 relative for the depths here)
/// where the CPU's is correctly rounded, and WGSL has no expm1 (1 − e^{−τ} and the front light's
/// (1 − e^{−2τ})/2 lose up to 6e-8 / τ relative, 6e-8 absolute, above their series' 1e-3). With
/// extinction 4 and cells of 0.75 m a unit of density is τ = 3 a cell, so the front and back
/// lights' in-cell integrals are checked where they differ most from the light at the centre.
#[test]
fn the_bake_of_a_simulated_volume_matches_the_f64_reference() {
    use fogbook_six_way::gpu::{GlowRamp, GpuBaker};
    use fogbook_smoke::fields::FieldId;
    let mut smoke = Loaded::new(fogbook_smoke::Smoke::new());
    smoke.chapter.params.grid_size = 16;
    smoke.chapter.params.emitter_temperature_k = 1500.0;
    let headless = fogbook_core::headless::Headless::new(&smoke.chapter.requirements(), [16, 16]).unwrap();
    headless.prepare(&mut smoke).unwrap();
    let (chapter, state) = smoke.parts().unwrap();
    run_now(&headless.gpu, |passes| {
        for _ in 0..30 {
            chapter.step(state, &headless.gpu, passes);
        }
    });
    let fluid = state.download(&headless.gpu, FieldId::Fluid).unwrap();
    let density: Vec<f32> = fluid.chunks_exact(4).map(|c| c[3]).collect();
    assert!(density.iter().cloned().fold(0.0, f32::max) > 0.1, "the emitter has made smoke");
    let p = &chapter.params;
    let ramp = GlowRamp { ambient_k: p.ambient_temperature_k, start_k: p.emission_start_k, full_k: p.emission_full_k };
    let glow: Vec<f32> = state
        .download(&headless.gpu, FieldId::Temperature)
        .unwrap()
        .iter()
        .map(|t| ((ramp.ambient_k + t - ramp.start_k) / (ramp.full_k - ramp.start_k)).clamp(0.0, 1.0))
        .collect();
    assert!(glow.iter().cloned().fold(0.0, f32::max) > 0.3, "the emitter glows");
    let cell = p.box_size_m / 16.0;
    let m = Medium { extinction: 4.0, cell_m: cell, albedo: 0.8 };
    let m64 = Medium64 { extinction: 4.0, cell_m: cell as f64, albedo: 0.8 };
    let baker = GpuBaker::new(&headless.gpu, &fogbook_core::shaders::ShaderStore::discover(), 16).unwrap();
    let (fluid_view, velocity_view) =
        (&state.fields.current(FieldId::Fluid).view, &state.fields.current(FieldId::Velocity).view);
    let (mut worst_cpu, mut worst_gpu) = (0.0f64, 0.0f64);
    for view in [ViewAxis::X, ViewAxis::Y, ViewAxis::Z] {
        let cpu = bake_frame(16, &to_card(16, &density, view), Some(&to_card(16, &glow, view)), m);
        let gpu = baker.bake(&headless.gpu, fluid_view, velocity_view, view, m, Some(ramp)).unwrap();
        let want = bake_frame_f64(16, &density, Some(&glow), view, m64);
        let planes = |f: &fogbook_six_way::FrameMaps| {
            let mut v: Vec<Vec<f32>> = f.lit.to_vec();
            v.extend([f.alpha.clone(), f.emission.clone()]);
            v
        };
        let mut want_planes: Vec<Vec<f64>> = want.lit.to_vec();
        want_planes.extend([want.alpha.clone(), want.emission.clone()]);
        for (worst, got) in [(&mut worst_cpu, planes(&cpu)), (&mut worst_gpu, planes(&gpu))] {
            for (g, w) in got.iter().zip(&want_planes) {
                for (a, b) in g.iter().zip(w) {
                    *worst = worst.max((*a as f64 - b).abs());
                }
            }
        }
    }
    eprintln!("simulated 16³ volume: largest |bake − f64 bake|: CPU {worst_cpu:.3e}, GPU {worst_gpu:.3e}");
    assert!(worst_cpu < 2e-6, "CPU {worst_cpu}");
    assert!(worst_gpu < 1e-5, "GPU {worst_gpu}");
}
// ANCHOR_END: gpu_volume

// ANCHOR: bake_steps
#[test]
fn a_bake_frame_is_the_smoke_stepped_one_submission_at_a_time() {
    // Frame 1 of a bake with 43 warm-up steps and 2 steps a frame is the smoke after 45 steps.
    // The bake records its steps in batches; stepped one submission at a time (as the viewer
    // and `render --frames` do), the smoke must reach the same volume, so the same maps.
    use fogbook_six_way::from_smoke::{Lighting, bake_from_smoke};
    use fogbook_six_way::gpu::GpuBaker;
    use fogbook_smoke::fields::FieldId;
    let settings = fogbook_six_way::BakeSettings {
        frames: 2,
        steps_per_frame: 2,
        warmup_steps: 43,
        grid: 16,
        layout: [2, 1],
        ..Default::default()
    };
    let headless =
        fogbook_core::headless::Headless::new(&fogbook_smoke::Smoke::new().requirements(), [16, 16]).unwrap();
    let shaders = fogbook_core::shaders::ShaderStore::discover();
    let layouts = &headless.renderer.frame.layouts;
    let baked = bake_from_smoke(&headless.gpu, layouts, &shaders, &settings, &[], Lighting::Gpu, &mut |_| {}).unwrap();

    let mut smoke = Loaded::new(fogbook_smoke::Smoke::new());
    smoke.chapter.params.grid_size = 16;
    headless.prepare(&mut smoke).unwrap();
    let (chapter, state) = smoke.parts().unwrap();
    for _ in 0..45 {
        run_now(&headless.gpu, |passes| chapter.step(state, &headless.gpu, passes));
    }
    let baker = GpuBaker::new(&headless.gpu, &shaders, 16).unwrap();
    let (fluid, velocity) = (&state.fields.current(FieldId::Fluid).view, &state.fields.current(FieldId::Velocity).view);
    let single = baker.bake(&headless.gpu, fluid, velocity, settings.view_axis, baked.medium, None).unwrap();
    let frame = &baked.frames[1];
    let worst = frame.alpha.iter().zip(&single.alpha).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    eprintln!("bake frame 1 against 45 single steps: largest alpha difference {worst:e}");
    assert!(frame.alpha.iter().zip(&single.alpha).all(|(a, b)| a.to_bits() == b.to_bits()), "alpha differs by {worst}");
    for (k, (a, b)) in frame.lit.iter().zip(&single.lit).enumerate() {
        assert!(a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()), "lit map {k} differs");
    }
}
// ANCHOR_END: bake_steps
