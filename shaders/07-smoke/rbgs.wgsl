// Pressure solve, red–black Gauss–Seidel with over-relaxation (SOR): one sweep is two passes,
// `rbgs_red` over the cells with x + y + z even, then `rbgs_black` over the others. A cell's six
// neighbours have the other colour, so one colour's cells are independent and update in place;
// the black half already reads the new red values (Young 1954, "Iterative methods for solving
// partial difference equations of elliptic type"; red–black ordering for parallel machines, e.g.
// Briggs, Henson and McCormick 2000, ch. 2). Each update over-relaxes by ω (`relax`,
// poisson.wgsl). The same passes smooth the larger multigrid levels.
// Inputs: the level (ω, size, h), f. In/out: q (in place). CPU twin: reference/poisson.rs.
// #import 07-smoke/poisson_buffers.wgsl

// ANCHOR: rbgs
@compute @workgroup_size(64, 4, 1)
fn rbgs_red(@builtin(global_invocation_id) id: vec3<u32>) {
    lv = level;
    relax(coloured_cell(id, 0u));
}

@compute @workgroup_size(64, 4, 1)
fn rbgs_black(@builtin(global_invocation_id) id: vec3<u32>) {
    lv = level;
    relax(coloured_cell(id, 1u));
}
// ANCHOR_END: rbgs
