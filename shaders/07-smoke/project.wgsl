// Subtracts the pressure gradient on its own: u ← u − ∇q, on every face inside the box (the face
// gradient, the difference of the two cells it separates; the wall faces stay 0 — see
// common.wgsl for the staggered layout). MacCormack advection runs it first and stores V for both
// of its passes (maccormack.wgsl); semi-Lagrangian advection folds it into its one pass
// (advect.wgsl). It also serves tests of the projection identities and the "velocity after
// projection" readback.
// Inputs: velocity, q (read side). Output: velocity (write side).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var pressure_in: texture_3d<f32>;
@group(3) @binding(2) var velocity_out: texture_storage_3d<rgba16float, write>;

@compute @workgroup_size(8, 8, 4)
fn project(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let here = textureLoad(velocity_in, cell, 0);
    let u = vec3(
        projected_face(velocity_in, pressure_in, cell, 0u),
        projected_face(velocity_in, pressure_in, cell, 1u),
        projected_face(velocity_in, pressure_in, cell, 2u),
    );
    textureStore(velocity_out, cell, vec4(u, here.w)); // the temperature is kept
}
