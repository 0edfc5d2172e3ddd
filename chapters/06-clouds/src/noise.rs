//! The cloud noise in f64: the CPU reference of shaders/06-clouds/tileable_noise.wgsl and
//! noise_generate.wgsl, with the same integer hash (PCG3D, `fogbook_core::noise::pcg3d`) and
//! the same formulas, so that the GPU's textures can be checked texel by texel and their tiling
//! shown on the exact function.

use fogbook_core::noise::{GRADIENTS, fade, pcg3d};
use glam::DVec3;

// ANCHOR: hash
/// Three hashes of a lattice cell wrapped to `period` (a power of two), decorrelated per `key`
/// (seed and channel).
pub fn cell_hash(cell: [i32; 3], period: i32, key: u32) -> [u32; 3] {
    debug_assert!(period > 0 && (period & (period - 1)) == 0, "period {period} is not a power of two");
    let w = cell.map(|c| c.rem_euclid(period) as u32);
    pcg3d([
        w[0].wrapping_add(key.wrapping_mul(0x9E3779B9)),
        w[1].wrapping_add(key.wrapping_mul(0x85EBCA6B)),
        w[2].wrapping_add(key.wrapping_mul(0xC2B2AE35)),
    ])
}
// ANCHOR_END: hash

/// Gradient noise at p (lattice spacing 1, `period` cells per tile), within ±1.0364 (`fogbook_core::noise::GRADIENT_NOISE_BOUND`: the same 12 gradients).
pub fn tile_gradient_noise(p: DVec3, period: i32, key: u32) -> f64 {
    let cell = p.floor();
    let f = p - cell;
    let i = [cell.x as i32, cell.y as i32, cell.z as i32];
    let u = [fade(f.x), fade(f.y), fade(f.z)];
    let mut sum = 0.0;
    for corner in 0..8 {
        let c = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
        let g = GRADIENTS[(cell_hash([i[0] + c[0], i[1] + c[1], i[2] + c[2]], period, key)[0] % 12) as usize];
        let d = f - DVec3::new(c[0] as f64, c[1] as f64, c[2] as f64);
        let w = |k: usize| if c[k] == 1 { u[k] } else { 1.0 - u[k] };
        sum += w(0) * w(1) * w(2) * (g[0] * d.x + g[1] * d.y + g[2] * d.z);
    }
    sum
}

/// `octaves` octaves of tileable gradient noise from `period` cells per tile over tile
/// coordinates uvw in [0, 1)³, mapped to [0, 1].
pub fn perlin_fbm(uvw: DVec3, period: i32, octaves: u32, key: u32) -> f64 {
    let (mut sum, mut amplitude, mut total, mut n) = (0.0, 1.0, 0.0, period);
    for o in 0..octaves {
        sum += amplitude * tile_gradient_noise(uvw * n as f64, n, key + o);
        total += amplitude;
        amplitude *= 0.5;
        n *= 2;
    }
    (0.5 + 0.5 * sum / total).clamp(0.0, 1.0)
}

// ANCHOR: worley
/// Inverted cellular noise (Worley 1996): 1 − min(F1, 1), F1 the distance (in cells) to the
/// nearest of one feature point per cell of a `period`³ grid over the tile.
pub fn worley(uvw: DVec3, period: i32, key: u32) -> f64 {
    let p = uvw * period as f64;
    let cell = p.floor();
    let f = p - cell;
    let i = [cell.x as i32, cell.y as i32, cell.z as i32];
    let mut nearest = 1.0f64;
    for k in 0..27 {
        let o = [k % 3 - 1, (k / 3) % 3 - 1, k / 9 - 1];
        let h = cell_hash([i[0] + o[0], i[1] + o[1], i[2] + o[2]], period, key);
        let feature = DVec3::new(o[0] as f64, o[1] as f64, o[2] as f64)
            + DVec3::new((h[0] >> 8) as f64, (h[1] >> 8) as f64, (h[2] >> 8) as f64) / 16_777_216.0;
        nearest = nearest.min((feature - f).length_squared());
    }
    1.0 - nearest.sqrt().min(1.0)
}
// ANCHOR_END: worley

pub fn worley_fbm(w1: f64, w2: f64, w4: f64) -> f64 {
    0.625 * w1 + 0.25 * w2 + 0.125 * w4
}

/// Hash streams per seed; `noise_generate.wgsl` gets them from `shader_constants`.
const KEYS_PER_SEED: u32 = 64;
const KEY_PERLIN: u32 = 0;
const KEY_WORLEY: u32 = 8;
const KEY_DETAIL: u32 = 16;
const KEY_COVERAGE: u32 = 24;
const KEY_TYPE: u32 = 32;
const KEY_DENSITY: u32 = 40;
const KEY_CURL: u32 = 48;
const BASE_PERLIN_OCTAVES: u32 = 4;

/// The hash streams above, for the noise generator's WGSL.
pub fn shader_constants() -> Vec<fogbook_core::shaders::WgslConst> {
    use fogbook_core::shaders::WgslConst;
    let u = WgslConst::u32;
    vec![
        u("KEYS_PER_SEED", KEYS_PER_SEED),
        u("KEY_PERLIN", KEY_PERLIN),
        u("KEY_WORLEY", KEY_WORLEY),
        u("KEY_DETAIL", KEY_DETAIL),
        u("KEY_COVERAGE", KEY_COVERAGE),
        u("KEY_TYPE", KEY_TYPE),
        u("KEY_DENSITY", KEY_DENSITY),
        u("KEY_CURL", KEY_CURL),
        u("BASE_PERLIN_OCTAVES", BASE_PERLIN_OCTAVES),
    ]
}

fn key(seed: u32, stream: u32) -> u32 {
    seed.wrapping_mul(KEYS_PER_SEED).wrapping_add(stream)
}

/// Tile coordinates of texel `id` of an n-texel side.
pub fn texel_uvw(id: [u32; 3], n: u32) -> DVec3 {
    (DVec3::new(id[0] as f64, id[1] as f64, id[2] as f64) + 0.5) / n as f64
}

// ANCHOR: channels
/// The base-shape texel at uvw: Perlin–Worley, then Worley sums from 4, 8 and 16 cells per tile.
pub fn base_shape(uvw: DVec3, seed: u32) -> [f64; 4] {
    let k = key(seed, KEY_WORLEY);
    let w = [4, 8, 16, 32, 64].map(|n| worley(uvw, n, k));
    let perlin = perlin_fbm(uvw, 4, BASE_PERLIN_OCTAVES, key(seed, KEY_PERLIN));
    let low = worley_fbm(w[0], w[1], w[2]);
    [low + perlin * (1.0 - low), low, worley_fbm(w[1], w[2], w[3]), worley_fbm(w[2], w[3], w[4])]
}

/// The detail texel at uvw: Worley sums from 2, 4 and 8 cells per tile.
pub fn detail(uvw: DVec3, seed: u32) -> [f64; 4] {
    let k = key(seed, KEY_DETAIL);
    let w = [2, 4, 8, 16, 32].map(|n| worley(uvw, n, k));
    [worley_fbm(w[0], w[1], w[2]), worley_fbm(w[1], w[2], w[3]), worley_fbm(w[2], w[3], w[4]), 1.0]
}

/// The weather-map texel at uv: coverage, cloud type, density.
pub fn weather(uv: [f64; 2], seed: u32) -> [f64; 4] {
    let p = DVec3::new(uv[0], uv[1], 0.5);
    let coverage = ((perlin_fbm(p, 4, 4, key(seed, KEY_COVERAGE)) - 0.5) * 3.0 + 0.5).clamp(0.0, 1.0);
    [coverage, perlin_fbm(p, 2, 3, key(seed, KEY_TYPE)), perlin_fbm(p, 8, 2, key(seed, KEY_DENSITY)), 1.0]
}

/// The curl-noise texel at uv of an n-texel side: ½ + ½·curl ψ (noise_generate.wgsl's `curl`),
/// with ψ evaluated in f64 but the same eighth-of-a-texel central differences.
pub fn curl(uv: [f64; 2], n: u32, seed: u32) -> [f64; 4] {
    let psi = |u: f64, v: f64| {
        let p = DVec3::new(u, v, 0.5);
        tile_gradient_noise(p * 4.0, 4, key(seed, KEY_CURL))
            + 0.5 * tile_gradient_noise(p * 8.0, 8, key(seed, KEY_CURL + 1))
    };
    let h = 0.125 / n as f64;
    let du = psi(uv[0] + h, uv[1]) - psi(uv[0] - h, uv[1]);
    let dv = psi(uv[0], uv[1] + h) - psi(uv[0], uv[1] - h);
    let c = [dv, -du].map(|d| (d / (2.0 * h * 16.0)).clamp(-1.0, 1.0));
    [0.5 + 0.5 * c[0], 0.5 + 0.5 * c[1], 0.5, 1.0]
}
// ANCHOR_END: channels

#[cfg(test)]
mod tests {
    use super::*;

    /// The curl noise has no divergence: ∂c_u/∂u + ∂c_v/∂v, by differences, is a small fraction
    /// of the field's own slope (where it is not clamped) — 0.7% measured, what the curl's own
    /// differences an eighth of a texel wide leave (their error is of order h²); a field that
    /// is not a curl, e.g. the gradient (∂ψ/∂u, ∂ψ/∂v), has a divergence as large as its slope.
    #[test]
    fn curl_noise_is_divergence_free() {
        let c = |u: f64, v: f64| curl([u, v], 32, 3).map(|x| 2.0 * x - 1.0);
        let e = 1e-4;
        let (mut worst, mut slope) = (0.0f64, 0.0f64);
        for i in 0..20 {
            for j in 0..20 {
                let (u, v) = (0.013 + i as f64 * 0.049, 0.021 + j as f64 * 0.047);
                let here = c(u, v);
                if here[0].abs() > 0.99 || here[1].abs() > 0.99 {
                    continue;
                }
                let dcu = (c(u + e, v)[0] - c(u - e, v)[0]) / (2.0 * e);
                let dcv = (c(u, v + e)[1] - c(u, v - e)[1]) / (2.0 * e);
                worst = worst.max((dcu + dcv).abs());
                slope = slope.max(dcu.abs()).max(dcv.abs());
            }
        }
        assert!(slope > 1.0 && worst < 2e-2 * slope, "divergence {worst:.3e} against slopes up to {slope:.3e}");
    }

    /// The curl-noise texel is curl ψ = (∂ψ/∂v, −∂ψ/∂u) / 16 of its potential, with that sign:
    /// checked against the derivatives of ψ taken here, by central differences 1e-6 wide (not
    /// `curl`'s eighth of a texel), at points all over the tile. The divergence test above cannot
    /// see the sign (−curl ψ has no divergence either), nor the GPU comparison (the WGSL and this
    /// port share it); a flipped or swapped component is off by up to twice the field here.
    #[test]
    fn curl_noise_is_the_curl_of_its_potential_with_its_sign() {
        let (n, seed) = (32, 3);
        let psi = |u: f64, v: f64| {
            let p = DVec3::new(u, v, 0.5);
            tile_gradient_noise(p * 4.0, 4, key(seed, KEY_CURL))
                + 0.5 * tile_gradient_noise(p * 8.0, 8, key(seed, KEY_CURL + 1))
        };
        let e = 1e-6;
        let (mut worst, mut largest, mut checked) = (0.0f64, 0.0f64, 0);
        for i in 0..25 {
            for j in 0..25 {
                let (u, v) = (0.011 + i as f64 * 0.039, 0.017 + j as f64 * 0.041);
                let d_du = (psi(u + e, v) - psi(u - e, v)) / (2.0 * e);
                let d_dv = (psi(u, v + e) - psi(u, v - e)) / (2.0 * e);
                let want = [d_dv / 16.0, -d_du / 16.0];
                if want.iter().any(|w| w.abs() > 0.98) {
                    continue; // clamped
                }
                let got = curl([u, v], n, seed);
                for k in 0..2 {
                    let err = (2.0 * got[k] - 1.0 - want[k]).abs();
                    assert!(
                        err < 0.01,
                        "({u:.3},{v:.3}) channel {k}: texel {} against curl ψ {}",
                        2.0 * got[k] - 1.0,
                        want[k]
                    );
                    worst = worst.max(err);
                    largest = largest.max(want[k].abs());
                }
                assert_eq!((got[2], got[3]), (0.5, 1.0));
                checked += 1;
            }
        }
        eprintln!(
            "curl against the potential's derivatives: worst {worst:.2e}, field up to {largest:.2}, {checked} points"
        );
        assert!(checked > 400 && largest > 0.3, "{checked} points, field up to {largest}");
    }

    /// The functions repeat with their period: the value one tile over is the same.
    #[test]
    fn every_channel_repeats_after_one_tile() {
        for k in 0..50 {
            let uvw = DVec3::new(k as f64 * 0.0173, (k % 7) as f64 * 0.131, (k % 11) as f64 * 0.087);
            for shift in [DVec3::X, DVec3::Y, DVec3::Z, -DVec3::ONE] {
                let (a, b) = (base_shape(uvw, 3), base_shape(uvw + shift, 3));
                let (c, d) = (detail(uvw, 3), detail(uvw + shift, 3));
                for i in 0..4 {
                    assert!((a[i] - b[i]).abs() < 1e-9 && (c[i] - d[i]).abs() < 1e-9, "{uvw} {shift} {i}");
                }
            }
        }
    }

    /// Values stay in [0, 1] and vary; different seeds give different noise.
    #[test]
    fn channels_are_in_range_and_vary_with_the_seed() {
        let samples: Vec<[f64; 4]> = (0..2000)
            .map(|k| base_shape(DVec3::new(k as f64 * 0.0137, k as f64 * 0.0071, k as f64 * 0.0029), 1))
            .collect();
        for c in 0..4 {
            let (lo, hi) = samples.iter().fold((1.0f64, 0.0f64), |(lo, hi), s| (lo.min(s[c]), hi.max(s[c])));
            assert!(lo >= 0.0 && hi <= 1.0 && hi - lo > 0.3, "channel {c}: {lo}..{hi}");
        }
        let p = DVec3::new(0.3, 0.6, 0.1);
        assert_ne!(base_shape(p, 1), base_shape(p, 2));
    }
}
