// Ground truth, the sampling a path tracer needs: a random stream per path (the PCG hash of
// Jarzynski & Olano 2020), an orthonormal basis (Duff et al. 2017), the phase functions of the
// media layer and directions drawn from them (Henyey–Greenstein by inverting its CDF; a
// Cornette–Shanks lobe drawn the same way and weighted by p_CS / p_HG), and cosine-weighted
// directions over a hemisphere (Malley's method). Phases are those of common/volumetric_grid.wgsl.
// #import common/media/medium.wgsl
// #import common/volumetric_grid.wgsl

// ANCHOR: random
// PCG (O'Neill 2014, RXS-M-XS 32): an LCG state stepped once per number, permuted on output. Each
// path's stream starts at the PCG hash (Jarzynski & Olano 2020) of its pixel and sample; the
// LCG's full period, not the hash iterated on itself, carries the stream from there.
var<private> rng_state: u32;

fn pcg_permute(state: u32) -> u32 {
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

fn pcg(v: u32) -> u32 {
    return pcg_permute(v * 747796405u + 2891336453u);
}

// Uniform in [0, 1).
fn random() -> f32 {
    rng_state = rng_state * 747796405u + 2891336453u;
    return f32(pcg_permute(rng_state) >> 8u) * (1.0 / 16777216.0);
}
// ANCHOR_END: random

// An orthonormal basis around the unit n (Duff et al. 2017).
fn basis(n: vec3<f32>) -> mat3x3<f32> {
    let s = select(-1.0, 1.0, n.z >= 0.0);
    let a = -1.0 / (s + n.z);
    let b = n.x * n.y * a;
    return mat3x3(vec3(1.0 + s * n.x * n.x * a, s * b, -s * n.x), vec3(b, s + n.y * n.y * a, -n.y), n);
}

// ANCHOR: phase
// A lobe's phase (1/sr) is `lobe_phase` of common/volumetric_grid.wgsl.
// A direction drawn from Henyey–Greenstein around `forward` by inverting its CDF; a
// Cornette–Shanks lobe is drawn the same way and weighted by p_CS / p_HG (`weight`).
struct PhaseSample {
    dir: vec3<f32>,
    weight: f32,
}

fn sample_phase(lobe: PhaseLobe, forward: vec3<f32>) -> PhaseSample {
    let g = clamp(lobe.g, -0.999, 0.999);
    let u = random();
    var cos_theta = 1.0 - 2.0 * u;
    if abs(g) > 1e-3 {
        let s = (1.0 - g * g) / (1.0 - g + 2.0 * g * u);
        cos_theta = clamp((1.0 + g * g - s * s) / (2.0 * g), -1.0, 1.0);
    }
    let sin_theta = sqrt(max(0.0, 1.0 - cos_theta * cos_theta));
    let phi = 2.0 * PI * random();
    let dir = basis(forward) * vec3(sin_theta * cos(phi), sin_theta * sin(phi), cos_theta);
    var weight = 1.0;
    if lobe.kind == PHASE_CORNETTE_SHANKS {
        weight = cornette_shanks(g, cos_theta) / henyey_greenstein(g, cos_theta);
    }
    return PhaseSample(dir, weight);
}
// ANCHOR_END: phase

// ANCHOR: cosine
// A direction about the unit normal n with density cos θ / π.
fn sample_cosine(n: vec3<f32>) -> vec3<f32> {
    let r = sqrt(random());
    let phi = 2.0 * PI * random();
    return basis(n) * vec3(r * cos(phi), r * sin(phi), sqrt(max(0.0, 1.0 - r * r)));
}
// ANCHOR_END: cosine
