// Multigrid prolongation (Briggs, Henson and McCormick 2000, ch. 3; cell-centred trilinear
// interpolation, Trottenberg, Oosterlee and Schüller 2001, "Multigrid"): the coarse correction e,
// interpolated trilinearly to the fine cell centres and added to the fine q. A fine centre lies a
// quarter of a coarse cell from its parent's, so per axis it takes ¾ of its parent and ¼ of the
// parent's neighbour on its side. Beyond the walls the coarse ghosts follow the boundary rules
// (a copy; −e above an open top).
// One thread per coarse cell: its (up to) 8 children share the parent's 3×3×3 neighbourhood, so
// it is read once (27 values) and interpolated separably, x, then y, then z — instead of 8
// values gathered by each child. The same weights as `prolongation` in poisson.wgsl (which the
// V-cycle's tail uses), summed in another order.
// Inputs: the fine level, the coarse q. In/out: the fine q.
// CPU twin: `prolong_add` in reference/poisson.rs.
// #import 07-smoke/poisson_buffers.wgsl

@group(3) @binding(3) var<storage, read> coarse_q: array<f32>;

// e at a coarse cell, or at a ghost one cell beyond the coarse grid: a copy of the cell inside,
// negated above an open top.
fn coarse_ghosted(cell: vec3<i32>) -> f32 {
    let nc = i32(lv.coarse_n);
    let v = coarse_q[lv.coarse_offset + level_index(clamp(cell, vec3(0), vec3(nc - 1)), nc)];
    return select(v, -v, lv.open_top == 1u && cell.y >= nc);
}

// The two x-children of a row of the neighbourhood: the parent's row, moved by (dy, dz).
fn children_x(parent: vec3<i32>, dy: i32, dz: i32) -> vec2<f32> {
    let c = coarse_ghosted(parent + vec3(0, dy, dz));
    let low = coarse_ghosted(parent + vec3(-1, dy, dz));
    let high = coarse_ghosted(parent + vec3(1, dy, dz));
    return vec2(0.75 * c + 0.25 * low, 0.75 * c + 0.25 * high);
}

// The four (x, y)-children of a plane of the neighbourhood, moved by dz: (x low, x high) at y
// low, then at y high.
fn children_xy(parent: vec3<i32>, dz: i32) -> vec4<f32> {
    let c = children_x(parent, 0, dz);
    let low = children_x(parent, -1, dz);
    let high = children_x(parent, 1, dz);
    return vec4(0.75 * c + 0.25 * low, 0.75 * c + 0.25 * high);
}

// Adds a child's interpolated correction to its q, if the fine grid has that child (an odd fine
// size leaves the last coarse cell one child along an axis).
fn add_to_child(child: vec3<i32>, n: i32, e: f32) {
    if all(child < vec3(n)) {
        let i = at_index(child, n);
        q[i] += e;
    }
}

// ANCHOR: prolong_pass
@compute @workgroup_size(64, 4, 1)
fn prolong(@builtin(global_invocation_id) id: vec3<u32>) {
    lv = level;
    let n = i32(level.n);
    let parent = vec3<i32>(id);
    if any(parent >= vec3(i32(level.coarse_n))) {
        return;
    }
    let c = children_xy(parent, 0);
    let z_low = 0.75 * c + 0.25 * children_xy(parent, -1);
    let z_high = 0.75 * c + 0.25 * children_xy(parent, 1);
    let first = 2 * parent;
    add_to_child(first, n, z_low.x);
    add_to_child(first + vec3(1, 0, 0), n, z_low.y);
    add_to_child(first + vec3(0, 1, 0), n, z_low.z);
    add_to_child(first + vec3(1, 1, 0), n, z_low.w);
    add_to_child(first + vec3(0, 0, 1), n, z_high.x);
    add_to_child(first + vec3(1, 0, 1), n, z_high.y);
    add_to_child(first + vec3(0, 1, 1), n, z_high.z);
    add_to_child(first + vec3(1, 1, 1), n, z_high.w);
}
// ANCHOR_END: prolong_pass
