// 2D smoke, step 3 — the divergence ∇·u of each cell after the forces: the flow out through its
// four faces, over h (common.wgsl's `divergence_at`). It is the right-hand side of the pressure
// equation ∇²q = ∇·u, and the `divergence` view.
// Input: velocity. Output: divergence (1/s).
// #import 07-smoke-2d/common.wgsl

@group(3) @binding(0) var velocity_in: texture_2d<f32>;
@group(3) @binding(1) var divergence_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8, 8, 1)
fn divergence(@builtin(global_invocation_id) id: vec3<u32>) {
    let c = vec2<i32>(id.xy);
    if !in_cells(c) {
        return;
    }
    textureStore(divergence_out, c, vec4(divergence_at(velocity_in, c), 0.0, 0.0, 0.0));
}
