// Smoke step, pass 2b — vorticity confinement (Fedkiw, Stam, Jensen 2001, "Visual Simulation
// of Smoke"): N = ∇|ω| / |∇|ω||, u += dt · ε h (N × ω). It re-injects the small swirls that
// semi-Lagrangian advection smooths away. It needs ω of the *advected* field at the neighbours,
// so it cannot share the advection pass; ω comes from the curl pass (curl.wgsl) rather than
// being recomputed seven times per cell here.
// Inputs: velocity (read side), vorticity. Output: velocity (write side; the temperature in its
// fourth channel copied unchanged).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var vorticity_in: texture_3d<f32>;
@group(3) @binding(2) var velocity_out: texture_storage_3d<rgba16float, write>;

fn vorticity_magnitude(cell: vec3<i32>) -> f32 {
    return textureLoad(vorticity_in, clamp(cell, vec3(0), vec3(grid_n() - 1)), 0).w;
}

// ANCHOR: vorticity
@compute @workgroup_size(8, 8, 4)
fn confine(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let here = textureLoad(velocity_in, cell, 0); // u, and the temperature it carries along
    let u = here.xyz;
    let omega = textureLoad(vorticity_in, cell, 0).xyz;
    // Gradient of |ω| from the neighbours (clamped to the box), then its direction N.
    let grad = vec3(
        vorticity_magnitude(cell + vec3(1, 0, 0)) - vorticity_magnitude(cell - vec3(1, 0, 0)),
        vorticity_magnitude(cell + vec3(0, 1, 0)) - vorticity_magnitude(cell - vec3(0, 1, 0)),
        vorticity_magnitude(cell + vec3(0, 0, 1)) - vorticity_magnitude(cell - vec3(0, 0, 1)),
    );
    let len = length(grad);
    var force = vec3(0.0);
    if len > 1e-12 {
        force = smoke.vorticity * smoke.cell_m * cross(grad / len, omega);
    }
    textureStore(velocity_out, cell, vec4(limit_speed(u + smoke.dt_s * force), here.w));
}
// ANCHOR_END: vorticity
