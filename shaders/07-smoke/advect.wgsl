// Smoke step, pass 1 of 4 — "one pass": finish the previous step's projection (u − ∇q), advect
// velocity, temperature (the velocity's fourth channel) and fluid semi-Lagrangian (trace back along
// the projected velocity, trilinear sample; Stam 1999, "Stable Fluids"), damp, add buoyancy, inject
// at the emitter, write.
// The velocity is staggered (a MAC grid, Harlow and Welch 1965; see common.wgsl): each face
// component is traced back from its own face, with the velocity interpolated there per component
// (three samples), and sampled at the departure point on its own face lattice (Bridson 2015, ch. 3).
// Smoke and temperature are traced from the cell centre.
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

// Where the air at p (box units) was one step ago, along the projected velocity there.
fn departure(p: vec3<f32>) -> vec3<f32> {
    return p - smoke.grid.dt_s * projected_velocity_sampled(velocity_in, pressure_in, p) / smoke.grid.box_m;
}

// ANCHOR: advect
@compute @workgroup_size(8, 8, 4)
fn advect(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let g = smoke.solver.pressure_gradient_scale; // pressure-gradient multiplier (1: full projection)
    // Each face component from its own face: trace back, sample that component, projected.
    var u = vec3(0.0);
    var lift = vec2(0.0); // density and temperature arriving at the low y-face, for buoyancy
    for (var c = 0u; c < 3u; c++) {
        if cell[c] == 0 {
            continue; // a wall face: stays 0
        }
        let start = clamp_box(departure(face_uv(cell, c)));
        u[c] = face_sampled(velocity_in, start, c) - g * face_gradient_sampled(pressure_in, start, c);
        if c == 1u {
            let at = clamp_uv(start);
            lift = vec2(textureSampleLevel(fluid_in, linear_clamp, at, 0.0).a, textureSampleLevel(velocity_in, linear_clamp, at, 0.0).w);
        }
    }
    // Smoke and temperature from the cell centre.
    let from_uv = clamp_uv(departure(cell_uv(cell)));
    var t = textureSampleLevel(velocity_in, linear_clamp, from_uv, 0.0).w; // T − T_amb
    var fluid = textureSampleLevel(fluid_in, linear_clamp, from_uv, 0.0);
    // Damp, cool, buoyancy, emitter (common.wgsl, shared with maccormack_correct.wgsl).
    add_sources(cell, &u, &t, &fluid, lift);
    textureStore(velocity_out, cell, vec4(u, t));
    textureStore(fluid_out, cell, fluid);
}
// ANCHOR_END: advect
