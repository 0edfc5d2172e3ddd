// Froxel volumetric fog, the chapter's shared definitions: the froxel's position and sample
// point, the global medium's noise and smooth extinction, and the local lights' in-scattering.
// The parameter block, the slice distribution, the global height layers, the step integral and
// the phase functions are the grid's as every reader sees it: common/volumetric_grid.wgsl,
// imported here (the fog at any depth, common/fog_at_depth.wgsl, reads them too).
// Technique: a frustum-aligned 3D grid ("froxels") whose media are injected, lit and integrated
// front to back per column, then looked up at each pixel's depth — Wronski, "Volumetric Fog:
// Unified Compute Shader-Based Solution to Atmospheric Scattering" (SIGGRAPH 2014); the
// participating-media model and the energy-conserving integral after Hillaire, "Towards Unified
// and Physically-Based Volumetric Lighting in Frostbite" (SIGGRAPH 2015).
// Mirrors `reference.rs` in chapters/04-froxel-fog.
// #import common/scene_inputs.wgsl
// #import common/gradient_noise.wgsl
// #import common/height_layer.wgsl
// #import common/media/fog_volume.wgsl
// #import common/volumetric_grid.wgsl
// #import common/media/medium.wgsl

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

// ANCHOR: global_medium_at
// The global medium as a medium of the media layer (common/media/medium.wgsl), at p with the
// noise factor there: σt = (constant + height layers) · noise times the medium per unit of
// extinction (common/volumetric_grid.wgsl: σs = albedo · σt, the fog's phase, HG or
// Cornette–Shanks in its view); `froxel_global_medium_at` takes the factor itself.
fn froxel_global_medium(p: vec3<f32>, noise: f32) -> Medium {
    let t = smooth_extinction_at(p) * noise;
    let unit = global_medium_per_extinction();
    return medium_of(unit.extinction * t, unit.scattering * t, unit.emission * t, unit.g, unit.lobe.kind);
}

fn froxel_global_medium_at(p: vec3<f32>) -> Medium {
    return froxel_global_medium(p, noise_factor(p));
}

// A bound over the box [box_min, box_max]: the constant plus each layer at the box's denser end,
// times the noise factor's largest value, 1 + a · 1.0364 (GRADIENT_NOISE_BOUND in
// chapters/core/src/noise.rs bounds |fbm|).
fn froxel_global_majorant(box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    let lo = box_min.y;
    let hi = box_max.y;
    let layers = layer_majorant(global_layer(0u), lo, hi) + layer_majorant(global_layer(1u), lo, hi);
    let noise = 1.0 + max(froxel.noise.x, 0.0) * 1.0364;
    return Majorant(vec3((max(froxel.medium.x, 0.0) + layers) * noise * MAJORANT_MARGIN));
}
// ANCHOR_END: global_medium_at

// Local fog volumes (chapter 5): the struct and `fog_volume_weight` live in
// common/media/fog_volume.wgsl, shared with chapter 5's analytic path.

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
