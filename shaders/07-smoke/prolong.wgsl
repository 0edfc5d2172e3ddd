// Multigrid prolongation (Briggs, Henson and McCormick 2000, ch. 3; cell-centred trilinear
// interpolation, Trottenberg, Oosterlee and Schüller 2001, "Multigrid"): the coarse correction e,
// interpolated trilinearly to the fine cell centres (`prolongation`, poisson.wgsl) and added to
// the fine q. A fine centre lies a quarter of a coarse cell from its parent's. Beyond the walls
// the coarse ghosts follow the boundary rules (a copy; −e above an open top).
// Inputs: the fine level, the coarse q. In/out: the fine q.
// CPU twin: `prolong_add` in reference/poisson.rs.
// #import 07-smoke/poisson_buffers.wgsl

@group(3) @binding(3) var<storage, read> coarse_q: array<f32>;

@compute @workgroup_size(64, 4, 1)
fn prolong(@builtin(global_invocation_id) id: vec3<u32>) {
    lv = level;
    let n = i32(level.n);
    let cell = vec3<i32>(id);
    if any(cell >= vec3(n)) {
        return;
    }
    let p = prolongation(cell);
    var e = 0.0;
    for (var c = 0; c < 8; c++) {
        let corner = prolongation_corner(p, c);
        e += corner.weight * coarse_q[corner.at];
    }
    q[at_index(cell, n)] += e;
}
