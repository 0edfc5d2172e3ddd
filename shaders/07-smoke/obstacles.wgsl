// Smoke step, pass 0 — the solid mask: which cells the obstacles (a sphere and a box, movable;
// `Obstacles` in params.rs) cover this step, rebuilt from the parameter block before anything
// reads it. A cell is solid when its centre lies inside an enabled obstacle: the mask holds 0 for
// fluid, 1 for the sphere, 2 for the box (the box wins where both overlap). Every other pass reads
// it through `solid_at` (common.wgsl): faces touching a solid cell take the obstacle's velocity,
// the pressure treats solid neighbours as walls (Neumann), and smoke inside solids is zero
// (Bridson 2015, "Fluid Simulation for Computer Graphics", 2nd ed., ch. 5, solid boundaries).
// The multigrid's coarse masks come from this one (`coarsen_mask`, multigrid.wgsl).
// Output: the solid mask (r32float).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var mask_out: texture_storage_3d<r32float, write>;
// The same mask for the pressure solve, which runs on buffers (x fastest).
@group(3) @binding(1) var<storage, read_write> mask_linear: array<f32>;

// ANCHOR: obstacles
@compute @workgroup_size(8, 8, 4)
fn obstacles(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let id_here = obstacle_id(cell_uv(cell));
    textureStore(mask_out, cell, vec4(f32(id_here), 0.0, 0.0, 0.0));
    let n = grid_n();
    mask_linear[u32(cell.x + n * (cell.y + n * cell.z))] = f32(id_here);
}
// ANCHOR_END: obstacles
