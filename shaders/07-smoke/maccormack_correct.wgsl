// Smoke step, pass 1b when `advection = maccormack` — the MacCormack correction and its limiter
// (Selle, Fedkiw, Kim, Liu and Rossignac 2008, "An Unconditionally Stable MacCormack Method").
// See maccormack.wgsl for the forward pass and the whole scheme.
// Inputs: projected velocity V (read side), forward velocity V̂, fluid φ (read side), forward
// fluid φ̂; the velocities' fourth channel is the temperature, corrected and limited likewise. Outputs: velocity, fluid (write side), with damping, buoyancy and the emitter applied.
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var velocity_forward: texture_3d<f32>;
@group(3) @binding(2) var fluid_in: texture_3d<f32>;
@group(3) @binding(3) var fluid_forward: texture_3d<f32>;
@group(3) @binding(4) var velocity_out: texture_storage_3d<rgba16float, write>;
@group(3) @binding(5) var fluid_out: texture_storage_3d<rgba16float, write>;

// ANCHOR: correct
@compute @workgroup_size(8, 8, 4)
fn maccormack_correct(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let uv = cell_uv(cell);
    let v4 = textureLoad(velocity_in, cell, 0); // V, and the temperature before the step
    let v = v4.xyz;
    let step = smoke.dt_s * v / smoke.box_m;
    let from_uv = clamp_uv(uv - step); // where the forward step sampled
    let to_uv = clamp_uv(uv + step);   // the backward step: from φ̂, along −V
    // φ′ = φ̂ + (φ − φ̌) / 2
    // Velocity and temperature together: u4 = (u, T − T_amb).
    var u4 = textureLoad(velocity_forward, cell, 0);
    var fluid = textureLoad(fluid_forward, cell, 0);
    u4 += 0.5 * (v4 - textureSampleLevel(velocity_forward, linear_clamp, to_uv, 0.0));
    fluid += 0.5 * (textureLoad(fluid_in, cell, 0) - textureSampleLevel(fluid_forward, linear_clamp, to_uv, 0.0));

    // Limiter: the range of the 8 cells around the forward sample.
    let n = grid_n();
    let base = clamp(vec3<i32>(floor(from_uv * smoke.grid_n - 0.5)), vec3(0), vec3(max(n - 2, 0)));
    var u_lo = vec4(3.0e38);
    var u_hi = vec4(-3.0e38);
    var f_lo = vec4(3.0e38);
    var f_hi = vec4(-3.0e38);
    for (var corner = 0; corner < 8; corner++) {
        let c = min(base + vec3(corner & 1, (corner >> 1u) & 1, (corner >> 2u) & 1), vec3(n - 1));
        let uc = textureLoad(velocity_in, c, 0);
        let fc = textureLoad(fluid_in, c, 0);
        u_lo = min(u_lo, uc);
        u_hi = max(u_hi, uc);
        f_lo = min(f_lo, fc);
        f_hi = max(f_hi, fc);
    }
    u4 = clamp(u4, u_lo, u_hi);
    fluid = clamp(fluid, f_lo, f_hi);

    var u = u4.xyz;
    var t = u4.w;
    add_sources(uv, &u, &t, &fluid);
    textureStore(velocity_out, cell, vec4(u, t));
    textureStore(fluid_out, cell, fluid);
}
// ANCHOR_END: correct
