// MacCormack advection's reads of the projected velocity V at fixed cells (maccormack.wgsl,
// maccormack_correct.wgsl) come from a copy of V that project.wgsl packs into two storage
// buffers of f16 pairs, (u_x, u_y) and (u_z, T), not from V's texture. Per cell the two passes
// read V at 13 fixed cells for their traces and 32 for the correction's limiters; as texel
// fetches these kept both passes near the texture units' rate on an H200, and as storage loads
// they go through the load/store path instead (at 256³: forward 0.68 → 0.38 ms, correction
// 1.59 → 1.07 ms). Filtered samples at traced points stay on the texture. project.wgsl converts
// V to f16 once, so the texture and the buffers hold the same values.
// The including file binds the two buffers and defines their reads:
// #needs packed_xy, packed_zw

// Index of `cell` in the packed buffers: x fastest.
fn packed_index(cell: vec3<i32>) -> u32 {
    let n = grid_n();
    return u32(cell.x + n * (cell.y + n * cell.z));
}

// V at `cell`: the three low faces' components and the temperature.
fn packed_velocity(cell: vec3<i32>) -> vec4<f32> {
    let i = packed_index(cell);
    return vec4(unpack2x16float(packed_xy(i)), unpack2x16float(packed_zw(i)));
}

// One channel of V at `cell`: 0–2 a face component, 3 the temperature.
fn packed_channel(cell: vec3<i32>, c: u32) -> f32 {
    let i = packed_index(cell);
    let pair = unpack2x16float(select(packed_zw(i), packed_xy(i), c < 2u));
    return select(pair.y, pair.x, c % 2u == 0u);
}

// The velocity where a cell's advection traces start: its three low faces and its centre. At
// these points every face sample of `velocity_sampled` (common.wgsl) falls on the face
// lattice's texel centres or halfway between them, so the same values are means of 13 stored
// values read once and shared, instead of 12 filtered samples. Faces past the last stored one
// count as the wall's 0, or copy the top row under an open top, exactly as `face_sampled`
// weighs them.
// ANCHOR: lattice_velocities
struct LatticeVelocities {
    face_x: vec3<f32>,
    face_y: vec3<f32>,
    face_z: vec3<f32>,
    centre: vec3<f32>,
}

fn lattice_velocities(cell: vec3<i32>) -> LatticeVelocities {
    let hi = vec3(grid_n() - 1);
    let lo = vec3(0);
    let ex = vec3(1, 0, 0);
    let ey = vec3(0, 1, 0);
    let ez = vec3(0, 0, 1);
    let c = packed_velocity(cell).xyz;
    // A neighbour one face up along an axis: past the last face the clamp rereads the cell,
    // which `wall` then halves (the mean of the last face and the wall's 0).
    let xp = packed_velocity(min(cell + ex, hi)).xyz;
    let yp = packed_velocity(min(cell + ey, hi)).xyz;
    let zp = packed_velocity(min(cell + ez, hi)).xyz;
    let xm = packed_velocity(max(cell - ex, lo)).xyz;
    let ym = packed_velocity(max(cell - ey, lo)).xyz;
    let zm = packed_velocity(max(cell - ez, lo)).xyz;
    let xm_yp = packed_channel(clamp(cell - ex + ey, lo, hi), 1u);
    let xm_zp = packed_channel(clamp(cell - ex + ez, lo, hi), 2u);
    let ym_xp = packed_channel(clamp(cell - ey + ex, lo, hi), 0u);
    let ym_zp = packed_channel(clamp(cell - ey + ez, lo, hi), 2u);
    let zm_xp = packed_channel(clamp(cell - ez + ex, lo, hi), 0u);
    let zm_yp = packed_channel(clamp(cell - ez + ey, lo, hi), 1u);
    // 0.5 on the last row along an axis (half way to the wall face), 1 elsewhere and under an open top.
    var wall = select(vec3(1.0), vec3(0.5), cell == hi);
    if top_open() {
        wall.y = 1.0;
    }
    var v: LatticeVelocities;
    v.face_x = vec3(c.x, 0.25 * wall.y * (c.y + xm.y + yp.y + xm_yp), 0.25 * wall.z * (c.z + xm.z + zp.z + xm_zp));
    v.face_y = vec3(0.25 * wall.x * (c.x + ym.x + xp.x + ym_xp), c.y, 0.25 * wall.z * (c.z + ym.z + zp.z + ym_zp));
    v.face_z = vec3(0.25 * wall.x * (c.x + zm.x + xp.x + zm_xp), 0.25 * wall.y * (c.y + zm.y + yp.y + zm_yp), c.z);
    v.centre = 0.5 * wall * (c + vec3(xp.x, yp.y, zp.z));
    return v;
}
// ANCHOR_END: lattice_velocities
