//! Chapter 4's global medium (`froxel_global_medium_at`, `froxel_global_majorant` in
//! 04-froxel-fog/common.wgsl): a constant density plus the height layers (the chapter's own one,
//! or chapter 2's two when it publishes them), times the drifting noise's factor.

use super::*;
use fogbook_core::frame::FrameUniform;
use fogbook_core::noise::GRADIENT_NOISE_BOUND;
use fogbook_froxel_fog::{FroxelFogParams, FroxelUniform, PhaseFunction};
use fogbook_height_fog::reference::Layer;

/// The box the points are drawn from and the first majorant is taken over (m): the layers'
/// heights and a few lattice cells of the noise either way.
const FOG_MIN: [f32; 3] = [-20.0, -2.0, -20.0];
const FOG_MAX: [f32; 3] = [20.0, 12.0, 20.0];
/// Half the side of the small box about each point that the second majorant is taken over (m).
const HALF: f32 = 0.25;

const FOG_PROBE: &str = "
const FOG_MIN: vec3<f32> = vec3(-20.0, -2.0, -20.0);
const FOG_MAX: vec3<f32> = vec3(20.0, 12.0, 20.0);

@compute @workgroup_size(64)
fn probe_froxel(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&points) {
        return;
    }
    let p = points[id.x].xyz;
    let half = vec3(points[id.x].w);
    put(froxel_global_medium_at(p), froxel_global_majorant(FOG_MIN, FOG_MAX), froxel_global_majorant(p - half, p + half), id.x);
}
";

/// The fog's parameters: a constant, the chapter's layer, the noise at its largest amount (where
/// 1 + a · fbm can reach 0 and the clamp matters) on a 3 m lattice, carried by the wind.
fn params() -> FroxelFogParams {
    FroxelFogParams {
        constant_density: 0.01,
        layer_density: 0.05,
        layer_falloff: 0.3,
        layer_height_m: 1.0,
        noise_amount: 1.0,
        noise_scale_m: 3.0,
        wind_speed_m_s: 3.0,
        wind_heading_deg: 30.0,
        fog_albedo: [0.9, 0.8, 0.7, 1.0],
        phase_g: 0.45,
        phase_function: PhaseFunction::CornetteShanks,
        ..Default::default()
    }
}

/// The f64 bound of the layers and the constant over heights [lo, hi], times the noise factor's
/// largest value 1 + a · GRADIENT_NOISE_BOUND: |fbm| ≤ GRADIENT_NOISE_BOUND is the core's proven
/// bound (`the_noise_bound_is_the_best_gradients_envelope`: no assignment of the twelve
/// gradients to a cell's corners exceeds it, and fbm is a weighted mean of such noises).
fn true_bound(constant: f64, layers: &[Layer], amount: f64, lo: f64, hi: f64) -> f64 {
    let smooth = constant + layers.iter().map(|l| l.density_at(lo).max(l.density_at(hi))).sum::<f64>();
    smooth * (1.0 + amount * GRADIENT_NOISE_BOUND)
}

/// Runs the probe at time `t_s` with `p`, and chapter 2's layers published in the frame when
/// `published` is given; checks every point against the f64 medium and both majorants against
/// the f64 bound. Returns the largest σt / (its small box's majorant).
fn check(p: &FroxelFogParams, t_s: f64, published: Option<[[f64; 3]; 2]>) -> f64 {
    use fogbook_froxel_fog::reference::noise_factor;
    let gpu = GpuContext::headless(&Default::default()).unwrap();
    let shader = compose_probe("04-froxel-fog/common.wgsl", &[], FOG_PROBE);
    let mut uniform = FroxelUniform::new(p, [16, 9, 32], 0, false);
    let [wx, wy, wz] = fogbook_froxel_fog::wind_offset(p, t_s);
    uniform.wind = [wx, wy, wz, 0.0];
    let mut frame = FrameUniform::zeroed();
    let layers: Vec<Layer> = match published {
        Some(two) => {
            frame.height_layers = two.map(|[d, k, h]| [d as f32, k as f32, h as f32, 1.0]);
            two.iter().map(|&[density, falloff, height]| Layer { density, falloff, height }).collect()
        }
        None => vec![Layer {
            density: p.layer_density as f64,
            falloff: p.layer_falloff as f64,
            height: p.layer_height_m as f64,
        }],
    };
    let frame_buffer = buffer(&gpu, bytemuck::bytes_of(&frame), wgpu::BufferUsages::UNIFORM);
    let froxel_buffer = buffer(&gpu, bytemuck::bytes_of(&uniform), wgpu::BufferUsages::UNIFORM);
    let points: Vec<[f32; 4]> = random_points_in(FOG_MIN, FOG_MAX).iter().map(|q| [q[0], q[1], q[2], HALF]).collect();
    let bound = vec![(0, 0, frame_buffer.as_entire_binding()), (2, 0, froxel_buffer.as_entire_binding())];
    let s = dispatch(&gpu, &shader, "probe_froxel", &points, bound);

    let (c, a) = (p.constant_density as f64, p.noise_amount as f64);
    let albedo = [0, 1, 2].map(|k| p.fog_albedo[k] as f64);
    let wind = DVec3::new(wx as f64, wy as f64, wz as f64);
    let box_bound = true_bound(c, &layers, a, FOG_MIN[1] as f64, FOG_MAX[1] as f64);
    let mut worst = 0.0f64;
    for (q, m) in points.iter().zip(&s) {
        let x = DVec3::new(q[0] as f64, q[1] as f64, q[2] as f64);
        let smooth = c + layers.iter().map(|l| l.density_at(x.y)).sum::<f64>();
        let t = smooth * noise_factor(a, p.noise_scale_m as f64, wind, x);
        // Gradient noise a few cells from its origin, in f32: ~1e-6 of its range.
        assert!(close(m.extinction[1], t, 1e-4, 1e-7), "σt at {q:?}: {} against {t}", m.extinction[1]);
        let sigma_s = albedo.map(|k| k * t);
        assert!(close(m.scattering[2], sigma_s[2], 1e-4, 1e-7), "σs at {q:?}");
        assert!(close(m.weight, luminance(sigma_s), 1e-4, 1e-7), "weight at {q:?}");
        assert_eq!((m.g, m.lobe_g, m.lobe_kind), (p.phase_g, p.phase_g, 1.0), "the phase at {q:?}");
        assert_eq!(m.emission, [0.0; 3]);
        // Both bounds hold the noise's whole proven range, not only what these points reached.
        let (lo, hi) = (q[1] as f64 - HALF as f64, q[1] as f64 + HALF as f64);
        let local = true_bound(c, &layers, a, lo, hi);
        assert!(
            m.other_majorant as f64 >= local * (1.0 - 1e-6),
            "small box at {q:?}: {} below {local}",
            m.other_majorant
        );
        assert!(m.majorant as f64 >= box_bound * (1.0 - 1e-6), "the box: {} below {box_bound}", m.majorant);
        assert!(
            m.extinction[1] <= m.other_majorant && m.extinction[1] <= m.majorant,
            "σt {t} above a bound at {q:?}: {m:?}"
        );
        worst = worst.max(m.extinction[1] as f64 / m.other_majorant as f64);
    }
    // Not loose: the box's bound is the f64 one and its margin.
    assert!((s[0].majorant as f64) < box_bound * 1.001, "the box's majorant {} against {box_bound}", s[0].majorant);
    worst
}

/// The global medium as the media layer describes it: σt = (constant + layers) · the noise's
/// factor max(0, 1 + a · fbm((p − wind) / size)) against the f64 reference
/// (`fogbook_froxel_fog::reference::noise_factor`, chapter 2's `Layer`), σs = albedo · σt, the
/// fog's phase (Cornette–Shanks here) as its lobe; its majorant over the box and over a small
/// box about each point at least the f64 bound with the noise at 1 + a · GRADIENT_NOISE_BOUND,
/// and above σt at 2,048 random points. With the chapter's own layer and with chapter 2's two.
#[test]
fn froxel_global_medium_is_chapter_4s_density_and_its_majorant_bounds_the_noise() {
    let p = params();
    let own = check(&p, 13.7, None);
    let published = check(&p, 2.5, Some(LAYERS));
    eprintln!(
        "froxel global medium: σt reaches {own:.3} (own layer), {published:.3} (chapter 2's) of the small boxes' majorant"
    );
    // The bound holds the noise factor's largest value, 2.036; at 2,048 random points it reaches
    // about 1.4–1.6 (0.67 and 0.77 of the bound measured).
    assert!(own > 0.6 && published > 0.6, "the majorant is loose: {own} {published}");
}
