// The smoke's light volume: per cell, the optical depth τ from the cell's centre to the box's
// boundary towards the sun, straight up (to the sky) and straight down (to the ground),
// τ = σ ∫ ρ ds. Done at grid resolution when the smoke or the sun changed, so the view's ray
// march needs one extra sample per step instead of a second march (a "light volume", as in deep
// shadow maps; Lokovic and Veach 2000; Wrenninge 2012, "Production Volume Rendering"). Optical
// depth rather than transmittance: the march raises it to the powers its multiple-scattering
// octaves and colour channels need (exp(−a^i τ tint)), and the core's scene pass reads channel r
// as the smoke's shadow on the ground (common/volume_shadow.wgsl).
// Towards the sun the density is marched. Up and down follow the grid's columns, so they need no
// march: one pass sums each column once (`light_columns`), and a cell's τ up and down are then
// differences of those running sums — the exact integral of the density the march would sample
// (linear between the cell centres along the column, constant in the outermost half cells), at
// O(1) per cell instead of O(steps).
// Inputs: fluid. Output: light (r: τ to the sun, g: τ up, b: τ down; a: 0).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var fluid_in: texture_3d<f32>;
@group(3) @binding(1) var light_out: texture_storage_3d<rgba16float, write>;
// Running sums of the density up each column, S_j = Σ_{k ≤ j} ρ_k (x fastest, then y, then z).
@group(3) @binding(2) var<storage, read_write> column_sums: array<f32>;

fn column_index(cell: vec3<i32>) -> u32 {
    let n = grid_n();
    return u32(cell.x + n * (cell.y + n * cell.z));
}

fn density_at(cell: vec3<i32>) -> f32 {
    return max(textureLoad(fluid_in, cell, 0).a, 0.0);
}

// ANCHOR: light_columns
// One thread per column (x, z): the running sums from the bottom up.
@compute @workgroup_size(8, 1, 8)
fn light_columns(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = grid_n();
    if i32(id.x) >= n || i32(id.z) >= n {
        return;
    }
    var sum = 0.0;
    for (var y = 0; y < n; y++) {
        let cell = vec3(i32(id.x), y, i32(id.z));
        sum += density_at(cell);
        column_sums[column_index(cell)] = sum;
    }
}
// ANCHOR_END: light_columns

// ANCHOR: light
// Optical depth from `start` (box units) along unit `dir` to the box's boundary, in `steps`
// midpoint samples.
fn optical_depth(start: vec3<f32>, dir: vec3<f32>, steps: u32) -> f32 {
    let ds = exit_distance(start, dir) / f32(steps);
    var sum = 0.0;
    for (var i = 0u; i < steps; i++) {
        let p = start + dir * ds * (f32(i) + 0.5);
        sum += max(textureSampleLevel(fluid_in, linear_clamp, p, 0.0).a, 0.0);
    }
    // σ per unit density per metre, times the step in metres.
    return smoke.optics.extinction * sum * ds * smoke.grid.box_m;
}

@compute @workgroup_size(8, 8, 4)
fn light(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let steps = max(smoke.light.shadow_steps, 1u);
    let to_sun = optical_depth(cell_uv(cell), smoke.light.towards_sun, steps);
    // Along the column through the centres the density is linear between centres (trapezoids)
    // and constant in the outermost half cells: from the centre of cell j down to the floor
    // h (S_j − ρ_j / 2), up to the lid h (S_top − S_j + ρ_j / 2).
    let below = column_sums[column_index(cell)] - 0.5 * density_at(cell);
    let total = column_sums[column_index(vec3(cell.x, grid_n() - 1, cell.z))];
    let per_density = smoke.optics.extinction * smoke.grid.cell_m; // σ h: τ per unit of the sums
    textureStore(light_out, cell, vec4(to_sun, per_density * (total - below), per_density * below, 0.0));
}
// ANCHOR_END: light

// Distance from `p` (inside the unit box) to its boundary along unit `dir`.
fn exit_distance(p: vec3<f32>, dir: vec3<f32>) -> f32 {
    let inv = 1.0 / select(dir, vec3(1e-9), abs(dir) < vec3(1e-9));
    let t = max((vec3(0.0) - p) * inv, (vec3(1.0) - p) * inv);
    return max(min(t.x, min(t.y, t.z)), 0.0);
}
