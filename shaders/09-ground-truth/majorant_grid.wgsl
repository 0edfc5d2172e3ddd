// Ground truth, the majorant grids: boxes cut into cells, each cell holding a bound σ̄ ≥ σt over
// the whole cell from the media's own bounds, and the walk of a ray through a grid (a 3D DDA,
// Amanatides & Woo 1987) that draws tentative collisions cell by cell at each cell's σ̄:
// exponential free paths are memoryless, so a draw that passes the cell's far side starts again
// there. After the piecewise-constant majorants of pbrt-v4's grid media (Pharr, Jakob &
// Humphreys 2023, §11.4). Two grids, each a Poisson process of its own (tracking.wgsl):
// - the scene's: the media's box (2 km × 1 km × 2 km) in MAJORANT_GRID cells, bounding the media
//   that fill it (global_majorant: the height layers at the cell's denser end, the noise at its
//   largest factor, fog by distance). Each cell holds two bounds: σ̄ over the whole medium, which
//   delta tracking draws its free paths against, then σ̄_r ≥ |σt − σ_c| over the residual that
//   residual ratio tracking leaves once the control σ_c is taken out in closed form
//   (stack_media.wgsl: control), which the shadow rays walk; a cell whose medium the control
//   holds exactly has σ̄_r = 0 and costs a shadow ray no collision;
// - the placed media's: the box around the smoke's grid and the local volumes (placed_media_box),
//   remade with them, in PLACED_GRID³ cells, bounding those (placed_majorant: each volume's
//   density where it overlaps, the smoke's densest cell there). A box of a few metres gets cells
//   of centimetres, where a 31 m cell of the scene's grid would hold the smoke's densest cell
//   over 31 m of clear air. The placed media have no control: both walks read the same bounds.
// MAJORANT_GRID_X, _Y, _Z and PLACED_GRID come from Rust; the tracer's uniform, the media's
// bounds and the random stream from the including file (trace.wgsl):
// #needs tracer, global_majorant, global_residual_majorant, placed_majorant, placed_media_box, random

// The scene grid's bounds (whole, then residual), the placed grid's, then the placed grid's box
// (lo.xyz, _, hi.xyz, _).
@group(1) @binding(6) var<storage, read_write> majorants: array<f32>;

// Which bounds a walk reads: the whole medium's, or the residual's.
const GRID_WHOLE: u32 = 0u;
const GRID_RESIDUAL: u32 = 1u;

// ANCHOR: grid
// A grid: its box's corner, the size of a cell (m), its cells a side, and where its bounds start.
struct Grid {
    lo: vec3<f32>,
    cell: vec3<f32>,
    size: vec3<i32>,
    base: u32,
}

fn scene_cells() -> vec3<i32> {
    return vec3(i32(MAJORANT_GRID_X), i32(MAJORANT_GRID_Y), i32(MAJORANT_GRID_Z));
}

fn cells_of(size: vec3<i32>) -> u32 {
    return u32(size.x * size.y * size.z);
}

// The scene's grid, its whole medium's bounds or (GRID_RESIDUAL) its residual's.
fn scene_grid(bounds: u32) -> Grid {
    let lo = tracer.domain_min.xyz;
    let cell = (tracer.domain_max.xyz - lo) / vec3<f32>(scene_cells());
    return Grid(lo, cell, scene_cells(), bounds * cells_of(scene_cells()));
}

fn placed_box_at() -> u32 {
    return 2u * cells_of(scene_cells()) + cells_of(vec3(i32(PLACED_GRID)));
}

// The placed media's grid (no cells where their box is empty).
fn placed_grid() -> Grid {
    let at = placed_box_at();
    let lo = vec3(majorants[at], majorants[at + 1u], majorants[at + 2u]);
    let hi = vec3(majorants[at + 4u], majorants[at + 5u], majorants[at + 6u]);
    let size = select(vec3(0), vec3(i32(PLACED_GRID)), all(hi > lo));
    return Grid(lo, (hi - lo) / f32(PLACED_GRID), size, 2u * cells_of(scene_cells()));
}

fn grid_hi(g: Grid) -> vec3<f32> {
    return g.lo + g.cell * vec3<f32>(g.size);
}

fn cell_index(g: Grid, c: vec3<i32>) -> u32 {
    return g.base + u32((c.z * g.size.y + c.y) * g.size.x + c.x);
}

// ANCHOR_END: grid

// ANCHOR: build
// The bounds, made when what the frame shows changes (every frame with a simulated grid): first
// the placed media's box, then each grid's cells.
@compute @workgroup_size(1, 1, 1)
fn build_placed_box() {
    let b = placed_media_box();
    let at = placed_box_at();
    for (var k = 0u; k < 3u; k++) {
        majorants[at + k] = b[0][k];
        majorants[at + 4u + k] = b[1][k];
    }
}

fn cell_box_lo(g: Grid, i: u32) -> vec3<f32> {
    let n = g.size;
    let c = vec3(i32(i) % n.x, (i32(i) / n.x) % n.y, i32(i) / (n.x * n.y));
    return g.lo + vec3<f32>(c) * g.cell;
}

fn largest(m: Majorant) -> f32 {
    return max(max(m.extinction.x, m.extinction.y), m.extinction.z);
}

@compute @workgroup_size(64, 1, 1)
fn build_majorants(@builtin(global_invocation_id) id: vec3<u32>) {
    let scene = scene_grid(GRID_WHOLE);
    let placed = placed_grid();
    let n = cells_of(scene.size);
    if id.x < n {
        let lo = cell_box_lo(scene, id.x);
        majorants[id.x] = largest(global_majorant(lo, lo + scene.cell));
        majorants[n + id.x] = largest(global_residual_majorant(lo, lo + scene.cell));
    }
    if id.x < cells_of(placed.size) {
        let lo = cell_box_lo(placed, id.x);
        majorants[placed.base + id.x] = largest(placed_majorant(lo, lo + placed.cell));
    }
}
// ANCHOR_END: build

// ANCHOR: walk
// A ray's walk through a grid: where it is (t), the cell it is in and when it leaves it.
struct Walk {
    t: f32,
    end: f32,
    cell: vec3<i32>,
    step: vec3<i32>,
    t_next: vec3<f32>,  // where the ray crosses the next boundary on each axis
    t_delta: vec3<f32>, // the ray's length across one cell on each axis
    majorant: f32,      // the cell's σ̄ at the last tentative collision
    grid: Grid,
}

// Where o + t d is inside the box [lo, hi] ahead (t ≥ 0): (t_in, t_out), empty when t_in ≥ t_out.
fn box_span(o: vec3<f32>, d: vec3<f32>, lo: vec3<f32>, hi: vec3<f32>) -> vec2<f32> {
    let span = ray_box_span(o, ray_inverse(d), lo, hi);
    return vec2(max(span.x, 0.0), span.y);
}

// The walk of o + t d through g from its box's entry to min(its exit, t_max).
fn walk_start(o: vec3<f32>, d: vec3<f32>, t_max: f32, g: Grid) -> Walk {
    var w: Walk;
    w.grid = g;
    if any(g.size <= vec3(0)) {
        w.end = 0.0;
        return w;
    }
    let span = box_span(o, d, g.lo, grid_hi(g));
    w.t = span.x;
    w.end = min(span.y, t_max);
    let p = (o + d * w.t - g.lo) / g.cell;
    w.cell = clamp(vec3<i32>(floor(p)), vec3(0), g.size - 1);
    w.step = vec3<i32>(sign(d));
    let inv = 1.0 / abs(d);
    let next_boundary = vec3<f32>(w.cell) + select(vec3(0.0), vec3(1.0), d > vec3(0.0));
    w.t_next = select(vec3(3.0e38), w.t + (next_boundary - p) * g.cell / d, d != vec3(0.0));
    w.t_delta = select(vec3(3.0e38), g.cell * inv, d != vec3(0.0));
    w.majorant = 0.0;
    return w;
}

// ANCHOR: walk_next
// Moves the walk to its next tentative collision; false when it has passed its end instead.
fn walk_next(w: ptr<function, Walk>) -> bool {
    var found = false;
    loop {
        if (*w).t >= (*w).end {
            break;
        }
        let sigma = majorants[cell_index((*w).grid, (*w).cell)];
        let leave = min(min(min((*w).t_next.x, (*w).t_next.y), (*w).t_next.z), (*w).end);
        if sigma > 0.0 {
            let t = (*w).t - log(1.0 - random()) / sigma;
            if t < leave {
                (*w).t = t;
                (*w).majorant = sigma;
                found = true;
                break;
            }
        }
        // Into the next cell along the axis whose boundary comes first.
        // (A mask rather than an index: a vector indexed by a variable would keep the walk out
        // of registers.)
        (*w).t = leave;
        let n = (*w).t_next;
        let x = n.x <= n.y && n.x <= n.z;
        let axis = vec3(x, !x && n.y <= n.z, !x && n.y > n.z);
        (*w).cell += select(vec3(0), (*w).step, axis);
        (*w).t_next += select(vec3(0.0), (*w).t_delta, axis);
        if any((*w).cell < vec3(0)) || any((*w).cell >= (*w).grid.size) {
            (*w).t = (*w).end;
        }
    }
    return found;
}
// ANCHOR_END: walk_next
// ANCHOR_END: walk
