// Smoke step, pass 1 when `advection = maccormack` — MacCormack advection with a min/max limiter
// (Selle, Fedkiw, Kim, Liu and Rossignac 2008, "An Unconditionally Stable MacCormack Method",
// J. Sci. Comput. 35; on the GPU as in GPU Gems 3 ch. 30, Crane, Llamas and Tariq 2007), on the
// staggered (MAC) velocity of common.wgsl: every face component is advected from its own face, the
// smoke and the temperature from the cell centre. Two passes instead of advect.wgsl's one:
//   forward: finish the previous projection, V = u − ∇q on the faces (stored for the second pass),
//            and the semi-Lagrangian step φ̂(x) = φ(x − Δt V(x)) of each face component, the
//            temperature (the velocity's fourth channel) and the fluid;
//   correct: the same step backwards from φ̂, φ̌(x) = φ̂(x + Δt V(x)), whose difference from φ
//            estimates the error of one step: φ′ = φ̂ + (φ − φ̌) / 2. A limiter clamps φ′ to the
//            smallest and largest of the 8 values (faces of its component, or cells) the forward
//            sample read, so no new extremum appears (the unlimited scheme is not stable); then
//            damping, buoyancy, emitter.
// The CPU reference of both passes, in f64, is `maccormack` in chapters/07-smoke/src/reference.rs.
// #import 07-smoke/common.wgsl

// ANCHOR: forward
@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var pressure_in: texture_3d<f32>;
@group(3) @binding(2) var fluid_in: texture_3d<f32>;
@group(3) @binding(3) var projected_out: texture_storage_3d<rgba16float, write>;
@group(3) @binding(4) var velocity_forward_out: texture_storage_3d<rgba16float, write>;
@group(3) @binding(5) var fluid_forward_out: texture_storage_3d<rgba16float, write>;

fn departure(p: vec3<f32>) -> vec3<f32> {
    return p - smoke.dt_s * projected_velocity_sampled(velocity_in, pressure_in, p) / smoke.box_m;
}

@compute @workgroup_size(8, 8, 4)
fn maccormack_forward(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let g = smoke.pressure_gradient_scale;
    let here = textureLoad(velocity_in, cell, 0);
    var projected = vec3(0.0);
    var forward = vec3(0.0);
    for (var c = 0u; c < 3u; c++) {
        if cell[c] == 0 {
            continue; // a wall face
        }
        projected[c] = projected_face(velocity_in, pressure_in, cell, c);
        let start = clamp_box(departure(face_uv(cell, c)));
        forward[c] = face_sampled(velocity_in, start, c) - g * face_gradient_sampled(pressure_in, start, c);
    }
    let from_uv = clamp_uv(departure(cell_uv(cell)));
    // The fourth channel, the temperature, goes through both passes like the fluid.
    textureStore(projected_out, cell, vec4(projected, here.w));
    textureStore(velocity_forward_out, cell, vec4(forward, textureSampleLevel(velocity_in, linear_clamp, from_uv, 0.0).w));
    textureStore(fluid_forward_out, cell, textureSampleLevel(fluid_in, linear_clamp, from_uv, 0.0));
}
// ANCHOR_END: forward
