//! Fixtures shared by this module's unit tests: Bruneton's toy atmosphere and a tolerance check.

use crate::reference::Atmosphere;

/// Bruneton's toy atmosphere for unit tests: 1000 km ground, 1500 km top, grey Rayleigh
/// 0.001 /km (60 km scale height), Mie 0.0015 / 0.002 /km (30 km), no ozone.
pub(super) fn toy() -> Atmosphere {
    Atmosphere {
        bottom_radius: 1.0e6,
        top_radius: 1.5e6,
        rayleigh_scattering: [1e-6; 3],
        rayleigh_scale_height: 60_000.0,
        mie_scattering: [1.5e-6; 3],
        mie_extinction: [2e-6; 3],
        mie_scale_height: 30_000.0,
        mie_g: 0.8,
        ozone_absorption: [0.0; 3],
        solar_irradiance: [1.0; 3],
        ground_albedo: 0.1,
    }
}

pub(super) fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}
