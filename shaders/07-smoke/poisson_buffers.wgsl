// The grids of poisson.wgsl in storage buffers: one level per pass, bound at group 3, bindings
// 0–2 (its parameter block, f, q), and its solid mask at group 2. Included by the passes over one
// level: rbgs.wgsl, restrict.wgsl, prolong.wgsl, coarsen.wgsl.
// #import 07-smoke/poisson.wgsl

@group(3) @binding(0) var<uniform> level: Level;
// The right-hand side f on this level: the divergence on level 0, a restricted residual below.
@group(3) @binding(1) var<storage, read> rhs: array<f32>;
// q on this level: the pressure on level 0, a correction on the coarser ones.
@group(3) @binding(2) var<storage, read_write> q: array<f32>;
// The level's solid mask (obstacles): > 0.5 solid. Level 0's comes from obstacles.wgsl; a coarse
// cell is solid only if all its children are (coarsen.wgsl).
@group(2) @binding(0) var<storage, read> solid: array<f32>;

fn q_get(i: u32) -> f32 {
    return q[i];
}

fn q_set(i: u32, v: f32) {
    q[i] = v;
}

fn rhs_get(i: u32) -> f32 {
    return rhs[i];
}

fn solid_get(i: u32) -> f32 {
    return solid[i];
}

fn level_barrier() {
    storageBarrier();
}
