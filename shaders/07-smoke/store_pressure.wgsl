// Copies the solved pressure from its storage buffer into the r32float 3D texture the other
// passes sample (trilinearly, in advection). A compute pass rather than a buffer-to-texture copy,
// which would need 256-byte rows (grids of 64 and more only).
// #import 07-smoke/common.wgsl

@group(3) @binding(0) var<storage, read> pressure_in: array<f32>;
@group(3) @binding(1) var pressure_out: texture_storage_3d<r32float, write>;

@compute @workgroup_size(64, 4, 1)
fn store_pressure(@builtin(global_invocation_id) id: vec3<u32>) {
    let cell = vec3<i32>(id);
    if !in_grid(cell) {
        return;
    }
    let n = grid_n();
    textureStore(pressure_out, cell, vec4(pressure_in[u32(cell.x + n * (cell.y + n * cell.z))], 0.0, 0.0, 0.0));
}
