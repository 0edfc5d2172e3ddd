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
    offset: u32,    // index of this grid's first cell in q, f and the mask (0 but in mg_tail.wgsl)
    coarse_offset: u32, // the same for the next coarser grid
    pad: u32,       // (a uniform array's elements are 16-byte aligned)
}

// Whether the pipeline handles obstacles (see OBSTACLES in common.wgsl): the solver's passes are
// compiled both ways, and without, the masks are not read.
override OBSTACLES: bool = true;

// Where the grids live is up to the file that includes this one: poisson_buffers.wgsl binds
// one level's f, q and mask as storage buffers (the passes over one large level); mg_tail.wgsl
// keeps several small levels in workgroup memory. Each defines the functions below call:
// #needs q_get, q_set, rhs_get, solid_get, level_barrier

// The grid the functions below work on, set by each entry point.
var<private> lv: Level;

// Index of `cell` of the current grid (n cells a side) in q, f and the mask.
fn at_index(cell: vec3<i32>, n: i32) -> u32 {
    return lv.offset + level_index(cell, n);
}

fn is_solid(cell: vec3<i32>, n: i32) -> bool {
    return OBSTACLES && solid_get(at_index(cell, n)) > 0.5;
}

// q of the neighbour at `at` (already clamped into the box), or of `cell` itself where the
// neighbour is solid: an obstacle is a wall (Neumann).
fn neighbour_q(cell: vec3<i32>, at: vec3<i32>, n: i32) -> f32 {
    return q_get(at_index(select(at, cell, vec3(is_solid(at, n))), n));
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
            sum += q_get(at_index(c, n));
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
    let n = i32(lv.n);
    let hi = vec3(n - 1);
    let top = lv.open_top == 1u && cell.y == n - 1;
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

// ANCHOR: relax
// One Gauss–Seidel update with over-relaxation at `cell` of the current grid:
// q ← q + ω ((Σ₆ q_neighbour − h² f) / d − q).
fn relax(cell: vec3<i32>) {
    let n = i32(lv.n);
    if any(cell >= vec3(n)) {
        return;
    }
    let i = at_index(cell, n);
    if is_solid(cell, n) {
        q_set(i, solid_fill(cell, n)); // inside an obstacle: not part of the equations
        return;
    }
    let s = stencil(cell);
    let gauss_seidel = (s.x - lv.h * lv.h * rhs_get(i)) / s.y;
    let old = q_get(i);
    q_set(i, old + lv.omega * (gauss_seidel - old));
}
// ANCHOR_END: relax

// The cell of colour `colour` (0 red: x + y + z even, 1 black) that thread `id` updates: thread x
// handles the x-th cell of its colour in its row, x = 2 id.x + ((y + z + colour) mod 2).
fn coloured_cell(id: vec3<u32>, colour: u32) -> vec3<i32> {
    return vec3(2 * i32(id.x) + i32((id.y + id.z + colour) & 1u), i32(id.y), i32(id.z));
}

// ANCHOR: smooth_in_one_group
// `sweeps` red–black sweeps of the current grid by one workgroup of ONE_GROUP threads striding
// over each colour's cells, a barrier between colours: the same updates as the two passes a
// sweep of rbgs.wgsl, so the same values.
const ONE_GROUP: u32 = 256u;

fn smooth_in_one_group(thread: u32, sweeps: u32) {
    let n = lv.n;
    let half_row = (n + 1u) / 2u; // threads of a colour along x
    let count = half_row * n * n;
    for (var sweep = 0u; sweep < sweeps; sweep++) {
        for (var colour = 0u; colour < 2u; colour++) {
            for (var k = thread; k < count; k += ONE_GROUP) {
                relax(coloured_cell(vec3(k % half_row, (k / half_row) % n, k / (half_row * n)), colour));
            }
            level_barrier();
        }
    }
}
// ANCHOR_END: smooth_in_one_group

// ANCHOR: restrict
// The coarse right-hand side at `coarse`: the residual r = f − ∇²q of the current (fine) grid,
// averaged over the (up to 8) fluid children of the coarse cell.
fn restricted_residual(coarse: vec3<i32>) -> f32 {
    let n = i32(lv.n);
    let h2 = lv.h * lv.h;
    var sum = 0.0;
    var count = 0.0;
    for (var c = 0; c < 8; c++) {
        let child = 2 * coarse + vec3(c & 1, (c >> 1u) & 1, (c >> 2u) & 1);
        if all(child < vec3(n)) && !is_solid(child, n) {
            let s = stencil(child);
            let i = at_index(child, n);
            sum += rhs_get(i) - (s.x - s.y * q_get(i)) / h2;
            count += 1.0;
        }
    }
    return sum / max(count, 1.0);
}
// ANCHOR_END: restrict

// ANCHOR: prolong
// Per axis: the parent coarse cell, the other coarse cell the fine centre interpolates from, and
// the sign of that far cell (−1 for the ghost above an open top).
fn parents(i: i32, nc: i32, open_end: bool) -> vec3<f32> {
    let p = min(i / 2, nc - 1);
    if i % 2 == 0 {
        return vec3(f32(p), f32(max(p - 1, 0)), 1.0);
    }
    if p + 1 < nc {
        return vec3(f32(p), f32(p + 1), 1.0);
    }
    return vec3(f32(p), f32(p), select(1.0, -1.0, open_end));
}

// Where a fine cell of the current grid interpolates from, per axis (`parents`): the coarse
// cells and the far cell's sign.
struct Prolongation {
    x: vec3<f32>,
    y: vec3<f32>,
    z: vec3<f32>,
}

fn prolongation(cell: vec3<i32>) -> Prolongation {
    let nc = i32(lv.coarse_n);
    return Prolongation(parents(cell.x, nc, false), parents(cell.y, nc, lv.open_top == 1u), parents(cell.z, nc, false));
}

// Corner c (0–7) of the prolongation: the coarse cell's index in the coarse grid's storage and
// its trilinear weight, ¾ and ¼ per axis (27, 9, 3, 1 / 64 in 3D).
struct Corner {
    at: u32,
    weight: f32,
}

fn prolongation_corner(p: Prolongation, c: i32) -> Corner {
    let far = vec3(c & 1, (c >> 1u) & 1, (c >> 2u) & 1) == vec3(1);
    let at = vec3<i32>(select(vec3(p.x.x, p.y.x, p.z.x), vec3(p.x.y, p.y.y, p.z.y), far));
    let w = select(vec3(0.75), 0.25 * vec3(p.x.z, p.y.z, p.z.z), far);
    return Corner(lv.coarse_offset + level_index(at, i32(lv.coarse_n)), w.x * w.y * w.z);
}
// ANCHOR_END: prolong

// ANCHOR: coarsen
// Whether the coarse cell `coarse` is solid: only if all its (up to 8) children on the current
// grid are, so the coarse problem never walls off fluid the fine one connects.
fn all_children_solid(coarse: vec3<i32>) -> bool {
    let n = i32(lv.n);
    for (var c = 0; c < 8; c++) {
        let child = 2 * coarse + vec3(c & 1, (c >> 1u) & 1, (c >> 2u) & 1);
        if all(child < vec3(n)) && !is_solid(child, n) {
            return false;
        }
    }
    return true;
}
// ANCHOR_END: coarsen
