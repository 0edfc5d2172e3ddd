// Froxel fog, pass 1 of 4 — media: per froxel, the extinction σt and scattering σs = albedo · σt
// of the global medium (a constant density plus chapter 2's exponential height layer) at the
// froxel's centre. After Wronski 2014 (density injection) and Hillaire 2015 (the media material).
// Output: `media_out` (rgb: σs, a: σt, 1/m), one texel per froxel.
// #import 04-froxel-fog/common.wgsl

@group(2) @binding(1) var media_out: texture_storage_3d<rgba32float, write>;

// ANCHOR: media
@compute @workgroup_size(4, 4, 4)
fn media(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= froxel.grid.xyz) {
        return;
    }
    let sigma_t = froxel_extinction_at(froxel_sample_point(id));
    textureStore(media_out, id, vec4(froxel.albedo.rgb * sigma_t, sigma_t));
}
// ANCHOR_END: media
