// Froxel fog, pass 2 of 4 — lighting: the radiance each froxel scatters towards the eye per metre,
//   S = σs · (E_sun · p(v·l) · V_shadow + L_ambient + Σ_k I_k · a_k(p) · p(v·l_k)) + emission,
// with the sun's light through the core's shadow map (light shafts) and through the clouds
// (their published shadow map, common/cloud_shadow.wgsl; transmittance 1 without), the ambient light taken as
// isotropic radiance (its phase integral is 1), the scene's point and spot lights (inverse
// square, windowed, cone falloff; unshadowed) and the Henyey–Greenstein or Cornette–Shanks phase
// function. Sun and ambient come from the sky's tables when the sky is in the stack
// (common/sky_light.wgsl), else from the frame's constant sun and ambient. After Wronski 2014 and
// Hillaire 2015.
// Output: `scatter_out` (rgb: S, 1/m per unit radiance; a: σt, 1/m); for the history view, the
// weight given to the history (`history_weight_out`).
// #import 04-froxel-fog/common.wgsl
// #import common/shadow.wgsl
// #import common/cloud_shadow.wgsl
// #import common/sky_light.wgsl

@group(2) @binding(1) var scatter_out: texture_storage_3d<rgba32float, write>;
@group(2) @binding(2) var media_in: texture_3d<f32>;
// Last frame's scattering volume and eye (temporal accumulation).
@group(2) @binding(3) var history_in: texture_3d<f32>;
@group(2) @binding(4) var<storage, read> previous_eye: vec4<f32>;
@group(2) @binding(5) var emission_in: texture_3d<f32>;
// The history's weight per froxel (−1: rejected), written only while the history view is shown.
@group(2) @binding(6) var history_weight_out: texture_storage_3d<r32float, write>;
// How the local fog volumes in the froxel are lit (media.wgsl): x their share of σs, y their
// centroid in the slice, z their phase g, w their transmittance towards the sun.
@group(2) @binding(7) var local_light_in: texture_3d<f32>;

// VIEW_* (each debug view's index) come from the chapter's view list, composed ahead of this file.

// Depth bias of the volume's shadow lookups (shadow-map depth units: 1 = 1199 m).
const VOLUME_SHADOW_BIAS: f32 = 0.0005;

// ANCHOR: history
// Last frame's (S, σt) at world point p: p projected with last frame's view-projection gives its
// column, its distance from last frame's eye its slice; trilinear between texels, in f32. Points
// outside last frame's grid return a negative alpha (rejected).
fn history_at(p: vec3<f32>) -> vec4<f32> {
    let clip = frame.prev_view_proj * vec4(p, 1.0);
    if clip.w <= 0.0 {
        return vec4(-1.0);
    }
    let ndc = clip.xy / clip.w;
    let uv = vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    let dist = length(p - previous_eye.xyz);
    if any(uv < vec2(0.0)) || any(uv > vec2(1.0)) || dist > froxel.slices.y {
        return vec4(-1.0);
    }
    // Texel k holds slice k's sample, taken at the slice's middle: the texel coordinate runs
    // linearly through each slice, so that an unmoved froxel lands exactly on its texel.
    let k = u32(clamp(floor(depth_slice(dist)), 0.0, f32(froxel.grid.z - 1u)));
    let s = f32(k) + clamp((dist - slice_begin(k)) / (slice_end(k) - slice_begin(k)), 0.0, 1.0);
    let g = vec3<f32>(uv * vec2<f32>(froxel.grid.xy), s) - 0.5;
    let size = vec3<i32>(froxel.grid.xyz);
    let base = floor(g);
    let f = g - base;
    var sum = vec4(0.0);
    for (var c = 0; c < 8; c++) {
        let corner = vec3<i32>(c & 1, (c >> 1) & 1, (c >> 2) & 1);
        let i = clamp(vec3<i32>(base) + corner, vec3(0), size - 1);
        let w = mix(1.0 - f, f, vec3<f32>(corner));
        sum += w.x * w.y * w.z * textureLoad(history_in, i, 0);
    }
    return sum;
}
// ANCHOR_END: history

// ANCHOR: lighting
@compute @workgroup_size(4, 4, 4)
fn lighting(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= froxel.grid.xyz) {
        return;
    }
    let m = textureLoad(media_in, id, 0);
    let p = froxel_sample_point(id);
    let v = grid_ray_dir(vec2<f32>(id.xy) + 0.5);
    var radiance = local_lights_at(p, v);
    var emission = vec3(0.0);
    if froxel.debug.y == 0u {
        var visibility = 1.0;
        if froxel.light.z > 0.5 {
            visibility = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, p, VOLUME_SHADOW_BIAS);
        }
        // The clouds' shadow: always on (the clouds' own `cloud_shadows` says whether there is one).
        visibility *= cloud_shadow_at(p);
        let cos_sun = dot(v, frame.sun_dir.xyz);
        var sun = sun_light_at(p) * frame.sun_dir.w * froxel.light.x * phase(cos_sun) * visibility;
        // ANCHOR: local_sun
        // The local volumes' share of σs is lit where they lie in the slice (not at the jittered
        // sample point, which a volume thinner than the slice may not be near), with their own
        // phase g and their own transmittance towards the sun, as chapter 5's analytic path.
        let local = textureLoad(local_light_in, id, 0);
        if local.x > 0.0 {
            let eye = frame.camera_pos.xyz;
            let q = eye + normalize(p - eye) * mix(slice_begin(id.z), slice_end(id.z), local.y);
            var q_visibility = 1.0;
            if froxel.light.z > 0.5 {
                q_visibility = shadow_visibility(shadow_map, shadow_sampler, frame.sun_view_proj, q, VOLUME_SHADOW_BIAS);
            }
            q_visibility *= cloud_shadow_at(q);
            let local_sun = sun_light_at(q) * frame.sun_dir.w * froxel.light.x * henyey_greenstein(local.z, cos_sun)
                * q_visibility * local.w;
            sun = mix(sun, local_sun, local.x);
        }
        // ANCHOR_END: local_sun
        radiance += sun + sky_light_at(p) * froxel.light.y;
        emission = textureLoad(emission_in, id, 0).rgb;
    }
    var result = vec4(m.rgb * radiance + emission, m.a);
    // ANCHOR_END: lighting
    // ANCHOR: history_blend
    // Temporal accumulation: blend with last frame's value at this froxel's centre, unless there
    // is none (first frame, camera cut, parameter change, new grid) or it lies outside last
    // frame's grid.
    var weight = 0.0;
    if froxel.temporal.x > 0.5 && froxel.temporal.z > 0.5 && frame.history_valid == 1u {
        let h = history_at(froxel_centre(id));
        weight = select(-1.0, froxel.temporal.y, h.a >= 0.0);
        if h.a >= 0.0 {
            result = mix(result, h, froxel.temporal.y);
        }
    }
    textureStore(scatter_out, id, result);
    if froxel.grid.w == VIEW_HISTORY {
        textureStore(history_weight_out, id, vec4(weight));
    }
}
// ANCHOR_END: history_blend
