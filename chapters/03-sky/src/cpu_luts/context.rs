//! What every pass and the renderer read: the atmosphere, the scattering texture's layout and
//! the transmittance table, with the transmittance lookups built on it.

use super::layout::{Layout, Lookup, ScatteringCoord};
use super::math::{clamp, clamp_cosine, safe_sqrt, scale, smoothstep};
use super::tables::Table2;
use super::{Rgb, sun_angular_radius};
use crate::reference::{Atmosphere, transmittance_uv};

// ---------------------------------------------------------------------------------------------
// What every pass reads: the atmosphere, the scattering texture's layout and the transmittance
// table (always looked up bilinearly, as on the GPU; never the exact integral).

pub(super) struct Ctx<'a> {
    pub(super) atm: &'a Atmosphere,
    pub(super) layout: Layout<'a>,
    pub(super) transmittance: &'a Table2,
}

impl Ctx<'_> {
    pub(super) fn coord(&self, r: f64, mu: f64, mu_s: f64, nu: f64, ground: bool) -> ScatteringCoord {
        ScatteringCoord { r, mu, mu_s, nu, ground }
    }

    /// `get_scattering`'s lookups at (r, μ, μ_s, ν).
    pub(super) fn lookup(&self, c: ScatteringCoord) -> Lookup {
        self.layout.lookup(self.layout.uvwz(c))
    }

    pub(super) fn clamp_radius(&self, r: f64) -> f64 {
        clamp(r, self.atm.bottom_radius, self.atm.top_radius)
    }

    /// Distance to the ground or to the top, whichever the ray ends on.
    pub(super) fn distance_to_boundary(&self, r: f64, mu: f64, ground: bool) -> f64 {
        if ground { self.atm.distance_to_ground(r, mu) } else { self.atm.distance_to_top(r, mu) }
    }

    pub(super) fn transmittance_to_top(&self, r: f64, mu: f64) -> Rgb {
        let (u, v) = transmittance_uv(self.atm, r, mu);
        self.transmittance.sample([u, v])
    }

    /// Transmittance over the segment of length d from (r, μ) (`transmittance_along`).
    pub(super) fn transmittance_along(&self, r: f64, mu: f64, d: f64, ground: bool) -> Rgb {
        let r_d = self.clamp_radius((d * d + 2.0 * r * mu * d + r * r).sqrt());
        let mu_d = clamp_cosine((r * mu + d) / r_d);
        let ratio = |a: Rgb, b: Rgb| -> Rgb { std::array::from_fn(|k| (a[k] / b[k].max(1e-30)).min(1.0)) };
        if ground {
            ratio(self.transmittance_to_top(r_d, -mu_d), self.transmittance_to_top(r, -mu))
        } else {
            ratio(self.transmittance_to_top(r, mu), self.transmittance_to_top(r_d, mu_d))
        }
    }

    /// Transmittance to the sun, faded over the part of its disc below the horizon.
    pub(super) fn transmittance_to_sun(&self, r: f64, mu_s: f64) -> Rgb {
        let sin_h = self.atm.bottom_radius / r;
        let cos_h = -safe_sqrt(1.0 - sin_h * sin_h);
        let alpha = sun_angular_radius();
        scale(self.transmittance_to_top(r, mu_s), smoothstep(-sin_h * alpha, sin_h * alpha, mu_s - cos_h))
    }
}
