// 2D smoke, step 1 — semi-Lagrangian advection (Stam 1999, "Stable Fluids"): every sample is
// traced back along the velocity for one step and takes the value found there. On the staggered
// grid each sample traces from where it lives — u from its x-face, v from its y-face, the
// temperature and the dye from the cell centre — and each field is interpolated bilinearly in
// its own index space (common.wgsl's `sample_*`, with the half-cell offsets).
// MacCormack advection runs this pass too, into scratch textures, as its forward step.
// Inputs: velocity (with T in .z), dye. Outputs: velocity, dye (the other side of each pair).
// #import 07-smoke-2d/common.wgsl

@group(3) @binding(0) var velocity_in: texture_2d<f32>;
@group(3) @binding(1) var dye_in: texture_2d<f32>;
@group(3) @binding(2) var velocity_out: texture_storage_2d<rgba16float, write>;
@group(3) @binding(3) var dye_out: texture_storage_2d<rgba16float, write>;

// ANCHOR: trace
// Where the fluid arriving at p (cell units) was one step ago: one Euler step back along the
// velocity there, kept inside the domain.
fn trace_back(p: vec2<f32>) -> vec2<f32> {
    let u = velocity_at_point(velocity_in, p);
    return clamp_to_domain(p - smoke.dt_s * u / smoke.cell_m);
}
// ANCHOR_END: trace

// ANCHOR: advect
@compute @workgroup_size(8, 8, 1)
fn advect(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = vec2<i32>(id.xy);
    if !in_velocity_texels(t) {
        return;
    }
    var out = vec4(0.0);
    if u_is_free(t) {
        out.x = sample_u(velocity_in, trace_back(u_position(t)));
    }
    if v_is_free(t) {
        out.y = sample_v(velocity_in, trace_back(v_position(t)));
    }
    if in_cells(t) {
        let source = trace_back(centre_position(t));
        out.z = sample_centre(velocity_in, source).z;
        textureStore(dye_out, t, sample_centre(dye_in, source));
    }
    textureStore(velocity_out, t, out);
}
// ANCHOR_END: advect
