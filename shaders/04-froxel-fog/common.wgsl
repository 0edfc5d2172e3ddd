// Froxel volumetric fog, shared definitions: the parameter block, the exponential slice
// distribution, the froxel's position, the medium (global, noise, local volumes), the
// energy-conserving step integral, the phase functions and the local lights' in-scattering.
// Technique: a frustum-aligned 3D grid ("froxels") whose media are injected, lit and integrated
// front to back per column, then looked up at each pixel's depth — Wronski, "Volumetric Fog:
// Unified Compute Shader-Based Solution to Atmospheric Scattering" (SIGGRAPH 2014); the
// participating-media model and the energy-conserving integral after Hillaire, "Towards Unified
// and Physically-Based Volumetric Lighting in Frostbite" (SIGGRAPH 2015).
// Slices are distances along each column's ray (the core's scene distance is one too): boundary k
// of N lies at n · (f/n)^(k/N) for k ≥ 1 and boundary 0 at the eye.
// Mirrors `FroxelUniform` and `reference.rs` in chapters/04-froxel-fog.
// #import common/scene_inputs.wgsl
// #import common/gradient_noise.wgsl
// #import common/height_layer.wgsl
// #import common/media/fog_volume.wgsl

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
// Where froxel `id` samples the medium and the light: its centre (its column's middle ray at its
// slice's middle), or with temporal accumulation a point moved inside the froxel — across the
// column by the core's Halton (2, 3) jitter and along the slice by its Halton base-5 offset, each
// −½..½ of the froxel — so that successive frames cover the whole froxel.
fn froxel_sample_point(id: vec3<u32>) -> vec3<f32> {
    let begin = slice_begin(id.z);
    let length = slice_end(id.z) - begin;
    var across = vec2(0.0);
    var along = 0.0;
    if froxel.temporal.x > 0.5 {
        across = frame.jitter_px;
        along = frame.jitter_depth;
    }
    return frame.camera_pos.xyz + grid_ray_dir(vec2<f32>(id.xy) + 0.5 + across) * (begin + (0.5 + along) * length);
}
// ANCHOR_END: jitter

// ANCHOR: medium
const MAX_EXTINCTION: f32 = 1.0e4; // 1/m: past this every slice is opaque in any precision

// The global medium's height layers: chapter 2's two when it is in the stack (it publishes them
// in the frame), else this chapter's one (and an empty second).
fn global_layer(i: u32) -> vec4<f32> {
    if frame.height_layers[0].w > 0.5 {
        return frame.height_layers[i];
    }
    return select(vec4(0.0), vec4(froxel.medium.yzw, 0.0), i == 0u);
}

// The noise's factor on the global medium at p: max(0, 1 + a · fbm((p − wind) / size)). |fbm|
// reaches 1.0364 (improved Perlin noise is not confined to [−1, 1]), so without the clamp an
// amount above 0.965 could make σt negative; the factor lies in [0, 1 + 1.0364 a].
fn noise_factor(p: vec3<f32>) -> f32 {
    if froxel.noise.x <= 0.0 {
        return 1.0;
    }
    return max(0.0, 1.0 + froxel.noise.x * fbm3((p - froxel.wind.xyz) * froxel.noise.y));
}

// σt(p) of the global medium without noise: the constant plus the height layers.
fn smooth_extinction_at(p: vec3<f32>) -> f32 {
    return froxel.medium.x + layer_density(global_layer(0u), p.y) + layer_density(global_layer(1u), p.y);
}
// ANCHOR_END: medium

// Local fog volumes (chapter 5): the struct and `fog_volume_weight` live in
// common/media/fog_volume.wgsl, shared with chapter 5's analytic path.
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

fn phase(cos_theta: f32) -> f32 {
    if froxel.debug.z == 1u {
        return cornette_shanks(froxel.albedo.w, cos_theta);
    }
    return henyey_greenstein(froxel.albedo.w, cos_theta);
}
// ANCHOR_END: phase

// ANCHOR: local_lights
// Radiance per unit σs that the scene's point and spot lights scatter towards the eye at p
// (v: the unit view ray): Σ I_k · attenuation_k(p) · phase(v · l_k), unshadowed. With a solo
// light (debug.y = k > 0) only light k − 1.
fn local_lights_at(p: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    var sum = vec3(0.0);
    let count = min(frame.light_count, MAX_LOCAL_LIGHTS);
    for (var i = 0u; i < count; i++) {
        if froxel.debug.y > 0u && froxel.debug.y != i + 1u {
            continue;
        }
        let light = frame.lights[i];
        let to_light = light.position.xyz - p;
        let len = length(to_light);
        let l = select(vec3(0.0, 1.0, 0.0), to_light / len, len > 0.0);
        sum += light.intensity.rgb * light_attenuation(light, p) * phase(dot(v, l));
    }
    return sum * froxel.temporal.w;
}
// ANCHOR_END: local_lights
// ANCHOR_END: phase
