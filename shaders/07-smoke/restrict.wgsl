// Multigrid restriction (Briggs, Henson and McCormick 2000, ch. 3; cell-centred as in Trottenberg,
// Oosterlee and Schüller 2001, "Multigrid"): the residual r = f − ∇²q of the fine grid, averaged over
// the (up to 8) fine children of each coarse cell, becomes the coarse grid's right-hand side; the
// coarse correction starts from zero. The residual is computed here, cell by cell, rather than
// in a pass of its own.
// Inputs: the fine level, its f and q. Outputs: the coarse f and q (zeroed).
// CPU twin: `restrict` in reference/poisson.rs.
// #import 07-smoke/poisson.wgsl

// The fine q is `q` (binding 2, poisson.wgsl).
@group(3) @binding(1) var<storage, read> fine_rhs: array<f32>;
@group(3) @binding(3) var<storage, read_write> coarse_rhs: array<f32>;
@group(3) @binding(4) var<storage, read_write> coarse_q: array<f32>;

// ANCHOR: restrict
@compute @workgroup_size(64, 4, 1)
fn restrict_residual(@builtin(global_invocation_id) id: vec3<u32>) {
    let nc = i32(level.coarse_n);
    let coarse = vec3<i32>(id);
    if any(coarse >= vec3(nc)) {
        return;
    }
    let n = i32(level.n);
    let h2 = level.h * level.h;
    var sum = 0.0;
    var count = 0.0;
    for (var c = 0; c < 8; c++) {
        let child = 2 * coarse + vec3(c & 1, (c >> 1u) & 1, (c >> 2u) & 1);
        if all(child < vec3(n)) && !is_solid(child, n) {
            let s = stencil(child);
            let i = level_index(child, n);
            sum += fine_rhs[i] - (s.x - s.y * q[i]) / h2;
            count += 1.0;
        }
    }
    let j = level_index(coarse, nc);
    coarse_rhs[j] = sum / max(count, 1.0);
    coarse_q[j] = 0.0;
}
// ANCHOR_END: restrict
