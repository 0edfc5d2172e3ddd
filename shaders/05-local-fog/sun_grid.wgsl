// Local fog volumes, the sun grid: per volume, T_sun (its own and its casters') at SUN_GRID³
// points over its box in its own frame, taken once whenever the volumes or the sun change, then
// read trilinearly by the analytic pass (analytic.wgsl, `sun_from_grid`) instead of a sun ray per
// crossing: a light volume per fog volume, as in volumetric shadow maps (Lokovic & Veach 2000;
// Wronski 2014 takes the sun once per froxel the same way).
// #import 05-local-fog/volume_sun.wgsl

// x fastest, then y, then z, then the volume.
@group(2) @binding(4) var<storage, read_write> sun_grid_t: array<f32>;

// ANCHOR: sun_grid
// One thread per point: T_sun there as the pixels would take it (`sun_transmittance_at`).
@compute @workgroup_size(4, 4, 4)
fn sun_grid(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.z / SUN_GRID;
    if i >= local_fog.counts.x {
        return;
    }
    let cell = vec3(id.xy, id.z % SUN_GRID);
    let t = sun_transmittance_at(i, sun_grid_point(volumes[i], cell), frame.sun_dir.xyz);
    sun_grid_t[((i * SUN_GRID + cell.z) * SUN_GRID + cell.y) * SUN_GRID + cell.x] = t;
}
// ANCHOR_END: sun_grid
