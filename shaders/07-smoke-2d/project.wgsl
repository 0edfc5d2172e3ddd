// 2D smoke, step 5 — the projection: u ← u − ∇q on every free face, with the compact gradient
// (the difference of the two cells a face separates, over h). Because the solver's stencil is
// the divergence of this gradient, a converged q leaves every cell exactly divergence-free, and
// the wall faces are never touched: no flow through a wall, by construction. (The clamp to
// ±MAX_SPEED only acts on settings far outside the parameters' ranges or a solve far from
// converged with ω near 2.)
// Inputs: velocity (T in .z, kept), q. Output: velocity.
// #import 07-smoke-2d/common.wgsl

@group(3) @binding(0) var velocity_in: texture_2d<f32>;
@group(3) @binding(1) var pressure_in: texture_2d<f32>;
@group(3) @binding(2) var velocity_out: texture_storage_2d<rgba16float, write>;

// ANCHOR: project
@compute @workgroup_size(8, 8, 1)
fn project(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = vec2<i32>(id.xy);
    if !in_velocity_texels(t) {
        return;
    }
    let here = textureLoad(velocity_in, t, 0);
    let u = clamp(here.xy - pressure_gradient_at(pressure_in, t), vec2(-MAX_SPEED), vec2(MAX_SPEED));
    textureStore(velocity_out, t, vec4(u, here.zw));
}
// ANCHOR_END: project
