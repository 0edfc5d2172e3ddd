// The cloud noise textures, generated once on the GPU (again only when the seed or the size
// changes), after Schneider & Vos 2015 ("The Real-time Volumetric Cloudscapes of Horizon Zero
// Dawn") and Schneider 2017 ("Nubis"):
// - base shape, N³ rgba8 (N = 128): r Perlin–Worley, g/b/a Worley sums at 4, 8 and 16 cells
//   per tile — the low-frequency "cloud" the density model erodes;
// - detail, M³ rgba8 (M = 32), mip-mapped: r/g/b Worley sums at 2, 4 and 8 cells per tile,
//   which erode the base shape's edges into wisps and billows;
// - weather map, W² rgba8: r coverage, g cloud type, b density — what covers the sky where;
// - curl noise, (W/4)² rgba8: rg the curl of a tileable 2D gradient-noise potential (Bridson et
//   al. 2007), ½ + ½·curl, a divergence-free swirl that distorts the detail lookup.
// Every texel is one evaluation of the tileable noise (tileable_noise.wgsl) at its centre.
// `downsample` builds one mip level of the detail texture from the one above (a 2³ box filter).
// #import 06-clouds/tileable_noise.wgsl

struct NoiseParams {
    seed: u32,
    size: u32,  // texels per side of the texture being written
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> noise: NoiseParams;
@group(0) @binding(1) var volume_out: texture_storage_3d<rgba8unorm, write>;
@group(0) @binding(2) var map_out: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(3) var mip_in: texture_3d<f32>;

// Streams of the hash per seed: each channel draws its own lattice.
// KEYS_PER_SEED, KEY_* and BASE_PERLIN_OCTAVES come from Rust (`noise::shader_constants`).

fn key(stream: u32) -> u32 {
    return noise.seed * KEYS_PER_SEED + stream;
}

fn texel_uvw(id: vec3<u32>) -> vec3<f32> {
    return (vec3<f32>(id) + 0.5) / f32(noise.size);
}

// ANCHOR: base_shape
@compute @workgroup_size(4, 4, 4)
fn base_shape(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= vec3(noise.size)) {
        return;
    }
    let uvw = texel_uvw(id);
    // Each Worley frequency once (4 to 64 cells per tile), shared by the three sums.
    let k = key(KEY_WORLEY);
    let w4 = worley(uvw, 4, k);
    let w8 = worley(uvw, 8, k);
    let w16 = worley(uvw, 16, k);
    let w32 = worley(uvw, 32, k);
    let w64 = worley(uvw, 64, k);
    let perlin = perlin_fbm(uvw, 4, BASE_PERLIN_OCTAVES, key(KEY_PERLIN));
    let low = worley_fbm(w4, w8, w16);
    let texel = vec4(perlin_worley(perlin, low), low, worley_fbm(w8, w16, w32), worley_fbm(w16, w32, w64));
    textureStore(volume_out, id, texel);
}
// ANCHOR_END: base_shape

@compute @workgroup_size(4, 4, 4)
fn detail(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= vec3(noise.size)) {
        return;
    }
    let uvw = texel_uvw(id);
    let k = key(KEY_DETAIL);
    let w2 = worley(uvw, 2, k);
    let w4 = worley(uvw, 4, k);
    let w8 = worley(uvw, 8, k);
    let w16 = worley(uvw, 16, k);
    let w32 = worley(uvw, 32, k);
    textureStore(volume_out, id, vec4(worley_fbm(w2, w4, w8), worley_fbm(w4, w8, w16), worley_fbm(w8, w16, w32), 1.0));
}

// ANCHOR: weather
// Coverage from gradient noise (4 cells per tile, 4 octaves) pushed apart so that there are
// clear gaps and solid patches; type and density vary more slowly.
@compute @workgroup_size(8, 8, 1)
fn weather(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id.xy >= vec2(noise.size)) {
        return;
    }
    let uvw = vec3(texel_uvw(id).xy, 0.5);
    let coverage = clamp((perlin_fbm(uvw, 4, 4u, key(KEY_COVERAGE)) - 0.5) * 3.0 + 0.5, 0.0, 1.0);
    let cloud_type = perlin_fbm(uvw, 2, 3u, key(KEY_TYPE));
    let density = perlin_fbm(uvw, 8, 2u, key(KEY_DENSITY));
    textureStore(map_out, id.xy, vec4(coverage, cloud_type, density, 1.0));
}
// ANCHOR_END: weather

// ANCHOR: curl
// The potential ψ of the curl noise: gradient noise at 4 and 8 cells per tile, in the uv plane.
fn curl_potential(uv: vec2<f32>) -> f32 {
    let p = vec3(uv, 0.5);
    return tile_gradient_noise(p * 4.0, 4, key(KEY_CURL)) + 0.5 * tile_gradient_noise(p * 8.0, 8, key(KEY_CURL + 1u));
}

// curl ψ = (∂ψ/∂v, −∂ψ/∂u) by central differences an eighth of a texel wide, divided by 16 (the
// largest slope ψ reaches, roughly) and clamped to [−1, 1]: divergence-free, and it tiles as ψ does.
@compute @workgroup_size(8, 8, 1)
fn curl(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id.xy >= vec2(noise.size)) {
        return;
    }
    let uv = texel_uvw(id).xy;
    let h = 0.125 / f32(noise.size);
    let du = curl_potential(uv + vec2(h, 0.0)) - curl_potential(uv - vec2(h, 0.0));
    let dv = curl_potential(uv + vec2(0.0, h)) - curl_potential(uv - vec2(0.0, h));
    let c = clamp(vec2(dv, -du) / (2.0 * h * 16.0), vec2(-1.0), vec2(1.0));
    textureStore(map_out, id.xy, vec4(0.5 + 0.5 * c, 0.5, 1.0));
}
// ANCHOR_END: curl

// One mip level from the level above: the mean of each 2³ block.
@compute @workgroup_size(4, 4, 4)
fn downsample(@builtin(global_invocation_id) id: vec3<u32>) {
    if any(id >= vec3(noise.size)) {
        return;
    }
    var sum = vec4(0.0);
    for (var k = 0u; k < 8u; k++) {
        let c = vec3(k & 1u, (k >> 1u) & 1u, (k >> 2u) & 1u);
        sum += textureLoad(mip_in, id * 2u + c, 0);
    }
    textureStore(volume_out, id, sum / 8.0);
}
