//! The precomputation passes, one function per compute shader of shaders/03-sky/, run in the
//! GPU's order (`luts::record_precompute`) to fill the tables.

use super::context::Ctx;
use super::layout::{Layout, Lookup, ScatteringCoord, irradiance_r_mu_s, irradiance_uv};
use super::math::{add, clamp_cosine, dot, mul, normalize, safe_sqrt, scale};
use super::tables::{Luts, Table2, Table3, fill_rows};
use super::{Rgb, sun_angular_radius};
use crate::luts::IRRADIANCE_SIZE;
use crate::params::MAX_SCATTERING_ORDERS;
use crate::reference::{Atmosphere, TRANSMITTANCE_SIZE, mie_phase, rayleigh_phase, transmittance_r_mu};
use std::f64::consts::PI;

/// Transmittance: trapezoidal intervals per texel.
pub(crate) const TRANSMITTANCE_SAMPLES: usize = 500;
/// Single and multiple scattering: trapezoidal intervals along each view ray.
pub(crate) const RAY_SAMPLES: u32 = 50;
/// Scattering density: 16 zenith × 32 azimuth directions.
pub(crate) const DENSITY_SAMPLES: u32 = 16;
/// Indirect irradiance: 16 zenith (upper hemisphere) × 64 azimuth directions.
pub(crate) const IRRADIANCE_SAMPLES: u32 = 32;

// ---------------------------------------------------------------------------------------------
// The precomputation passes, one function per shader. The 3D passes work row by row: the
// texels of a row share r and μ, so what depends on those alone is computed once per row (the
// same values the shader computes per texel).

/// transmittance_lut.wgsl: the 500-interval trapezoid integral at every texel.
fn transmittance_table(atm: &Atmosphere) -> Table2 {
    let [w, h] = TRANSMITTANCE_SIZE.map(|s| s as usize);
    Table2::from_fn(w, h, |i, j| {
        let (u, v) = ((i as f64 + 0.5) / w as f64, (j as f64 + 0.5) / h as f64);
        let (r, mu) = transmittance_r_mu(atm, u, v);
        atm.transmittance_to_top(r, mu, TRANSMITTANCE_SAMPLES)
    })
}

/// direct_irradiance.wgsl: the sun's irradiance on a horizontal surface, its cosine averaged
/// over the disc as it sets.
fn direct_irradiance(ctx: &Ctx) -> Table2 {
    let [w, h] = IRRADIANCE_SIZE.map(|s| s as usize);
    let alpha = sun_angular_radius();
    Table2::from_fn(w, h, |i, j| {
        let (r, mu_s) = irradiance_r_mu_s(ctx.atm, i, j);
        let cosine = if mu_s < -alpha {
            0.0
        } else if mu_s <= alpha {
            (mu_s + alpha) * (mu_s + alpha) / (4.0 * alpha)
        } else {
            mu_s
        };
        scale(mul(ctx.atm.solar_irradiance, ctx.transmittance_to_top(r, mu_s)), cosine)
    })
}

/// A point of a texel's view ray in the single and multiple scattering integrals, with what
/// does not depend on μ_s and ν.
struct RayPoint {
    /// Distance from the viewer; radius there.
    d: f64,
    r: f64,
    /// Trapezoid weight (½ at the ends).
    w: f64,
    /// Transmittance from the viewer.
    transmittance: Rgb,
    /// (u_μ, u_r) of the ray at the point.
    u_mu_r: [f64; 2],
}

/// The points of the ray from (r, μ) to the ground or the top, RAY_SAMPLES intervals of dx
/// apart; and dx.
fn ray_points(ctx: &Ctx, r: f64, mu: f64, ground: bool) -> (Vec<RayPoint>, f64) {
    let dx = ctx.distance_to_boundary(r, mu, ground) / RAY_SAMPLES as f64;
    let point = |i: u32| {
        let d = i as f64 * dx;
        let r_d = ctx.clamp_radius((d * d + 2.0 * r * mu * d + r * r).sqrt());
        let mu_d = clamp_cosine((r * mu + d) / r_d);
        RayPoint {
            d,
            r: r_d,
            w: if i == 0 || i == RAY_SAMPLES { 0.5 } else { 1.0 },
            transmittance: ctx.transmittance_along(r, mu, d, ground),
            u_mu_r: ctx.layout.u_mu_r(r_d, mu_d, ground),
        }
    };
    ((0..=RAY_SAMPLES).map(point).collect(), dx)
}

/// The view ray of row (j, k) of the scattering table.
fn row_ray(ctx: &Ctx, j: usize, k: usize) -> (Vec<RayPoint>, f64) {
    let c = ctx.layout.texel_coord([0, j, k]);
    ray_points(ctx, c.r, c.mu, c.ground)
}

/// single_scattering.wgsl at one texel: Rayleigh and Mie without their phase functions.
fn single_scattering_texel(ctx: &Ctx, (points, dx): &(Vec<RayPoint>, f64), c: ScatteringCoord) -> (Rgb, Rgb) {
    let atm = ctx.atm;
    let (mut rayleigh, mut mie) = ([0.0; 3], [0.0; 3]);
    for p in points {
        let mu_s_d = clamp_cosine((c.r * c.mu_s + p.d * c.nu) / p.r);
        let transmittance = mul(p.transmittance, ctx.transmittance_to_sun(p.r, mu_s_d));
        let altitude = p.r - atm.bottom_radius;
        rayleigh = add(rayleigh, scale(transmittance, p.w * atm.rayleigh_density(altitude)));
        mie = add(mie, scale(transmittance, p.w * atm.mie_density(altitude)));
    }
    let rayleigh = scale(mul(mul(rayleigh, atm.solar_irradiance), atm.rayleigh_scattering), *dx);
    let mie = scale(mul(mul(mie, atm.solar_irradiance), atm.mie_scattering), *dx);
    (rayleigh, mie)
}

/// single_scattering.wgsl: (delta Rayleigh, delta Mie).
fn single_scattering(ctx: &Ctx) -> (Table3, Table3) {
    let size = ctx.layout.table_size();
    let both = fill_rows(
        size,
        |j, k| row_ray(ctx, j, k),
        |ray, texel| single_scattering_texel(ctx, ray, ctx.layout.texel_coord(texel)),
    );
    let (rayleigh, mie) = both.into_iter().unzip();
    (Table3::from_data(size, rayleigh), Table3::from_data(size, mie))
}

/// The inputs of one scattering order n: the scattering of order n − 1 (delta Rayleigh, or
/// delta multiple from order 3 on), single Mie, and the ground irradiance of order n − 2.
struct PreviousOrder<'a> {
    order: u32,
    delta_rayleigh: &'a Table3,
    delta_mie: &'a Table3,
    delta_irradiance: &'a Table2,
}

impl PreviousOrder<'_> {
    /// Whether the light of order n − 1 is single scattering (Rayleigh and Mie apart, without
    /// their phase functions), as for n = 2 (`order.order.x == 2u` in scattering_density.wgsl,
    /// `== 1u` for the n − 1 that indirect_irradiance.wgsl gets).
    fn single(&self) -> bool {
        self.order == 2
    }

    /// The radiance of order n − 1 from its two tables' values, ν the angle to the sun: single
    /// scattering with its phase functions, or the latest multiple scattering as it is.
    fn radiance(&self, [rayleigh, mie]: [Rgb; 2], nu: f64, g: f64) -> Rgb {
        if self.single() {
            return add(scale(rayleigh, rayleigh_phase(nu)), scale(mie, mie_phase(g, nu)));
        }
        rayleigh
    }

    /// The radiance of order n − 1 at a lookup (`previous_order`).
    fn at(&self, lookup: &Lookup, nu: f64, g: f64) -> Rgb {
        if self.single() {
            return self.radiance(lookup.sample_all([self.delta_rayleigh, self.delta_mie]), nu, g);
        }
        lookup.sample(self.delta_rayleigh)
    }
}

/// Cosines and sines of the sample angles (k + 0.5)·step, k < n.
fn angles(n: u32, step: f64) -> Vec<(f64, f64)> {
    (0..n).map(|k| ((k as f64 + 0.5) * step).sin_cos()).map(|(s, c)| (c, s)).collect()
}

/// One direction ω_i of the density integral at a row's (r, μ), with what does not depend on
/// the texel's μ_s and ν.
struct Incoming {
    omega_i: [f64; 3],
    /// Which ring of directions (θ) it belongs to.
    ring: usize,
    /// Where ω_i meets the ground: the normal there and the transmittance to it.
    ground: Option<([f64; 3], Rgb)>,
    /// (σ_R p_R(ν₂) + σ_M p_M(ν₂)) dω: how much of the light from ω_i turns into the texel's
    /// direction (ν₂ the cosine between the two).
    weight: Rgb,
}

/// What the density integral reads for one row (j, k) of the table, whose texels share r and
/// μ: the 16 × 32 directions, and per ring of directions (one θ, so one u_μ and u_r) the
/// previous order's tables blended along μ and r, which leaves linear lookups along x (ν, μ_s).
struct DensityRow {
    incoming: Vec<Incoming>,
    /// Per ring: [delta Rayleigh, delta Mie (single scattering only)] blended at its (u_μ, u_r).
    rings: Vec<[Vec<Rgb>; 2]>,
}

/// The row's directions (scattering_density.wgsl: a frame with the zenith along z, the view
/// direction in the xz plane) and rings.
fn density_row(ctx: &Ctx, prev: &PreviousOrder, j: usize, k: usize) -> DensityRow {
    let atm = ctx.atm;
    let c = ctx.layout.texel_coord([0, j, k]);
    let zenith = [0.0, 0.0, 1.0];
    let omega = [safe_sqrt(1.0 - c.mu * c.mu), 0.0, c.mu];
    let (d_phi, d_theta) = (PI / DENSITY_SAMPLES as f64, PI / DENSITY_SAMPLES as f64);
    let altitude = c.r - atm.bottom_radius;
    let rayleigh_sigma = scale(atm.rayleigh_scattering, atm.rayleigh_density(altitude));
    let mie_sigma = scale(atm.mie_scattering, atm.mie_density(altitude));
    let phis = angles(2 * DENSITY_SAMPLES, d_phi);
    let mut row = DensityRow { incoming: Vec::new(), rings: Vec::new() };
    for (ring, (cos_theta, sin_theta)) in angles(DENSITY_SAMPLES, d_theta).into_iter().enumerate() {
        let ground = atm.hits_ground(c.r, cos_theta);
        // Light reflected by the ground where this ring of directions meets it.
        let ground_at = ground.then(|| {
            let d = atm.distance_to_ground(c.r, cos_theta);
            (d, ctx.transmittance_along(c.r, cos_theta, d, true))
        });
        let [u_mu, u_r] = ctx.layout.u_mu_r(c.r, cos_theta, ground);
        let mie = if prev.single() { prev.delta_mie.row_at(u_mu, u_r) } else { Vec::new() };
        row.rings.push([prev.delta_rayleigh.row_at(u_mu, u_r), mie]);
        for &(cos_phi, sin_phi) in &phis {
            let omega_i = [cos_phi * sin_theta, sin_phi * sin_theta, cos_theta];
            let d_omega = d_theta * d_phi * sin_theta;
            let nu2 = dot(omega, omega_i);
            let sigma = add(scale(rayleigh_sigma, rayleigh_phase(nu2)), scale(mie_sigma, mie_phase(atm.mie_g, nu2)));
            let normal = |d: f64| normalize(add(scale(zenith, c.r), scale(omega_i, d)));
            row.incoming.push(Incoming {
                omega_i,
                ring,
                ground: ground_at.map(|(d, transmittance)| (normal(d), transmittance)),
                weight: scale(sigma, d_omega),
            });
        }
    }
    row
}

/// scattering_density.wgsl at one texel: light of order n − 1 from all directions (and from the
/// ground), scattered into the texel's direction.
fn density_texel(ctx: &Ctx, prev: &PreviousOrder, row: &DensityRow, c: ScatteringCoord) -> Rgb {
    let atm = ctx.atm;
    let omega_x = safe_sqrt(1.0 - c.mu * c.mu);
    let sun_x = if omega_x != 0.0 { (c.nu - c.mu * c.mu_s) / omega_x } else { 0.0 };
    let omega_s = [sun_x, safe_sqrt(1.0 - sun_x * sun_x - c.mu_s * c.mu_s), c.mu_s];
    let u_mu_s = ctx.layout.u_mu_s(c.mu_s);
    let mut density = [0.0; 3];
    for dir in &row.incoming {
        let nu1 = dot(omega_s, dir.omega_i);
        // u_μ and u_r are the ring's, already blended in: 0 stands for them.
        let lookup = ctx.layout.lookup([(nu1 + 1.0) / 2.0, u_mu_s, 0.0, 0.0]);
        let [rayleigh, mie] = &row.rings[dir.ring];
        let mie = if prev.single() { lookup.sample_row(mie) } else { [0.0; 3] };
        let mut light = prev.radiance([lookup.sample_row(rayleigh), mie], nu1, atm.mie_g);
        if let Some((normal, transmittance)) = dir.ground {
            let uv = irradiance_uv(atm, atm.bottom_radius, dot(normal, omega_s));
            let irradiance = prev.delta_irradiance.sample(uv);
            light = add(light, scale(mul(transmittance, irradiance), atm.ground_albedo / PI));
        }
        density = add(density, mul(light, dir.weight));
    }
    density
}

/// scattering_density.wgsl: J_n.
fn scattering_density(ctx: &Ctx, prev: &PreviousOrder) -> Table3 {
    let size = ctx.layout.table_size();
    let density = fill_rows(
        size,
        |j, k| density_row(ctx, prev, j, k),
        |row, texel| density_texel(ctx, prev, row, ctx.layout.texel_coord(texel)),
    );
    Table3::from_data(size, density)
}

/// indirect_irradiance.wgsl: the sky irradiance of order n − 1 (`prev.order` is n) on a
/// horizontal surface.
fn indirect_irradiance(ctx: &Ctx, prev: &PreviousOrder) -> Table2 {
    let [w, h] = IRRADIANCE_SIZE.map(|s| s as usize);
    let (d_phi, d_theta) = (PI / IRRADIANCE_SAMPLES as f64, PI / IRRADIANCE_SAMPLES as f64);
    let thetas = angles(IRRADIANCE_SAMPLES / 2, d_theta);
    let phis = angles(2 * IRRADIANCE_SAMPLES, d_phi);
    Table2::from_fn(w, h, |i, j| {
        let (r, mu_s) = irradiance_r_mu_s(ctx.atm, i, j);
        let omega_s = [safe_sqrt(1.0 - mu_s * mu_s), 0.0, mu_s];
        let mut irradiance = [0.0; 3];
        for &(cos_theta, sin_theta) in &thetas {
            for &(cos_phi, sin_phi) in &phis {
                let omega = [cos_phi * sin_theta, sin_phi * sin_theta, cos_theta];
                let d_omega = d_theta * d_phi * sin_theta;
                let nu = dot(omega, omega_s);
                let lookup = ctx.lookup(ctx.coord(r, omega[2], mu_s, nu, false));
                let radiance = prev.at(&lookup, nu, ctx.atm.mie_g);
                irradiance = add(irradiance, scale(radiance, omega[2] * d_omega));
            }
        }
        irradiance
    })
}

/// multiple_scattering.wgsl at one texel: J_n integrated along the texel's ray (delta multiple).
fn multiple_scattering_texel(
    ctx: &Ctx,
    density: &Table3,
    (points, dx): &(Vec<RayPoint>, f64),
    c: ScatteringCoord,
) -> Rgb {
    let mut radiance = [0.0; 3];
    for p in points {
        let mu_s_i = clamp_cosine((c.r * c.mu_s + p.d * c.nu) / p.r);
        let uvwz = [(c.nu + 1.0) / 2.0, ctx.layout.u_mu_s(mu_s_i), p.u_mu_r[0], p.u_mu_r[1]];
        let j = ctx.layout.lookup(uvwz).sample(density);
        radiance = add(radiance, scale(mul(j, p.transmittance), p.w * dx));
    }
    radiance
}

/// multiple_scattering.wgsl: (delta multiple, the new sum, which gets the radiance over the
/// Rayleigh phase function: the renderer multiplies it back).
fn multiple_scattering(ctx: &Ctx, density: &Table3, sum: &Table3) -> (Table3, Table3) {
    let size = ctx.layout.table_size();
    let both = fill_rows(
        size,
        |j, k| row_ray(ctx, j, k),
        |ray, [i, j, k]| {
            let c = ctx.layout.texel_coord([i, j, k]);
            let delta = multiple_scattering_texel(ctx, density, ray, c);
            (delta, add(sum.get(i, j, k), scale(delta, 1.0 / rayleigh_phase(c.nu))))
        },
    );
    let (delta, sum) = both.into_iter().unzip();
    (Table3::from_data(size, delta), Table3::from_data(size, sum))
}

// ---------------------------------------------------------------------------------------------
// The tables and the precomputation.

/// Runs the GPU's passes in its order (`luts::record_precompute`) for `orders` orders of
/// scattering (clamped to 1..=MAX_SCATTERING_ORDERS as the GPU does). Sizes below 2 texels are
/// raised to 2, where the mapping of texels to coordinates is defined.
pub fn precompute(atm: &Atmosphere, size: [u32; 4], orders: u32) -> Luts {
    run_passes(atm, size, orders, |_| {})
}

/// As `precompute`, and the tables as they stand after each order: 1 (single scattering), 2,
/// … `orders` — how the orders add up.
pub fn precompute_each_order(atm: &Atmosphere, size: [u32; 4], orders: u32) -> Vec<Luts> {
    let mut each = Vec::new();
    run_passes(atm, size, orders, |luts| each.push(luts.clone()));
    each
}

/// The passes; `after_order` sees the tables after each order.
fn run_passes(atm: &Atmosphere, size: [u32; 4], orders: u32, mut after_order: impl FnMut(&Luts)) -> Luts {
    let size = size.map(|s| s.max(2));
    let transmittance = transmittance_table(atm);
    let ctx = Ctx { atm, layout: Layout::new(atm, size), transmittance: &transmittance };
    let mut delta_irradiance = direct_irradiance(&ctx);
    let [iw, ih] = IRRADIANCE_SIZE.map(|s| s as usize);
    let (single_rayleigh, single_mie) = single_scattering(&ctx);
    // Single Rayleigh, then the latest order of multiple scattering (with its phase).
    let mut delta_rayleigh = single_rayleigh.clone();
    let mut luts = Luts {
        size,
        transmittance: transmittance.clone(),
        irradiance: Table2::zeros(iw, ih),
        scattering: single_rayleigh.clone(),
        single_rayleigh,
        single_mie,
    };
    after_order(&luts);
    // ANCHOR: order_loop
    for order in 2..=orders.clamp(1, MAX_SCATTERING_ORDERS) {
        let prev = PreviousOrder {
            order,
            delta_rayleigh: &delta_rayleigh,
            delta_mie: &luts.single_mie,
            delta_irradiance: &delta_irradiance,
        };
        let density = scattering_density(&ctx, &prev);
        // Order n − 1's sky irradiance: the ground's light for the next order's density.
        let order_irradiance = indirect_irradiance(&ctx, &prev);
        delta_irradiance = order_irradiance;
        luts.irradiance = luts.irradiance.plus(&delta_irradiance);
        (delta_rayleigh, luts.scattering) = multiple_scattering(&ctx, &density, &luts.scattering);
        after_order(&luts);
    }
    // ANCHOR_END: order_loop
    luts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu_luts::layout::scattering_coord_of_texel;
    use crate::cpu_luts::render::Orders;
    use crate::cpu_luts::testing::toy;

    const TINY: [u32; 4] = [4, 4, 16, 4];

    /// The toy atmosphere's tables at TINY after 1, 2 and 3 orders, computed once.
    fn toy_orders() -> &'static [Luts] {
        static LUTS: std::sync::OnceLock<Vec<Luts>> = std::sync::OnceLock::new();
        LUTS.get_or_init(|| precompute_each_order(&toy(), TINY, 3))
    }

    #[test]
    fn single_scattering_texels_match_the_direct_integral() {
        // The texels integrate by the trapezoidal rule over 50 intervals of dx, with the
        // bilinear transmittance table; the reference by 300 midpoints with the transmittance
        // integrated at every point. For the steepest factor of the integrand, the Mie density
        // e^(−s/H) (H = 30 km), the trapezoid overestimates by dx²/(12 H²) of the integral (0.9 %
        // straight up, dx = 10 km); the table, the reference's own steps and the other factors add
        // well under 1e-3. So each texel must agree within dx²/(12 H²) + 1e-3. Left out: the
        // sun's disc setting (a smoothstep in the texels, a step in the reference), by μ_s ≥ 0.2,
        // and every other texel, to keep the test quick.
        let atm = toy();
        let size = [4, 8, 16, 4];
        let luts = precompute(&atm, size, 1);
        let (mut checked, mut worst) = (0, 0.0f64);
        for k in 0..4 {
            for j in 0..16 {
                for i in (0..32).step_by(2) {
                    let c = scattering_coord_of_texel(&atm, size, [i, j, k]);
                    // (The reference decides for itself whether the ray hits the ground: for the
                    // texels on the horizon, rounding may say it does.)
                    if c.mu_s < 0.2 || c.ground || atm.hits_ground(c.r, c.mu) {
                        continue;
                    }
                    let texel = add(
                        scale(luts.single_rayleigh.get(i, j, k), rayleigh_phase(c.nu)),
                        scale(luts.single_mie.get(i, j, k), mie_phase(atm.mie_g, c.nu)),
                    );
                    let want =
                        crate::reference::single_scattering(&atm, c.r, c.mu, c.mu_s, c.nu, f64::INFINITY, 300, 100);
                    let dx = atm.distance_to_top(c.r, c.mu) / 50.0;
                    let bound = dx * dx / (12.0 * atm.mie_scale_height * atm.mie_scale_height) + 1e-3;
                    for ch in 0..3 {
                        let err = (texel[ch] - want[ch]).abs();
                        worst = worst.max(err / (bound * want[ch]).max(1e-300));
                        assert!(err <= bound * want[ch], "texel ({i},{j},{k}) {c:?}: {} vs {}", texel[ch], want[ch]);
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked} texels checked");
        eprintln!("single scattering: worst error {worst:.2} of its bound over {checked} texels");
    }

    #[test]
    fn second_order_sky_irradiance_is_positive_and_below_the_direct() {
        let atm = Atmosphere { ground_albedo: 0.0, ..toy() };
        let luts = precompute(&atm, TINY, 2);
        let mut checked = 0;
        for j in 0..16 {
            for i in 0..64 {
                let sky = luts.irradiance.get(i, j);
                assert!(sky.iter().all(|&v| v >= 0.0), "texel ({i},{j}): {sky:?}");
                let (r, mu_s) = irradiance_r_mu_s(&atm, i, j);
                if mu_s > 0.3 {
                    let sun = luts.sun_and_sky_irradiance(&atm, r, mu_s).sun;
                    assert!((0..3).all(|k| sky[k] < sun[k]), "texel ({i},{j}): sky {sky:?} sun {sun:?}");
                    assert!(sky[0] > 0.0);
                    checked += 1;
                }
            }
        }
        assert!(checked > 100);
    }

    /// A few rays: up, at the horizon, down to the ground, from inside and from space.
    fn rays(atm: &Atmosphere) -> Vec<[f64; 4]> {
        let mut out = Vec::new();
        for r in [atm.bottom_radius + 10.0, atm.bottom_radius + 200_000.0, atm.top_radius + 300_000.0] {
            for mu in [-0.9, -0.3, 0.0, 0.2, 0.95] {
                for (mu_s, nu) in [(0.8, 0.5), (0.05, -0.2), (-0.1, 0.1)] {
                    out.push([r, mu, mu_s, nu]);
                }
            }
        }
        out
    }

    #[test]
    fn more_orders_never_decrease_the_radiance() {
        let atm = toy();
        let luts = toy_orders();
        assert_eq!(luts.len(), 3);
        for pair in luts.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            for (x, y) in
                a.scattering.data.iter().zip(&b.scattering.data).chain(a.irradiance.data.iter().zip(&b.irradiance.data))
            {
                assert!((0..3).all(|k| y[k] >= x[k]), "{x:?} -> {y:?}");
            }
            for [r, mu, mu_s, nu] in rays(&atm) {
                let sky = |l: &Luts| l.sky_radiance(&atm, r, mu, mu_s, nu, 0.0, Orders::All, false).inscattering;
                let (x, y) = (sky(a), sky(b));
                assert!((0..3).all(|k| y[k] >= x[k] * (1.0 - 1e-12)), "ray {:?}: {x:?} -> {y:?}", [r, mu, mu_s, nu]);
            }
        }
        // And the added orders are not nothing: the second adds light everywhere the sun is up.
        let up = |l: &Luts| l.sky_radiance(&atm, atm.bottom_radius + 10.0, 0.5, 0.5, 0.3, 0.0, Orders::All, false);
        assert!(up(&luts[1]).inscattering[1] > up(&luts[0]).inscattering[1] * 1.01);
    }

    #[test]
    fn an_atmosphere_that_does_not_scatter_scatters_nothing() {
        // A black ground too, so that nothing at all reaches the viewer but the sun's disc.
        let atm = Atmosphere { rayleigh_scattering: [0.0; 3], mie_scattering: [0.0; 3], ground_albedo: 0.0, ..toy() };
        let luts = precompute(&atm, TINY, 2);
        let zero = |t: &[Rgb]| t.iter().all(|v| *v == [0.0; 3]);
        assert!(zero(&luts.scattering.data) && zero(&luts.single_mie.data) && zero(&luts.irradiance.data));
        // It still absorbs (the Mie extinction is left in).
        assert!(luts.transmittance.get(0, 0)[0] < 0.99);
        for [r, mu, mu_s, nu] in rays(&atm) {
            let sky = luts.sky_radiance(&atm, r, mu, mu_s, nu, 0.01, Orders::All, false);
            assert_eq!(sky.inscattering, [0.0; 3], "ray {:?}", [r, mu, mu_s, nu]);
        }
    }
}
