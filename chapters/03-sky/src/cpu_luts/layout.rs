//! The scattering and irradiance textures' parameterisations (common/atmosphere_tables.wgsl,
//! 03-sky/atmosphere.wgsl): the coordinates a texel stands for, the texture coordinates of
//! (r, μ, μ_s, ν) and back, and where `get_scattering` reads in the 3D table.

use super::Rgb;
use super::math::{clamp, clamp_cosine, mix, safe_sqrt};
use super::tables::{Table3, sample_row};
use crate::luts::IRRADIANCE_SIZE;
use crate::reference::{Atmosphere, coord_from_unit_range, unit_range_from_coord};

// ---------------------------------------------------------------------------------------------
// Parameterisations (common/atmosphere_tables.wgsl, 03-sky/atmosphere.wgsl).

/// (r, μ, μ_s, ν) and whether the ray from (r, μ) ends on the ground: the coordinates of the 4D
/// scattering function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScatteringCoord {
    pub r: f64,
    pub mu: f64,
    pub mu_s: f64,
    pub nu: f64,
    pub ground: bool,
}

/// The scattering texture's parameterisation for one atmosphere and size, with its constants.
#[derive(Clone, Copy)]
pub(super) struct Layout<'a> {
    atm: &'a Atmosphere,
    size: [u32; 4],
    /// Distance to the top of the atmosphere from the ground at the horizon.
    horizon: f64,
    /// μ_s's parameter A at μ_s_min: the compression maps μ_s_min to 0.
    mu_s_min_a: f64,
}

impl<'a> Layout<'a> {
    pub(super) fn new(atm: &'a Atmosphere, size: [u32; 4]) -> Self {
        let (bottom, top) = (atm.bottom_radius, atm.top_radius);
        let horizon = (top * top - bottom * bottom).sqrt();
        let mu_s_min_a = (atm.distance_to_top(bottom, crate::MU_S_MIN) - (top - bottom)) / (horizon - (top - bottom));
        Self { atm, size, horizon, mu_s_min_a }
    }

    /// (ν, μ_s, μ, r) texel counts.
    fn counts(&self) -> [f64; 4] {
        self.size.map(f64::from)
    }

    /// Texels of the 3D table: (ν·μ_s, μ, r).
    pub(super) fn table_size(&self) -> [usize; 3] {
        let [nu, mu_s, mu, r] = self.size.map(|s| s as usize);
        [nu * mu_s, mu, r]
    }

    /// (u_μ, u_r): the texture coordinates of the ray from (r, μ).
    pub(super) fn u_mu_r(&self, r: f64, mu: f64, ground: bool) -> [f64; 2] {
        let [_, _, size_mu, size_r] = self.counts();
        let (bottom, top, horizon) = (self.atm.bottom_radius, self.atm.top_radius, self.horizon);
        let rho = safe_sqrt(r * r - bottom * bottom);
        let u_r = coord_from_unit_range(rho / horizon, size_r);
        // μ: the distance to the ground (lower half) or to the top (upper half), each normalised
        // between its values straight down/up and at the horizon.
        let r_mu = r * mu;
        let disc = r_mu * r_mu - r * r + bottom * bottom;
        let u_mu = if ground {
            let d = -r_mu - safe_sqrt(disc);
            let (d_min, d_max) = (r - bottom, rho);
            let x = if d_max > d_min { (d - d_min) / (d_max - d_min) } else { 0.0 };
            0.5 - 0.5 * coord_from_unit_range(x, size_mu / 2.0)
        } else {
            let d = -r_mu + safe_sqrt(disc + horizon * horizon);
            let (d_min, d_max) = (top - r, rho + horizon);
            0.5 + 0.5 * coord_from_unit_range((d - d_min) / (d_max - d_min), size_mu / 2.0)
        };
        [u_mu, u_r]
    }

    /// u_μs: the distance to the top from the ground towards the sun, compressed.
    pub(super) fn u_mu_s(&self, mu_s: f64) -> f64 {
        let (bottom, top) = (self.atm.bottom_radius, self.atm.top_radius);
        let d = self.atm.distance_to_top(bottom, mu_s);
        let (d_min, d_max) = (top - bottom, self.horizon);
        let a = (d - d_min) / (d_max - d_min);
        coord_from_unit_range((1.0 - a / self.mu_s_min_a).max(0.0) / (1.0 + a), self.counts()[1])
    }

    /// (u_ν, u_μs, u_μ, u_r) of (r, μ, μ_s, ν).
    pub(super) fn uvwz(&self, c: ScatteringCoord) -> [f64; 4] {
        let [u_mu, u_r] = self.u_mu_r(c.r, c.mu, c.ground);
        [(c.nu + 1.0) / 2.0, self.u_mu_s(c.mu_s), u_mu, u_r]
    }

    /// The inverse of `uvwz`.
    fn coord(&self, uvwz: [f64; 4]) -> ScatteringCoord {
        let [_, size_mu_s, size_mu, size_r] = self.counts();
        let (bottom, top, horizon) = (self.atm.bottom_radius, self.atm.top_radius, self.horizon);
        let rho = horizon * unit_range_from_coord(uvwz[3], size_r);
        let r = (rho * rho + bottom * bottom).sqrt();
        let (mu, ground) = if uvwz[2] < 0.5 {
            let (d_min, d_max) = (r - bottom, rho);
            let d = d_min + (d_max - d_min) * unit_range_from_coord(1.0 - 2.0 * uvwz[2], size_mu / 2.0);
            let mu = if d > 0.0 { clamp_cosine(-(rho * rho + d * d) / (2.0 * r * d)) } else { -1.0 };
            (mu, true)
        } else {
            let (d_min, d_max) = (top - r, rho + horizon);
            let d = d_min + (d_max - d_min) * unit_range_from_coord(2.0 * uvwz[2] - 1.0, size_mu / 2.0);
            let mu = if d > 0.0 { clamp_cosine((horizon * horizon - rho * rho - d * d) / (2.0 * r * d)) } else { 1.0 };
            (mu, false)
        };
        let x_mu_s = unit_range_from_coord(uvwz[1], size_mu_s);
        let (d_min, d_max) = (top - bottom, horizon);
        let big_a = self.mu_s_min_a;
        let a = (big_a - x_mu_s * big_a) / (1.0 + x_mu_s * big_a);
        let d = d_min + a.min(big_a) * (d_max - d_min);
        let mu_s = if d > 0.0 { clamp_cosine((horizon * horizon - d * d) / (2.0 * bottom * d)) } else { 1.0 };
        let nu = clamp_cosine(uvwz[0] * 2.0 - 1.0);
        ScatteringCoord { r, mu, mu_s, nu, ground }
    }

    /// What a texel of the 3D table stands for: x holds ν in blocks of μ_s texels, y μ, z r; ν is
    /// clamped to the values μ and μ_s allow. The texels of a row (j, k) share r, μ and the
    /// ground flag.
    pub(super) fn texel_coord(&self, texel: [usize; 3]) -> ScatteringCoord {
        let [size_nu, size_mu_s, size_mu, size_r] = self.counts();
        let frag = texel.map(|t| t as f64 + 0.5);
        let frag_nu = (frag[0] / size_mu_s).floor();
        let frag_mu_s = frag[0] - frag_nu * size_mu_s;
        let uvwz = [frag_nu / (size_nu - 1.0), frag_mu_s / size_mu_s, frag[1] / size_mu, frag[2] / size_r];
        let mut c = self.coord(uvwz);
        let spread = safe_sqrt((1.0 - c.mu * c.mu) * (1.0 - c.mu_s * c.mu_s));
        c.nu = clamp(c.nu, c.mu * c.mu_s - spread, c.mu * c.mu_s + spread);
        c
    }

    /// `get_scattering`'s two lookups for the coordinates `uvwz`.
    pub(super) fn lookup(&self, uvwz: [f64; 4]) -> Lookup {
        let size_nu = self.counts()[0];
        let x = uvwz[0] * (size_nu - 1.0);
        let x0 = x.floor();
        Lookup {
            uvw0: [(x0 + uvwz[1]) / size_nu, uvwz[2], uvwz[3]],
            uvw1: [(x0 + 1.0 + uvwz[1]) / size_nu, uvwz[2], uvwz[3]],
            f: x - x0,
        }
    }
}

/// Texture coordinates (u_ν, u_μs, u_μ, u_r) of the 4D scattering function (`scattering_uvwz`).
pub fn scattering_uvwz(atm: &Atmosphere, size: [u32; 4], c: ScatteringCoord) -> [f64; 4] {
    Layout::new(atm, size).uvwz(c)
}

/// The inverse of `scattering_uvwz` (`scattering_coord`).
pub fn scattering_coord(atm: &Atmosphere, size: [u32; 4], uvwz: [f64; 4]) -> ScatteringCoord {
    Layout::new(atm, size).coord(uvwz)
}

/// The coordinates a texel of the 3D scattering table stands for (`scattering_coord_of_texel`).
pub fn scattering_coord_of_texel(atm: &Atmosphere, size: [u32; 4], texel: [usize; 3]) -> ScatteringCoord {
    Layout::new(atm, size).texel_coord(texel)
}

/// Texture coordinate of (r, μ_s) in the irradiance table (`irradiance_uv`).
pub(super) fn irradiance_uv(atm: &Atmosphere, r: f64, mu_s: f64) -> [f64; 2] {
    let [w, h] = IRRADIANCE_SIZE.map(f64::from);
    let x_r = (r - atm.bottom_radius) / (atm.top_radius - atm.bottom_radius);
    let x_mu_s = mu_s * 0.5 + 0.5;
    [coord_from_unit_range(x_mu_s, w), coord_from_unit_range(x_r, h)]
}

/// (r, μ_s) of an irradiance texel (`irradiance_r_mu_s`).
pub(super) fn irradiance_r_mu_s(atm: &Atmosphere, i: usize, j: usize) -> (f64, f64) {
    let [w, h] = IRRADIANCE_SIZE.map(f64::from);
    let (u, v) = ((i as f64 + 0.5) / w, (j as f64 + 0.5) / h);
    let (x_mu_s, x_r) = (unit_range_from_coord(u, w), unit_range_from_coord(v, h));
    (atm.bottom_radius + x_r * (atm.top_radius - atm.bottom_radius), clamp_cosine(2.0 * x_mu_s - 1.0))
}

/// Where `get_scattering` reads: two trilinear lookups one ν-block apart, interpolated along ν
/// by hand with the weight `f` of the second.
pub(super) struct Lookup {
    uvw0: [f64; 3],
    uvw1: [f64; 3],
    f: f64,
}

impl Lookup {
    pub(super) fn sample(&self, table: &Table3) -> Rgb {
        let [value] = self.sample_all([table]);
        value
    }

    /// The lookup in a row that `Table3::row_at` blended at this lookup's (v, w).
    pub(super) fn sample_row(&self, row: &[Rgb]) -> Rgb {
        mix(sample_row(row, self.uvw0[0]), sample_row(row, self.uvw1[0]), self.f)
    }

    /// The same lookup in tables of the same size (where to read is worked out once).
    pub(super) fn sample_all<const N: usize>(&self, tables: [&Table3; N]) -> [Rgb; N] {
        let Some(first) = tables.first() else { return [[0.0; 3]; N] };
        let (taps0, taps1) = (first.taps(self.uvw0), first.taps(self.uvw1));
        tables.map(|t| mix(t.sample_taps(&taps0), t.sample_taps(&taps1), self.f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu_luts::testing::{close, toy};

    #[test]
    fn texels_map_to_coordinates_and_back_to_their_centres() {
        let atm = toy();
        let size = [8, 8, 32, 8];
        let [w, h, d] = [64, 32, 8];
        let mut unclamped = 0;
        for k in 0..d {
            for j in 0..h {
                for i in 0..w {
                    let c = scattering_coord_of_texel(&atm, size, [i, j, k]);
                    assert_eq!(c.ground, j < h / 2, "texel ({i},{j},{k})");
                    let layout = Layout::new(&atm, size);
                    let lookup = layout.lookup(layout.uvwz(c));
                    let centre =
                        [(i as f64 + 0.5) / w as f64, (j as f64 + 0.5) / h as f64, (k as f64 + 0.5) / d as f64];
                    // μ and r come back to the texel centre, except on the ground itself (k = 0),
                    // where every ray to the ground is straight down: the texel next to the horizon.
                    let centre_mu = if k == 0 && c.ground { (h as f64 / 2.0 - 0.5) / h as f64 } else { centre[1] };
                    assert!(
                        close(lookup.uvw0[1], centre_mu, 1e-6),
                        "u_μ of ({i},{j},{k}): {} vs {centre_mu}",
                        lookup.uvw0[1]
                    );
                    assert!(close(lookup.uvw0[2], centre[2], 1e-9), "u_r of ({i},{j},{k})");
                    // So does (ν, μ_s) wherever ν was not clamped; the clamped ones stay in their μ_s column.
                    let within_block = lookup.uvw0[0] * 8.0 - (lookup.uvw0[0] * 8.0).floor();
                    assert!(close(within_block, (i % 8) as f64 / 8.0 + 1.0 / 16.0, 1e-9), "u_μs of ({i},{j},{k})");
                    let block = (i / 8) as f64;
                    if c.nu == clamp_cosine(2.0 * block / 7.0 - 1.0) {
                        let x = if lookup.f < 0.5 { lookup.uvw0[0] } else { lookup.uvw1[0] };
                        assert!(lookup.f < 1e-9 || lookup.f > 1.0 - 1e-9, "ν of ({i},{j},{k}) between blocks");
                        assert!(close(x, centre[0], 1e-9), "u_ν of ({i},{j},{k}): {x} vs {}", centre[0]);
                        unclamped += 1;
                    }
                }
            }
        }
        // Many texels keep their ν (the range the clamp allows narrows as μ or μ_s nears ±1).
        assert!(unclamped > w * h * d / 3, "{unclamped} texels unclamped");
    }
}
