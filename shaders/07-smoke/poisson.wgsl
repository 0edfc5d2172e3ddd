// Shared by the faster pressure solvers (rbgs.wgsl, restrict.wgsl, prolong.wgsl): one grid of
// the multigrid hierarchy and the 7-point stencil of ∇²q = f on it, with the boundary rules of
// jacobi.wgsl (Neumann walls: a ghost copies its neighbour inside; under an open top the ghost
// above the top row holds −q, so q = 0 on the face). Geometric multigrid after Briggs, Henson
// and McCormick 2000, "A Multigrid Tutorial", and Trottenberg, Oosterlee and Schüller 2001,
// "Multigrid". Every pass that includes this file binds the level's parameters at binding 0 and
// the level's q at binding 2 (read-write; restriction only reads it). The CPU twin is
// chapters/07-smoke/src/reference/poisson.rs.

// Mirrors `LevelUniform` in chapters/07-smoke/src/multigrid.rs.
struct Level {
    n: u32,         // cells per side of this grid
    coarse_n: u32,  // cells per side of the next coarser grid (0 on the coarsest)
    h: f32,         // cell size (m)
    omega: f32,     // over-relaxation ω of the Gauss–Seidel update (1: plain)
    open_top: u32,  // 1: q = 0 on the top face (Dirichlet)
    sweeps: u32,    // red–black sweeps of one smoothing in rbgs_sweeps_in_one_group
}

// Whether the pipeline handles obstacles (see OBSTACLES in common.wgsl): the solver's passes are
// compiled both ways, and without, the masks are not read.
override OBSTACLES: bool = true;

@group(3) @binding(0) var<uniform> level: Level;
// q on this level: the pressure on level 0, a correction on the coarser ones.
@group(3) @binding(2) var<storage, read_write> q: array<f32>;
// The level's solid mask (obstacles): > 0.5 solid. Level 0's comes from obstacles.wgsl; a coarse
// cell is solid only if all its children are (coarsen.wgsl).
@group(2) @binding(0) var<storage, read> solid: array<f32>;

fn is_solid(cell: vec3<i32>, n: i32) -> bool {
    return OBSTACLES && solid[level_index(cell, n)] > 0.5;
}

// q of the neighbour at `at` (already clamped into the box), or of `cell` itself where the
// neighbour is solid: an obstacle is a wall (Neumann).
fn neighbour_q(cell: vec3<i32>, at: vec3<i32>, n: i32) -> f32 {
    return q[level_index(select(at, cell, vec3(is_solid(at, n))), n)];
}

// What a solid cell holds: the mean of its fluid neighbours (0 if none), so that trilinear
// pressure samples next to an obstacle see no false gradient. No fluid cell reads it.
fn solid_fill(cell: vec3<i32>, n: i32) -> f32 {
    var sum = 0.0;
    var count = 0.0;
    for (var k = 0; k < 6; k++) {
        let axis_k = vec3(i32(k / 2 == 0), i32(k / 2 == 1), i32(k / 2 == 2));
        let c = cell + select(-1, 1, k % 2 == 0) * axis_k;
        if all(c >= vec3(0)) && all(c < vec3(n)) && !is_solid(c, n) {
            sum += q[level_index(c, n)];
            count += 1.0;
        }
    }
    return select(0.0, sum / max(count, 1.0), count > 0.0);
}

fn level_index(cell: vec3<i32>, n: i32) -> u32 {
    return u32(cell.x + n * (cell.y + n * cell.z));
}

// ANCHOR: stencil
// Σ of the six neighbours of `cell` (ghosts by the boundary rules) and the diagonal d:
// h² ∇²q = Σ − d q, d = 6, or 7 in the top row under an open top.
fn stencil(cell: vec3<i32>) -> vec2<f32> {
    let n = i32(level.n);
    let hi = vec3(n - 1);
    let top = level.open_top == 1u && cell.y == n - 1;
    var sum = neighbour_q(cell, clamp(cell - vec3(1, 0, 0), vec3(0), hi), n)
        + neighbour_q(cell, clamp(cell + vec3(1, 0, 0), vec3(0), hi), n)
        + neighbour_q(cell, clamp(cell - vec3(0, 1, 0), vec3(0), hi), n)
        + neighbour_q(cell, clamp(cell - vec3(0, 0, 1), vec3(0), hi), n)
        + neighbour_q(cell, clamp(cell + vec3(0, 0, 1), vec3(0), hi), n);
    if !top {
        sum += neighbour_q(cell, clamp(cell + vec3(0, 1, 0), vec3(0), hi), n);
    }
    return vec2(sum, select(6.0, 7.0, top));
}
// ANCHOR_END: stencil
