// Multigrid prolongation (Briggs, Henson and McCormick 2000, ch. 3; cell-centred trilinear
// interpolation, Trottenberg, Oosterlee and Schüller 2001, "Multigrid"): the coarse correction e,
// interpolated trilinearly to the fine cell centres and added to the fine q. A fine centre lies a
// quarter of a coarse cell from its parent's: weights ¾ and ¼ per axis (27, 9, 3, 1 / 64 in 3D).
// Beyond the walls the coarse ghosts follow the boundary rules (a copy; −e above an open top).
// Inputs: the fine level, the coarse q. In/out: the fine q.
// CPU twin: `prolong_add` in reference/poisson.rs.
// #import 07-smoke/poisson.wgsl

// The fine q, which the correction is added to, is `q` (binding 2, poisson.wgsl).
@group(3) @binding(1) var<storage, read> coarse_q: array<f32>;

// ANCHOR: prolong
// Per axis: the parent coarse cell, the other coarse cell the fine centre interpolates from, and
// the sign of that far cell (−1 for the ghost above an open top).
fn parents(i: i32, nc: i32, open_end: bool) -> vec3<f32> {
    let p = min(i / 2, nc - 1);
    if i % 2 == 0 {
        return vec3(f32(p), f32(max(p - 1, 0)), 1.0);
    }
    if p + 1 < nc {
        return vec3(f32(p), f32(p + 1), 1.0);
    }
    return vec3(f32(p), f32(p), select(1.0, -1.0, open_end));
}

@compute @workgroup_size(64, 4, 1)
fn prolong(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = i32(level.n);
    let cell = vec3<i32>(id);
    if any(cell >= vec3(n)) {
        return;
    }
    let nc = i32(level.coarse_n);
    let px = parents(cell.x, nc, false);
    let py = parents(cell.y, nc, level.open_top == 1u);
    let pz = parents(cell.z, nc, false);
    var e = 0.0;
    for (var c = 0; c < 8; c++) {
        let far = vec3(c & 1, (c >> 1u) & 1, (c >> 2u) & 1) == vec3(1);
        let at = vec3<i32>(select(vec3(px.x, py.x, pz.x), vec3(px.y, py.y, pz.y), far));
        let w = select(vec3(0.75), 0.25 * vec3(px.z, py.z, pz.z), far);
        e += w.x * w.y * w.z * coarse_q[level_index(at, nc)];
    }
    q[level_index(cell, n)] += e;
}
// ANCHOR_END: prolong
