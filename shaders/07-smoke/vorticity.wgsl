// Smoke step, pass 2b — vorticity confinement (Fedkiw, Stam, Jensen 2001, "Visual Simulation
// of Smoke"): N = ∇|ω| / |∇|ω||, u += dt · ε h (N × ω). It re-injects the small swirls that
// semi-Lagrangian advection smooths away. It needs ω of the *advected* field at the neighbours,
// so it cannot share the advection pass; ω comes from the curl pass (curl.wgsl) rather than
// being recomputed seven times per cell here. On the staggered (MAC) grid ω and the force live at
// the cell centres (Fedkiw et al. 2001 do the same); each face gets the mean of the forces of the
// two cells it separates.
// Inputs: velocity (read side), vorticity. Output: velocity (write side; the temperature in its
// fourth channel copied unchanged).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var vorticity_in: texture_3d<f32>;
@group(3) @binding(2) var velocity_out: texture_storage_3d<rgba16float, write>;

fn vorticity_magnitude(cell: vec3<i32>) -> f32 {
    return textureLoad(vorticity_in, clamp(cell, vec3(0), vec3(grid_n() - 1)), 0).w;
}

// ANCHOR: vorticity
// The confinement force ε h (N × ω) at the centre of `cell` (inside the box).
fn confinement_force(cell: vec3<i32>) -> vec3<f32> {
    let omega = textureLoad(vorticity_in, cell, 0).xyz;
    // Gradient of |ω| from the neighbours (clamped to the box), then its direction N.
    let grad = vec3(
        vorticity_magnitude(cell + vec3(1, 0, 0)) - vorticity_magnitude(cell - vec3(1, 0, 0)),
        vorticity_magnitude(cell + vec3(0, 1, 0)) - vorticity_magnitude(cell - vec3(0, 1, 0)),
        vorticity_magnitude(cell + vec3(0, 0, 1)) - vorticity_magnitude(cell - vec3(0, 0, 1)),
    );
    let len = length(grad);
    if len > 1e-12 {
        return smoke.forces.vorticity * smoke.grid.cell_m * cross(grad / len, omega);
    }
    return vec3(0.0);
}
// ANCHOR_END: vorticity

// A face needs the forces of the two cells it separates, so each cell's force is wanted by four
// faces: a workgroup computes the forces of its 8 × 8 × 4 tile and a one-cell rim on the low
// sides once, into workgroup memory (as the curl pass shares its centre velocities).
const TILE = vec3<i32>(8, 8, 4);
const RIM = vec3<i32>(9, 9, 5);
const RIM_CELLS = 405u;
var<workgroup> forces: array<vec3<f32>, RIM_CELLS>;

@compute @workgroup_size(8, 8, 4)
fn confine(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) thread: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    let origin = vec3<i32>(group) * TILE - vec3(1);
    for (var i = thread; i < RIM_CELLS; i += 256u) {
        let at = origin + tile_local(i, RIM);
        forces[i] = select(vec3(0.0), confinement_force(at), in_grid(at));
    }
    workgroupBarrier();
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let here = textureLoad(velocity_in, cell, 0); // u on the low faces, and the temperature
    let l = vec3<i32>(lid) + vec3(1);
    // ANCHOR: face_kick
    // The face between this cell and the one below along each axis: the mean of their forces.
    let f = forces[tile_index(l, RIM)];
    let below = vec3(
        forces[tile_index(l - axis(0u), RIM)].x,
        forces[tile_index(l - axis(1u), RIM)].y,
        forces[tile_index(l - axis(2u), RIM)].z,
    );
    let kick = select(vec3(0.0), smoke.grid.dt_s * 0.5 * (f + below), cell > vec3(0));
    // ANCHOR_END: face_kick
    textureStore(velocity_out, cell, vec4(limit_speed(here.xyz + kick), here.w));
}
