// 2D smoke, step 1 with `advection = maccormack` — the correction and the limiter of MacCormack
// advection (Selle, Fedkiw, Kim, Liu and Rossignac 2008, "An Unconditionally Stable MacCormack
// Method"). The forward step φ̂(x) = φ(x − Δt u(x)) is advect.wgsl's, written to scratch
// textures; here the same step is taken backwards from φ̂, φ̌(x) = φ̂(x + Δt u(x)), and half
// their disagreement, an estimate of the forward step's error, is added back:
// φ′ = φ̂ + (φ − φ̌) / 2. The unlimited scheme can overshoot and is not stable; the limiter clamps
// φ′ to the smallest and largest of the four samples the forward step interpolated, so no new
// extremum appears. Every component is corrected where it lives (faces or centres).
// Inputs: velocity u and dye φ before the step, their forward steps. Outputs: velocity, dye.
// #import 07-smoke-2d/common.wgsl

@group(3) @binding(0) var velocity_in: texture_2d<f32>;
@group(3) @binding(1) var dye_in: texture_2d<f32>;
@group(3) @binding(2) var velocity_forward: texture_2d<f32>;
@group(3) @binding(3) var dye_forward: texture_2d<f32>;
@group(3) @binding(4) var velocity_out: texture_storage_2d<rgba16float, write>;
@group(3) @binding(5) var dye_out: texture_storage_2d<rgba16float, write>;

// The smallest and largest of the four samples behind a bilinear sample at p.
fn u_range(p: vec2<f32>) -> vec2<f32> {
    let b = lerp_at(clamp_to_domain(p) - vec2(0.0, 0.5)).base;
    let a = vec4(u_at(velocity_in, b.x, b.y), u_at(velocity_in, b.x + 1, b.y), u_at(velocity_in, b.x, b.y + 1), u_at(velocity_in, b.x + 1, b.y + 1));
    return vec2(min(min(a.x, a.y), min(a.z, a.w)), max(max(a.x, a.y), max(a.z, a.w)));
}

fn v_range(p: vec2<f32>) -> vec2<f32> {
    let b = lerp_at(clamp_to_domain(p) - vec2(0.5, 0.0)).base;
    let a = vec4(v_at(velocity_in, b.x, b.y), v_at(velocity_in, b.x + 1, b.y), v_at(velocity_in, b.x, b.y + 1), v_at(velocity_in, b.x + 1, b.y + 1));
    return vec2(min(min(a.x, a.y), min(a.z, a.w)), max(max(a.x, a.y), max(a.z, a.w)));
}

// Clamps `value` to the range of the four centre samples of `field` behind p.
fn clamp_centre(field: texture_2d<f32>, p: vec2<f32>, value: vec4<f32>) -> vec4<f32> {
    let b = lerp_at(clamp(p - vec2(0.5), vec2(0.0), vec2(smoke.grid_n - 1.0))).base;
    let a = centre_at(field, b.x, b.y);
    let bx = centre_at(field, b.x + 1, b.y);
    let c = centre_at(field, b.x, b.y + 1);
    let d = centre_at(field, b.x + 1, b.y + 1);
    return clamp(value, min(min(a, bx), min(c, d)), max(max(a, bx), max(c, d)));
}

// ANCHOR: correct
@compute @workgroup_size(8, 8, 1)
fn maccormack_correct(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = vec2<i32>(id.xy);
    if !in_velocity_texels(t) {
        return;
    }
    let step = smoke.dt_s / smoke.cell_m;
    let here = textureLoad(velocity_in, t, 0);
    let forward = textureLoad(velocity_forward, t, 0);
    var out = vec4(0.0);
    if u_is_free(t) {
        let p = u_position(t);
        let u = velocity_at_point(velocity_in, p);
        let back = sample_u(velocity_forward, clamp_to_domain(p + step * u)); // φ̌
        let r = u_range(clamp_to_domain(p - step * u));
        out.x = clamp(forward.x + 0.5 * (here.x - back), r.x, r.y);
    }
    if v_is_free(t) {
        let p = v_position(t);
        let u = velocity_at_point(velocity_in, p);
        let back = sample_v(velocity_forward, clamp_to_domain(p + step * u));
        let r = v_range(clamp_to_domain(p - step * u));
        out.y = clamp(forward.y + 0.5 * (here.y - back), r.x, r.y);
    }
    if in_cells(t) {
        let p = centre_position(t);
        let u = velocity_at_point(velocity_in, p);
        let ahead = clamp_to_domain(p + step * u);
        let behind = clamp_to_domain(p - step * u);
        let temperature = forward.z + 0.5 * (here.z - sample_centre(velocity_forward, ahead).z);
        out.z = clamp_centre(velocity_in, behind, vec4(temperature)).z;
        let dye = textureLoad(dye_forward, t, 0)
            + 0.5 * (textureLoad(dye_in, t, 0) - sample_centre(dye_forward, ahead));
        textureStore(dye_out, t, clamp_centre(dye_in, behind, dye));
    }
    textureStore(velocity_out, t, out);
}
// ANCHOR_END: correct
