// Multigrid: the solid mask of the next coarser level. A coarse cell is solid only if all its
// (up to 8) children are (`all_children_solid`, poisson.wgsl): a coarse cell with any fluid in it
// stays in the equations, so the coarse problem never walls off fluid the fine one connects. A
// simple rule: McAdams, Sifakis and Teran 2010 ("A parallel multigrid Poisson solver for fluids
// simulation on large grids") treat such irregular domains with more care.
// Inputs: the fine level (`level`), its mask (`solid`, group 2). Output: the coarse mask.
// #import 07-smoke/poisson_buffers.wgsl

@group(3) @binding(3) var<storage, read_write> coarse_solid: array<f32>;

@compute @workgroup_size(64, 4, 1)
fn coarsen_mask(@builtin(global_invocation_id) id: vec3<u32>) {
    lv = level;
    let nc = i32(level.coarse_n);
    let coarse = vec3<i32>(id);
    if any(coarse >= vec3(nc)) {
        return;
    }
    coarse_solid[level.coarse_offset + level_index(coarse, nc)] = select(0.0, 1.0, all_children_solid(coarse));
}
