// Multigrid restriction (Briggs, Henson and McCormick 2000, ch. 3; cell-centred as in Trottenberg,
// Oosterlee and Schüller 2001, "Multigrid"): the residual r = f − ∇²q of the fine grid, averaged over
// the (up to 8) fine children of each coarse cell (`restricted_residual`, poisson.wgsl), becomes
// the coarse grid's right-hand side; the coarse correction starts from zero. The residual is
// computed here, cell by cell, rather than in a pass of its own.
// Inputs: the fine level, its f (`rhs`) and q. Outputs: the coarse f and q (zeroed).
// CPU twin: `restrict` in reference/poisson.rs.
// #import 07-smoke/poisson_buffers.wgsl

@group(3) @binding(3) var<storage, read_write> coarse_rhs: array<f32>;
@group(3) @binding(4) var<storage, read_write> coarse_q: array<f32>;

@compute @workgroup_size(64, 4, 1)
fn restrict_residual(@builtin(global_invocation_id) id: vec3<u32>) {
    lv = level;
    let nc = i32(level.coarse_n);
    let coarse = vec3<i32>(id);
    if any(coarse >= vec3(nc)) {
        return;
    }
    let j = level.coarse_offset + level_index(coarse, nc);
    coarse_rhs[j] = restricted_residual(coarse);
    coarse_q[j] = 0.0;
}
