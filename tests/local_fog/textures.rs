//! Density textures: the baked noise, file grids and the scroll against the f64 integral.

use crate::common::*;
use crate::{CAMERA, TEXTURE_SIZE, perpendiculars, settings, smoke_file};
use fogbook_local_fog::LocalFogParams;
use fogbook_local_fog::reference::textured_optical_depth_with;
use glam::DVec3;

/// A preset of chapter 5 whose first volume reads the density file `path` (the list's other
/// settings come from `settings`).
fn file_preset(name: &str, path: &std::path::Path) -> std::path::PathBuf {
    let preset = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let text = format!(
        "(chapter: \"local-fog\", params: (volumes: [(density_source: file, density_file: {:?})]))",
        path.display().to_string()
    );
    std::fs::write(&preset, text).unwrap();
    preset
}

/// Holds the optical-depth view of a textured volume to the f64 integral of the same field (the
/// midpoint rule in 4096 steps, of ρ₀ · weight · texture, the noise by the core's f64 copy of the
/// GPU's baked noise, the file's grid trilinear in f64), per pixel. The bound, derived: the GPU
/// runs the midpoint rule in `FADE_STEPS` = 32 steps in f32, so |GPU − I| ≤ |M₃₂ − I| + |GPU −
/// M₃₂|; the first term is computed here in f64 for each pixel; the second is f32 rounding:
/// sample points good to ~30 m · 2⁻²⁴ ≈ 2e-6 m, times the texture's steepest slope (≈ 5 /m for
/// the noise below) and the sum's rounding, under 1e-4 relative, bounded by 3e-4 · I + 1e-5; at
/// silhouettes the change of M₃₂ under a 1e-6 rad turn of the ray is added, as in `check`.
/// Separately, the bake's own error: I against the integral of the noise itself (the ground
/// truth, `periodic_fbm` in f64), reported and held under `BAKE_TAU_ERROR` of τ. Returns the
/// capture, the worst |GPU − I| / I, the worst |M₃₂ − I| / I and the worst bake error over pixels
/// with I > 1e-3 off the silhouettes.
fn check_textured(
    label: &str,
    file: Option<&std::path::Path>,
    extra: &[&str],
    start_s: f64,
) -> (fogbook_core::headless::Capture, f64, f64, f64) {
    use fogbook_core::media::density::{DensityTexture, NoiseModel};
    use fogbook_local_fog::reference::FADE_STEPS;
    let sets = settings(extra);
    let preset = file.map(|f| file_preset(&format!("{label}.ron").replace(' ', "-"), f));
    let (cap, time) =
        render_at("local-fog", "optical-depth", preset.as_deref(), &sets, Some(CAMERA), TEXTURE_SIZE, start_s);
    let distance = render("distance-fog", "distance", &[] as &[&str], Some(CAMERA), TEXTURE_SIZE).raw;
    let (mut params, _) = typed_settings::<LocalFogParams>(&sets);
    let grid = file.map(|path| {
        params.volumes[0].density_source = fogbook_local_fog::DensitySource::File;
        params.volumes[0].density_file = path.display().to_string();
        DensityTexture::load(path).unwrap()
    });
    let volume = params.fog_volumes_at(time)[0];
    let textures: Vec<&DensityTexture> = grid.iter().collect();
    let gpu_steps = FADE_STEPS;
    let tau = |o, v, d, steps| textured_optical_depth_with(NoiseModel::Baked, &volume, o, v, 0.0, d, &textures, steps);
    let (mut worst, mut worst_rule, mut worst_f32, mut worst_bake, mut inside, mut silhouette) =
        (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0, 0);
    for y in 0..TEXTURE_SIZE[1] {
        for x in 0..TEXTURE_SIZE[0] {
            let (o, v) = pose_ray(CAMERA, TEXTURE_SIZE, x, y);
            let d = distance.pixel(x, y)[0] as f64;
            let got = cap.raw.pixel(x, y)[0] as f64;
            // ANCHOR: textured_test
            let exact = tau(o, v, d, 4096);
            let rule = tau(o, v, d, gpu_steps);
            let turned = perpendiculars(v)
                .iter()
                .flat_map(|&p| [1.0, -1.0].map(|s| (v + p * (s * 1e-6)).normalize()))
                .map(|w| (tau(o, w, d, gpu_steps) - rule).abs())
                .fold(0.0f64, f64::max);
            let rounding = 3e-4 * exact + 1e-5;
            let on_silhouette = turned > rounding;
            silhouette += on_silhouette as usize;
            let bound = (rule - exact).abs() + rounding + turned;
            let err = (got - exact).abs();
            assert!(
                err <= bound,
                "{label} ({x},{y}): GPU {got}, f64 integral {exact}, 32-step rule {rule} (error {err:.3e} > {bound:.3e})"
            );
            // ANCHOR_END: textured_test
            if exact > 1e-3 && !on_silhouette {
                inside += 1;
                worst = worst.max(err / exact);
                worst_rule = worst_rule.max((rule - exact).abs() / exact);
                worst_f32 = worst_f32.max((got - rule).abs() / exact);
                if file.is_none() && x % 2 == 0 && y % 2 == 0 {
                    let truth = textured_optical_depth_with(NoiseModel::Analytic, &volume, o, v, 0.0, d, &[], 4096);
                    worst_bake = worst_bake.max((exact - truth).abs() / truth);
                }
            }
        }
    }
    eprintln!(
        "{label}: worst error {worst:.2e} of τ (the 32-step rule's own {worst_rule:.2e}, the GPU's from the rule {worst_f32:.2e}; the bake's against the noise itself {worst_bake:.2e}); {inside} pixels inside, {silhouette} on a silhouette"
    );
    assert!(inside > 400, "{label}: the volume covers too little of the image ({inside} pixels)");
    assert!(worst_bake <= BAKE_TAU_ERROR, "{label}: the baked noise is {worst_bake:.2e} of τ from the noise itself");
    (cap, worst, worst_rule, worst_bake)
}

/// The most the baked noise may move a volume's optical depth from the noise's own, relative
/// (measured: see the book's table).
const BAKE_TAU_ERROR: f64 = 3e-3;

/// The GPU's bake is the texture the f64 reference reads (`baked_noise_texels`): the same noise,
/// in f32 there and f64 here, each rounded to f16, so no texel differs by more than one f16 step
/// (2⁻¹¹ below 1); it bakes on the first noise volume and not again.
#[test]
fn the_gpu_bakes_the_noise_the_reference_reads() {
    use fogbook_core::media::density::{NOISE_BAKE_SIDE, baked_noise_texels};
    use fogbook_core::media::textures::DensityTextureSlots;
    let gpu = fogbook_core::gpu::GpuContext::headless(&Default::default()).unwrap();
    let mut slots = DensityTextureSlots::new(&gpu.device, &fogbook_core::shaders::ShaderStore::discover());
    let (plain, _) = typed_settings::<LocalFogParams>(&settings(&[]));
    let (noisy, _) = typed_settings::<LocalFogParams>(&settings(&["volumes[0].density_source=noise"]));
    assert!(!slots.update(&gpu, &[], &plain.fog_volumes()), "baked without a noise volume");
    assert!(slots.update(&gpu, &[], &noisy.fog_volumes()), "no bake for a noise volume");
    assert!(!slots.update(&gpu, &[], &noisy.fog_volumes()), "baked again");
    assert_eq!(slots.noise_texture().size().width, NOISE_BAKE_SIDE);
    let bytes = fogbook_core::capture::read_texture(&gpu, slots.noise_texture()).unwrap();
    let f16 = |b: u16| {
        let (sign, exp, mant) = (if b >> 15 == 1 { -1.0 } else { 1.0 }, ((b >> 10) & 31) as i32, (b & 1023) as f64);
        sign * if exp == 0 { mant * 2f64.powi(-24) } else { (1.0 + mant / 1024.0) * 2f64.powi(exp - 15) }
    };
    let (mut worst, mut equal) = (0.0f64, 0usize);
    let texels = baked_noise_texels();
    for (i, want) in texels.iter().enumerate() {
        let got = f16(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]));
        let step = 2f64.powi((want.abs() as f64).log2().floor().max(-14.0) as i32 - 10);
        let e = (got - *want as f64).abs();
        assert!(e <= step * 1.001, "texel {i}: GPU {got}, f64 {want}");
        worst = worst.max(e);
        equal += (e == 0.0) as usize;
    }
    eprintln!("bake: {equal} of {} texels equal, worst {worst:.1e}", texels.len());
    assert!(equal as f64 > 0.99 * texels.len() as f64, "only {equal} texels equal");
}

/// Noise (rotated box, scrolling, at 2 s and at 2.5 s) and a 16³ smoke file (rotated box): the
/// optical depth per pixel against the f64 integral. The two times must give different images:
/// the scroll reaches the GPU.
#[test]
fn textured_optical_depth_matches_the_f64_integral() {
    const NOISE: &[&str] = &[
        "volumes[0].yaw_deg=30",
        "volumes[0].pitch_deg=10",
        "volumes[0].roll_deg=-15",
        "volumes[0].density_source=noise",
        "volumes[0].noise_frequency=0.6",
        "volumes[0].noise_octaves=3",
        "volumes[0].noise_contrast=0.9",
        "volumes[0].scroll_x_mps=1.5",
        "volumes[0].scroll_z_mps=-0.7",
        "volumes[0].texture_scale=1.5",
    ];
    let (early, ..) = check_textured("noise at 2 s", None, NOISE, 2.0);
    let (late, ..) = check_textured("noise at 2.5 s", None, NOISE, 2.5);
    let changed = (0..TEXTURE_SIZE[1])
        .flat_map(|y| (0..TEXTURE_SIZE[0]).map(move |x| (x, y)))
        .filter(|&(x, y)| (early.raw.pixel(x, y)[0] - late.raw.pixel(x, y)[0]).abs() > 1e-2)
        .count();
    assert!(changed > 300, "the scroll changed only {changed} pixels");
    let file = smoke_file("textured-16.fbvol", 16);
    let rotated = ["volumes[0].yaw_deg=-20", "volumes[0].roll_deg=12", "volumes[0].texture_scale=0.8"];
    check_textured("16 cube file", Some(&file), &rotated, 0.0);
}

// ANCHOR: scroll_test
/// The noise moves with its scroll velocity, in the volume's own axes: the field at t + Δ at p is
/// the field at t at p − R · u · Δ (R the volume's rotation, u the velocity), to the f32 rounding
/// of the wrapped offset; and it is not the same field unshifted.
#[test]
fn the_scroll_shifts_the_noise_by_velocity_times_time() {
    use fogbook_core::media::density::texture_factor;
    let sets = settings(&[
        "volumes[0].yaw_deg=40",
        "volumes[0].density_source=noise",
        "volumes[0].noise_frequency=0.8",
        "volumes[0].scroll_x_mps=2",
        "volumes[0].scroll_y_mps=-0.5",
        "volumes[0].scroll_z_mps=1",
    ]);
    let (params, _) = typed_settings::<LocalFogParams>(&sets);
    let (t, dt) = (1234.5, 0.75);
    let (a, b) = (params.fog_volumes_at(t)[0], params.fog_volumes_at(t + dt)[0]);
    let [x, y, z] = a.axes();
    let shift = (x * 2.0 + y * -0.5 + z * 1.0) * dt;
    let (mut worst, mut moved) = (0.0f64, 0.0f64);
    for i in 0..400 {
        let f = i as f64;
        let p = a.centre() + DVec3::new((f * 0.37).sin() * 3.0, (f * 0.11).cos() * 1.5, (f * 0.23).sin() * 2.5);
        let later = texture_factor(&b, p, &[]);
        worst = worst.max((later - texture_factor(&a, p - shift, &[])).abs());
        moved = moved.max((later - texture_factor(&a, p, &[])).abs());
    }
    eprintln!("scroll: worst mismatch {worst:.2e}, unshifted difference up to {moved:.2}");
    assert!(worst < 1e-4, "the field at t + Δ is not the field at t shifted: {worst}");
    assert!(moved > 0.1, "the field did not move: {moved}");
}
// ANCHOR_END: scroll_test
