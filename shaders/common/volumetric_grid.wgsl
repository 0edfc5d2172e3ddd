// The volumetric grid's parameters as every reader of the grid sees them: the uniform, the
// exponential slice distribution, the global medium's height layers, the energy-conserving step
// integral and the phase function — what the froxel fog's passes and the fog at any depth
// (common/fog_at_depth.wgsl) share. Technique: a frustum-aligned 3D grid ("froxels") looked up
// at a depth, Wronski, "Volumetric Fog: Unified Compute Shader-Based Solution to Atmospheric
// Scattering" (SIGGRAPH 2014); the step integral after Hillaire, "Towards Unified and
// Physically-Based Volumetric Lighting in Frostbite" (SIGGRAPH 2015).
// Slices are distances along each column's ray (the core's scene distance is one too): boundary k
// of N lies at n · (f/n)^(k/N) for k ≥ 1 and boundary 0 at the eye.
// `FroxelParams` mirrors the froxel fog's `FroxelUniform` (in its crate; checked in
// tests/contracts.rs), which the froxel fog lends the core's transparent-fog group at binding 0
// (`fogbook_core::transparent_fog`, chapters/core/src/transparent_fog.rs). Without the froxel
// fog the core binds an all-zero uniform there (`STAND_IN_UNIFORM_BYTES`), which reads as off
// (`light.w` = 0). The froxel fog's own definitions are in its shader folder's common.wgsl.
// #import common/scene_inputs.wgsl
// #import common/media/medium.wgsl

// ANCHOR: uniform
struct FroxelParams {
    grid: vec4<u32>,    // x, y: columns and rows; z: slices N; w: the debug view
    slices: vec4<f32>,  // x: near n (m); y: far f (m); z: N / ln(f/n); w: ln(f/n) / N
    medium: vec4<f32>,  // x: constant σt (1/m); y: layer density (1/m); z: falloff b (1/m); w: layer height (m)
    albedo: vec4<f32>,  // rgb: σs / σt; w: phase g
    light: vec4<f32>,   // x: sun factor; y: ambient factor; z: 1 = volume shadows; w: 1 = apply the fog
    debug: vec4<u32>,   // x: the slice the slice views show; y: solo light (0: all); z: phase (0 HG, 1 CS); w: fog volumes
    temporal: vec4<f32>, // x: 1 = jitter and history; y: history weight; z: 1 = history holds last frame; w: local-light factor
    noise: vec4<f32>,   // x: amount a; y: 1 / feature size (1/m); z: 1 = continue beyond the grid; w: 1 = local volumes point-sampled
    wind: vec4<f32>,    // xyz: how far the wind has carried the noise (m)
}
// ANCHOR_END: uniform

@group(2) @binding(0) var<uniform> froxel: FroxelParams;

// ANCHOR: slices
// z(s) = n · (f/n)^(s/N), for a continuous slice coordinate s.
fn slice_depth(s: f32) -> f32 {
    return froxel.slices.x * exp(s * froxel.slices.w);
}

// s(z) = N · ln(z/n) / ln(f/n), the inverse.
fn depth_slice(z: f32) -> f32 {
    return log(max(z, 1e-6) / froxel.slices.x) * froxel.slices.z;
}

fn slice_begin(k: u32) -> f32 {
    if k == 0u {
        return 0.0;
    }
    return slice_depth(f32(k));
}

fn slice_end(k: u32) -> f32 {
    return slice_depth(f32(k + 1u));
}
// ANCHOR_END: slices

// ANCHOR: global_medium
const MAX_EXTINCTION: f32 = 1.0e4; // 1/m: past this every slice is opaque in any precision

// The global medium's height layers: the height fog's two when it is in the stack (it publishes
// them in the frame), else the grid's own one (and an empty second).
fn global_layer(i: u32) -> vec4<f32> {
    if frame.height_layers[0].w > 0.5 {
        return frame.height_layers[i];
    }
    return select(vec4(0.0), vec4(froxel.medium.yzw, 0.0), i == 0u);
}

// The global medium per unit of extinction, as a medium of the media layer: σt = 1/m, σs the
// albedo, the fog's phase (HG, or Cornette–Shanks) as its one lobe. At a point it is this times
// σt there (`froxel_global_medium`, the froxel fog's common.wgsl); a consumer that integrates σt
// along a ray in closed form takes the albedo and the phase from here (`fog_beyond_grid`).
fn global_medium_per_extinction() -> Medium {
    return medium_of(vec3(1.0), froxel.albedo.rgb, vec3(0.0), froxel.albedo.w, froxel.debug.z);
}
// ANCHOR_END: global_medium

// ANCHOR: step_integral
// ∫₀^len S e^(−σt t) dt = S (1 − e^(−σt len)) / σt (Hillaire 2015), its series for σt len < 1e-4.
fn step_integral(s: vec3<f32>, sigma_t: f32, len: f32) -> vec3<f32> {
    let x = sigma_t * len;
    if x < 1e-4 {
        return s * len * (1.0 - 0.5 * x);
    }
    return s * ((1.0 - exp(-x)) / sigma_t);
}
// ANCHOR_END: step_integral

// ANCHOR: phase
const INV_FOUR_PI: f32 = 0.07957747154594767; // 1 / (4π)
const THREE_OVER_EIGHT_PI: f32 = 0.1193662073189215; // 3 / (8π)

// Henyey–Greenstein (1/sr); cos_theta between the view ray and the direction towards the light.
fn henyey_greenstein(g_in: f32, cos_theta: f32) -> f32 {
    let g = clamp(g_in, -0.999, 0.999);
    let denom = max(1.0 + g * g - 2.0 * g * cos_theta, 1e-6);
    return (1.0 - g * g) * INV_FOUR_PI / (denom * sqrt(denom));
}

// Cornette–Shanks 1992 (1/sr): HG with Rayleigh's (1 + cos²θ), renormalised.
fn cornette_shanks(g_in: f32, cos_theta: f32) -> f32 {
    let g = clamp(g_in, -0.999, 0.999);
    let denom = max(1.0 + g * g - 2.0 * g * cos_theta, 1e-6);
    return THREE_OVER_EIGHT_PI * (1.0 - g * g) * (1.0 + cos_theta * cos_theta) / ((2.0 + g * g) * denom * sqrt(denom));
}

// One lobe of the media layer (common/media/medium.wgsl), by its kind.
fn lobe_phase(lobe: PhaseLobe, cos_theta: f32) -> f32 {
    if lobe.kind == PHASE_CORNETTE_SHANKS {
        return cornette_shanks(lobe.g, cos_theta);
    }
    return henyey_greenstein(lobe.g, cos_theta);
}

// The global medium's phase: its lobe.
fn phase(cos_theta: f32) -> f32 {
    return lobe_phase(global_medium_per_extinction().lobe, cos_theta);
}
// ANCHOR_END: phase
