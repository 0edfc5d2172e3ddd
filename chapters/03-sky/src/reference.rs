//! CPU reference for the atmosphere, in f64: Bruneton's (2017) Earth model, his transmittance
//! texture parameterisation, the transmittance integral, and single scattering along a view ray.
//! Lengths in metres; the planet's centre is at (0, −bottom, 0) below the camera's ground point.

use crate::params::SkyParams;

/// The atmosphere as numbers (SI units).
#[derive(Clone, Debug, PartialEq)]
pub struct Atmosphere {
    pub bottom_radius: f64,
    pub top_radius: f64,
    pub rayleigh_scattering: [f64; 3],
    pub rayleigh_scale_height: f64,
    pub mie_scattering: [f64; 3],
    pub mie_extinction: [f64; 3],
    pub mie_scale_height: f64,
    pub mie_g: f64,
    /// Ozone absorption at the peak of its tent profile (10–40 km, peak at 25 km).
    pub ozone_absorption: [f64; 3],
    pub solar_irradiance: [f64; 3],
    /// Lambertian albedo of the ground.
    pub ground_albedo: f64,
}

// ANCHOR: earth
/// Earth as in Bruneton 2017 (and Hillaire 2020): 680 / 550 / 440 nm.
impl Default for Atmosphere {
    fn default() -> Self {
        Self {
            bottom_radius: 6_360_000.0,
            top_radius: 6_420_000.0,
            rayleigh_scattering: [5.802e-6, 13.558e-6, 33.100e-6],
            rayleigh_scale_height: 8000.0,
            mie_scattering: [3.996e-6; 3],
            mie_extinction: [4.440e-6; 3],
            mie_scale_height: 1200.0,
            mie_g: 0.8,
            ozone_absorption: [0.650e-6, 1.881e-6, 0.085e-6],
            solar_irradiance: [1.474, 1.8504, 1.91198],
            ground_albedo: 0.1,
        }
    }
}
// ANCHOR_END: earth

impl Atmosphere {
    pub fn from_params(p: &SkyParams) -> Self {
        let s = |v: [f32; 4], scale: f64| [v[0] as f64 * scale, v[1] as f64 * scale, v[2] as f64 * scale];
        let mie = p.mie_scattering as f64 * 1e-6;
        Self {
            bottom_radius: p.bottom_radius_km as f64 * 1000.0,
            top_radius: (p.bottom_radius_km + p.atmosphere_height_km) as f64 * 1000.0,
            rayleigh_scattering: s(p.rayleigh_scattering, 1e-6),
            rayleigh_scale_height: p.rayleigh_scale_height_km as f64 * 1000.0,
            mie_scattering: [mie; 3],
            mie_extinction: [mie + p.mie_absorption as f64 * 1e-6; 3],
            mie_scale_height: p.mie_scale_height_km as f64 * 1000.0,
            mie_g: p.mie_g as f64,
            ozone_absorption: if p.ozone { s(p.ozone_absorption, 1e-6) } else { [0.0; 3] },
            ground_albedo: p.ground_albedo as f64,
            ..Default::default()
        }
    }

    // ANCHOR: profiles
    pub fn rayleigh_density(&self, altitude: f64) -> f64 {
        (-altitude / self.rayleigh_scale_height).exp()
    }

    pub fn mie_density(&self, altitude: f64) -> f64 {
        (-altitude / self.mie_scale_height).exp()
    }

    /// Tent profile: 0 below 10 km and above 40 km, 1 at 25 km.
    pub fn ozone_density(&self, altitude: f64) -> f64 {
        (1.0 - (altitude - 25_000.0).abs() / 15_000.0).clamp(0.0, 1.0)
    }

    /// Extinction coefficient at an altitude (1/m), per channel.
    pub fn extinction(&self, altitude: f64) -> [f64; 3] {
        let (r, m, o) = (self.rayleigh_density(altitude), self.mie_density(altitude), self.ozone_density(altitude));
        std::array::from_fn(|k| {
            self.rayleigh_scattering[k] * r + self.mie_extinction[k] * m + self.ozone_absorption[k] * o
        })
    }
    // ANCHOR_END: profiles

    // ANCHOR: geometry
    /// Distance from radius `r` along direction cosine `mu` to the top of the atmosphere.
    pub fn distance_to_top(&self, r: f64, mu: f64) -> f64 {
        let disc = r * r * (mu * mu - 1.0) + self.top_radius * self.top_radius;
        (-r * mu + disc.max(0.0).sqrt()).max(0.0)
    }

    /// Whether the ray from (r, mu) hits the ground.
    pub fn hits_ground(&self, r: f64, mu: f64) -> bool {
        mu < 0.0 && r * r * (mu * mu - 1.0) + self.bottom_radius * self.bottom_radius >= 0.0
    }

    /// Distance from (r, mu) to where the ray leaves the atmosphere: the ground or the top.
    pub fn distance_to_end(&self, r: f64, mu: f64) -> f64 {
        if self.hits_ground(r, mu) { self.distance_to_ground(r, mu) } else { self.distance_to_top(r, mu) }
    }

    /// Distance from (r, mu) to the ground (meaningful when `hits_ground`).
    pub fn distance_to_ground(&self, r: f64, mu: f64) -> f64 {
        let disc = r * r * (mu * mu - 1.0) + self.bottom_radius * self.bottom_radius;
        (-r * mu - disc.max(0.0).sqrt()).max(0.0)
    }
    // ANCHOR_END: geometry

    // ANCHOR: transmittance_integral
    /// Optical depth per channel from (r, mu) to the top of the atmosphere, by the trapezoidal
    /// rule with `samples` intervals (Bruneton uses 500).
    pub fn optical_depth_to_top(&self, r: f64, mu: f64, samples: usize) -> [f64; 3] {
        let d = self.distance_to_top(r, mu);
        let dx = d / samples as f64;
        let mut sum = [0.0; 3];
        for i in 0..=samples {
            let t = i as f64 * dx;
            let altitude = (t * t + 2.0 * r * mu * t + r * r).sqrt() - self.bottom_radius;
            let w = if i == 0 || i == samples { 0.5 } else { 1.0 };
            let e = self.extinction(altitude);
            for k in 0..3 {
                sum[k] += w * e[k] * dx;
            }
        }
        sum
    }
    // ANCHOR_END: transmittance_integral

    pub fn transmittance_to_top(&self, r: f64, mu: f64, samples: usize) -> [f64; 3] {
        self.optical_depth_to_top(r, mu, samples).map(|t| (-t).exp())
    }
}

// ANCHOR: parameterisation
/// Texture coordinate of `x` in [0, 1] on a texture of `size` texels, so that 0 and 1 fall on the
/// centres of the first and last texels (Bruneton 2017).
pub fn coord_from_unit_range(x: f64, size: f64) -> f64 {
    0.5 / size + x * (1.0 - 1.0 / size)
}

pub fn unit_range_from_coord(u: f64, size: f64) -> f64 {
    (u - 0.5 / size) / (1.0 - 1.0 / size)
}

/// Transmittance LUT size (Bruneton 2017): the shared sky's layout, which the core owns.
pub use fogbook_core::shared_sky::TRANSMITTANCE_SIZE;

// ANCHOR: transmittance_r_mu
/// (r, mu) of a transmittance-LUT texture coordinate (u, v).
pub fn transmittance_r_mu(atm: &Atmosphere, u: f64, v: f64) -> (f64, f64) {
    let [w, h] = TRANSMITTANCE_SIZE.map(|s| s as f64);
    let (x_mu, x_r) = (unit_range_from_coord(u, w), unit_range_from_coord(v, h));
    let horizon = (atm.top_radius.powi(2) - atm.bottom_radius.powi(2)).sqrt();
    let rho = horizon * x_r;
    let r = (rho * rho + atm.bottom_radius.powi(2)).sqrt();
    let (d_min, d_max) = (atm.top_radius - r, rho + horizon);
    let d = d_min + x_mu * (d_max - d_min);
    let mu = if d == 0.0 { 1.0 } else { ((horizon * horizon - rho * rho - d * d) / (2.0 * r * d)).clamp(-1.0, 1.0) };
    (r, mu)
}
// ANCHOR_END: transmittance_r_mu

/// Texture coordinate (u, v) of (r, mu) in the transmittance LUT.
pub fn transmittance_uv(atm: &Atmosphere, r: f64, mu: f64) -> (f64, f64) {
    let [w, h] = TRANSMITTANCE_SIZE.map(|s| s as f64);
    let horizon = (atm.top_radius.powi(2) - atm.bottom_radius.powi(2)).sqrt();
    let rho = (r * r - atm.bottom_radius.powi(2)).max(0.0).sqrt();
    let d = atm.distance_to_top(r, mu);
    let (d_min, d_max) = (atm.top_radius - r, rho + horizon);
    let x_mu = (d - d_min) / (d_max - d_min);
    (coord_from_unit_range(x_mu, w), coord_from_unit_range(rho / horizon, h))
}
// ANCHOR_END: parameterisation

// ANCHOR: phase
/// Rayleigh phase function, 3 (1 + ν²) / (16 π).
pub fn rayleigh_phase(nu: f64) -> f64 {
    3.0 * (1.0 + nu * nu) / (16.0 * std::f64::consts::PI)
}

/// Cornette–Shanks phase function with asymmetry g (Bruneton 2017).
pub fn mie_phase(g: f64, nu: f64) -> f64 {
    let k = 3.0 / (8.0 * std::f64::consts::PI) * (1.0 - g * g) / (2.0 + g * g);
    k * (1.0 + nu * nu) / (1.0 + g * g - 2.0 * g * nu).powf(1.5)
}
// ANCHOR_END: phase

// ANCHOR: single_scattering_reference
/// Single-scattered radiance (W/m²/sr/nm) reaching a viewer at radius `r`, looking along a
/// direction with cosine `mu` to the zenith, with the sun at cosine `mu_s` and `nu` = cos(view,
/// sun); up to `max_distance` (scene geometry) or the atmosphere's end. Midpoint rule with
/// `steps` segments; sun transmittance from the exact integral with `sun_samples`.
#[allow(clippy::too_many_arguments)]
pub fn single_scattering(
    atm: &Atmosphere,
    r: f64,
    mu: f64,
    mu_s: f64,
    nu: f64,
    max_distance: f64,
    steps: usize,
    sun_samples: usize,
) -> [f64; 3] {
    let end = atm.distance_to_end(r, mu).min(max_distance);
    let dt = end / steps as f64;
    let uniform = (0..steps).map(|i| ((i as f64 + 0.5) * dt, dt));
    single_scattering_over(atm, r, mu, mu_s, nu, uniform, sun_samples)
}

/// The same to the atmosphere's end, on steps graded towards the viewer: as accurate with 200
/// steps as the uniform rule with 2000.
pub fn single_scattering_graded(
    atm: &Atmosphere,
    r: f64,
    mu: f64,
    mu_s: f64,
    nu: f64,
    steps: usize,
    sun_samples: usize,
) -> [f64; 3] {
    single_scattering_over(atm, r, mu, mu_s, nu, graded_steps(atm.distance_to_end(r, mu), steps), sun_samples)
}

/// Points of a ray for a midpoint rule graded towards its start (t = end·s², s uniform): dense
/// where the viewer is, which is where the air is densest for most rays. Returns (t, dt) pairs.
fn graded_steps(end: f64, steps: usize) -> impl Iterator<Item = (f64, f64)> {
    let ds = 1.0 / steps as f64;
    (0..steps).map(move |i| {
        let s = (i as f64 + 0.5) * ds;
        (end * s * s, 2.0 * end * s * ds)
    })
}

/// Midpoint segments of a view ray graded towards its lowest point t = −r·μ (clamped to the
/// ray), where its air is densest: towards the start for a ray that climbs, and from space
/// towards the tangent point or the ground, where a grid graded towards the start would spend
/// its steps in the thin air at the top. Steps are shared between the two sides in proportion
/// to their lengths; each side is graded towards the lowest point as `graded_steps` grades.
fn graded_towards_lowest(r: f64, mu: f64, end: f64, steps: usize) -> Vec<(f64, f64)> {
    let low = (-r * mu).clamp(0.0, end);
    let before = if end > 0.0 { ((steps as f64 * low / end).round() as usize).min(steps) } else { 0 };
    let mut out: Vec<(f64, f64)> = graded_steps(low, before).map(|(t, dt)| (low - t, dt)).collect();
    out.reverse();
    out.extend(graded_steps(end - low, steps - before).map(|(t, dt)| (low + t, dt)));
    out
}

// ANCHOR: single_scattering_integral
/// The single-scattering integral over midpoint segments (t, dt) of the view ray.
fn single_scattering_over(
    atm: &Atmosphere,
    r: f64,
    mu: f64,
    mu_s: f64,
    nu: f64,
    segments: impl Iterator<Item = (f64, f64)>,
    sun_samples: usize,
) -> [f64; 3] {
    let mut optical = [0.0; 3];
    let mut radiance = [0.0; 3];
    let (pr, pm) = (rayleigh_phase(nu), mie_phase(atm.mie_g, nu));
    for (t, dt) in segments {
        let r_t = (t * t + 2.0 * r * mu * t + r * r).sqrt();
        let altitude = r_t - atm.bottom_radius;
        let e = atm.extinction(altitude);
        // Optical depth from the camera to the sample's midpoint.
        let mid: [f64; 3] = std::array::from_fn(|k| optical[k] + 0.5 * e[k] * dt);
        let mu_s_t = (r * mu_s + t * nu) / r_t;
        let sun =
            if atm.hits_ground(r_t, mu_s_t) { [0.0; 3] } else { atm.transmittance_to_top(r_t, mu_s_t, sun_samples) };
        let (dr, dm) = (atm.rayleigh_density(altitude), atm.mie_density(altitude));
        for k in 0..3 {
            let scattering = atm.rayleigh_scattering[k] * dr * pr + atm.mie_scattering[k] * dm * pm;
            radiance[k] += (-mid[k]).exp() * sun[k] * scattering * atm.solar_irradiance[k] * dt;
            optical[k] += e[k] * dt;
        }
    }
    radiance
}
// ANCHOR_END: single_scattering_integral
// ANCHOR_END: single_scattering_reference

// ANCHOR: second_order_reference
/// Sample counts of the brute-force second order.
#[derive(Clone, Copy, Debug)]
pub struct SecondOrderQuality {
    /// Midpoint segments along the view ray (graded towards its lowest point).
    pub view_steps: usize,
    /// Zenith rings of incoming directions at each point (twice as many azimuths).
    pub rings: usize,
    /// Segments of each first-order ray (graded), and trapezoid intervals of each sun
    /// transmittance.
    pub single_steps: usize,
    pub sun_samples: usize,
}

/// Direct irradiance of the ground (W/m²/nm) with the sun at cosine `mu_s`, Bruneton's average
/// of the cosine over the sun's disc near the horizon.
pub fn direct_irradiance(atm: &Atmosphere, r: f64, mu_s: f64, sun_radius: f64, sun_samples: usize) -> [f64; 3] {
    let cosine = if mu_s < -sun_radius {
        0.0
    } else if mu_s > sun_radius {
        mu_s
    } else {
        (mu_s + sun_radius).powi(2) / (4.0 * sun_radius)
    };
    let t = atm.transmittance_to_top(r, mu_s, sun_samples);
    std::array::from_fn(|k| atm.solar_irradiance[k] * t[k] * cosine)
}

/// Radiance of exactly the second order of scattering (W/m²/sr/nm) reaching a viewer at radius
/// `r` looking along `mu`, sun at `mu_s`, `nu`: by brute force, with no lookup table. At each
/// point of the view ray the light of the first order arriving from every direction of the
/// sphere — single scattering by direct integration, and the sun light reflected by a
/// Lambertian ground where a direction meets it — is scattered into the ray, and attenuated back
/// to the viewer. Costs view_steps × 2·rings² first-order integrals: a handful of rays only.
pub fn second_order_scattering(
    atm: &Atmosphere,
    r: f64,
    mu: f64,
    mu_s: f64,
    nu: f64,
    sun_radius: f64,
    q: SecondOrderQuality,
) -> [f64; 3] {
    use glam::DVec3;
    use std::f64::consts::PI;
    // World frame: the viewer on the +z axis, the view direction in the xz plane.
    let eye = DVec3::new(0.0, 0.0, r);
    let view = DVec3::new((1.0 - mu * mu).max(0.0).sqrt(), 0.0, mu);
    let sun_x = if view.x > 0.0 { (nu - mu * mu_s) / view.x } else { 0.0 };
    let sun = DVec3::new(sun_x, (1.0 - sun_x * sun_x - mu_s * mu_s).max(0.0).sqrt(), mu_s);
    let end = atm.distance_to_end(r, mu);
    let d_phi = PI / q.rings as f64;
    let mut optical = [0.0; 3];
    let mut radiance = [0.0; 3];
    for (t, dt) in graded_towards_lowest(r, mu, end, q.view_steps) {
        let x = eye + view * t;
        let r_x = x.length();
        let up = x / r_x;
        let altitude = r_x - atm.bottom_radius;
        let e = atm.extinction(altitude);
        let to_eye: [f64; 3] = std::array::from_fn(|k| (-(optical[k] + 0.5 * e[k] * dt)).exp());
        // A basis around the local zenith for the incoming directions.
        let side = up.any_orthonormal_vector();
        let side2 = up.cross(side);
        let (beta_r, beta_m) = (atm.rayleigh_density(altitude), atm.mie_density(altitude));
        let mut density = [0.0; 3];
        // ANCHOR: second_order_directions
        for (theta, d_theta) in zenith_rings(atm, r_x, q.rings) {
            for m in 0..2 * q.rings {
                let phi = (m as f64 + 0.5) * d_phi;
                let dir = up * theta.cos() + (side * phi.cos() + side2 * phi.sin()) * theta.sin();
                let d_omega = d_theta * d_phi * theta.sin();
                let mu_i = dir.dot(up);
                let mu_s_x = sun.dot(up);
                let mut incident =
                    single_scattering_graded(atm, r_x, mu_i, mu_s_x, dir.dot(sun), q.single_steps, q.sun_samples);
                if atm.hits_ground(r_x, mu_i) {
                    let d = atm.distance_to_ground(r_x, mu_i);
                    let ground = x + dir * d;
                    let normal = ground.normalize();
                    let irradiance =
                        direct_irradiance(atm, atm.bottom_radius, normal.dot(sun), sun_radius, q.sun_samples);
                    let tau = optical_depth_along(atm, r_x, mu_i, d, q.single_steps);
                    for k in 0..3 {
                        incident[k] += (-tau[k]).exp() * atm.ground_albedo / PI * irradiance[k];
                    }
                }
                let cos_scatter = view.dot(dir);
                let (pr, pm) = (rayleigh_phase(cos_scatter), mie_phase(atm.mie_g, cos_scatter));
                for k in 0..3 {
                    let sigma = atm.rayleigh_scattering[k] * beta_r * pr + atm.mie_scattering[k] * beta_m * pm;
                    density[k] += incident[k] * sigma * d_omega;
                }
            }
        }
        // ANCHOR_END: second_order_directions
        for k in 0..3 {
            radiance[k] += to_eye[k] * density[k] * dt;
            optical[k] += e[k] * dt;
        }
    }
    radiance
}

/// Zenith angles (θ, dθ) of the incoming directions at radius `r_x`: midpoint rings graded
/// from both sides towards the ground's horizon θ_h = π − asin(R/r_x), where the incident light
/// changes fastest — the grazing rays through the whole limb above it, the lit ground below.
/// Measured on the sky's demo views: at 20 rings within 2.5 % of 80 rings, where uniform rings
/// (9° wide at 20) are 5 % off inside the atmosphere and 25 % off along grazing rays from space.
fn zenith_rings(atm: &Atmosphere, r_x: f64, rings: usize) -> Vec<(f64, f64)> {
    use std::f64::consts::PI;
    let horizon = PI - (atm.bottom_radius / r_x).min(1.0).asin();
    let above = ((rings as f64 * horizon / PI).round() as usize).clamp(1, rings.max(2) - 1);
    let mut out: Vec<(f64, f64)> = graded_steps(horizon, above).map(|(t, dt)| (horizon - t, dt)).collect();
    out.reverse();
    out.extend(graded_steps(PI - horizon, rings.max(2) - above).map(|(t, dt)| (horizon + t, dt)));
    out
}

/// Optical depth over `d` metres from (r, mu), midpoint rule.
pub fn optical_depth_along(atm: &Atmosphere, r: f64, mu: f64, d: f64, steps: usize) -> [f64; 3] {
    let dt = d / steps as f64;
    let mut tau = [0.0; 3];
    for i in 0..steps {
        let t = (i as f64 + 0.5) * dt;
        let e = atm.extinction((t * t + 2.0 * r * mu * t + r * r).sqrt() - atm.bottom_radius);
        for k in 0..3 {
            tau[k] += e[k] * dt;
        }
    }
    tau
}
// ANCHOR_END: second_order_reference

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_up_matches_the_published_check_value() {
        let atm = Atmosphere::default();
        let tau = atm.optical_depth_to_top(atm.bottom_radius, 1.0, 20_000);
        let want = [0.06147, 0.14195, 0.27126];
        for k in 0..3 {
            assert!((tau[k] - want[k]).abs() < 5e-5, "τ[{k}] = {} (published {})", tau[k], want[k]);
        }
        let t = atm.transmittance_to_top(atm.bottom_radius, 1.0, 20_000);
        for (k, want) in [0.9404, 0.8677, 0.7624].iter().enumerate() {
            assert!((t[k] - want).abs() < 1e-4);
        }
        // A 100 km top adds the Rayleigh air above 60 km, e^(−60/8) of the column: it changes the
        // transmittance by 2e-5 (red) to 1.1e-4 (blue). (The reference note says "< 1e-4"; blue
        // is just above.)
        let high = Atmosphere { top_radius: atm.bottom_radius + 100_000.0, ..atm.clone() };
        let t2 = high.transmittance_to_top(atm.bottom_radius, 1.0, 20_000);
        let change: Vec<f64> = (0..3).map(|k| (t[k] - t2[k]).abs()).collect();
        assert!(change[0] < 1e-4 && change[1] < 1e-4 && change[2] < 1.2e-4, "{change:?}");
    }

    #[test]
    fn texel_centre_mapping() {
        assert!((coord_from_unit_range(0.0, 10.0) - 0.05).abs() < 1e-15);
        assert!((coord_from_unit_range(1.0, 10.0) - 0.95).abs() < 1e-15);
        assert!((unit_range_from_coord(coord_from_unit_range(0.37, 256.0), 256.0) - 0.37).abs() < 1e-14);
    }

    #[test]
    fn parameterisation_round_trips() {
        let atm = Atmosphere::default();
        for &(u, v) in &[(0.1, 0.2), (0.5, 0.5), (0.9, 0.05), (0.002, 0.99)] {
            let (r, mu) = transmittance_r_mu(&atm, u, v);
            let (u2, v2) = transmittance_uv(&atm, r, mu);
            assert!((u - u2).abs() < 1e-9 && (v - v2).abs() < 1e-9, "({u},{v}) -> ({u2},{v2})");
        }
    }

    #[test]
    fn five_hundred_trapezoid_samples_are_accurate() {
        let atm = Atmosphere::default();
        for &(u, v) in &[(0.1, 0.2), (0.5, 0.5), (0.99, 0.05), (0.002, 0.99)] {
            let (r, mu) = transmittance_r_mu(&atm, u, v);
            let coarse = atm.optical_depth_to_top(r, mu, 500);
            let fine = atm.optical_depth_to_top(r, mu, 50_000);
            for k in 0..3 {
                assert!(
                    (coarse[k] - fine[k]).abs() <= 1e-3 * fine[k] + 1e-9,
                    "({u},{v}) ch {k}: {} vs {}",
                    coarse[k],
                    fine[k]
                );
            }
        }
    }

    #[test]
    fn phase_functions_are_normalised() {
        // ∫ p dΩ = 2π ∫ p(ν) dν over ν ∈ [−1, 1].
        let integrate = |f: &dyn Fn(f64) -> f64| {
            let n = 200_000;
            (0..n).map(|i| f(-1.0 + (i as f64 + 0.5) * 2.0 / n as f64)).sum::<f64>() * 2.0 / n as f64
                * 2.0
                * std::f64::consts::PI
        };
        assert!((integrate(&rayleigh_phase) - 1.0).abs() < 1e-6);
        assert!((integrate(&|nu| mie_phase(0.8, nu)) - 1.0).abs() < 1e-3);
    }
}
