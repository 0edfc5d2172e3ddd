// Froxel fog, pass 3 of 4 — integration: front to back along each column, with the
// energy-conserving step of Hillaire 2015: a slice of length Δ with constant σt and S adds
//   T · S (1 − e^(−σt Δ)) / σt   and multiplies the transmittance T by e^(−σt Δ).
// Texel k of the output holds the in-scattered radiance and transmittance from the eye to the
// far end of slice k. After Wronski 2014 (one thread per column) and Hillaire 2015.
// Output: `integrated_out` (rgb: in-scattered radiance; a: transmittance).
// #import 04-froxel-fog/common.wgsl

@group(2) @binding(1) var integrated_out: texture_storage_3d<rgba32float, write>;
@group(2) @binding(2) var scatter_in: texture_3d<f32>;
// This frame's eye, kept for the next frame's reprojection (the lighting pass has read it).
@group(2) @binding(3) var<storage, read_write> previous_eye: vec4<f32>;

// ANCHOR: integrate
@compute @workgroup_size(8, 8, 1)
fn integrate(@builtin(global_invocation_id) id: vec3<u32>) {
    if all(id == vec3(0u)) {
        previous_eye = frame.camera_pos;
    }
    if any(id.xy >= froxel.grid.xy) {
        return;
    }
    var light = vec3(0.0);
    var transmittance = 1.0;
    for (var k = 0u; k < froxel.grid.z; k++) {
        let s = textureLoad(scatter_in, vec3(id.xy, k), 0);
        let len = slice_end(k) - slice_begin(k);
        light += transmittance * step_integral(s.rgb, s.a, len);
        transmittance *= exp(-s.a * len);
        textureStore(integrated_out, vec3(id.xy, k), vec4(light, transmittance));
    }
}
// ANCHOR_END: integrate
