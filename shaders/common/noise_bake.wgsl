// The fog volumes' noise, baked: periodic gradient noise (common/gradient_noise.wgsl's
// `periodic_noise`, period NOISE_PERIOD cells) at the centres of NOISE_BAKE_SIDE³ texels
// spanning one period, as f16 pairs (pack2x16float) in a buffer that is then copied into an
// r16float 3D texture
// (fogbook_core::media::textures::NoiseBake). Runs once per device, the first time a volume
// has a noise density: frequency, octaves, contrast, scroll and scale are all applied when the
// texture is read (common/media/fog_volume_density.wgsl), so no parameter ever needs a new bake.
// Mirrors fogbook_core::media::density::baked_noise_texels (its f64 copy). NOISE_BAKE_SIDE and
// NOISE_PERIOD come from Rust (fogbook_core::media::density, through the core's prelude).
// #import common/gradient_noise.wgsl

// Texel pairs (x = 2i, 2i + 1), x fastest, then y, then z.
@group(0) @binding(0) var<storage, read_write> texel_pairs: array<u32>;

@compute @workgroup_size(8, 8, 1)
fn bake(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= NOISE_BAKE_SIDE / 2u || id.y >= NOISE_BAKE_SIDE || id.z >= NOISE_BAKE_SIDE {
        return;
    }
    let cell = f32(NOISE_PERIOD) / f32(NOISE_BAKE_SIDE);
    let p0 = (vec3(f32(2u * id.x), f32(id.y), f32(id.z)) + 0.5) * cell;
    let p1 = p0 + vec3(cell, 0.0, 0.0);
    let pair = vec2(periodic_noise(p0, NOISE_PERIOD), periodic_noise(p1, NOISE_PERIOD));
    let row = id.z * NOISE_BAKE_SIDE + id.y;
    texel_pairs[row * (NOISE_BAKE_SIDE / 2u) + id.x] = pack2x16float(pair);
}
