// Multigrid: the small levels of a V-cycle in one dispatch, in workgroup memory. From the first
// level of at most 8³ down to the coarsest and back — smoothing, restriction, coarse solve,
// prolongation, smoothing — one workgroup of 256 threads does it all, a barrier between the
// steps. There a level is at most 512 cells: each step costs less than launching a pass, and the
// levels' f, q and masks (584 cells of 8³, 4³ and 2³) fit in 7 KiB of workgroup memory, where
// the threads read each other's writes after a plain barrier. The steps are the functions the
// passes over the large levels run (poisson.wgsl), in the same order, so the values are the same
// (Briggs, Henson and McCormick 2000, ch. 3, for the V-cycle).
// Inputs: the tail's levels; f and the mask of its first level (from the restriction and the
// coarsen pass into it). Output: q of the first level, for the prolongation out of the tail.
// #import 07-smoke/poisson.wgsl

// TAIL_CELLS (cells of every tail level together: 8³ + 4³ + 2³ at most) comes from Rust.

struct Tail {
    count: u32,       // levels in the tail (at least 1)
    pre_sweeps: u32,  // sweeps before restricting
    post_sweeps: u32, // sweeps after prolongation
    coarse_sweeps: u32, // sweeps that solve the coarsest level
    levels: array<Level, 8>, // offsets into the workgroup arrays below
}

@group(3) @binding(0) var<uniform> tail: Tail;
@group(3) @binding(1) var<storage, read> first_rhs: array<f32>;
@group(3) @binding(2) var<storage, read_write> first_q: array<f32>;
@group(2) @binding(0) var<storage, read> first_solid: array<f32>;

var<workgroup> tail_rhs: array<f32, TAIL_CELLS>;
var<workgroup> tail_q: array<f32, TAIL_CELLS>;
var<workgroup> tail_solid: array<f32, TAIL_CELLS>;

fn q_get(i: u32) -> f32 {
    return tail_q[i];
}

fn q_set(i: u32, v: f32) {
    tail_q[i] = v;
}

fn rhs_get(i: u32) -> f32 {
    return tail_rhs[i];
}

fn solid_get(i: u32) -> f32 {
    return tail_solid[i];
}

fn level_barrier() {
    workgroupBarrier();
}

// The cell of index k (x fastest) on a grid of m³.
fn grid_cell(k: u32, m: u32) -> vec3<i32> {
    return vec3(i32(k % m), i32((k / m) % m), i32(k / (m * m)));
}

@compute @workgroup_size(256, 1, 1)
fn v_cycle_tail(@builtin(local_invocation_index) thread: u32) {
    let last = tail.count - 1u;
    // The first level's f and mask come in; its q starts from zero, as the restriction left it.
    let first = tail.levels[0].n * tail.levels[0].n * tail.levels[0].n;
    for (var k = thread; k < first; k += ONE_GROUP) {
        tail_rhs[k] = first_rhs[k];
        tail_q[k] = 0.0;
        tail_solid[k] = select(0.0, first_solid[k], OBSTACLES);
    }
    workgroupBarrier();
    // ANCHOR: mg_tail
    // Down: smooth, then the residual becomes the next level's f (and its mask is coarsened);
    // its q starts from zero.
    for (var l = 0u; l < last; l++) {
        lv = tail.levels[l];
        smooth_in_one_group(thread, tail.pre_sweeps);
        let nc = lv.coarse_n;
        for (var k = thread; k < nc * nc * nc; k += ONE_GROUP) {
            let coarse = grid_cell(k, nc);
            let j = lv.coarse_offset + k;
            tail_rhs[j] = restricted_residual(coarse);
            tail_q[j] = 0.0;
            tail_solid[j] = select(0.0, 1.0, OBSTACLES && all_children_solid(coarse));
        }
        workgroupBarrier();
    }
    lv = tail.levels[last];
    smooth_in_one_group(thread, tail.coarse_sweeps);
    // Up: add the interpolated correction, smooth.
    for (var l = last; l > 0u; l--) {
        lv = tail.levels[l - 1u];
        let n = lv.n;
        for (var k = thread; k < n * n * n; k += ONE_GROUP) {
            let p = prolongation(grid_cell(k, n));
            var e = 0.0;
            for (var c = 0; c < 8; c++) {
                let corner = prolongation_corner(p, c);
                e += corner.weight * tail_q[corner.at];
            }
            tail_q[lv.offset + k] += e;
        }
        workgroupBarrier();
        smooth_in_one_group(thread, tail.post_sweeps);
    }
    // ANCHOR_END: mg_tail
    for (var k = thread; k < first; k += ONE_GROUP) {
        first_q[k] = tail_q[k];
    }
}
