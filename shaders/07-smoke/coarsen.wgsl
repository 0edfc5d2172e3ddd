// Multigrid: the solid mask of the next coarser level. A coarse cell is solid only if all its
// (up to 8) children are: a coarse cell with any fluid in it stays in the equations, so the coarse
// problem never walls off fluid the fine one connects. A simple rule: McAdams, Sifakis and Teran
// 2010 ("A parallel multigrid Poisson solver for fluids simulation on large grids") treat such
// irregular domains with more care.
// Inputs: the fine level (`level`), its mask (`solid`, group 2). Output: the coarse mask.
// #import 07-smoke/poisson.wgsl

@group(3) @binding(1) var<storage, read_write> coarse_solid: array<f32>;

@compute @workgroup_size(64, 4, 1)
fn coarsen_mask(@builtin(global_invocation_id) id: vec3<u32>) {
    let nc = i32(level.coarse_n);
    let coarse = vec3<i32>(id);
    if any(coarse >= vec3(nc)) {
        return;
    }
    let n = i32(level.n);
    var all_solid = true;
    for (var c = 0; c < 8; c++) {
        let child = 2 * coarse + vec3(c & 1, (c >> 1u) & 1, (c >> 2u) & 1);
        if all(child < vec3(n)) && !is_solid(child, n) {
            all_solid = false;
        }
    }
    coarse_solid[level_index(coarse, nc)] = select(0.0, 1.0, all_solid);
}
