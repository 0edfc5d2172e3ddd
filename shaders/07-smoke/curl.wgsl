// Smoke step, pass 2a — the curl ω = ∇ × u of the advected velocity, stored with |ω| for the
// confinement pass (vorticity.wgsl), which needs it at every cell's six neighbours. On the
// staggered grid it is taken at the cell centres, by central differences of the face-averaged
// velocity (common.wgsl, `curl_at`).
// Input: velocity (read side). Output: vorticity (ω, |ω|).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var vorticity_out: texture_storage_3d<rgba16float, write>;

// ANCHOR: curl
@compute @workgroup_size(8, 8, 4)
fn curl(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let omega = curl_at(velocity_in, cell);
    textureStore(vorticity_out, cell, vec4(omega, length(omega)));
}
// ANCHOR_END: curl
