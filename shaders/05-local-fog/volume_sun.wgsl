// Local fog volumes, the sun in them: what chapter 5's analytic pass (analytic.wgsl) and its sun
// grid (sun_grid.wgsl) share — the pass's uniform, the volumes and their casters' masks (group 2),
// and T_sun of a volume at a point: its own transmittance along the sun's ray in closed form
// (common/media/shapes.wgsl; through an edge fade or a texture, the casters' CASTER_STEPS), times
// that of the other volumes that may shadow it (common/media/casters.wgsl).
// After Wronski 2014 and Hillaire 2015 (the froxel fog this complements) and the engines' local
// fog volumes (Unreal's Local Fog Volumes, Godot's FogVolume).
// #import common/scene_inputs.wgsl
// #import common/media/shapes.wgsl
// #import common/media/casters.wgsl

// ANCHOR: uniform
struct LocalFogParams {
    counts: vec4<u32>, // x: volumes; y: the debug view; z: 1 = apply the fog; w: 1 = scene shadows
    light: vec4<f32>,  // x: sun factor; y: ambient factor; z: 1 = the volumes shadow each other;
                       // w: how T_sun is taken: 0 per pixel, 1 at the blocks' corners, 2 from the
                       // volume's grid
}
// ANCHOR_END: uniform

@group(2) @binding(0) var<uniform> local_fog: LocalFogParams;
@group(2) @binding(1) var<storage, read> volumes: array<FogVolume>;
// Per volume, a bit mask of the other volumes that may lie between it and the sun (binned on the
// CPU, `media::casters::bin_casters`, at most MAX_CASTERS = 16; BIN_WORDS words each).
@group(2) @binding(3) var<storage, read> casters: array<u32>;

// SUN_GRID (points per side of each volume's grid of T_sun) comes from Rust
// (`LocalFog::shader_constants`), BIN_WORDS from the core's (`shaders::core_constants`).
// How T_sun is taken besides per pixel (0): `light.w` of the uniform.
const SUN_AT_CORNERS: u32 = 1u;
const SUN_FROM_GRID: u32 = 2u;

// How this frame takes T_sun: 0 per pixel, SUN_AT_CORNERS or SUN_FROM_GRID.
fn sun_mode() -> u32 {
    return u32(local_fog.light.w + 0.5);
}

// Where casters.wgsl finds the volumes and their casters' masks.
fn caster_volume(j: u32) -> FogVolume {
    return volumes[j];
}

fn caster_volume_count() -> u32 {
    return local_fog.counts.x;
}

fn caster_mask_word(k: u32) -> u32 {
    return casters[k];
}

// T_sun of volume i at p: through itself along the sun's ray, in the casters' CASTER_STEPS where
// it has no closed form (as chapter 4's froxels take it), times its casters'.
fn sun_transmittance_at(i: u32, p: vec3<f32>, sun: vec3<f32>) -> f32 {
    let v = volumes[i];
    let exit = fog_volume_chord(v, p, sun).y;
    let own = fog_volume_inside_depth(v, p, sun, 0.0, max(exit, 0.0), CASTER_STEPS);
    var t = exp(-max(v.albedo_density.w, 0.0) * own);
    if local_fog.light.z > 0.5 {
        t *= caster_transmittance(i, p, sun);
    }
    return t;
}

// The grid's point (x, y, z) of volume i: the centres of SUN_GRID³ equal cells over its box, in
// its own frame, so the grid turns and scales with it.
fn sun_grid_point(v: FogVolume, cell: vec3<u32>) -> vec3<f32> {
    let q = ((vec3<f32>(cell) + 0.5) / f32(SUN_GRID) * 2.0 - 1.0) * fog_volume_half(v);
    return v.centre.xyz + v.axis_x.xyz * q.x + v.axis_y.xyz * q.y + v.axis_z.xyz * q.z;
}
