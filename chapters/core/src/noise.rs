//! 3D gradient noise and its fractal sum, in f64: the CPU reference of
//! shaders/common/gradient_noise.wgsl, bit for bit in its hashing (integer arithmetic) and to f32
//! rounding in its values. Perlin's improved noise (Perlin 2002: quintic fade, the twelve edge
//! gradients) with the PCG3D hash (Jarzynski & Olano 2020) in place of a permutation table, so
//! that it needs no texture and repeats only after 2³² lattice cells.

use glam::DVec3;

// ANCHOR: hash
/// PCG3D (Jarzynski & Olano 2020, "Hash Functions for GPU Rendering"): three 32-bit hashes of
/// three 32-bit integers.
pub fn pcg3d(v: [u32; 3]) -> [u32; 3] {
    let [mut x, mut y, mut z] = v.map(|c| c.wrapping_mul(1664525).wrapping_add(1013904223));
    x = x.wrapping_add(y.wrapping_mul(z));
    y = y.wrapping_add(z.wrapping_mul(x));
    z = z.wrapping_add(x.wrapping_mul(y));
    (x, y, z) = (x ^ (x >> 16), y ^ (y >> 16), z ^ (z >> 16));
    x = x.wrapping_add(y.wrapping_mul(z));
    y = y.wrapping_add(z.wrapping_mul(x));
    z = z.wrapping_add(x.wrapping_mul(y));
    [x, y, z]
}
// ANCHOR_END: hash

/// The twelve edge directions of a cube (Perlin 2002), in the order of
/// common/gradient_noise.wgsl's `noise_gradient` (tiling noise built on the same lattice uses them too).
pub const GRADIENTS: [[f64; 3]; 12] = [
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [-1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [-1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [-1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, -1.0, 1.0],
    [0.0, 1.0, -1.0],
    [0.0, -1.0, -1.0],
];

/// Perlin's quintic fade, 6t⁵ − 15t⁴ + 10t³.
pub fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

// ANCHOR: noise_bound
/// The largest |gradient_noise| (and so |fbm|, a weighted mean of octaves) can reach, over every
/// assignment of the 12 edge gradients to a cell's corners: 1.03635, at (0.355, 0.481, 0.5) of
/// a cell and its mirror images (`the_noise_bound_is_the_best_gradients_envelope`). Improved
/// Perlin noise is not confined to [−1, 1]; a majorant or a clamp must use this.
pub const GRADIENT_NOISE_BOUND: f64 = 1.0364;
// ANCHOR_END: noise_bound

/// Gradient noise at p (lattice spacing 1), in [−GRADIENT_NOISE_BOUND, GRADIENT_NOISE_BOUND];
/// 0 at every lattice point.
pub fn gradient_noise(p: DVec3) -> f64 {
    let cell = p.floor();
    let f = p - cell;
    let i = [cell.x as i64 as i32 as u32, cell.y as i64 as i32 as u32, cell.z as i64 as i32 as u32];
    let u = DVec3::new(fade(f.x), fade(f.y), fade(f.z));
    let mut sum = 0.0;
    for corner in 0..8u32 {
        let c = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
        let h = pcg3d([i[0].wrapping_add(c[0]), i[1].wrapping_add(c[1]), i[2].wrapping_add(c[2])]);
        let g = GRADIENTS[(h[0] % 12) as usize];
        let d = f - DVec3::new(c[0] as f64, c[1] as f64, c[2] as f64);
        let w = |k: usize, t: f64| if c[k] == 1 { t } else { 1.0 - t };
        sum += w(0, u.x) * w(1, u.y) * w(2, u.z) * (g[0] * d.x + g[1] * d.y + g[2] * d.z);
    }
    sum
}

/// Octaves of the fractal sum.
pub const FBM_OCTAVES: u32 = 3;

// ANCHOR: fbm
/// Three octaves of gradient noise, each twice the frequency and half the amplitude of the one
/// before, divided by the sum of the amplitudes: mean 0, |fbm| ≤ `GRADIENT_NOISE_BOUND`.
pub fn fbm(p: DVec3) -> f64 {
    let (mut sum, mut amplitude, mut total, mut q) = (0.0, 1.0, 0.0, p);
    for octave in 0..FBM_OCTAVES {
        // Each octave is shifted so their lattice zeros do not line up.
        sum += amplitude * gradient_noise(q + DVec3::splat(octave as f64 * 17.31));
        total += amplitude;
        amplitude *= 0.5;
        q *= 2.0;
    }
    sum / total
}
// ANCHOR_END: fbm

// ANCHOR: periodic
/// Gradient noise that repeats every `period` lattice cells along each axis: the lattice
/// indices are wrapped into [0, period) before they are hashed. Mirrors `periodic_noise` in
/// shaders/common/gradient_noise.wgsl, which bakes it into the fog volumes' noise texture
/// (shaders/common/noise_bake.wgsl).
pub fn periodic_gradient_noise(p: DVec3, period: u32) -> f64 {
    let cell = p.floor();
    let f = p - cell;
    let wrap = |c: f64| (c as i64).rem_euclid(period as i64) as u32;
    let i = [wrap(cell.x), wrap(cell.y), wrap(cell.z)];
    let u = DVec3::new(fade(f.x), fade(f.y), fade(f.z));
    let mut sum = 0.0;
    for corner in 0..8u32 {
        let c = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
        let h = pcg3d([(i[0] + c[0]) % period, (i[1] + c[1]) % period, (i[2] + c[2]) % period]);
        let g = GRADIENTS[(h[0] % 12) as usize];
        let d = f - DVec3::new(c[0] as f64, c[1] as f64, c[2] as f64);
        let w = |k: usize, t: f64| if c[k] == 1 { t } else { 1.0 - t };
        sum += w(0, u.x) * w(1, u.y) * w(2, u.z) * (g[0] * d.x + g[1] * d.y + g[2] * d.z);
    }
    sum
}

/// `octaves` of periodic gradient noise, octave k at 2^k times the frequency and 2^−k the
/// amplitude, divided by the amplitudes' sum: within ±`GRADIENT_NOISE_BOUND`. Every octave is the same noise of
/// period `period` (shifted by 17.31 k cells), so octave k repeats every `period` / 2^k cells of
/// the first and the sum every `period`: one baked texture of one period serves every octave
/// (`media::density::baked_noise`, the GPU's copy).
pub fn periodic_fbm(p: DVec3, octaves: u32, period: u32) -> f64 {
    let (mut sum, mut amplitude, mut total, mut q) = (0.0, 1.0, 0.0, p);
    for octave in 0..octaves {
        sum += amplitude * periodic_gradient_noise(q + DVec3::splat(octave as f64 * 17.31), period);
        total += amplitude;
        amplitude *= 0.5;
        q *= 2.0;
    }
    if total > 0.0 { sum / total } else { 0.0 }
}
// ANCHOR_END: periodic

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_zero_on_the_lattice_bounded_and_not_constant() {
        assert_eq!(gradient_noise(DVec3::new(3.0, -7.0, 12.0)), 0.0);
        let (mut lo, mut hi, mut mean) = (f64::MAX, f64::MIN, 0.0);
        let n = 20_000;
        for k in 0..n {
            let p = DVec3::new(k as f64 * 0.137, (k % 97) as f64 * 0.291, (k % 13) as f64 * 0.71);
            let v = fbm(p);
            (lo, hi, mean) = (lo.min(v), hi.max(v), mean + v / n as f64);
        }
        assert!(lo >= -GRADIENT_NOISE_BOUND && hi <= GRADIENT_NOISE_BOUND, "{lo} {hi}");
        assert!(hi - lo > 0.8, "the noise barely varies: {lo}..{hi}");
        assert!(mean.abs() < 0.05, "mean {mean}");
    }

    /// Inside a cell the noise is Σ over the corners of the fade weight times g · d. Taking at
    /// each corner the gradient that maximises g · d gives an envelope no assignment can exceed;
    /// its maximum over the cell is the bound. Then the real noise, sampled where the envelope
    /// peaks over many cells, goes past 1 and stays inside the bound.
    #[test]
    fn the_noise_bound_is_the_best_gradients_envelope() {
        let envelope = |f: DVec3| -> f64 {
            let u = DVec3::new(fade(f.x), fade(f.y), fade(f.z));
            (0..8u32)
                .map(|corner| {
                    let c = DVec3::new((corner & 1) as f64, ((corner >> 1) & 1) as f64, ((corner >> 2) & 1) as f64);
                    let w = |k: f64, t: f64| if k == 1.0 { t } else { 1.0 - t };
                    let d = f - c;
                    let best = GRADIENTS.iter().map(|g| g[0] * d.x + g[1] * d.y + g[2] * d.z).fold(f64::MIN, f64::max);
                    w(c.x, u.x) * w(c.y, u.y) * w(c.z, u.z) * best
                })
                .sum()
        };
        let n = 64;
        let (mut peak, mut at) = (0.0f64, DVec3::ZERO);
        for i in 0..=n {
            for j in 0..=n {
                for k in 0..=n {
                    let f = DVec3::new(i as f64, j as f64, k as f64) / n as f64;
                    let e = envelope(f);
                    if e > peak {
                        (peak, at) = (e, f);
                    }
                }
            }
        }
        assert!(peak > 1.036 && peak <= GRADIENT_NOISE_BOUND, "envelope peak {peak} at {at}");
        // The noise itself near that point of a million cells: past 1, never past the bound.
        let mut most = 0.0f64;
        for cell in 0..1_000_000u32 {
            let base = DVec3::new((cell % 101) as f64, ((cell / 101) % 103) as f64, (cell / 10403) as f64);
            for p in [at, DVec3::new(at.y, at.x, at.z), DVec3::new(at.x, at.z, at.y)] {
                most = most.max(gradient_noise(base + p).abs());
            }
        }
        eprintln!("envelope peak {peak:.5} at {at}; largest sampled |noise| {most:.5}");
        assert!(most > 1.0 && most <= GRADIENT_NOISE_BOUND, "largest sampled |noise| {most}");
    }

    #[test]
    fn noise_is_continuous_across_cells() {
        let a = gradient_noise(DVec3::new(1.0 - 1e-9, 0.3, 0.6));
        let b = gradient_noise(DVec3::new(1.0 + 1e-9, 0.3, 0.6));
        assert!((a - b).abs() < 1e-7, "{a} {b}");
    }

    #[test]
    fn periodic_noise_repeats_after_its_period_and_only_then() {
        let p = DVec3::new(-3.3, 7.71, 12.45);
        let shift = DVec3::new(16.0, -32.0, 48.0);
        assert!((periodic_fbm(p, 4, 16) - periodic_fbm(p + shift, 4, 16)).abs() < 1e-12);
        assert!((periodic_fbm(p, 4, 16) - periodic_fbm(p + DVec3::X * 8.0, 4, 16)).abs() > 1e-3);
    }
}
