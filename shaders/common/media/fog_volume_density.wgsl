// Fog volume density textures: what multiplies a local fog volume's density inside it, taken in
// the volume's own frame so that it moves and rotates with the volume.
//   - Noise: periodic gradient noise (Perlin 2002, "Improving Noise", hashed by PCG3D after
//     Jarzynski & Olano 2020, its lattice wrapped so that it tiles), baked once into a small
//     tileable texture (common/noise_bake.wgsl) and summed in octaves from it, one filtered
//     fetch per octave (fBm, Musgrave in Ebert et al. 2003), scrolled by an offset the CPU wraps
//     by the period; factor = scale · max(0, 1 + contrast · fbm(q · frequency − offset)).
//   - File: a density grid (a smoke simulation's, saved with its `save`) stretched over the box
//     [−1, 1]³, trilinear between cell centres and clamped at the faces; factor = scale · grid.
//     Interpolated here in f32 from `textureLoad`, not by a sampler: r32float is not filterable
//     everywhere, and a sampler's weights have as few as 8 bits on some GPUs.
// Mirrors fogbook_core::fog_volume_density (its f64 reference). The grids are in group 2,
// bindings 12–15, the baked noise and its sampler in 16–17, of every pass that imports this
// (fogbook_core::fog_volume_textures). A volume as a medium of the media layer
// (common/media/medium.wgsl): `fog_volume_medium_at` and `fog_volume_majorant`, below.
// #import common/media/fog_volume.wgsl
// #import common/media/medium.wgsl

@group(2) @binding(12) var fog_density_0: texture_3d<f32>;
@group(2) @binding(13) var fog_density_1: texture_3d<f32>;
@group(2) @binding(14) var fog_density_2: texture_3d<f32>;
@group(2) @binding(15) var fog_density_3: texture_3d<f32>;

// Whether the pipeline has the texture code (fogbook_core::media::textures::DensityPipelines):
// compiled out while no volume has a texture.
override DENSITY_TEXTURES: bool = true;

// The noise baked once (common/noise_bake.wgsl): periodic gradient noise over one period
// (NOISE_PERIOD cells), 128³ r16float, read through a trilinear sampler that repeats. Its period
// and MAX_NOISE_OCTAVES come from Rust (fogbook_core::media::density).
@group(2) @binding(16) var fog_noise: texture_3d<f32>;
@group(2) @binding(17) var fog_noise_sampler: sampler;

// ANCHOR: periodic_noise
// `octaves` octaves, each at twice the frequency and half the amplitude: every octave is the same
// baked noise of one period (one filtered fetch each), so octave k repeats every period / 2^k
// cells and the sum every period. The coordinate is wrapped into one period before it becomes a
// texture coordinate, so it keeps f32's precision however far p is from the origin.
fn periodic_fbm(p: vec3<f32>, octaves: u32) -> f32 {
    var sum = 0.0;
    var amplitude = 1.0;
    var total = 0.0;
    var q = p;
    for (var octave = 0u; octave < octaves; octave++) {
        let uv = fract((q + vec3(f32(octave) * 17.31)) / f32(NOISE_PERIOD));
        sum += amplitude * textureSampleLevel(fog_noise, fog_noise_sampler, uv, 0.0).r;
        total += amplitude;
        amplitude *= 0.5;
        q *= 2.0;
    }
    return sum / max(total, 1e-6);
}
// ANCHOR_END: periodic_noise

// ANCHOR: trilinear
// The grid `t` at u ∈ [−1, 1]³: cell centres at ((i + ½) / n) · 2 − 1, trilinear between them.
fn fog_density_trilinear(t: texture_3d<f32>, u: vec3<f32>) -> f32 {
    let n = vec3<i32>(textureDimensions(t));
    let x = (u * 0.5 + 0.5) * vec3<f32>(n) - 0.5;
    let c = floor(x);
    let f = x - c;
    let i = vec3<i32>(c);
    var sum = 0.0;
    for (var corner = 0u; corner < 8u; corner++) {
        let o = vec3(i32(corner & 1u), i32((corner >> 1u) & 1u), i32((corner >> 2u) & 1u));
        let w = mix(1.0 - f, f, vec3<f32>(o));
        sum += w.x * w.y * w.z * textureLoad(t, clamp(i + o, vec3(0), n - 1), 0).r;
    }
    return max(sum, 0.0);
}
// ANCHOR_END: trilinear

fn fog_density_grid(slot: u32, u: vec3<f32>) -> f32 {
    switch slot {
        case 0u: { return fog_density_trilinear(fog_density_0, u); }
        case 1u: { return fog_density_trilinear(fog_density_1, u); }
        case 2u: { return fog_density_trilinear(fog_density_2, u); }
        case 3u: { return fog_density_trilinear(fog_density_3, u); }
        default: { return 0.0; }
    }
}

fn fog_volume_textured(v: FogVolume) -> bool {
    return DENSITY_TEXTURES && v.texture.x > 0.5;
}

// ANCHOR: texture_factor
// What multiplies v's density at world point p (1 without a texture).
fn fog_volume_texture_factor(v: FogVolume, p: vec3<f32>) -> f32 {
    if !DENSITY_TEXTURES || v.texture.x < 0.5 {
        return 1.0;
    }
    let q = fog_volume_local_dir(v, p - v.centre.xyz);
    let scale = max(v.texture_offset.w, 0.0);
    if v.texture.x < 1.5 {
        let octaves = clamp(u32(max(v.texture.y, 0.0)), 1u, MAX_NOISE_OCTAVES);
        let n = periodic_fbm(q * v.texture.z - v.texture_offset.xyz, octaves);
        return scale * max(1.0 + v.texture.w * n, 0.0);
    }
    return scale * fog_density_grid(u32(max(v.texture.y, 0.0)), q / fog_volume_half(v));
}
// ANCHOR_END: texture_factor

// ANCHOR: volume_medium
// Volume v as a medium at p: σt = ρ · weight · texture (ρ the density at y₀), σs = albedo · σt,
// emission · weight · texture, one HG lobe of v's g — the integrand of the optical depths in
// shapes.wgsl, at one point.
fn fog_volume_medium_at(v: FogVolume, p: vec3<f32>) -> Medium {
    let w = fog_volume_weight(v, p) * fog_volume_texture_factor(v, p);
    let t = max(v.albedo_density.w, 0.0) * w;
    let s = clamp(v.albedo_density.rgb, vec3(0.0), vec3(1.0)) * t;
    return medium_of(vec3(t), s, max(v.emission_falloff.rgb, vec3(0.0)) * w, v.axis_x.w, PHASE_HENYEY_GREENSTEIN);
}

// The largest texture factor anywhere: noise, scale · (1 + |contrast| · 1.0364) (|fbm| ≤
// GRADIENT_NOISE_BOUND, chapters/core/src/noise.rs; trilinear filtering stays inside its texels'
// range); a file grid, scale · its largest value, which the volume carries (texture.z) — where
// it does not, no finite bound (a consumer marches it).
fn fog_volume_texture_majorant(v: FogVolume) -> f32 {
    if !fog_volume_textured(v) {
        return 1.0;
    }
    let scale = max(v.texture_offset.w, 0.0);
    if v.texture.x < 1.5 {
        return scale * (1.0 + abs(v.texture.w) * 1.0364);
    }
    return select(3.0e38, scale * v.texture.z, v.texture.z > 0.0);
}

// A bound on v's σt over the box [box_min, box_max]: 0 where the box misses v's world bounds,
// else ρ times the falloff at the lowest height both share (the fade is at most 1) times the
// texture's largest factor.
fn fog_volume_majorant(v: FogVolume, box_min: vec3<f32>, box_max: vec3<f32>) -> Majorant {
    let half = fog_volume_half(v);
    let reach = fog_volume_reach(v);
    let lo = max(box_min, v.centre.xyz - reach);
    let hi = min(box_max, v.centre.xyz + reach);
    if any(lo > hi) {
        return majorant_none();
    }
    let above = lo.y - (v.centre.y - half.y);
    let falloff = exp(min(-max(v.emission_falloff.w, 0.0) * above, FOG_MAX_EXPONENT));
    let rho = max(v.albedo_density.w, 0.0);
    return Majorant(vec3(rho * falloff * fog_volume_texture_majorant(v) * MAJORANT_MARGIN));
}
// ANCHOR_END: volume_medium
