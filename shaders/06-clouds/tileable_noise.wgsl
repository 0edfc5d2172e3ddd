// Tileable noise for the cloud textures: gradient noise (Perlin 1985; the improved form of
// Perlin 2002) and cellular noise (Worley 1996), both on lattices whose integer coordinates wrap
// with a period, so a texture that samples one period tiles without a seam. The lattice hash is
// common/gradient_noise.wgsl's PCG3D, offset per seed and channel (`key`).
// Mirrors fogbook_clouds::noise (its f64 CPU reference): the same integer hash and formulas.
// #import common/gradient_noise.wgsl

// ANCHOR: hash
// Three 32-bit hashes of a wrapped lattice cell, decorrelated per key (seed and channel). Every
// period is a power of two, so the wrap is a mask (in two's complement it also wraps −1 to
// period − 1), not two integer divisions per axis.
fn cell_hash(cell: vec3<i32>, period: i32, key: u32) -> vec3<u32> {
    let wrapped = bitcast<vec3<u32>>(cell) & vec3(u32(period - 1));
    return pcg3d(wrapped + vec3(key * 0x9E3779B9u, key * 0x85EBCA6Bu, key * 0xC2B2AE35u));
}
// ANCHOR_END: hash

// Gradient noise at p (lattice spacing 1, `period` cells per tile), within ±1.0364 (GRADIENT_NOISE_BOUND in chapters/core/src/noise.rs).
fn tile_gradient_noise(p: vec3<f32>, period: i32, key: u32) -> f32 {
    let cell = floor(p);
    let f = p - cell;
    let i = vec3<i32>(cell);
    let u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    var sum = 0.0;
    for (var corner = 0u; corner < 8u; corner++) {
        let c = vec3(corner & 1u, (corner >> 1u) & 1u, (corner >> 2u) & 1u);
        let g = noise_gradient(cell_hash(i + vec3<i32>(c), period, key).x);
        let w = mix(1.0 - u, u, vec3<f32>(c));
        sum += w.x * w.y * w.z * dot(g, f - vec3<f32>(c));
    }
    return sum;
}

// ANCHOR: perlin_fbm
// Fractal sum of gradient noise over tile coordinates uvw in [0, 1): `octaves` octaves from
// `period` cells per tile, doubling the frequency and halving the amplitude, mapped to [0, 1].
fn perlin_fbm(uvw: vec3<f32>, period: i32, octaves: u32, key: u32) -> f32 {
    var sum = 0.0;
    var amplitude = 1.0;
    var total = 0.0;
    var n = period;
    for (var o = 0u; o < octaves; o++) {
        sum += amplitude * tile_gradient_noise(uvw * f32(n), n, key + o);
        total += amplitude;
        amplitude *= 0.5;
        n *= 2;
    }
    return clamp(0.5 + 0.5 * sum / total, 0.0, 1.0);
}
// ANCHOR_END: perlin_fbm

// ANCHOR: worley
// Cellular noise (Worley 1996) over tile coordinates uvw in [0, 1): one feature point per cell
// of a `period`³ grid, the distance F1 to the nearest (in cell units) inverted, 1 − min(F1, 1):
// round billows, 1 at the feature points.
fn worley(uvw: vec3<f32>, period: i32, key: u32) -> f32 {
    let p = uvw * f32(period);
    let cell = floor(p);
    let f = p - cell;
    let i = vec3<i32>(cell);
    var nearest = 1.0;
    for (var k = 0; k < 27; k++) {
        let offset = vec3(k % 3 - 1, (k / 3) % 3 - 1, k / 9 - 1);
        let h = cell_hash(i + offset, period, key);
        let feature = vec3<f32>(offset) + vec3<f32>(h >> vec3(8u)) * (1.0 / 16777216.0);
        let d = feature - f;
        nearest = min(nearest, dot(d, d));
    }
    return 1.0 - min(sqrt(nearest), 1.0);
}

// Three octaves of Worley noise from `period` cells per tile (Schneider & Vos 2015's weights).
fn worley_fbm(w1: f32, w2: f32, w4: f32) -> f32 {
    return 0.625 * w1 + 0.25 * w2 + 0.125 * w4;
}
// ANCHOR_END: worley

// ANCHOR: perlin_worley
// Perlin–Worley (Schneider & Vos 2015): gradient noise whose low values are lifted by the
// Worley sum, remap(perlin, 0, 1, worley, 1): connected shapes with billowy edges.
fn perlin_worley(perlin: f32, worley_sum: f32) -> f32 {
    return worley_sum + perlin * (1.0 - worley_sum);
}
// ANCHOR_END: perlin_worley
