//! The f64 tables: 2D and 3D arrays of `Rgb` texels with a lookup that emulates the GPU's
//! linear, clamp-to-edge sampler, a threaded fill of a 3D table row by row, and `Luts`, the set
//! of tables the renderer reads.

use super::Rgb;
use super::math::{add, clamp, mix};

// ---------------------------------------------------------------------------------------------
// Tables and their linear sampler.

/// The two texels a linear filter reads along one axis of `n` texels at the normalised
/// coordinate `u`, and the weight of the second: texel centres at (i + 0.5) / n, indices
/// clamped to the edge texels (clamp-to-edge addressing).
fn linear_taps(u: f64, n: usize) -> (usize, usize, f64) {
    let x = u * n as f64 - 0.5;
    let x0 = x.floor();
    let last = n.saturating_sub(1) as f64;
    // `as usize` saturates (and maps NaN to 0), so odd coordinates cannot index out of range.
    let index = |i: f64| clamp(i, 0.0, last) as usize;
    (index(x0), index(x0 + 1.0), x - x0)
}

/// A 2D table of `width` × `height` texels, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Table2 {
    pub width: usize,
    pub height: usize,
    pub data: Vec<Rgb>,
}

impl Table2 {
    pub fn zeros(width: usize, height: usize) -> Self {
        Self { width, height, data: vec![[0.0; 3]; width * height] }
    }

    /// Texel (i, j) = f(i, j).
    pub fn from_fn(width: usize, height: usize, f: impl Fn(usize, usize) -> Rgb) -> Self {
        let data = (0..width * height).map(|n| f(n % width, n / width)).collect();
        Self { width, height, data }
    }

    /// Texel (i, j); indices are clamped to the table (an empty table reads 0).
    pub fn get(&self, i: usize, j: usize) -> Rgb {
        let (i, j) = (i.min(self.width.saturating_sub(1)), j.min(self.height.saturating_sub(1)));
        self.data.get(j * self.width + i).copied().unwrap_or_default()
    }

    /// Bilinear lookup at normalised coordinates, as a linear, clamp-to-edge GPU sampler.
    pub fn sample(&self, uv: [f64; 2]) -> Rgb {
        let (i0, i1, fx) = linear_taps(uv[0], self.width);
        let (j0, j1, fy) = linear_taps(uv[1], self.height);
        let row = |j| mix(self.get(i0, j), self.get(i1, j), fx);
        mix(row(j0), row(j1), fy)
    }

    /// Texel-wise sum.
    pub(super) fn plus(&self, other: &Table2) -> Table2 {
        let data = self.data.iter().zip(&other.data).map(|(a, b)| add(*a, *b)).collect();
        Table2 { data, ..*self }
    }
}

/// The eight texels a trilinear lookup reads: two indices per axis and the weight of the second.
#[derive(Clone, Copy, Debug)]
pub(super) struct Taps3 {
    i: [usize; 2],
    j: [usize; 2],
    k: [usize; 2],
    f: [f64; 3],
}

/// A 3D table of `width` × `height` × `depth` texels, x fastest.
#[derive(Clone, Debug, PartialEq)]
pub struct Table3 {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub data: Vec<Rgb>,
}

impl Table3 {
    /// Texel (i, j, k); indices are clamped to the table (an empty table reads 0).
    pub fn get(&self, i: usize, j: usize, k: usize) -> Rgb {
        let last = |n: usize| n.saturating_sub(1);
        let (i, j, k) = (i.min(last(self.width)), j.min(last(self.height)), k.min(last(self.depth)));
        self.data.get((k * self.height + j) * self.width + i).copied().unwrap_or_default()
    }

    /// Trilinear lookup at normalised coordinates, as a linear, clamp-to-edge GPU sampler.
    pub fn sample(&self, uvw: [f64; 3]) -> Rgb {
        self.sample_taps(&self.taps(uvw))
    }

    /// Where a lookup at `uvw` reads (the same in every table of this size).
    pub(super) fn taps(&self, uvw: [f64; 3]) -> Taps3 {
        let (i0, i1, fx) = linear_taps(uvw[0], self.width);
        let (j0, j1, fy) = linear_taps(uvw[1], self.height);
        let (k0, k1, fz) = linear_taps(uvw[2], self.depth);
        Taps3 { i: [i0, i1], j: [j0, j1], k: [k0, k1], f: [fx, fy, fz] }
    }

    pub(super) fn sample_taps(&self, t: &Taps3) -> Rgb {
        let texel = |i: usize, j: usize, k: usize| {
            self.data.get((k * self.height + j) * self.width + i).copied().unwrap_or_default()
        };
        let row = |j, k| mix(texel(t.i[0], j, k), texel(t.i[1], j, k), t.f[0]);
        let slice = |k| mix(row(t.j[0], k), row(t.j[1], k), t.f[1]);
        mix(slice(t.k[0]), slice(t.k[1]), t.f[2])
    }

    pub(super) fn from_data(size: [usize; 3], data: Vec<Rgb>) -> Self {
        Self { width: size[0], height: size[1], depth: size[2], data }
    }

    /// The table blended along y and z at (v, w): a trilinear lookup at (u, v, w) is the linear
    /// lookup at u in this row (`sample_row`), the same up to rounding.
    pub(super) fn row_at(&self, v: f64, w: f64) -> Vec<Rgb> {
        let t = self.taps([0.0, v, w]);
        let slice = |i, k| mix(self.get(i, t.j[0], k), self.get(i, t.j[1], k), t.f[1]);
        (0..self.width).map(|i| mix(slice(i, t.k[0]), slice(i, t.k[1]), t.f[2])).collect()
    }
}

/// Linear, clamp-to-edge lookup at u in a row of texels (see `Table3::row_at`).
pub(super) fn sample_row(row: &[Rgb], u: f64) -> Rgb {
    let (i0, i1, f) = linear_taps(u, row.len());
    match (row.get(i0), row.get(i1)) {
        (Some(a), Some(b)) => mix(*a, *b, f),
        _ => [0.0; 3],
    }
}

/// Computes every texel of a w × h × d table: `row(j, k)` once per row — what its texels share
/// (in the scattering table: r and μ) — then `texel(&row, [i, j, k])`. The r-slices (k) are
/// shared out to the available cores, one at a time (their costs differ).
pub(super) fn fill_rows<T, R>(
    size: [usize; 3],
    row: impl Fn(usize, usize) -> R + Sync,
    texel: impl Fn(&R, [usize; 3]) -> T + Sync,
) -> Vec<T>
where
    T: Send + Copy + Default,
{
    let [w, h, d] = size;
    let mut data = vec![T::default(); w * h * d];
    let slices = std::sync::Mutex::new(data.chunks_mut((w * h).max(1)).enumerate());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(d).max(1);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let next = slices.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some((k, slice)) = next else { break };
                    for (j, texels) in slice.chunks_mut(w.max(1)).enumerate() {
                        let shared = row(j, k);
                        for (i, value) in texels.iter_mut().enumerate() {
                            *value = texel(&shared, [i, j, k]);
                        }
                    }
                }
            });
        }
    });
    data
}

/// The lookup tables the renderer reads, as `luts::LutTextures` holds them after
/// `record_precompute`.
#[derive(Clone, Debug, PartialEq)]
pub struct Luts {
    /// (ν, μ_s, μ, r) texels of the scattering function.
    pub size: [u32; 4],
    /// 256 × 64, (r, μ) as in `reference::transmittance_uv`.
    pub transmittance: Table2,
    /// 64 × 16, (r, μ_s): sky irradiance, the sum of orders 2..n of light (not the sun's own).
    pub irradiance: Table2,
    /// Single Rayleigh plus every higher order divided by the Rayleigh phase function.
    pub scattering: Table3,
    pub single_rayleigh: Table3,
    pub single_mie: Table3,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu_luts::testing::close;

    #[test]
    fn sampling_at_a_texel_centre_returns_the_texel_and_clamps_at_the_edges() {
        let t2 = Table2::from_fn(5, 3, |i, j| [i as f64, j as f64, (i * j) as f64]);
        let centre = |i: usize, n: usize| (i as f64 + 0.5) / n as f64;
        for j in 0..3 {
            for i in 0..5 {
                assert_eq!(t2.sample([centre(i, 5), centre(j, 3)]), t2.get(i, j));
            }
        }
        // Halfway between texels: the mean; beyond the edge centres: the edge texel.
        assert!(close(t2.sample([0.2, centre(1, 3)])[0], 0.5, 1e-12));
        assert_eq!(t2.sample([-3.0, 7.0]), t2.get(0, 2));
        assert_eq!(t2.sample([0.05, 0.1]), t2.get(0, 0));
        let t3 = Table3::from_data([4, 3, 2], (0..24).map(|n| [n as f64, 0.0, 1.0]).collect());
        for k in 0..2 {
            for j in 0..3 {
                for i in 0..4 {
                    assert_eq!(t3.sample([centre(i, 4), centre(j, 3), centre(k, 2)]), t3.get(i, j, k));
                }
            }
        }
        assert_eq!(t3.sample([2.0, -1.0, 0.99]), t3.get(3, 0, 1));
        // Halfway between the two r-slices: the mean of texels 12 apart.
        assert!(close(t3.sample([centre(1, 4), centre(1, 3), 0.5])[0], (5.0 + 17.0) / 2.0, 1e-12));
    }
}
