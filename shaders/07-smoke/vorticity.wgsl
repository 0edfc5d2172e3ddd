// Smoke step, pass 2 of 4 — vorticity confinement (Fedkiw, Stam, Jensen 2001, "Visual Simulation
// of Smoke"): ω = ∇ × u, N = ∇|ω| / |∇|ω||, u += dt · ε h (N × ω). It re-injects the small
// swirls that semi-Lagrangian advection smooths away. It needs |ω| at the neighbours of the
// *advected* field, so it cannot share the advection pass.
// Inputs: velocity (read side). Output: velocity (write side).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var velocity_out: texture_storage_3d<rgba16float, write>;

// ANCHOR: vorticity
@compute @workgroup_size(8, 8, 4)
fn vorticity(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let u = textureLoad(velocity_in, cell, 0).xyz;
    let epsilon = smoke.keep.w;
    if epsilon <= 0.0 {
        textureStore(velocity_out, cell, vec4(u, 0.0));
        return;
    }
    let omega = curl_at(velocity_in, cell);
    // Gradient of |ω| from the neighbours' curls (clamped to the box).
    let n = grid_n() - 1;
    let gx = length(curl_at(velocity_in, min(cell + vec3(1, 0, 0), vec3(n)))) - length(curl_at(velocity_in, max(cell - vec3(1, 0, 0), vec3(0))));
    let gy = length(curl_at(velocity_in, min(cell + vec3(0, 1, 0), vec3(n)))) - length(curl_at(velocity_in, max(cell - vec3(0, 1, 0), vec3(0))));
    let gz = length(curl_at(velocity_in, min(cell + vec3(0, 0, 1), vec3(n)))) - length(curl_at(velocity_in, max(cell - vec3(0, 0, 1), vec3(0))));
    let grad = vec3(gx, gy, gz);
    let len = length(grad);
    var force = vec3(0.0);
    if len > 1e-12 {
        force = epsilon * smoke.grid.y * cross(grad / len, omega);
    }
    textureStore(velocity_out, cell, vec4(u + smoke.grid.w * force, 0.0));
}
// ANCHOR_END: vorticity
