// Smoke step, pass 1b when `advection = maccormack` — the MacCormack correction and its limiter
// (Selle, Fedkiw, Kim, Liu and Rossignac 2008, "An Unconditionally Stable MacCormack Method"),
// per face component on the staggered (MAC) grid, and at the cell centre for the temperature and
// the smoke. See maccormack.wgsl for the forward pass and the whole scheme.
// Inputs: projected velocity V (packed, see packed_velocity.wgsl), forward velocity V̂, fluid φ
// (read side), forward fluid φ̂; the velocities' fourth channel is the temperature, corrected and
// limited likewise.
// Outputs: velocity, fluid (write side), with damping, buoyancy and the emitter applied.
// #import 07-smoke/common.wgsl
// #import 07-smoke/packed_velocity.wgsl

// V is read only at fixed cells, from its packed copy (packed_velocity.wgsl).
@group(3) @binding(0) var<storage, read> projected_xy: array<u32>;
@group(3) @binding(1) var<storage, read> projected_zw: array<u32>;
@group(3) @binding(2) var velocity_forward: texture_3d<f32>;
@group(3) @binding(3) var fluid_in: texture_3d<f32>;
@group(3) @binding(4) var fluid_forward: texture_3d<f32>;
@group(3) @binding(5) var velocity_out: texture_storage_3d<rgba16float, write>;
@group(3) @binding(6) var fluid_out: texture_storage_3d<rgba16float, write>;

fn packed_xy(i: u32) -> u32 {
    return projected_xy[i];
}

fn packed_zw(i: u32) -> u32 {
    return projected_zw[i];
}

// The lower corner of the 8 texels a trilinear sample at texture coordinate uv reads.
fn sample_base(uv: vec3<f32>) -> vec3<i32> {
    let n = grid_n();
    return clamp(vec3<i32>(floor(uv * smoke.grid.n - 0.5)), vec3(0), vec3(max(n - 2, 0)));
}

fn corner(base: vec3<i32>, k: i32) -> vec3<i32> {
    return min(base + vec3(k & 1, (k >> 1u) & 1, (k >> 2u) & 1), vec3(grid_n() - 1));
}

// ANCHOR: correct
// One face component: φ′ = φ̂ + (φ − φ̌) / 2, limited to the range of the 8 faces of its
// component around the forward sample (and the wall's 0 past the last stored face).
// v: the velocity on that face (`lattice_velocities`).
fn correct_face(cell: vec3<i32>, c: u32, v: vec3<f32>) -> f32 {
    if cell[c] == 0 {
        return 0.0; // a wall face
    }
    let p = face_uv(cell, c);
    let step = smoke.grid.dt_s * v / smoke.grid.box_m;
    let start = clamp_box(p - step); // where the forward step sampled
    let to = clamp_box(p + step);   // the backward step: from φ̂, along −V
    let corrected = textureLoad(velocity_forward, cell, 0)[c]
        + 0.5 * (packed_channel(cell, c) - face_sampled(velocity_forward, to, c));
    var offset = vec3(0.0);
    offset[c] = 0.5 / smoke.grid.n;
    let base = sample_base(clamp_uv(start + offset));
    var lo = 3.0e38;
    var hi = -3.0e38;
    for (var k = 0; k < 8; k++) {
        let v = packed_channel(corner(base, k), c);
        lo = min(lo, v);
        hi = max(hi, v);
    }
    if start[c] > 1.0 - 1.0 / smoke.grid.n && !(c == 1u && top_open()) {
        lo = min(lo, 0.0);
        hi = max(hi, 0.0);
    }
    return clamp(corrected, lo, hi);
}
// ANCHOR_END: correct

@compute @workgroup_size(8, 8, 4)
fn maccormack_correct(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let v = lattice_velocities(cell);
    var u = vec3(correct_face(cell, 0u, v.face_x), correct_face(cell, 1u, v.face_y), correct_face(cell, 2u, v.face_z));
    // Temperature and smoke at the centre, traced with the face velocity interpolated there.
    let uv = cell_uv(cell);
    let step = smoke.grid.dt_s * v.centre / smoke.grid.box_m;
    let from_uv = clamp_uv(uv - step); // where the forward step sampled
    let to_uv = clamp_uv(uv + step);   // the backward step: from φ̂, along −V
    // ANCHOR: correct_centre
    // φ′ = φ̂ + (φ − φ̌) / 2
    var t = textureLoad(velocity_forward, cell, 0).w;
    var fluid = textureLoad(fluid_forward, cell, 0);
    t += 0.5 * (packed_channel(cell, 3u) - textureSampleLevel(velocity_forward, linear_clamp, to_uv, 0.0).w);
    fluid += 0.5 * (textureLoad(fluid_in, cell, 0) - textureSampleLevel(fluid_forward, linear_clamp, to_uv, 0.0));

    // Limiter: the range of the 8 cells around the forward sample.
    let base = sample_base(from_uv);
    var t_lo = 3.0e38;
    var t_hi = -3.0e38;
    var f_lo = vec4(3.0e38);
    var f_hi = vec4(-3.0e38);
    for (var k = 0; k < 8; k++) {
        let c = corner(base, k);
        let tc = packed_channel(c, 3u);
        let fc = textureLoad(fluid_in, c, 0);
        t_lo = min(t_lo, tc);
        t_hi = max(t_hi, tc);
        f_lo = min(f_lo, fc);
        f_hi = max(f_hi, fc);
    }
    t = clamp(t, t_lo, t_hi);
    fluid = clamp(fluid, f_lo, f_hi);

    // Buoyancy on the low y-face from the forward step's density and temperature there: the mean
    // of the two cells' (a sample exactly halfway between their centres).
    let at = face_uv(cell, 1u);
    let lift = vec2(textureSampleLevel(fluid_forward, linear_clamp, at, 0.0).a, textureSampleLevel(velocity_forward, linear_clamp, at, 0.0).w);
    add_sources(cell, &u, &t, &fluid, lift);
    // ANCHOR_END: correct_centre
    textureStore(velocity_out, cell, vec4(u, t));
    textureStore(fluid_out, cell, fluid);
}
