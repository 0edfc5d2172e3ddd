// Pressure solve, red–black Gauss–Seidel with over-relaxation (SOR): one sweep is two passes,
// `rbgs_red` over the cells with x + y + z even, then `rbgs_black` over the others. A cell's six
// neighbours have the other colour, so one colour's cells are independent and update in place;
// the black half already reads the new red values (Young 1954, "Iterative methods for solving
// partial difference equations of elliptic type"; red–black ordering for parallel machines, e.g.
// Briggs, Henson and McCormick 2000, ch. 2). Each update over-relaxes by ω:
// q ← q + ω ((Σ₆ q_neighbour − h² f) / d − q). The same passes smooth every multigrid level.
// Inputs: the level (ω, size, h), f. In/out: q (in place). CPU twin: reference/poisson.rs.
// #import 07-smoke/poisson.wgsl

@group(3) @binding(1) var<storage, read> rhs: array<f32>;

// ANCHOR: rbgs
// Thread x handles the x-th cell of its colour in its row: x = 2 id.x + ((y + z + colour) mod 2).
fn relax(id: vec3<u32>, colour: u32) {
    let n = i32(level.n);
    let x = 2 * i32(id.x) + i32((id.y + id.z + colour) & 1u);
    let cell = vec3(x, i32(id.y), i32(id.z));
    if any(cell >= vec3(n)) {
        return;
    }
    let i = level_index(cell, n);
    if is_solid(cell, n) {
        q[i] = solid_fill(cell, n); // inside an obstacle: not part of the equations
        return;
    }
    let s = stencil(cell);
    let gauss_seidel = (s.x - level.h * level.h * rhs[i]) / s.y;
    q[i] += level.omega * (gauss_seidel - q[i]);
}

@compute @workgroup_size(64, 4, 1)
fn rbgs_red(@builtin(global_invocation_id) id: vec3<u32>) {
    relax(id, 0u);
}

@compute @workgroup_size(64, 4, 1)
fn rbgs_black(@builtin(global_invocation_id) id: vec3<u32>) {
    relax(id, 1u);
}
// ANCHOR_END: rbgs

// ANCHOR: rbgs_one_group
// The small levels of a V-cycle (16³ and below): all `level.sweeps` sweeps of one smoothing in a
// single workgroup, its threads striding over each colour's cells, a barrier between colours.
// There the work of a pass is a few thousand cells and launching it takes longer than doing it:
// two dispatches a sweep become one a smoothing. The same updates in the same order as the passes
// above, so the same values.
const ONE_GROUP: u32 = 256u;

@compute @workgroup_size(256, 1, 1)
fn rbgs_sweeps_in_one_group(@builtin(local_invocation_index) thread: u32) {
    let n = level.n;
    let half_row = (n + 1u) / 2u; // threads of relax() along x
    let count = half_row * n * n;
    for (var sweep = 0u; sweep < level.sweeps; sweep++) {
        for (var colour = 0u; colour < 2u; colour++) {
            for (var k = thread; k < count; k += ONE_GROUP) {
                relax(vec3(k % half_row, (k / half_row) % n, k / (half_row * n)), colour);
            }
            storageBarrier();
        }
    }
}
// ANCHOR_END: rbgs_one_group
