// Subtracts the pressure gradient on its own: u ← u − ∇q, on every face inside the box (the face
// gradient, the difference of the two cells it separates; the wall faces stay 0 — see
// common.wgsl for the staggered layout). MacCormack advection runs it first and stores V for both
// of its passes (maccormack.wgsl); semi-Lagrangian advection folds it into its one pass
// (advect.wgsl). It also serves tests of the projection identities and the "velocity after
// projection" readback.
// Inputs: velocity, q (read side). Outputs: velocity (write side), and V packed for MacCormack.
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var pressure_in: texture_3d<f32>;
@group(3) @binding(2) var velocity_out: texture_storage_3d<rgba16float, write>;
// The same V packed as f16 pairs (u_x, u_y) and (u_z, T), for MacCormack's reads at fixed cells
// (packed_velocity.wgsl).
@group(3) @binding(3) var<storage, read_write> packed_xy_out: array<u32>;
@group(3) @binding(4) var<storage, read_write> packed_zw_out: array<u32>;

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
    // V goes to f16 once, in the packing, and the texture stores the packed values: each
    // conversion to f16 may round its own way (lavapipe's texture store truncates, its
    // pack2x16float rounds to nearest), and the two copies must hold the same values.
    let xy = pack2x16float(u.xy);
    let zw = pack2x16float(vec2(u.z, here.w)); // the temperature is kept
    textureStore(velocity_out, cell, vec4(unpack2x16float(xy), unpack2x16float(zw)));
    let i = u32(cell.x + grid_n() * (cell.y + grid_n() * cell.z));
    packed_xy_out[i] = xy;
    packed_zw_out[i] = zw;
}
