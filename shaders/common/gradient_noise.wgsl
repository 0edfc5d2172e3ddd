// 3D gradient noise and a three-octave fractal sum. Perlin's improved noise (Perlin 2002,
// "Improving Noise": quintic fade, the twelve cube-edge gradients) with the PCG3D hash
// (Jarzynski & Olano 2020, "Hash Functions for GPU Rendering") instead of a permutation table.
// Mirrors fogbook_core::noise (its f64 CPU reference): the same integer hash, so the two agree to
// f32 rounding.

// ANCHOR: hash
fn pcg3d(v_in: vec3<u32>) -> vec3<u32> {
    var v = v_in * 1664525u + 1013904223u;
    v.x += v.y * v.z;
    v.y += v.z * v.x;
    v.z += v.x * v.y;
    v ^= v >> vec3(16u);
    v.x += v.y * v.z;
    v.y += v.z * v.x;
    v.z += v.x * v.y;
    return v;
}
// ANCHOR_END: hash

fn noise_gradient(h: u32) -> vec3<f32> {
    switch h % 12u {
        case 0u: { return vec3(1.0, 1.0, 0.0); }
        case 1u: { return vec3(-1.0, 1.0, 0.0); }
        case 2u: { return vec3(1.0, -1.0, 0.0); }
        case 3u: { return vec3(-1.0, -1.0, 0.0); }
        case 4u: { return vec3(1.0, 0.0, 1.0); }
        case 5u: { return vec3(-1.0, 0.0, 1.0); }
        case 6u: { return vec3(1.0, 0.0, -1.0); }
        case 7u: { return vec3(-1.0, 0.0, -1.0); }
        case 8u: { return vec3(0.0, 1.0, 1.0); }
        case 9u: { return vec3(0.0, -1.0, 1.0); }
        case 10u: { return vec3(0.0, 1.0, -1.0); }
        default: { return vec3(0.0, -1.0, -1.0); }
    }
}

// Gradient noise at p (lattice spacing 1), in [−1.0364, 1.0364] (not [−1, 1]: see GRADIENT_NOISE_BOUND in chapters/core/src/noise.rs).
fn gradient_noise(p: vec3<f32>) -> f32 {
    let cell = floor(p);
    let f = p - cell;
    let i = bitcast<vec3<u32>>(vec3<i32>(cell));
    let u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    var sum = 0.0;
    for (var corner = 0u; corner < 8u; corner++) {
        let c = vec3(corner & 1u, (corner >> 1u) & 1u, (corner >> 2u) & 1u);
        let g = noise_gradient(pcg3d(i + c).x);
        let w = mix(1.0 - u, u, vec3<f32>(c));
        sum += w.x * w.y * w.z * dot(g, f - vec3<f32>(c));
    }
    return sum;
}

// ANCHOR: periodic_noise
// Gradient noise repeating every `period` lattice cells: the cell's indices wrapped into
// [0, period) before they are hashed (fogbook_core::noise::periodic_gradient_noise). Baked into
// the fog volumes' noise texture (common/noise_bake.wgsl).
fn periodic_noise(p: vec3<f32>, period: u32) -> f32 {
    let cell = floor(p);
    let f = p - cell;
    let per = i32(period);
    let i = vec3<u32>(((vec3<i32>(cell) % per) + per) % per);
    let u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    var sum = 0.0;
    for (var corner = 0u; corner < 8u; corner++) {
        let c = vec3(corner & 1u, (corner >> 1u) & 1u, (corner >> 2u) & 1u);
        let g = noise_gradient(pcg3d((i + c) % vec3(period)).x);
        let w = mix(1.0 - u, u, vec3<f32>(c));
        sum += w.x * w.y * w.z * dot(g, f - vec3<f32>(c));
    }
    return sum;
}
// ANCHOR_END: periodic_noise

// ANCHOR: fbm
// FBM_OCTAVES (three) octaves, each at twice the frequency and half the amplitude, divided by
// the sum of the amplitudes: mean 0, within ±1.0364.
fn fbm3(p: vec3<f32>) -> f32 {
    var sum = 0.0;
    var amplitude = 1.0;
    var total = 0.0;
    var q = p;
    for (var octave = 0u; octave < FBM_OCTAVES; octave++) {
        sum += amplitude * gradient_noise(q + vec3(f32(octave) * 17.31));
        total += amplitude;
        amplitude *= 0.5;
        q *= 2.0;
    }
    return sum / total;
}
// ANCHOR_END: fbm
