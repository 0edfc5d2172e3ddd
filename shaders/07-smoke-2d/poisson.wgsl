// The 5-point stencil of ∇²q = f on the cell-centred grid, shared by the pressure solvers
// (jacobi.wgsl, rbgs.wgsl): h² ∇²q = Σ − d q with the neighbours' sum Σ and the diagonal d.
// A wall's ghost copies the cell inside (Neumann): it is in Σ as that cell's own q, and d = 4.
// Under an open top the ghost above the top row holds −q: it moves to the diagonal, d = 5, and Σ
// has three terms. This is exactly the Laplacian of `divergence_at` ∘ `pressure_gradient_at`
// (common.wgsl): the projection then removes what the solve solved for.
// #import 07-smoke-2d/common.wgsl

// ANCHOR: stencil
fn stencil(q: texture_2d<f32>, c: vec2<i32>) -> vec2<f32> {
    let top = open_top() && c.y == grid_n() - 1;
    var sum = q_at(q, c.x - 1, c.y) + q_at(q, c.x + 1, c.y) + q_at(q, c.x, c.y - 1);
    if !top {
        sum += q_at(q, c.x, c.y + 1);
    }
    return vec2(sum, select(4.0, 5.0, top));
}
// ANCHOR_END: stencil
