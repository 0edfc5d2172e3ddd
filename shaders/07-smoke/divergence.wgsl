// Smoke step, pass 3 of 4 — divergence ∇·u of the velocity after vorticity confinement,
// by central differences with free-slip walls (see common.wgsl). It is the right-hand side of the
// pressure equation ∇²q = ∇·u.
// Input: velocity (read side). Output: divergence (1/s).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var divergence_out: texture_storage_3d<r32float, write>;

@compute @workgroup_size(8, 8, 4)
fn divergence(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    textureStore(divergence_out, cell, vec4(divergence_at(velocity_in, cell), 0.0, 0.0, 0.0));
}
