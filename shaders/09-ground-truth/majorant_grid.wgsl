// Ground truth, the majorant grid: the media's box cut into MAJORANT_GRID cells, each holding a
// bound σ̄ ≥ σt over the whole cell from the media's own bounds (stack_majorant over the cell's
// box: height layers at the cell's denser end, the noise at its largest factor, each volume's
// density where it overlaps, the smoke's densest cell there), and the walk of a ray through it (a 3D DDA, Amanatides & Woo 1987)
// that draws tentative collisions cell by cell at each cell's σ̄: exponential free paths are
// memoryless, so a draw that passes the cell's far side starts again there. After the
// piecewise-constant majorants of pbrt-v4's grid media (Pharr, Jakob & Humphreys 2023, §11.4).
// MAJORANT_GRID_X, _Y, _Z come from Rust; the tracer's uniform, the media's bounds and the random
// stream from the including file (trace.wgsl):
// Each cell holds two bounds: σ̄ over the whole medium, which delta tracking draws its free
// paths against, then σ̄_r ≥ |σt − σ_c| over the residual that residual ratio tracking leaves
// once the control σ_c is taken out in closed form (stack_media.wgsl: control), which the
// transmittance walks; a cell whose medium the control holds exactly has σ̄_r = 0 and costs a
// shadow ray no collision.
// #needs tracer, domain_span, stack_majorant, stack_residual_majorant, random

@group(1) @binding(6) var<storage, read_write> majorants: array<f32>;

// Where a walk reads its bounds: the whole medium's, or the residual's after them.
const GRID_WHOLE: u32 = 0u;
const GRID_RESIDUAL: u32 = 1u;

fn grid_size() -> vec3<i32> {
    return vec3(i32(MAJORANT_GRID_X), i32(MAJORANT_GRID_Y), i32(MAJORANT_GRID_Z));
}

fn cell_extent() -> vec3<f32> {
    return (tracer.domain_max.xyz - tracer.domain_min.xyz) / vec3<f32>(grid_size());
}

fn cell_count() -> u32 {
    let n = grid_size();
    return u32(n.x * n.y * n.z);
}

fn cell_index(c: vec3<i32>) -> u32 {
    let n = grid_size();
    return u32((c.z * n.y + c.y) * n.x + c.x);
}

// The σ̄ of the cell holding p (of the whole medium or of the residual); 0 outside the media's box.
fn grid_majorant_at(p: vec3<f32>, bounds: u32) -> f32 {
    let c = vec3<i32>(floor((p - tracer.domain_min.xyz) / cell_extent()));
    if any(c < vec3(0)) || any(c >= grid_size()) {
        return 0.0;
    }
    return majorants[bounds * cell_count() + cell_index(c)];
}

// ANCHOR: build
// One cell's bound, made when what the frame shows changes (every frame with a simulated grid).
@compute @workgroup_size(64, 1, 1)
fn build_majorants(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = grid_size();
    if id.x >= cell_count() {
        return;
    }
    let i = i32(id.x);
    let c = vec3(i % n.x, (i / n.x) % n.y, i / (n.x * n.y));
    let lo = tracer.domain_min.xyz + vec3<f32>(c) * cell_extent();
    let bound = stack_majorant(lo, lo + cell_extent()).extinction;
    majorants[id.x] = max(max(bound.x, bound.y), bound.z);
    let residual = stack_residual_majorant(lo, lo + cell_extent()).extinction;
    majorants[cell_count() + id.x] = max(max(residual.x, residual.y), residual.z);
}
// ANCHOR_END: build

// ANCHOR: walk
// A ray's walk through the grid: where it is (t), the cell it is in and when it leaves it.
struct Walk {
    t: f32,
    end: f32,
    cell: vec3<i32>,
    step: vec3<i32>,
    t_next: vec3<f32>,  // where the ray crosses the next boundary on each axis
    t_delta: vec3<f32>, // the ray's length across one cell on each axis
    majorant: f32,      // the cell's σ̄ at the last tentative collision
    base: u32,          // where its bounds start: GRID_WHOLE or GRID_RESIDUAL times the cells
}

// The walk of o + t d from the media's box entry to min(its exit, t_max), against the bounds
// `bounds` (GRID_WHOLE or GRID_RESIDUAL).
fn walk_start(o: vec3<f32>, d: vec3<f32>, t_max: f32, bounds: u32) -> Walk {
    let span = domain_span(o, d);
    var w: Walk;
    w.base = bounds * cell_count();
    w.t = span.x;
    w.end = min(span.y, t_max);
    let extent = cell_extent();
    let p = (o + d * w.t - tracer.domain_min.xyz) / extent;
    w.cell = clamp(vec3<i32>(floor(p)), vec3(0), grid_size() - 1);
    w.step = vec3<i32>(sign(d));
    let inv = 1.0 / abs(d);
    let next_boundary = vec3<f32>(w.cell) + select(vec3(0.0), vec3(1.0), d > vec3(0.0));
    w.t_next = select(vec3(3.0e38), w.t + (next_boundary - p) * extent / d, d != vec3(0.0));
    w.t_delta = select(vec3(3.0e38), extent * inv, d != vec3(0.0));
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
        let sigma = majorants[(*w).base + cell_index((*w).cell)];
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
        if any((*w).cell < vec3(0)) || any((*w).cell >= grid_size()) {
            (*w).t = (*w).end;
        }
    }
    return found;
}
// ANCHOR_END: walk_next
// ANCHOR_END: walk
