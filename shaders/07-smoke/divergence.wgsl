// Smoke step, pass 3 of 4 — divergence ∇·u of the velocity after vorticity confinement: on the
// staggered (MAC) grid, the net flux through each cell's six faces over h, with the walls' faces
// closed (see common.wgsl; Harlow and Welch 1965). It is the right-hand side of the pressure
// equation ∇²q = ∇·u, and with the face gradient of the projection it composes to exactly the
// 7-point Laplacian the solvers invert.
// Input: velocity (read side). Output: divergence (1/s), as a texture and as a buffer.
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var divergence_out: texture_storage_3d<r32float, write>;
// The same values for the pressure solve, which runs on buffers (x fastest).
@group(3) @binding(2) var<storage, read_write> divergence_linear: array<f32>;

@compute @workgroup_size(8, 8, 4)
fn divergence(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let d = divergence_at(velocity_in, cell);
    textureStore(divergence_out, cell, vec4(d, 0.0, 0.0, 0.0));
    let n = grid_n();
    divergence_linear[u32(cell.x + n * (cell.y + n * cell.z))] = d;
}
