// Smoke step, pass 1 of 4 — "one pass": finish the previous step's projection (u − ∇q), advect
// velocity, temperature (the velocity's fourth channel) and fluid semi-Lagrangian (trace back along the projected velocity, trilinear
// sample; Stam 1999, "Stable Fluids"), damp both, add buoyancy, inject at the emitter, write.
// Projecting at the traced-back point keeps the order of the classic step (project, then
// advect) with one pass fewer: the gradient is evaluated where the sample is taken.
// Inputs: velocity, pressure q, fluid (read side). Outputs: velocity, fluid (write side).
// References: Stam 1999; GPU Gems ch. 38 (Harris 2004); GPU Gems 3 ch. 30 (Crane et al. 2007).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var pressure_in: texture_3d<f32>;
@group(3) @binding(2) var fluid_in: texture_3d<f32>;
@group(3) @binding(3) var velocity_out: texture_storage_3d<rgba16float, write>;
@group(3) @binding(4) var fluid_out: texture_storage_3d<rgba16float, write>;

// ANCHOR: advect
@compute @workgroup_size(8, 8, 4)
fn advect(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let dt = smoke.dt_s;
    let g = smoke.pressure_gradient_scale; // pressure-gradient multiplier (1: full projection)
    let uv = cell_uv(cell);
    // The projected velocity here, and where the fluid arriving here came from.
    let u_here = textureLoad(velocity_in, cell, 0).xyz - g * pressure_gradient_at(pressure_in, cell);
    let from_uv = clamp_uv(uv - dt * u_here / smoke.box_m);
    let sampled = textureSampleLevel(velocity_in, linear_clamp, from_uv, 0.0);
    var u = sampled.xyz - g * pressure_gradient_sampled(pressure_in, from_uv);
    var t = sampled.w; // temperature T − T_amb, carried like the density
    var fluid = textureSampleLevel(fluid_in, linear_clamp, from_uv, 0.0);
    // Damp, cool, buoyancy, emitter (common.wgsl, shared with maccormack.wgsl).
    add_sources(uv, &u, &t, &fluid);
    textureStore(velocity_out, cell, vec4(u, t));
    textureStore(fluid_out, cell, fluid);
}
// ANCHOR_END: advect
