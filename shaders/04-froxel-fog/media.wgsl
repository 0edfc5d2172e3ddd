// Froxel fog, pass 1 of 4 — media: per froxel, at its sample point, the extinction σt, the
// scattering σs and the emission of
//   - the global medium: a constant density plus chapter 2's exponential height layers (its own
//     two when chapter 2 is in the stack, else this chapter's one), times the drifting fractal
//     noise, with the albedo of the fog;
//   - the local fog volumes the stack publishes (chapter 5): boxes, ellipsoids and cylinders,
//     rotated, each with its own albedo, density, height falloff, edge fade, emission and phase
//     g, summed. Each
//     volume enters a froxel as its average over the froxel's slice along the column's ray — its
//     optical depth there in closed form (common/media/shapes.wgsl) divided by the slice's length
//     — not as a sample at one point: a box filter in depth, so that a volume's surfaces count
//     where they are, its column's optical depth is exact, and a volume thinner than a slice
//     neither vanishes between samples nor flickers as the sample point is jittered. For the
//     lighting pass, how the volumes are lit (`local_light_out`): their share of σs, their
//     centroid in the slice (the lighting samples the sun's shadow there, not at the jittered
//     point, which a thin volume may not be near), their σs-weighted phase g, and their
//     transmittance towards the sun: through themselves (self-shadowing) and through the other
//     volumes that may shadow them (their casters, common/media/casters.wgsl), as chapter 5's
//     analytic path has it, so that a shadowed volume is lit alike on both sides of the grid's
//     far end. Only
//     the volumes binned on the CPU to the froxel's block (chapters/04-froxel-fog/src/binning.rs)
//     are tested, in list order, so the culling changes no sum.
// After Wronski 2014 (density injection) and Hillaire 2015 (the media material: σs, σt,
// emission per froxel).
// Outputs: `media_out` (rgb: σs, a: σt, 1/m); `emission_out` (rgb: emitted radiance per metre;
// a: the noise factor, for its view); `local_light_out` (x: the volumes' share of σs; y: their
// centroid in the slice, 0–1; z: their phase g; w: their transmittance towards the sun).
// #import 04-froxel-fog/common.wgsl
// #import common/media/shapes.wgsl
// #import common/media/casters.wgsl
// #import common/media/local_volumes.wgsl

@group(2) @binding(1) var media_out: texture_storage_3d<rgba32float, write>;
@group(2) @binding(2) var emission_out: texture_storage_3d<rgba16float, write>;
@group(2) @binding(3) var<storage, read> fog_volumes: array<FogVolume>;
// Per block of BIN_COLUMNS² columns × BIN_SLICES slices, a bit mask of the volumes that may
// reach it (BIN_WORDS words; bit i of word w is volume 32 w + i).
@group(2) @binding(4) var<storage, read> volume_bins: array<u32>;
@group(2) @binding(5) var local_light_out: texture_storage_3d<rgba16float, write>;
// Per volume, a bit mask of the other volumes that may lie between it and the sun (binned on the
// CPU, fogbook_core::fog_volume_casters; all zero when the volumes do not shadow each other).
@group(2) @binding(6) var<storage, read> casters: array<u32>;

// BIN_COLUMNS and BIN_SLICES come from Rust (`FroxelFog::shader_constants`), BIN_WORDS from the
// core's (`fogbook_core::shaders::core_constants`).
// Midpoint steps per slice for a volume with an edge fade (the crossing's ends are exact).
const SLICE_FADE_STEPS: u32 = 8u;

// Where casters.wgsl finds the volumes and their casters' masks.
fn caster_volume(j: u32) -> FogVolume {
    return fog_volumes[j];
}

fn caster_volume_count() -> u32 {
    return froxel.debug.w;
}

fn caster_mask_word(k: u32) -> u32 {
    return casters[k];
}

struct LocalMedia {
    sigma_s: vec3<f32>,
    sigma_t: f32,
    emission: vec3<f32>,
    // y: centroid in the slice (0–1); z: phase g; w: transmittance towards the sun (x unused)
    light: vec4<f32>,
}

// Rec. 709 luminance, with the media layer's scattering weights (MEDIUM_LUMA).
fn luminance(c: vec3<f32>) -> f32 {
    return dot(c, MEDIUM_LUMA);
}

// The local volumes in froxel `id`: the sum over its block's volumes of each one's average over
// the piece [a, b] of the ray o + t·dir through the froxel, and how they are lit. A medium averaged
// over a slice, not at a point: each volume's optical depth in closed form (or a short march)
// divided by the slice's length, fused with how it is lit, so this loop does not call the point
// medium (`fog_volume_medium_at`, `local_volumes_medium_at`); its sum enters the froxel through
// `medium_add` in `media` below. With
// `volume_point_sample` (noise.w), each one's density at the froxel's sample o + t_s·dir instead.
fn local_media(id: vec3<u32>, o: vec3<f32>, dir: vec3<f32>, a: f32, b: f32, t_s: f32) -> LocalMedia {
    var m = LocalMedia(vec3(0.0), 0.0, vec3(0.0), vec4(0.0, 0.5, 0.0, 1.0));
    var centroid = 0.0; // Σ τ_i · middle_i
    var lit = vec3(0.0); // Σ lum(σs_i) · (1, g_i, T_sun,i)
    let blocks = (froxel.grid.xy + vec2(BIN_COLUMNS - 1u)) / BIN_COLUMNS;
    let block = id / vec3(BIN_COLUMNS, BIN_COLUMNS, BIN_SLICES);
    let first = ((block.z * blocks.y + block.y) * blocks.x + block.x) * BIN_WORDS;
    let sun = frame.sun_dir.xyz;
    for (var word = 0u; word < BIN_WORDS; word++) {
        var bits = volume_bins[first + word];
        while bits != 0u {
            let i = word * 32u + countTrailingZeros(bits);
            bits &= bits - 1u; // clear the lowest set bit
            if i >= froxel.debug.w {
                break;
            }
            // ANCHOR: local_volumes
            let v = fog_volumes[i];
            // The slice's piece of the crossing, its ends exact.
            let c = fog_volume_chord(v, o, dir);
            let lo = max(a, c.x);
            let hi = min(b, c.y);
            var w = fog_volume_inside_depth(v, o, dir, lo, hi, SLICE_FADE_STEPS) / (b - a);
            if froxel.noise.w > 0.5 {
                w = fog_volume_weight(v, o + dir * t_s); // the comparison: one point per froxel
            }
            if w > 0.0 {
                let rho = max(v.albedo_density.w, 0.0);
                let t = rho * w;
                let s = clamp(v.albedo_density.rgb, vec3(0.0), vec3(1.0)) * t;
                m.sigma_t += t;
                m.sigma_s += s;
                m.emission += max(v.emission_falloff.rgb, vec3(0.0)) * w;
                // Lit at the middle of its piece, through itself and its casters towards the sun.
                let middle = 0.5 * (lo + hi);
                let q = o + dir * middle;
                let exit = max(fog_volume_chord(v, q, sun).y, 0.0);
                let t_sun = exp(-rho * fog_volume_inside_depth(v, q, sun, 0.0, exit, SLICE_FADE_STEPS))
                    * caster_transmittance(i, q, sun);
                centroid += t * middle;
                lit += luminance(s) * vec3(1.0, v.axis_x.w, t_sun);
            }
            // ANCHOR_END: local_volumes
        }
    }
    if m.sigma_t > 0.0 {
        m.light.y = clamp((centroid / m.sigma_t - a) / (b - a), 0.0, 1.0);
    }
    if lit.x > 0.0 {
        m.light.z = lit.y / lit.x;
        m.light.w = lit.z / lit.x;
    }
    return m;
}

// ANCHOR: media
@compute @workgroup_size(4, 4, 4)
fn media(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= froxel.grid.xyz) {
        return;
    }
    let p = froxel_sample_point(id);
    let noise = noise_factor(p);
    // The column's ray as the sample point's (jittered across with temporal accumulation).
    let dir = normalize(p - frame.camera_pos.xyz);
    let t_s = length(p - frame.camera_pos.xyz);
    let local = local_media(id, frame.camera_pos.xyz, dir, slice_begin(id.z), slice_end(id.z), t_s);
    // The froxel's media, summed through the media layer (common/media/medium.wgsl): the global
    // medium at the sample point plus the local volumes averaged over the slice (an empty list
    // without chapter 5: a zero medium).
    var m = froxel_global_medium(p, noise);
    m = medium_add(m, medium_of(vec3(local.sigma_t), local.sigma_s, local.emission, local.light.z, PHASE_HENYEY_GREENSTEIN));
    let sigma_s = m.scattering;
    let sigma_t = m.extinction.x;
    let emission = m.emission;
    // Past MAX_EXTINCTION every slice is opaque anyway; the cap keeps σs ≤ σt.
    let cap = min(1.0, MAX_EXTINCTION / max(sigma_t, 1e-30));
    textureStore(media_out, id, vec4(sigma_s * cap, sigma_t * cap));
    textureStore(emission_out, id, vec4(emission, noise));
    let share = luminance(local.sigma_s) / max(luminance(sigma_s), 1e-30);
    textureStore(local_light_out, id, vec4(clamp(share, 0.0, 1.0), local.light.yzw));
}
// ANCHOR_END: media
