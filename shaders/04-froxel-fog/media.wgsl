// Froxel fog, pass 1 of 4 — media: per froxel, at its sample point, the extinction σt, the
// scattering σs and the emission of
//   - the global medium: a constant density plus chapter 2's exponential height layers (its own
//     two when chapter 2 is in the stack, else this chapter's one), times the drifting fractal
//     noise, with the albedo of the fog;
//   - the local fog volumes the stack publishes (chapter 5): boxes, ellipsoids and cylinders,
//     rotated, each with its own albedo, density, height falloff, edge fade and emission, summed
//     (their phase g is not carried per froxel: the grid lights them with its own phase).
// After Wronski 2014 (density injection) and Hillaire 2015 (the media material: σs, σt,
// emission per froxel).
// Outputs: `media_out` (rgb: σs, a: σt, 1/m); `emission_out` (rgb: emitted radiance per metre;
// a: the noise factor, for its view).
// #import 04-froxel-fog/common.wgsl

@group(2) @binding(1) var media_out: texture_storage_3d<rgba32float, write>;
@group(2) @binding(2) var emission_out: texture_storage_3d<rgba16float, write>;
@group(2) @binding(3) var<storage, read> fog_volumes: array<FogVolume>;

// ANCHOR: media
@compute @workgroup_size(4, 4, 4)
fn media(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= froxel.grid.xyz) {
        return;
    }
    let p = froxel_sample_point(id);
    let noise = noise_factor(p);
    let global_t = smooth_extinction_at(p) * noise;
    var sigma_s = froxel.albedo.rgb * global_t;
    var sigma_t = global_t;
    var emission = vec3(0.0);
    for (var i = 0u; i < froxel.debug.w; i++) {
        let v = fog_volumes[i];
        let w = fog_volume_weight(v, p);
        if w > 0.0 {
            let t = max(v.albedo_density.w, 0.0) * w;
            sigma_t += t;
            sigma_s += clamp(v.albedo_density.rgb, vec3(0.0), vec3(1.0)) * t;
            emission += max(v.emission_falloff.rgb, vec3(0.0)) * w;
        }
    }
    // Past MAX_EXTINCTION every slice is opaque anyway; the cap keeps σs ≤ σt.
    let cap = min(1.0, MAX_EXTINCTION / max(sigma_t, 1e-30));
    textureStore(media_out, id, vec4(sigma_s * cap, sigma_t * cap));
    textureStore(emission_out, id, vec4(emission, noise));
}
// ANCHOR_END: media
