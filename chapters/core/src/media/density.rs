//! A fog volume's density texture: what multiplies its density inside, in its own frame, so that
//! it moves and rotates with the volume. Either scrolling periodic gradient noise (`noise`'s
//! `periodic_fbm`, which the GPU reads from one baked texture of one period: `baked_noise`) or a
//! density grid read from a smoke volume file (`volume_file`, as a smoke simulation saves it)
//! stretched over the volume's box [−1, 1]³ and interpolated trilinearly. The f64
//! reference of shaders/common/media/fog_volume_density.wgsl; the GPU copies of the grids are in
//! `media::textures`.

use crate::media::volumes::FogVolume;
use crate::noise::{periodic_fbm, periodic_gradient_noise};
use crate::volume_file::VolumeFile;
use anyhow::{Result, anyhow, bail};
use glam::DVec3;
use std::path::Path;
use std::sync::OnceLock;

/// `FogVolume::texture[0]`: no texture, the density is constant (times the height falloff).
pub const SOURCE_CONSTANT: f32 = 0.0;
/// Scrolling periodic gradient noise.
pub const SOURCE_NOISE: f32 = 1.0;
/// A density grid from a smoke volume file, in texture slot `texture[1]`.
pub const SOURCE_FILE: f32 = 2.0;

/// Lattice cells after which the noise repeats (every octave is the same noise of this period,
/// so the sum of octaves repeats after this many cells of the first). The scroll offset is
/// wrapped by it, and the baked texture holds one period.
pub const NOISE_PERIOD: u32 = 8;
/// Texels per side of the baked noise (r16float, 128³ · 2 B = 4 MiB): 16 per lattice cell. Its
/// error against the noise itself, trilinear between texel centres plus the f16 rounding, is
/// measured by `baked_noise_error` (a test holds it).
pub const NOISE_BAKE_SIDE: u32 = 128;
/// Most octaves of the noise.
pub const MAX_NOISE_OCTAVES: u32 = 6;
/// Density grids a frame carries: each chapter that draws fog volumes binds this many 3D textures.
pub const MAX_DENSITY_TEXTURES: usize = 4;
/// Cells per side of the largest grid (256³ f32 is 64 MiB per chapter that binds it); the
/// device's `max_texture_dimension_3d` may lower it.
pub const MAX_DENSITY_TEXTURE_SIDE: u32 = 256;

// ANCHOR: density_texture
/// A cubic grid of densities (n³ values, x fastest, then y, then z), the one field a volume
/// uses of a smoke volume file.
#[derive(Clone, Debug, PartialEq)]
pub struct DensityTexture {
    /// Where it came from (a path), for messages.
    pub label: String,
    pub n: u32,
    pub values: Vec<f32>,
    /// The largest of `values` when it was made (`largest`; values changed afterwards leave it
    /// stale, so a grid is made anew, never edited).
    largest: f32,
}

impl DensityTexture {
    pub fn new(label: &str, n: u32, values: Vec<f32>) -> Self {
        let largest = values.iter().fold(0.0f32, |m, &v| m.max(v));
        Self { label: label.to_string(), n, values, largest }
    }

    /// Its largest value, at least 0: trilinear filtering never leaves its texels' range, so this
    /// bounds the grid anywhere (the path tracer's majorant, `fog_volume_texture_majorant`).
    pub fn largest(&self) -> f32 {
        self.largest
    }

    /// The `density` field of a smoke volume file (`VolumeFile::read`: every error it finds, a
    /// missing file, a wrong magic, a truncated or padded file, a NaN, comes back with the path).
    pub fn load(path: &Path) -> Result<Self> {
        let file = VolumeFile::read(path)?;
        Self::from_file(&file, &path.display().to_string())
    }

    pub fn from_file(file: &VolumeFile, label: &str) -> Result<Self> {
        let field = file.field("density").ok_or_else(|| anyhow!("{label}: the file has no density field"))?;
        if field.components != 1 {
            bail!("{label}: its density field has {} components, not 1", field.components);
        }
        Ok(Self::new(label, file.n, field.values.clone()))
    }

    /// Refuses a grid larger than `MAX_DENSITY_TEXTURE_SIDE` or than the device's 3D textures
    /// (`device_side`), or one whose values are not finite.
    pub fn check(&self, device_side: u32) -> Result<()> {
        let side = MAX_DENSITY_TEXTURE_SIDE.min(device_side);
        if self.n == 0 || self.n > side {
            bail!("{}: a {}³ density grid; at most {side}³ fits a density texture here", self.label, self.n);
        }
        if self.values.len() != (self.n as usize).pow(3) {
            bail!("{}: {} values for a {}³ grid", self.label, self.values.len(), self.n);
        }
        if self.values.iter().any(|v| !v.is_finite()) {
            bail!("{}: a density is not a finite number", self.label);
        }
        Ok(())
    }

    fn at(&self, i: [i64; 3]) -> f64 {
        let n = self.n as i64;
        let [x, y, z] = i.map(|c| c.clamp(0, n - 1) as usize);
        self.values[(z * self.n as usize + y) * self.n as usize + x] as f64
    }

    // ANCHOR: trilinear
    /// The grid at u ∈ [−1, 1]³ (the volume's box): cell centres at ((i + ½) / n) · 2 − 1,
    /// trilinear between them, the edge cells' values out to the box's faces (clamp to edge).
    /// Negative values count as 0.
    pub fn sample(&self, u: DVec3) -> f64 {
        trilinear((u * 0.5 + 0.5) * self.n as f64 - 0.5, |i| self.at(i)).max(0.0)
    }
    // ANCHOR_END: trilinear
}

/// Trilinear interpolation at `x` (texel units, texel centres at the integers) of the texels
/// `texel` returns by index (which decides what lies beyond the edges).
fn trilinear(x: DVec3, texel: impl Fn([i64; 3]) -> f64) -> f64 {
    let c = x.floor();
    let f = x - c;
    let i = [c.x as i64, c.y as i64, c.z as i64];
    let mut sum = 0.0;
    for corner in 0..8 {
        let o = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
        let w = |k: usize, t: f64| if o[k] == 1 { t } else { 1.0 - t };
        sum += w(0, f.x) * w(1, f.y) * w(2, f.z) * texel([i[0] + o[0], i[1] + o[1], i[2] + o[2]]);
    }
    sum
}
// ANCHOR_END: density_texture

// ANCHOR: baked_noise
/// The GPU's baked noise, in f64: `periodic_gradient_noise` (period `NOISE_PERIOD`) at the
/// centres of `NOISE_BAKE_SIDE`³ texels spanning one period, each rounded to f16 as the bake
/// stores it (x fastest, then y, then z). Computed once per process.
pub fn baked_noise_texels() -> &'static [f32] {
    static TEXELS: OnceLock<Vec<f32>> = OnceLock::new();
    TEXELS.get_or_init(|| {
        let n = NOISE_BAKE_SIDE as usize;
        let cell = NOISE_PERIOD as f64 / n as f64;
        let mut out = Vec::with_capacity(n * n * n);
        for z in 0..n {
            for y in 0..n {
                for x in 0..n {
                    let p = (DVec3::new(x as f64, y as f64, z as f64) + 0.5) * cell;
                    out.push(round_to_f16(periodic_gradient_noise(p, NOISE_PERIOD)) as f32);
                }
            }
        }
        out
    })
}

/// x rounded to the nearest f16 (ties away from zero; no overflow for |x| ≤ 1).
fn round_to_f16(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let ulp = (x.abs().log2().floor().max(-14.0) - 10.0).exp2();
    (x / ulp).round() * ulp
}

/// The baked noise at p (lattice cells): trilinear between texel centres, wrapped (the
/// sampler's repeat mode) — what the GPU's filtered fetch returns, but in f64.
pub fn baked_noise(p: DVec3) -> f64 {
    let texels = baked_noise_texels();
    let n = NOISE_BAKE_SIDE as i64;
    trilinear(p / NOISE_PERIOD as f64 * n as f64 - 0.5, |i| {
        let [a, b, d] = i.map(|k| k.rem_euclid(n) as usize);
        texels[(d * n as usize + b) * n as usize + a] as f64
    })
}

/// `periodic_fbm` with each octave fetched from the baked noise (as the GPU sums it).
pub fn baked_fbm(p: DVec3, octaves: u32) -> f64 {
    let (mut sum, mut amplitude, mut total, mut q) = (0.0, 1.0, 0.0, p);
    for octave in 0..octaves {
        sum += amplitude * baked_noise(q + DVec3::splat(octave as f64 * 17.31));
        total += amplitude;
        amplitude *= 0.5;
        q *= 2.0;
    }
    if total > 0.0 { sum / total } else { 0.0 }
}

/// The bake's error against the noise itself over `samples` points spread over one period
/// (a fixed low-discrepancy set): (largest |baked − noise|, root mean square).
pub fn baked_noise_error(samples: u32) -> (f64, f64) {
    let (mut worst, mut squares) = (0.0f64, 0.0);
    // The R3 sequence (Roberts 2018): the plastic number's powers.
    let a = DVec3::new(0.8191725133961645, 0.6710436067037893, 0.5497004779019703);
    for k in 0..samples {
        let p = (a * (k as f64 + 0.5)).fract() * NOISE_PERIOD as f64;
        let e = baked_noise(p) - periodic_gradient_noise(p, NOISE_PERIOD);
        worst = worst.max(e.abs());
        squares += e * e;
    }
    (worst, (squares / samples as f64).sqrt())
}
// ANCHOR_END: baked_noise

/// Which noise `texture_factor` uses: the noise itself (the ground truth) or the baked copy the
/// GPU reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoiseModel {
    Analytic,
    Baked,
}

// ANCHOR: texture_factor
/// What multiplies volume v's density at world point p (1 for a constant volume): in its local
/// frame q (metres from its centre, along its axes), `scale · max(0, 1 + contrast · fbm(q · f −
/// offset))` for noise, `scale · grid(q / half)` for a file. `textures` are the frame's grids,
/// indexed by the slot in `texture[1]`; a slot that holds none gives 0. The noise itself.
pub fn texture_factor(v: &FogVolume, p: DVec3, textures: &[&DensityTexture]) -> f64 {
    texture_factor_with(NoiseModel::Analytic, v, p, textures)
}

/// `texture_factor` with the noise of `model`.
pub fn texture_factor_with(model: NoiseModel, v: &FogVolume, p: DVec3, textures: &[&DensityTexture]) -> f64 {
    let source = v.texture[0];
    if source < 0.5 {
        return 1.0;
    }
    let q = v.to_local(p);
    let scale = (v.texture_offset[3] as f64).max(0.0);
    if source < 1.5 {
        let octaves = (v.texture[1].max(0.0) as u32).clamp(1, MAX_NOISE_OCTAVES);
        let offset = DVec3::new(v.texture_offset[0] as f64, v.texture_offset[1] as f64, v.texture_offset[2] as f64);
        let x = q * v.texture[2] as f64 - offset;
        let n = match model {
            NoiseModel::Analytic => periodic_fbm(x, octaves, NOISE_PERIOD),
            NoiseModel::Baked => baked_fbm(x, octaves),
        };
        return scale * (1.0 + v.texture[3] as f64 * n).max(0.0);
    }
    match textures.get(v.texture[1].max(0.0) as usize) {
        Some(t) => scale * t.sample(q / v.half()),
        None => 0.0,
    }
}
// ANCHOR_END: texture_factor

/// The noise's scroll offset at time t (s) for a velocity in the volume's local axes (m/s) and a
/// frequency (1/m): velocity · t · frequency lattice cells, wrapped into [0, NOISE_PERIOD) in
/// f64, so that it stays exact in f32 however long the viewer runs.
pub fn scroll_offset(velocity: DVec3, frequency: f64, time_s: f64) -> [f32; 3] {
    let o = velocity * time_s * frequency;
    let wrap = |x: f64| x.rem_euclid(NOISE_PERIOD as f64) as f32;
    [wrap(o.x), wrap(o.y), wrap(o.z)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trilinear_hits_cell_centres_and_clamps_at_the_faces() {
        let t = DensityTexture::new("t", 2, (0..8).map(|i| i as f32).collect());
        // Cell (1, 0, 1): index 5, centre at u = (0.5, −0.5, 0.5).
        assert!((t.sample(DVec3::new(0.5, -0.5, 0.5)) - 5.0).abs() < 1e-12);
        assert!((t.sample(DVec3::new(1.0, -1.0, 1.0)) - 5.0).abs() < 1e-12, "clamped beyond the centre");
        assert!((t.sample(DVec3::ZERO) - 3.5).abs() < 1e-12, "the mean at the middle");
    }

    #[test]
    fn the_baked_noise_is_the_noise_within_its_stated_error() {
        let (worst, rms) = baked_noise_error(20_000);
        eprintln!("baked noise: worst {worst:.2e}, rms {rms:.2e}");
        assert!(worst < 0.015 && rms < 0.003, "worst {worst}, rms {rms}");
        // At a texel centre only the f16 rounding is left (at most 2⁻¹¹ below 1).
        let centre = DVec3::new(3.5, 1.5, 6.5) * (NOISE_PERIOD as f64 / NOISE_BAKE_SIDE as f64);
        let e = baked_noise(centre) - periodic_gradient_noise(centre, NOISE_PERIOD);
        assert!(e.abs() <= 4.9e-4, "{e}");
        // It tiles: one period on, the same value.
        let p = DVec3::new(-2.3, 5.7, 11.1);
        assert!((baked_noise(p) - baked_noise(p + DVec3::splat(NOISE_PERIOD as f64))).abs() < 1e-12);
    }

    #[test]
    fn too_large_grids_and_nans_are_refused() {
        let mut t = DensityTexture::new("big", 4, vec![1.0; 64]);
        assert!(t.check(2048).is_ok());
        let e = t.check(3).unwrap_err().to_string();
        assert!(e.contains("at most 3³"), "{e}");
        t.values[5] = f32::NAN;
        assert!(t.check(2048).unwrap_err().to_string().contains("finite"));
    }
}
