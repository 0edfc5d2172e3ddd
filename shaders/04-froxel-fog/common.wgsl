// Froxel volumetric fog, shared definitions: the parameter block, the exponential slice
// distribution, the froxel's position, the medium, the energy-conserving step integral and the
// Henyey–Greenstein phase function.
// Technique: a frustum-aligned 3D grid ("froxels") whose media are injected, lit and integrated
// front to back per column, then looked up at each pixel's depth — Wronski, "Volumetric Fog:
// Unified Compute Shader-Based Solution to Atmospheric Scattering" (SIGGRAPH 2014); the
// participating-media model and the energy-conserving integral after Hillaire, "Towards Unified
// and Physically-Based Volumetric Lighting in Frostbite" (SIGGRAPH 2015).
// Slices are distances along each column's ray (the core's scene distance is one too): boundary k
// of N lies at n · (f/n)^(k/N) for k ≥ 1 and boundary 0 at the eye.
// Mirrors `FroxelUniform` and `reference.rs` in chapters/04-froxel-fog.
// #import common/scene_inputs.wgsl

// ANCHOR: uniform
struct FroxelParams {
    grid: vec4<u32>,    // x, y: columns and rows; z: slices N; w: the debug view
    slices: vec4<f32>,  // x: near n (m); y: far f (m); z: N / ln(f/n); w: ln(f/n) / N
    medium: vec4<f32>,  // x: constant σt (1/m); y: layer density (1/m); z: falloff b (1/m); w: layer height (m)
    albedo: vec4<f32>,  // rgb: σs / σt; w: phase g
    light: vec4<f32>,   // x: sun factor; y: ambient factor; z: 1 = volume shadows; w: 1 = apply the fog
    debug: vec4<u32>,   // x: the slice the slice views show
    temporal: vec4<f32>, // x: 1 = jitter and history; y: history weight; z: 1 = history holds last frame
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

// The unit ray through a point of the grid's screen plane, in columns and rows (a column's centre
// is at x + 0.5): the same basis as `view_ray_dir`, so a column's ray is its pixels' ray.
fn grid_ray_dir(xy: vec2<f32>) -> vec3<f32> {
    let uv = xy / vec2<f32>(froxel.grid.xy);
    let ndc = vec2(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
    return normalize(frame.cam_forward.xyz + ndc.x * frame.cam_right.xyz + ndc.y * frame.cam_up.xyz);
}

// The centre of froxel `id`: its column's ray at the middle of its slice (the midpoint rule).
fn froxel_centre(id: vec3<u32>) -> vec3<f32> {
    let middle = 0.5 * (slice_begin(id.z) + slice_end(id.z));
    return frame.camera_pos.xyz + grid_ray_dir(vec2<f32>(id.xy) + 0.5) * middle;
}

// ANCHOR: jitter
// Where froxel `id` samples the medium and the light: its slice's middle, or with temporal
// accumulation a point moved along the slice by the core's Halton jitter (−½..½ of the slice),
// so that successive frames cover the whole slice.
fn froxel_sample_point(id: vec3<u32>) -> vec3<f32> {
    let begin = slice_begin(id.z);
    let length = slice_end(id.z) - begin;
    let offset = select(0.0, frame.jitter_px.x, froxel.temporal.x > 0.5);
    return frame.camera_pos.xyz + grid_ray_dir(vec2<f32>(id.xy) + 0.5) * (begin + (0.5 + offset) * length);
}
// ANCHOR_END: jitter

// ANCHOR: medium
const MAX_EXTINCTION: f32 = 1.0e4; // 1/m: past this every slice is opaque in any precision

// σt(p): the constant medium plus chapter 2's layer, density · e^(−b (h − h₀)).
fn froxel_extinction_at(p: vec3<f32>) -> f32 {
    let m = froxel.medium;
    let layer = m.y * exp(clamp(-m.z * (p.y - m.w), -80.0, 80.0));
    return min(m.x + layer, MAX_EXTINCTION);
}
// ANCHOR_END: medium

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

// Henyey–Greenstein (1/sr); cos_theta between the view ray and the direction towards the light.
fn henyey_greenstein(g_in: f32, cos_theta: f32) -> f32 {
    let g = clamp(g_in, -0.999, 0.999);
    let denom = max(1.0 + g * g - 2.0 * g * cos_theta, 1e-6);
    return (1.0 - g * g) * INV_FOUR_PI / (denom * sqrt(denom));
}
// ANCHOR_END: phase
