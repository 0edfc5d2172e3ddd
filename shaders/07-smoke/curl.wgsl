// Smoke step, pass 2a — the curl ω = ∇ × u of the advected velocity, stored with |ω| for the
// confinement pass (vorticity.wgsl), which needs it at every cell's six neighbours. On the
// staggered grid it is taken at the cell centres, by central differences of the face-averaged
// velocity (common.wgsl, `curl_at`, which the vorticity view uses as it is).
// Each cell's centre velocity is read by its six neighbours, and computing it takes six face
// loads through the wall and solid tests: so a workgroup first averages the centre velocities of
// its tile and a one-cell rim into workgroup memory (the classic shared-memory stencil tile, as
// in Micikevicius 2009, "3D Finite Difference Computation on GPUs using CUDA"), then takes the
// differences from there — about 14 loads a cell instead of 36, the same arithmetic and values.
// Input: velocity (read side). Output: vorticity (ω, |ω|).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var velocity_in: texture_3d<f32>;
@group(3) @binding(1) var vorticity_out: texture_storage_3d<rgba16float, write>;

const TILE = vec3<i32>(8, 8, 4);
// The tile with its rim: 10 × 10 × 6 cells.
const RIM = vec3<i32>(10, 10, 6);
const RIM_CELLS = 600u;
var<workgroup> centres: array<vec3<f32>, RIM_CELLS>;

fn rim_index(local: vec3<i32>) -> i32 {
    return tile_index(local, RIM);
}

// ANCHOR: curl
@compute @workgroup_size(8, 8, 4)
fn curl(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) thread: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {
    // The centre velocities of the tile and its rim (mirrored beyond the walls: `velocity_at`).
    let origin = vec3<i32>(group) * TILE - vec3(1);
    for (var i = thread; i < RIM_CELLS; i += 256u) {
        centres[i] = velocity_at(velocity_in, origin + tile_local(i, RIM));
    }
    workgroupBarrier();
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let l = vec3<i32>(lid) + vec3(1);
    let px = centres[rim_index(l + vec3(1, 0, 0))];
    let nx = centres[rim_index(l - vec3(1, 0, 0))];
    let py = centres[rim_index(l + vec3(0, 1, 0))];
    let ny = centres[rim_index(l - vec3(0, 1, 0))];
    let pz = centres[rim_index(l + vec3(0, 0, 1))];
    let nz = centres[rim_index(l - vec3(0, 0, 1))];
    let inv = 1.0 / (2.0 * smoke.grid.cell_m);
    let omega = vec3(
        (py.z - ny.z) - (pz.y - nz.y),
        (pz.x - nz.x) - (px.z - nx.z),
        (px.y - nx.y) - (py.x - ny.x),
    ) * inv;
    textureStore(vorticity_out, cell, vec4(omega, length(omega)));
}
// ANCHOR_END: curl
