// 2D smoke, step 4 (`pressure_solver = jacobi`), repeated `pressure_iterations` times — one
// Jacobi sweep of ∇²q = ∇·u: every cell at once, from the old values only,
// q′ = (Σ − h² ∇·u) / d (poisson.wgsl). The slowest mode of the closed square, cos(π(i + ½)/n),
// shrinks by (1 + cos(π/n)) / 2 per sweep (see the chapter's Tests).
// Inputs: q (read side), divergence. Output: q (write side).
// #import 07-smoke-2d/poisson.wgsl

@group(3) @binding(0) var pressure_in: texture_2d<f32>;
@group(3) @binding(1) var divergence_in: texture_2d<f32>;
@group(3) @binding(2) var pressure_out: texture_storage_2d<r32float, write>;

// ANCHOR: jacobi
@compute @workgroup_size(8, 8, 1)
fn jacobi(@builtin(global_invocation_id) id: vec3<u32>) {
    let c = vec2<i32>(id.xy);
    if !in_cells(c) {
        return;
    }
    let s = stencil(pressure_in, c);
    let h = smoke.cell_m;
    let f = textureLoad(divergence_in, c, 0).x;
    textureStore(pressure_out, c, vec4((s.x - h * h * f) / s.y, 0.0, 0.0, 0.0));
}
// ANCHOR_END: jacobi
