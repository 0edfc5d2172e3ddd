//! Chapter 9, the path tracer, against answers it does not compute: Beer–Lambert through a
//! homogeneous slab, single scattering under a sun at the zenith in closed form (and with the
//! shadow rays' closed-form media taken out by residual ratio tracking), furnaces (an
//! albedo-1 medium, and an albedo-½ one whose emission balances its absorption, in a uniform
//! environment return the environment; an albedo-½ one without emission returns less, by the
//! adding–doubling solution of its plane-parallel slab), the 1/√N fall of its error, its phase sampling against
//! the phase's own density, and finite pixels at extremes. Every tolerance is the estimator's own
//! standard error (from the image's spread, or the Bernoulli variance where each path returns
//! 0 or 1), times four.

mod common;

use common::{SHARED, headless, mean_and_error, render_with};
use fogbook_core::capture::FloatImage;
use fogbook_ground_truth::reference;

const SIZE: [u32; 2] = [16, 16];
/// Looking down −Z from 5 m up, 1° across: every pixel's ray is within 0.01° of the axis.
const CAMERA: &str = "0,5,0,0,0,1";
/// The slab: a 4 m cube centred 20 m ahead at the camera's height (top 7 m, 2 m above the rays),
/// axis-aligned (the chapter's first default volume is turned), constant, with a hard edge.
const SLAB: [&str; 14] = [
    "local-fog.volume_count=1",
    "volumes[0].shape=box",
    "volumes[0].x_m=0",
    "volumes[0].y_m=5",
    "volumes[0].z_m=-20",
    "volumes[0].size_x_m=4",
    "volumes[0].size_y_m=4",
    "volumes[0].size_z_m=4",
    "volumes[0].edge_fade_m=0",
    "volumes[0].yaw_deg=0",
    "volumes[0].pitch_deg=0",
    "volumes[0].roll_deg=0",
    "volumes[0].density_source=constant",
    "volumes[0].emission=0,0,0,1",
];
const SLAB_LENGTH_M: f64 = 4.0;
const SLAB_DEPTH_M: f64 = 2.0;

/// A plane-parallel slab: a volume 1000 m wide each way and 1 m thick (y from 0.5 to 1.5 m),
/// constant, with hard faces; the media's box ends 2 m up, so the majorant grid's cells (31.25 ×
/// 1/16 × 31.25 m) have faces on the slab's.
const WIDE_SLAB: [&str; 15] = [
    "local-fog.volume_count=1",
    "volumes[0].shape=box",
    "volumes[0].x_m=0",
    "volumes[0].y_m=1",
    "volumes[0].z_m=0",
    "volumes[0].size_x_m=1000",
    "volumes[0].size_y_m=1",
    "volumes[0].size_z_m=1000",
    "volumes[0].edge_fade_m=0",
    "volumes[0].yaw_deg=0",
    "volumes[0].pitch_deg=0",
    "volumes[0].roll_deg=0",
    "volumes[0].density_source=constant",
    "volumes[0].emission=0,0,0,1",
    "ground-truth.medium_top_m=2",
];
/// From 10 m up, 60° below the horizon, 1° across: the rays meet the slab's top 4.9 m ahead at
/// μ = sin 60° (within 0.005 at the image's edges, symmetric about the centre, so the mean over
/// the pixels is the centre's answer to second order).
const WIDE_SLAB_CAMERA: &str = "0,10,0,0,-60,1";
const WIDE_SLAB_THICKNESS_M: f64 = 1.0;

/// The ground-truth view of `volume` from `camera` with `sets`, after `frames` frames.
fn traced_in(volume: &[&str], camera: &str, sets: &[String], frames: u32) -> FloatImage {
    let mut all: Vec<String> = volume.iter().map(|s| s.to_string()).collect();
    all.extend(["volumes[0].falloff=0".into(), "ground-truth.surfaces=false".into(), "local_lights=false".into()]);
    all.extend(sets.iter().cloned());
    traced_stack("local-fog,ground-truth", camera, &all, frames)
}

/// The ground-truth view of `stack` from `camera` with `sets`, after `frames` frames, on the
/// tests' shared renderer.
fn traced_stack(stack: &str, camera: &str, sets: &[String], frames: u32) -> FloatImage {
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    h.resize(SIZE).unwrap();
    render_with(h, stack, "ground-truth/ground-truth", sets, Some(camera), frames).raw
}

/// `DARK` and then `more`.
fn dark_with(more: &[&str]) -> Vec<String> {
    DARK.iter().chain(more).map(|s| s.to_string()).collect()
}

/// The ground-truth view of the 4 m slab with `sets`, after `frames` frames.
fn traced(sets: &[String], frames: u32) -> FloatImage {
    traced_in(&SLAB, CAMERA, sets, frames)
}

fn sets(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The slab as a pure absorber of `sigma_t` (1/m) in a white uniform environment, no sun, at
/// `per_frame` paths per pixel a frame: each path returns 0 or 1.
fn absorbing_slab(sigma_t: f64, per_frame: u32) -> Vec<String> {
    sets(&[
        &format!("volumes[0].density={sigma_t}"),
        "volumes[0].albedo=0,0,0,1",
        "constant_environment=true",
        "environment=1,1,1,1",
        "sun=false",
        &format!("samples_per_frame={per_frame}"),
    ])
}

/// Paths per pixel of `frames` frames at `per_frame`.
fn spp(frames: u32, per_frame: u32) -> f64 {
    f64::from(frames * per_frame)
}

// ANCHOR: slab
#[test]
fn a_slab_transmits_by_beer_lambert() {
    // Albedo 0 in a white uniform environment: each path is 0 (absorbed) or 1 (through), so a
    // pixel's mean is T with the Bernoulli variance T (1 − T) / N.
    for sigma_t in [0.05, 0.25, 0.75] {
        let image = traced(&absorbing_slab(sigma_t, 64), 2);
        let expected = reference::transmittance(sigma_t, SLAB_LENGTH_M);
        let paths = spp(2, 64) * f64::from(SIZE[0] * SIZE[1]);
        let error = (expected * (1.0 - expected) / paths).sqrt();
        for (c, (mean, _)) in mean_and_error(&image).into_iter().enumerate() {
            assert!(
                (mean - expected).abs() < 4.0 * error,
                "σt {sigma_t}, channel {c}: T = {mean:.5}, Beer–Lambert {expected:.5} (± {error:.5})"
            );
        }
    }
}
// ANCHOR_END: slab

#[test]
fn a_slab_textured_by_a_file_grid_transmits_by_beer_lambert() {
    // The slab's density times a saved grid (0.5 everywhere) at a texture scale of 2: σt × 1.
    // The grid's largest value bounds it (carried by the volume); without it the bound is
    // infinite, every path reaches the collision cap, and the pixels are 0. The file is named in
    // a preset (a text parameter), the rest as in the slab test.
    use fogbook_core::volume_file::{VolumeField, VolumeFile};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (grid, preset) = (dir.join("ground-truth-grid.fbvol"), dir.join("ground-truth-grid.ron"));
    let field = VolumeField { name: "density".into(), components: 1, values: vec![0.5; 8 * 8 * 8] };
    VolumeFile { n: 8, box_m: 1.0, ambient_k: 300.0, fields: vec![field] }.write(&grid).unwrap();
    let volume = format!(
        "(shape: box, x_m: 0.0, y_m: 5.0, z_m: -20.0, size_x_m: 4.0, size_y_m: 4.0, size_z_m: 4.0, \
         density: 0.25, albedo: (0.0, 0.0, 0.0, 1.0), density_source: file, density_file: {:?}, \
         texture_scale: 2.0)",
        grid.display().to_string()
    );
    let text = format!("(chapter: \"local-fog,ground-truth\", params: {{ \"local-fog\": (volumes: [{volume}]) }})");
    std::fs::write(&preset, text).unwrap();
    let mut setup = fogbook::state::Setup::new("local-fog,ground-truth").unwrap();
    let mut all = absorbing_slab(0.25, 64);
    all.extend(sets(&["ground-truth.surfaces=false", "local_lights=false", "volumes[0].falloff=0"]));
    all.extend(sets(&["volumes[0].edge_fade_m=0", "volumes[0].yaw_deg=0"]));
    all.retain(|s| !s.starts_with("volumes[0].density=") && !s.starts_with("volumes[0].albedo="));
    setup.apply(Some(&preset), &all, Some(CAMERA)).unwrap();
    let image = common::render_setup(&mut setup, 2);
    let expected = reference::transmittance(0.25, SLAB_LENGTH_M);
    let error = (expected * (1.0 - expected) / (spp(2, 64) * 256.0)).sqrt();
    for (c, (mean, _)) in mean_and_error(&image).into_iter().enumerate() {
        assert!(
            (mean - expected).abs() < 4.0 * error,
            "channel {c}: T = {mean:.5}, Beer–Lambert {expected:.5} (± {error:.5})"
        );
    }
}

// ANCHOR: single_scattering
#[test]
fn single_scattering_under_a_zenith_sun_is_its_closed_form() {
    // One vertex per path (single scattering), no environment, the sun straight up: every
    // point of the horizontal rays sees the sun through the same 2 m of the slab.
    let (sigma_t, albedo, g) = (0.25, 0.8, 0.5);
    let image = traced(
        &sets(&[
            &format!("volumes[0].density={sigma_t}"),
            &format!("volumes[0].albedo={albedo},{albedo},{albedo},1"),
            &format!("volumes[0].phase_g={g}"),
            "constant_environment=true",
            "environment=0,0,0,1",
            "max_bounces=1",
            "scene.sun_elevation_deg=90",
            "scene.sun_illuminance=1",
            "scene.sun_color=1,1,1,1",
            "samples_per_frame=64",
        ]),
        2,
    );
    // The scene's sun is E / π (frame.sun_color · illuminance): E = π.
    let e = std::f64::consts::PI;
    let expected = reference::single_scattering_zenith_sun(sigma_t, albedo, g, SLAB_DEPTH_M, SLAB_LENGTH_M, e);
    for (c, (mean, error)) in mean_and_error(&image).into_iter().enumerate() {
        assert!(
            (mean - expected).abs() < 4.0 * error + 2e-3 * expected,
            "channel {c}: L = {mean:.6}, closed form {expected:.6} (± {error:.6})"
        );
    }
}
// ANCHOR_END: single_scattering

// ANCHOR: residual
#[test]
fn residual_ratio_tracking_takes_the_closed_form_media_out_of_the_shadow_rays() {
    // A homogeneous medium filling the media's box (σ = 0.002 /m, albedo 1, isotropic) seen
    // from its middle, 500 m up and 1 000 m from its side, the sun at the zenith, one vertex:
    // L = E / 4π · e^(−500 σ) · (1 − e^(−1000 σ)). As the control (the height fog's layer, the
    // froxel fog's constant) the shadow rays are exact, so a path is 0 or the one value: a
    // spread of √(e^(−1000 σ) / (1 − e^(−1000 σ))) = 0.40. Ratio-tracked: 1.38 (measured).
    let sigma: f64 = 0.002;
    // E = π (the scene's sun of illuminance 1): E / 4π = 1/4.
    let expected = 0.25 * (-500.0 * sigma).exp() * (1.0 - (-1000.0 * sigma).exp());
    let spread = ((-1000.0 * sigma).exp() / (1.0 - (-1000.0 * sigma).exp())).sqrt();
    let common = [
        "ground-truth.surfaces=false",
        "constant_environment=true",
        "environment=0,0,0,1",
        "max_bounces=1",
        "scene.sun_elevation_deg=90",
        "scene.sun_illuminance=1",
        "scene.sun_color=1,1,1,1",
        "samples_per_frame=64",
    ];
    let height = ["fog_density=0.002", "height_falloff=0", "second_fog_density=0"];
    let froxel = ["constant_density=0.002", "layer_density=0", "fog_albedo=1,1,1", "phase_g=0", "local_light_scale=0"];
    for (stack, medium) in [("height-fog,ground-truth", &height[..]), ("froxel-fog,ground-truth", &froxel[..])] {
        let all: Vec<String> = common.iter().chain(medium).map(|s| s.to_string()).collect();
        let (image, paths) = (traced_stack(stack, "0,500,0,0,0,1", &all, 2), spp(2, 64) * 256.0);
        for (c, (mean, error)) in mean_and_error(&image).into_iter().enumerate() {
            assert!(
                (mean - expected).abs() < 4.0 * error + 2e-3 * expected,
                "{stack}, channel {c}: L = {mean:.6}, closed form {expected:.6} (± {error:.6})"
            );
            let per_path = error * paths.sqrt() / mean;
            assert!(
                per_path < 1.5 * spread,
                "{stack}, channel {c}: a path's relative spread {per_path:.2}, the exact shadow rays' {spread:.2}"
            );
        }
    }
}
// ANCHOR_END: residual

// ANCHOR: furnace
#[test]
fn furnaces_return_their_environment() {
    // A uniform environment L around a medium that loses nothing returns L at every pixel,
    // whatever its optical thickness: albedo 1, or albedo ½ emitting what it absorbs
    // (ε = σa L per metre). Channels differ, so a mixed-up channel fails.
    let l = [0.5, 1.0, 2.0];
    for (tau, albedo) in [(0.1, 1.0), (1.0, 1.0), (10.0, 1.0), (1.0, 0.5), (10.0, 0.5)] {
        let sigma_t = tau / SLAB_LENGTH_M;
        let emission = l.map(|c| (1.0 - albedo) * sigma_t * c);
        let image = traced(
            &sets(&[
                &format!("volumes[0].density={sigma_t}"),
                &format!("volumes[0].albedo={albedo},{albedo},{albedo},1"),
                &format!("volumes[0].emission={},{},{},1", emission[0], emission[1], emission[2]),
                "volumes[0].phase_g=0.6",
                "constant_environment=true",
                &format!("environment={},{},{},1", l[0], l[1], l[2]),
                "sun=false",
                "samples_per_frame=32",
            ]),
            2,
        );
        for (c, (mean, error)) in mean_and_error(&image).into_iter().enumerate() {
            assert!(
                (mean - l[c]).abs() < 4.0 * error + 1e-4,
                "τ {tau}, albedo {albedo}, channel {c}: L = {mean:.5}, environment {} (± {error:.5})",
                l[c]
            );
        }
    }
}
// ANCHOR_END: furnace

// ANCHOR: absorbing_furnace
#[test]
fn an_absorbing_furnace_is_its_adding_doubling_slab() {
    // Albedo ½, isotropic, no emission, in the uniform environment L: the slab returns less than
    // L, by the plane-parallel answer of adding–doubling at μ = sin 60°. The slab's width does
    // not matter: a path that reaches a side has gone 500 m in the medium, which it survives
    // with probability e^(−σa 500 m) ≤ e^(−25) at σa = σt/2 ≥ 0.05 /m.
    let (albedo, mu) = (0.5, 60f64.to_radians().sin());
    let l = [0.5, 1.0, 2.0];
    for tau in [0.1, 1.0, 10.0] {
        let sigma_t = tau / WIDE_SLAB_THICKNESS_M;
        let image = traced_in(
            &WIDE_SLAB,
            WIDE_SLAB_CAMERA,
            &sets(&[
                &format!("volumes[0].density={sigma_t}"),
                &format!("volumes[0].albedo={albedo},{albedo},{albedo},1"),
                "volumes[0].phase_g=0",
                "constant_environment=true",
                &format!("environment={},{},{},1", l[0], l[1], l[2]),
                "sun=false",
                "samples_per_frame=256",
            ]),
            8,
        );
        let slab = reference::adding_doubling::Slab { tau, albedo, g: 0.0 };
        for (c, (mean, error)) in mean_and_error(&image).into_iter().enumerate() {
            let expected = reference::adding_doubling::furnace_radiance(slab, mu, l[c]);
            assert!(
                (mean - expected).abs() < 4.0 * error + 1e-4 * expected,
                "τ {tau}, channel {c}: L = {mean:.5}, adding–doubling {expected:.5} (± {error:.5})"
            );
            assert!(mean + 4.0 * error < l[c], "τ {tau}, channel {c}: {mean:.5} is not below {}", l[c]);
        }
    }
}
// ANCHOR_END: absorbing_furnace

// ANCHOR: convergence
#[test]
fn the_error_falls_as_one_over_root_n() {
    // The RMS over the pixels of (pixel − Beer–Lambert) at N = 16 … 1024 paths per pixel, and
    // the slope of log RMS against log N by least squares.
    let sigma_t = 0.25;
    let expected = reference::transmittance(sigma_t, SLAB_LENGTH_M);
    let counts = [16u32, 64, 256, 1024];
    let points: Vec<(f64, f64)> = counts
        .iter()
        .map(|&n| {
            let per_frame = n.min(256);
            let image = traced(&absorbing_slab(sigma_t, per_frame), n / per_frame);
            let pixels = (image.width * image.height) as usize;
            let sq: f64 = (0..pixels).map(|i| (f64::from(image.rgba[4 * i + 1]) - expected).powi(2)).sum();
            (f64::from(n).ln(), (sq / pixels as f64).sqrt().ln())
        })
        .collect();
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / points.len() as f64;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
    let slope = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum::<f64>()
        / points.iter().map(|p| (p.0 - mean_x).powi(2)).sum::<f64>();
    assert!((slope + 0.5).abs() <= 0.1, "log–log slope {slope:.3} (points {points:?})");
}
// ANCHOR_END: convergence

#[test]
fn extremes_give_finite_pixels_and_count_cut_paths() {
    // The densest volume the chapter allows, σt = 10 /m over 4 m (τ = 40), albedo 1 and g
    // 0.99, with a cap of 16 collisions: paths are cut, the pixels stay finite, and the cut view
    // says how many were. (No falloff: with the chapter's default 0.8 /m the slab is τ = 8 where
    // the rays cross it, and a tight bound lets most paths through in 16 collisions.)
    let all = dense_slab(&["volumes[0].falloff=0"]);
    let truth = slab_view("ground-truth", &all);
    assert!(truth.rgba.iter().all(|v| v.is_finite()), "a non-finite pixel");
    let share = cut_share(&all);
    assert!(share > 0.5, "only {share:.3} of the paths were cut at 16 collisions in τ = 40");
}

/// The slab at σt = 10 /m (at its foot), albedo 1 and g 0.99, a cap of 16 collisions, then `more`.
fn dense_slab(more: &[&str]) -> Vec<String> {
    let dense = ["volumes[0].density=10", "volumes[0].albedo=1,1,1,1", "volumes[0].phase_g=0.99"];
    sets(&[&dense[..], &["ground-truth.max_collisions=16", "samples_per_frame=4"], more].concat())
}

/// The tracer's view `view` of the slab with `sets`, one frame, the scene's surfaces in it.
fn slab_view(view: &str, sets: &[String]) -> FloatImage {
    let mut all: Vec<String> = SLAB.iter().map(|s| s.to_string()).collect();
    all.extend(sets.iter().cloned());
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    h.resize(SIZE).unwrap();
    render_with(h, "local-fog,ground-truth", &format!("ground-truth/{view}"), &all, Some(CAMERA), 1).raw
}

/// The share of the paths cut at the collision cap through the slab with `sets` (the `cut` view).
fn cut_share(sets: &[String]) -> f64 {
    let cut = slab_view("cut", sets);
    cut.rgba.iter().step_by(4).map(|&v| f64::from(v)).sum::<f64>() / f64::from(SIZE[0] * SIZE[1])
}

#[test]
fn a_small_volume_is_bounded_by_the_placed_medias_grid() {
    // The same 4 m slab with the chapter's default falloff (0.8 /m: σt = 10 at its foot, 2 where
    // the rays cross it, τ ≈ 8 along them). Bounded by the placed media's grid (cells of 6 cm) a
    // path needs about as many collisions as it scatters, and 16 let nearly all through; a 31 m
    // cell of the scene's grid would bound it by its foot's 10 /m, and most paths were cut.
    let share = cut_share(&dense_slab(&[]));
    assert!(share < 0.2, "{share:.3} of the paths were cut at 16 collisions: the bound is loose");
}

/// The probe: directions drawn by `sample_phase` about +z for a lobe of kind `KIND` and
/// asymmetry `G` (appended per run), one per invocation, as (cos θ, weight, x, 0).
const PHASE_PROBE: &str = "
@group(0) @binding(9) var<storage, read_write> drawn: array<vec4<f32>>;

@compute @workgroup_size(64)
fn probe_phase(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&drawn) {
        return;
    }
    rng_state = pcg(id.x * 7919u + 17u);
    let s = sample_phase(PhaseLobe(KIND, G, 1.0, vec3(1.0)), vec3(0.0, 0.0, 1.0));
    drawn[id.x] = vec4(s.dir.z, s.weight, s.dir.x, length(s.dir));
}
";

/// `n` directions from the tracer's phase sampling, as (cos θ, weight, x, |dir|).
fn drawn_directions(kind: u32, g: f32, n: usize) -> Vec<[f32; 4]> {
    use fogbook_core::shaders::{ShaderStore, compute_pipeline, create_module};
    use wgpu::util::DeviceExt;
    let gpu = fogbook_core::gpu::GpuContext::headless(&Default::default()).unwrap();
    let device = &gpu.device;
    let mut shader = ShaderStore::discover().compose("09-ground-truth/sampling.wgsl").unwrap();
    shader.source.push_str(&format!("const KIND: u32 = {kind}u;\nconst G: f32 = {g:?};\n{PHASE_PROBE}"));
    let module = create_module(device, &shader).unwrap();
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("phase probe"),
        entries: &[fogbook_core::bindings::storage_buffer_entry(9, wgpu::ShaderStages::COMPUTE, false)],
    });
    let pipeline = compute_pipeline(device, &module, "probe_phase", &[Some(&layout)]).unwrap();
    let out = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("phase probe"),
        contents: &vec![0u8; n * 16],
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("phase probe"),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry { binding: 9, resource: out.as_entire_binding() }],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups((n as u32).div_ceil(64), 1, 1);
    }
    gpu.queue.submit([encoder.finish()]);
    let bytes = fogbook_core::capture::read_buffer(&gpu, &out).unwrap();
    bytemuck::cast_slice::<u8, [f32; 4]>(&bytes).to_vec()
}

// ANCHOR: phase_sampling
#[test]
fn phase_sampling_draws_each_lobe_by_its_density() {
    // Drawn cos θ binned in 20 bins against the phase's probability there (f64, Simpson), by
    // weight (a Cornette–Shanks draw is weighted p_CS / p_HG): each bin within five of its
    // standard errors, the directions unit, and their azimuth centred (mean x ≈ 0).
    const N: usize = 1 << 17;
    const BINS: usize = 20;
    for (kind, g) in [(0u32, 0.0f32), (0, 0.7), (0, -0.4), (0, 0.95), (1, 0.6)] {
        let drawn = drawn_directions(kind, g, N);
        let phase = |mu: f64| match kind {
            0 => reference::henyey_greenstein(f64::from(g), mu),
            _ => reference::cornette_shanks(f64::from(g), mu),
        };
        let (mut sum, mut sq) = ([0.0f64; BINS], [0.0f64; BINS]);
        for d in &drawn {
            assert!((d[3] - 1.0).abs() < 1e-4, "kind {kind}, g {g}: |dir| = {}", d[3]);
            let bin = (((f64::from(d[0]) + 1.0) / 2.0 * BINS as f64) as usize).min(BINS - 1);
            sum[bin] += f64::from(d[1]);
            sq[bin] += f64::from(d[1]).powi(2);
        }
        for b in 0..BINS {
            let (lo, hi) = (-1.0 + 2.0 * b as f64 / BINS as f64, -1.0 + 2.0 * (b + 1) as f64 / BINS as f64);
            let expected = reference::phase_probability(phase, lo, hi);
            let got = sum[b] / N as f64;
            let error = ((sq[b] / N as f64 - got * got).max(0.0) / N as f64).sqrt().max(1e-6);
            assert!(
                (got - expected).abs() < 5.0 * error + 1e-5,
                "kind {kind}, g {g}, cos θ in [{lo:.2}, {hi:.2}]: {got:.5} drawn, {expected:.5} by the phase (± {error:.5})"
            );
        }
        let mean_x = drawn.iter().map(|d| f64::from(d[2])).sum::<f64>() / N as f64;
        assert!(mean_x.abs() < 0.01, "kind {kind}, g {g}: mean x {mean_x}");
    }
}
// ANCHOR_END: phase_sampling

// ANCHOR: more_media
/// Per channel, the mean of `image` against `expected` within four of its standard errors.
fn assert_means(image: &FloatImage, expected: [f64; 3], what: &str) {
    for (c, (mean, error)) in mean_and_error(image).into_iter().enumerate() {
        assert!(
            (mean - expected[c]).abs() <= 4.0 * error + 1e-4 * expected[c].abs(),
            "{what}, channel {c}: {mean:.5} ± {error:.5}, expected {:.5}",
            expected[c]
        );
    }
}

/// The tracer alone in the dark: no surfaces, no sun, no lights, a black environment.
const DARK: [&str; 5] = [
    "ground-truth.surfaces=false",
    "ground-truth.sun=false",
    "local_lights=false",
    "constant_environment=true",
    "environment=0,0,0,1",
];

#[test]
fn fog_by_distance_is_an_absorber_that_emits_its_colour() {
    // Exponential fog with all of it applied: σt = ρ, emission ρ C. A horizontal ray from the
    // centre crosses 1 000 m of the media's box (its −Z face), so L = C (1 − e^(−1000 ρ)). The
    // linear falloff has no medium: black. From 50 m up, so that no ray of the 1° view leaves
    // through the box's floor first.
    const HIGH: &str = "0,50,0,0,0,1";
    let (rho, colour) = (0.002, [0.5, 1.0, 2.0]);
    let density = format!("density={rho}");
    let mut all =
        dark_with(&["falloff=exponential", &density, "color=0.5,1,2,1", "glow_color=1,1,1,0", "samples_per_frame=64"]);
    let image = traced_stack("distance-fog,ground-truth", HIGH, &all, 2);
    let emitted = 1.0 - reference::transmittance(rho, 1000.0);
    assert_means(&image, colour.map(|c| c * emitted), "exponential fog");
    all.push("falloff=linear".into());
    let image = traced_stack("distance-fog,ground-truth", HIGH, &all, 1);
    assert_means(&image, [0.0; 3], "linear fog (no medium)");
}

#[test]
fn a_slab_of_cloud_transmits_by_beer_lambert() {
    // The clouds' constant slab, 1 000 m thick from 1 500 m up, absorbing; looking straight up
    // through it into a white environment each path returns 0 or 1: T = e^(−σt · 1000) on the
    // shell's own tracking, with the Bernoulli variance.
    let sigma_t = 0.0007;
    let extinction = format!("extinction={sigma_t}");
    let all = dark_with(&[
        "environment=1,1,1,1",
        "density_model=slab",
        "noise_resolution=low",
        "layer_bottom_m=1500",
        "layer_thickness_m=1000",
        &extinction,
        "albedo=0",
        "samples_per_frame=64",
    ]);
    let image = traced_stack("clouds,ground-truth", "0,5,0,0,89,1", &all, 2);
    let expected = reference::transmittance(sigma_t, 1000.0 / 89f64.to_radians().sin());
    assert_means(&image, [expected; 3], "slab of cloud");
}
// ANCHOR_END: more_media

// ANCHOR: smoke
/// The smoke's cells of a 16³ grid: a density of 0.1 to 1.6, hashed per cell (every ray crosses
/// cells of very different density, so the bound is tested cell by cell), as the f16 texture
/// stores it.
fn smoke_density(n: usize) -> Vec<f64> {
    (0..n * n * n)
        .map(|i| {
            let h = (i as u32).wrapping_mul(2_654_435_761) >> 16;
            let rho = 0.1 + 1.5 * f64::from(h % 1024) / 1023.0;
            f64::from(fogbook_smoke::fields::round_f16(rho as f32))
        })
        .collect()
}

/// ∫ ρ ds along o + t d through the smoke's box (corner `min`, side `side` m), ρ the trilinear
/// interpolation of `rho`'s cells (n³, centres at (i + ½) side / n, clamped to the edge, as the
/// smoke's sampler reads them), in f64 by the midpoint rule.
fn smoke_column(rho: &[f64], n: usize, min: glam::DVec3, side: f64, o: glam::DVec3, d: glam::DVec3) -> f64 {
    let (a, b) = ((min - o) / d, (min + glam::DVec3::splat(side) - o) / d);
    let (near, far) = (a.min(b).max_element().max(0.0), a.max(b).min_element());
    let steps = 4096;
    let ds = (far - near).max(0.0) / f64::from(steps);
    (0..steps)
        .map(|k| {
            let p = o + d * (near + ds * (f64::from(k) + 0.5));
            let cell = ((p - min) / side * n as f64 - 0.5).to_array();
            fogbook_smoke::reference::sample_with_range(n, rho, cell).0 * ds
        })
        .sum()
}

#[test]
fn smoke_transmits_by_its_optical_depth_per_channel() {
    // The smoke's 12 m box filled with a known density of black dye (albedo 0) and no glow: a
    // chromatic absorber. Looking down its axis from 6 m up into a white environment, each pixel
    // is T_c = e^(−σ tint_c ∫ρ) along its ray, ∫ρ in f64 from the cells uploaded. Time stands
    // still: no step moves the smoke.
    traced_smoke(0);
}

#[test]
fn a_smoke_that_changes_is_bounded_again_every_frame() {
    // One frame of an empty box first (its bound 0), then the density, with nothing that
    // restarts the sums: each pixel's mean is (1 + 16 T) / 17 only if the majorant grid was
    // rebuilt for the frames after the change. Without the rebuild no collision is drawn there
    // and the pixel stays 1.
    traced_smoke(1);
}

/// The smoke test's picture after `empty_frames` frames of an empty box and 16 of the known
/// density, each pixel against its f64 answer (the frames' mean of 1 and T).
fn traced_smoke(empty_frames: u32) {
    const N: usize = 16;
    const EYE: &str = "0,6,0,0,0,1";
    const FRAMES: u32 = 16;
    let (sigma, tint) = (0.08, [1.0, 0.6, 0.3]);
    let (grid_size, extinction) = (format!("grid_size={N}"), format!("extinction={sigma}"));
    let all = dark_with(&[
        "environment=1,1,1,1",
        &grid_size,
        &extinction,
        "extinction_color=1,0.6,0.3",
        "emission=0",
        "cast_shadow=false",
        "samples_per_frame=64",
    ]);
    let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    let h = shared.get_or_insert_with(|| headless(SIZE));
    h.resize(SIZE).unwrap();
    let mut setup = fogbook::state::Setup::new("smoke,ground-truth").unwrap();
    setup.apply(None, &all, Some(EYE)).unwrap();
    h.prepare_stack(&mut setup.stack).unwrap();
    let rho = smoke_density(N);
    let view = setup.stack.find_view("ground-truth/ground-truth").unwrap();
    let upload = |h: &fogbook_core::headless::Headless, setup: &mut fogbook::state::Setup, scale: f64| {
        let loaded =
            setup.stack.chapters_mut()[0].as_any_mut().downcast_mut::<fogbook_core::Loaded<fogbook_smoke::Smoke>>();
        let (smoke, state) = loaded.expect("the smoke first").parts().unwrap();
        let fluid: Vec<f32> = rho.iter().flat_map(|&r| [0.0, 0.0, 0.0, (r * scale) as f32]).collect();
        state.upload(&h.gpu, fogbook_smoke::fields::FieldId::Fluid, &fluid).unwrap();
        fogbook_smoke::SmokeUniform::new(&smoke.params, N as u32, [0.0, 1.0, 0.0], 0).grid
    };
    if empty_frames > 0 {
        upload(h, &mut setup, 0.0);
        for _ in 0..empty_frames {
            h.redraw(&mut setup.stack, &setup.camera, &setup.scene, view);
        }
    }
    let grid = upload(h, &mut setup, 1.0);
    for _ in 0..FRAMES {
        h.redraw(&mut setup.stack, &setup.camera, &setup.scene, view);
    }
    let image = common::checked_capture(h).raw;
    let (min, side) = (glam::Vec3::from(grid.box_min).as_dvec3(), f64::from(grid.box_m));
    let pixels = (image.width * image.height) as usize;
    let (empty, full) = (f64::from(empty_frames), f64::from(FRAMES));
    for c in 0..3 {
        // Per pixel, the traced value less its own answer: their mean is 0 within its error.
        let residuals: Vec<f64> = (0..pixels)
            .map(|i| {
                let (x, y) = ((i as u32) % image.width, (i as u32) / image.width);
                let (o, d) = common::pose_ray(EYE, SIZE, x, y);
                let t = (-sigma * tint[c] * smoke_column(&rho, N, min, side, o, d)).exp();
                f64::from(image.rgba[4 * i + c]) - (empty + full * t) / (empty + full)
            })
            .collect();
        let mean = residuals.iter().sum::<f64>() / pixels as f64;
        let variance = residuals.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (pixels as f64 - 1.0);
        let error = (variance / pixels as f64).sqrt();
        let traced = (0..pixels).map(|i| f64::from(image.rgba[4 * i + c])).sum::<f64>() / pixels as f64;
        eprintln!("channel {c}: traced {traced:.5}, less the f64 transmittance {mean:.5} ± {error:.5}");
        assert!(mean.abs() <= 4.0 * error + 1e-4, "channel {c}: traced − f64 transmittance {mean:.5} ± {error:.5}");
    }
}
// ANCHOR_END: smoke

// ANCHOR: sky_orders
/// The sky alone (no scene, the atmosphere traced as a medium), exposure 1: the tracer's radiance
/// is W/m²/sr/nm at the sky's three wavelengths.
fn traced_sky(camera: &str, sun: (f32, f32), bounces: u32, frames: u32) -> FloatImage {
    let all = sets(&[
        "ground-truth.sky=medium",
        "ground-truth.surfaces=false",
        "local_lights=false",
        "sky.exposure=1",
        // The tables are not read where the atmosphere is traced: the cheapest to precompute.
        "lut_resolution=quarter",
        "scattering_orders=1",
        &format!("scene.sun_elevation_deg={}", sun.0),
        &format!("scene.sun_azimuth_deg={}", sun.1),
        &format!("max_bounces={bounces}"),
        "samples_per_frame=64",
    ]);
    traced_stack("sky,ground-truth", camera, &all, frames)
}

#[test]
fn the_sky_traced_as_a_medium_is_chapter_3s_orders_of_scattering() {
    // With one vertex per path the tracer's sky is single scattering; with two, the first two
    // orders (two scatterings, or a scattering and the ground's reflection). Chapter 3's f64
    // model integrates the same along the centre ray of each 1° view: single scattering on 400
    // steps graded towards the eye, the second order by brute force over 20 × 40 incoming
    // directions at 24 points of the ray (within 2.5 % of four times as many, so 1 % of the
    // sum's second-order share is allowed for it). Views low and high, the sun high and low.
    // A lobe picked by luminance weight without each channel's share of it (medium_lobe_weight)
    // read red 3 % and 5 % high and blue 2 % low: it fails here.
    use fogbook_core::scene_settings::SceneSettings;
    use fogbook_sky::reference::{Atmosphere, SecondOrderQuality, second_order_scattering, single_scattering_graded};
    let atm = Atmosphere::from_params(&fogbook_sky::SkyParams::default());
    let q = SecondOrderQuality { view_steps: 24, rings: 20, single_steps: 32, sun_samples: 48 };
    // (yaw, pitch) of the 1° view from 5 m up, and the sun's (elevation, azimuth), degrees.
    for ((yaw, pitch), sun) in [((0.0f32, 10.0f32), (30.0, 60.0)), ((180.0, 45.0), (8.0, -20.0))] {
        let camera = format!("0,5,0,{yaw},{pitch},1");
        let pose = fogbook_core::camera::CameraPose {
            position: [0.0, 5.0, 0.0],
            yaw_deg: yaw,
            pitch_deg: pitch,
            fov_y_deg: 1.0,
        };
        let view = pose.forward().as_dvec3();
        let scene = SceneSettings { sun_elevation_deg: sun.0, sun_azimuth_deg: sun.1, ..Default::default() };
        let to_sun = scene.sun_direction().as_dvec3();
        // The scene's origin stands 1 m above the ground (common/sky_light.wgsl), the eye 5 m above it.
        let r = atm.bottom_radius + 6.0;
        let (mu, mu_s, nu) = (view.y, to_sun.y, view.dot(to_sun));
        let first = single_scattering_graded(&atm, r, mu, mu_s, nu, 400, 200);
        let second = second_order_scattering(&atm, r, mu, mu_s, nu, 1e-9, q);
        // ANCHOR: sky_check
        for (bounces, expected) in [(1, first), (2, std::array::from_fn(|k| first[k] + second[k]))] {
            let image = traced_sky(&camera, sun, bounces, 4);
            for (c, (mean, error)) in mean_and_error(&image).into_iter().enumerate() {
                let model = if bounces == 2 { 0.01 * second[c] } else { 0.0 };
                eprintln!(
                    "{camera}, {bounces} orders, channel {c}: {:+.4} (± {:.4})",
                    mean / expected[c] - 1.0,
                    error / expected[c]
                );
                assert!(
                    (mean - expected[c]).abs() < 4.0 * error + model + 1e-3 * expected[c],
                    "view {camera}, sun {sun:?}, {bounces} orders, channel {c}: L = {mean:.6}, chapter 3 {:.6} (± {error:.6})",
                    expected[c]
                );
            }
        }
        // ANCHOR_END: sky_check
    }
}
// ANCHOR_END: sky_orders

// ANCHOR: cards
/// The cards' source frames of a 12³ grid: per frame a density of 0.2 to 1.5, hashed per cell
/// and frame (so a card that reads another card's frame, or a cell off by one, reads another
/// value), as the f16 texture stores it.
fn card_density(n: usize, frames: usize) -> Vec<Vec<f32>> {
    (0..frames)
        .map(|f| {
            (0..n * n * n)
                .map(|i| {
                    let h = ((i + 7919 * f) as u32).wrapping_mul(2_654_435_761) >> 16;
                    fogbook_smoke::fields::round_f16(0.2 + 1.3 * (h % 1024) as f32 / 1023.0)
                })
                .collect()
        })
        .collect()
}

/// ∫ σ ds along o + t d through one card's volume, in f64 from the card's quad alone: a point at
/// (s_r, s_u, s_a) metres from the card's centre along its right, up and normal is in cell
/// (crop.x + crop.w/2 + s_r / c_r, n − crop.y − crop.h/2 + s_u / c_u, n/2 + s_a / c_a) of the
/// grid (c_r = width / crop.w, c_u = height / crop.h, c_a = √(c_r c_u)), inside the crop across
/// and above the ground (where the media's box starts); σ = σΔx / c_a × the card's opacity per
/// unit density. The midpoint rule in 1 cm steps from 12 to 30 m (the cards are 17 to 28 m away).
fn card_column(
    card: &fogbook_six_way::instances::CardInstance,
    src: &fogbook_six_way::source::SourceVolumes,
    frame: &[f32],
    o: glam::DVec3,
    d: glam::DVec3,
) -> f64 {
    use glam::DVec3;
    let v = |a: [f32; 4]| DVec3::new(a[0].into(), a[1].into(), a[2].into());
    let (c, r, u) = (v(card.centre), v(card.right), v(card.up));
    let a = u.cross(r);
    let (n, crop) = (src.n as f64, src.crop);
    let (cr, cu) = (f64::from(card.right[3]) / crop.w, f64::from(card.up[3]) / crop.h);
    let ca = (cr * cu).sqrt();
    let sigma = f64::from(src.tau_per_cell) / ca * f64::from(card.centre[3]);
    let (near, steps) = (12.0, 1800);
    let ds = 0.01;
    (0..steps)
        .map(|k| {
            let p = o + d * (near + ds * (f64::from(k) + 0.5));
            let q = p - c;
            let cell = [
                crop.x + crop.w / 2.0 + q.dot(r) / cr,
                n - crop.y - crop.h / 2.0 + q.dot(u) / cu,
                n / 2.0 + q.dot(a) / ca,
            ];
            let across = cell[0] >= crop.x.max(0.0) && cell[0] < (crop.x + crop.w).min(n);
            let high = cell[1] >= (n - crop.y - crop.h).max(0.0) && cell[1] < (n - crop.y).min(n);
            if !(across && high && cell[2] >= 0.0 && cell[2] < n && p.y >= 0.0) {
                return 0.0;
            }
            let [i, j, l] = cell.map(|x| x as usize);
            sigma * f64::from(frame[i + src.n as usize * (j + src.n as usize * l)]) * ds
        })
        .sum()
}

#[test]
fn the_cards_source_volumes_transmit_by_beer_lambert() {
    // Five upright fog cards 3–5 m wide, about 20 m ahead, each turned to face the eye and
    // showing its own frame (random starts, the flipbook stopped); their volumes are a known
    // density of a black medium (albedo 0), cropped off the grid's edge. Into a white
    // environment each pixel is the mean over its area of T = e^(−Σ ∫σ) along each ray (the
    // paths are jittered over the pixel, which is 0.9 m wide there, three cells), in f64 from the
    // quads alone (their opacity, ½, scales the density), on 6 × 6 rays a pixel. The
    // cards are leaves of a tree three levels deep: one walked wrong goes missing.
    use fogbook_six_way::baked::{BakeKey, Baked, remember};
    use fogbook_six_way::crop::CropRect;
    use fogbook_six_way::light::Medium;
    use fogbook_six_way::params::CardParams;
    use fogbook_six_way::source::SourceVolumes;
    const EYE: &str = "0,2,0,0,-2,40";
    const N: u32 = 16;
    let cards = sets(&[
        "bake_grid=16",
        "bake_frames=4",
        "bake_frame_size=8",
        "bake_warmup_steps=0",
        "fog_cards=5",
        "particles=false",
        "fog_card_centre_x_m=0",
        "fog_card_centre_z_m=-20",
        "fog_card_half_width_m=5",
        "fog_card_half_depth_m=3",
        "fog_card_size_m=4",
        "frames_per_s=0",
        "frame_blend=none",
    ]);
    let (params, _) = common::typed_settings::<CardParams>(&cards);
    let key = BakeKey::new(&params);
    let layout = key.0.layout().unwrap();
    let [w, h] = layout.size();
    let density = card_density(N as usize, 4);
    let crop = CropRect { x: 2.5, y: -1.5, w: 12.0, h: 12.0 };
    let source = SourceVolumes::new(N, &density, &[], crop, Medium { extinction: 0.4, cell_m: 0.25, albedo: 0.0 });
    let atlases = [vec![0.0; (w * h * 4) as usize], vec![0.0; (w * h * 4) as usize]];
    let swizzle = key.0.swizzle().unwrap();
    let book =
        Baked { layout, frames: 4, swizzle, emission: false, atlases, source: Some(source.clone()), seconds: 0.0, key };
    remember(book).unwrap();
    let mut all = dark_with(&["environment=1,1,1,1", "samples_per_frame=64"]);
    all.extend(cards);
    const FRAMES: u32 = 4;
    let image = traced_stack("six-way-cards,ground-truth", EYE, &all, FRAMES);
    // Where the chapter stands its cards for this eye (its own placement), the volumes in f64.
    let pose = fogbook_core::camera::CameraPose::parse(EYE).unwrap();
    let eye = fogbook_six_way::instances::Eye {
        position: pose.eye(),
        forward: pose.forward(),
        right: pose.forward().cross(glam::Vec3::Y).normalize(),
        up: glam::Vec3::Y,
    };
    let placed = fogbook_six_way::instances::fog_cards(&fogbook_six_way::instances::FogCardArea::new(&params));
    let instances = fogbook_six_way::instances::build(&params, &placed, &Default::default(), &eye, 4);
    let pixels = (image.width * image.height) as usize;
    let (mut residuals, mut covered, mut worst) = (Vec::with_capacity(pixels), 0, 0.0f64);
    for i in 0..pixels {
        let (x, y) = ((i as u32) % image.width, (i as u32) / image.width);
        const SUB: u32 = 6;
        let mut t = 0.0;
        for s in 0..SUB * SUB {
            let at = |p: u32, k: u32| f64::from(p) + (f64::from(k) + 0.5) / f64::from(SUB);
            let (o, d) = common::pose_ray_at(EYE, SIZE, at(x, s % SUB), at(y, s / SUB));
            let depth: f64 =
                instances.iter().map(|c| card_column(c, &source, &density[c.flipbook[0] as usize], o, d)).sum();
            t += (-depth).exp() / f64::from(SUB * SUB);
        }
        covered += usize::from(t < 1.0);
        let r = f64::from(image.rgba[4 * i]) - t;
        worst = worst.max(r.abs());
        residuals.push(r);
    }
    let mean = residuals.iter().sum::<f64>() / pixels as f64;
    let variance = residuals.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (pixels as f64 - 1.0);
    let error = (variance / pixels as f64).sqrt();
    eprintln!(
        "{covered} of {pixels} pixels see a card; traced − f64 transmittance {mean:.5} ± {error:.5}, worst pixel {worst:.3}"
    );
    assert!(covered > pixels / 5, "only {covered} pixels see a card");
    // A pixel's own error is at most ½ / √256 = 0.031 (256 paths of 0 or 1): 0.2 is six of them.
    assert!(worst < 0.2, "a pixel is {worst:.3} off its f64 transmittance");
    assert!(mean.abs() <= 4.0 * error + 1e-4, "traced − f64 transmittance {mean:.5} ± {error:.5}");
}
// ANCHOR_END: cards
