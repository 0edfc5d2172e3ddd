// Smoke step, pass 4 of 4, repeated N times — one Jacobi sweep of the pressure equation
// ∇²q = ∇·u on the 7-point stencil: q ← (Σ₆ q_neighbour − h² ∇·u) / 6, Neumann walls.
// Each sweep damps the slowest mode of an n³ box only by (2 + cos(π/n)) / 3, so N = 40 removes
// local divergence but not large-scale: the divergence and residual views show what is left.
// The next step's first pass subtracts ∇q. Inputs: q (read side), divergence. Output: q.
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var pressure_in: texture_3d<f32>;
@group(3) @binding(1) var divergence_in: texture_3d<f32>;
@group(3) @binding(2) var pressure_out: texture_storage_3d<r32float, write>;

// ANCHOR: jacobi
@compute @workgroup_size(8, 8, 4)
fn jacobi(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let sum = pressure_at(pressure_in, cell + vec3(1, 0, 0)) + pressure_at(pressure_in, cell - vec3(1, 0, 0))
        + pressure_at(pressure_in, cell + vec3(0, 1, 0)) + pressure_at(pressure_in, cell - vec3(0, 1, 0))
        + pressure_at(pressure_in, cell + vec3(0, 0, 1)) + pressure_at(pressure_in, cell - vec3(0, 0, 1));
    let h = smoke.grid.y;
    let div = textureLoad(divergence_in, cell, 0).r;
    textureStore(pressure_out, cell, vec4((sum - h * h * div) / 6.0, 0.0, 0.0, 0.0));
}
// ANCHOR_END: jacobi
