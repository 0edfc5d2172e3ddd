// Multigrid: the small levels of a V-cycle in one dispatch. From the first level of at most 16³
// down to the coarsest and back — smoothing, restriction, coarse solve, prolongation, smoothing —
// one workgroup of 256 threads does it all, a storage barrier between the steps. Below 32³ a
// level is a few thousand cells: each step costs less than launching it, and a V-cycle's tail
// took 13 dependent dispatches (3 of every level and the coarse solve). The steps are the
// functions the passes of the large levels run (poisson.wgsl), in the same order, so the
// values are the same (Briggs, Henson and McCormick 2000, ch. 3, for the V-cycle).
// The tail's levels keep f, q and the mask in one buffer each, at the offsets their `Level`
// blocks give; the first one's offset is 0, so the restriction into it and the prolongation
// from it bind the whole buffer like a level of their own.
// Inputs: the tail's levels, f of its first level. In/out: q (all levels), the masks below the
// first (coarsened here from the first, which the coarsen pass wrote).
// #import 07-smoke/poisson.wgsl

struct Tail {
    count: u32,       // levels in the tail (at least 2)
    pre_sweeps: u32,  // sweeps before restricting
    post_sweeps: u32, // sweeps after prolongation
    coarse_sweeps: u32, // sweeps that solve the coarsest level
    levels: array<Level, 8>,
}

@group(3) @binding(3) var<uniform> tail: Tail;

// Strides the tail's threads over the cells of a grid of m³: thread k's `i`-th cell.
fn strided_cell(k: u32, m: u32) -> vec3<i32> {
    return vec3(i32(k % m), i32((k / m) % m), i32(k / (m * m)));
}

// ANCHOR: mg_tail
@compute @workgroup_size(256, 1, 1)
fn v_cycle_tail(@builtin(local_invocation_index) thread: u32) {
    let last = tail.count - 1u;
    // The masks of the levels below the first, once per cycle (they do not change within a step).
    if OBSTACLES {
        for (var l = 0u; l < last; l++) {
            lv = tail.levels[l];
            let nc = lv.coarse_n;
            for (var k = thread; k < nc * nc * nc; k += ONE_GROUP) {
                let coarse = strided_cell(k, nc);
                solid[lv.coarse_offset + k] = select(0.0, 1.0, all_children_solid(coarse));
            }
            storageBarrier();
        }
    }
    // Down: smooth, then the residual becomes the next level's f, its q starts from zero.
    for (var l = 0u; l < last; l++) {
        lv = tail.levels[l];
        smooth_in_one_group(thread, tail.pre_sweeps);
        let nc = lv.coarse_n;
        for (var k = thread; k < nc * nc * nc; k += ONE_GROUP) {
            let j = lv.coarse_offset + k;
            rhs[j] = restricted_residual(strided_cell(k, nc));
            q[j] = 0.0;
        }
        storageBarrier();
    }
    lv = tail.levels[last];
    smooth_in_one_group(thread, tail.coarse_sweeps);
    // Up: add the interpolated correction, smooth.
    for (var l = last; l > 0u; l--) {
        lv = tail.levels[l - 1u];
        let n = lv.n;
        for (var k = thread; k < n * n * n; k += ONE_GROUP) {
            let cell = strided_cell(k, n);
            let p = prolongation(cell);
            var e = 0.0;
            for (var c = 0; c < 8; c++) {
                e += p.weight[c] * q[p.at[c]];
            }
            q[lv.offset + k] += e;
        }
        storageBarrier();
        smooth_in_one_group(thread, tail.post_sweeps);
    }
}
// ANCHOR_END: mg_tail
