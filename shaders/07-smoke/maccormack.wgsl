// Smoke step, pass 1 when `advection = maccormack` — MacCormack advection with a min/max limiter
// (Selle, Fedkiw, Kim, Liu and Rossignac 2008, "An Unconditionally Stable MacCormack Method",
// J. Sci. Comput. 35; on the GPU as in GPU Gems 3 ch. 30, Crane, Llamas and Tariq 2007), on the
// staggered (MAC) velocity of common.wgsl: every face component is advected from its own face, the
// smoke and the temperature from the cell centre. Three passes instead of advect.wgsl's one:
//   project: finish the previous projection, V = u − ∇q on the faces (project.wgsl), stored
//            for both passes below;
//   forward: the semi-Lagrangian step φ̂(x) = φ(x − Δt V(x)) of each face component, the
//            temperature (the velocity's fourth channel) and the fluid;
//   correct: the same step backwards from φ̂, φ̌(x) = φ̂(x + Δt V(x)), whose difference from φ
//            estimates the error of one step: φ′ = φ̂ + (φ − φ̌) / 2. A limiter clamps φ′ to the
//            smallest and largest of the 8 values (faces of its component, or cells) the forward
//            sample read, so no new extremum appears (the unlimited scheme is not stable); then
//            damping, buoyancy, emitter.
// The CPU reference of both passes, in f64, is `maccormack` in chapters/07-smoke/src/reference.rs.
// #import 07-smoke/common.wgsl
// #import 07-smoke/packed_velocity.wgsl

@group(3) @binding(0) var projected_in: texture_3d<f32>;
@group(3) @binding(1) var fluid_in: texture_3d<f32>;
@group(3) @binding(2) var velocity_forward_out: texture_storage_3d<rgba16float, write>;
@group(3) @binding(3) var fluid_forward_out: texture_storage_3d<rgba16float, write>;
// V packed by project.wgsl, for the reads at fixed cells (packed_velocity.wgsl).
@group(3) @binding(4) var<storage, read> projected_xy: array<u32>;
@group(3) @binding(5) var<storage, read> projected_zw: array<u32>;

fn packed_xy(i: u32) -> u32 {
    return projected_xy[i];
}

fn packed_zw(i: u32) -> u32 {
    return projected_zw[i];
}

// ANCHOR: forward
// Where the air at p (box units) was one step ago, given the projected velocity v there. V is
// already projected, so no pressure is sampled (advect.wgsl projects at the point).
fn departure(p: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    return p - smoke.grid.dt_s * v / smoke.grid.box_m;
}

// The forward step of the low c-face of `cell` (0 on a wall face), v the velocity on that face.
fn forward_face(cell: vec3<i32>, c: u32, v: vec3<f32>) -> f32 {
    if cell[c] == 0 {
        return 0.0; // a wall face
    }
    let p = face_uv(cell, c);
    return face_sampled(projected_in, clamp_box(departure(p, v)), c);
}

@compute @workgroup_size(8, 8, 4)
fn maccormack_forward(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    // Written out per axis: a loop writing forward[c] can leave the vector in local memory.
    let v = lattice_velocities(cell);
    let forward = vec3(
        forward_face(cell, 0u, v.face_x),
        forward_face(cell, 1u, v.face_y),
        forward_face(cell, 2u, v.face_z),
    );
    let from_uv = clamp_uv(departure(cell_uv(cell), v.centre));
    // The fourth channel, the temperature, goes through both passes like the fluid.
    textureStore(velocity_forward_out, cell, vec4(forward, textureSampleLevel(projected_in, linear_clamp, from_uv, 0.0).w));
    textureStore(fluid_forward_out, cell, textureSampleLevel(fluid_in, linear_clamp, from_uv, 0.0));
}
// ANCHOR_END: forward
