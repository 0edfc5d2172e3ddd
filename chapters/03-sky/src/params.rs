//! Sky parameters. The sun's direction is the shared scene's (`scene.sun_elevation_deg`,
//! `scene.sun_azimuth_deg`), so the sky and the lit scene always agree.

use fogbook_core::params::{ParamInfo, ParamVisitor, Parameters};
use serde::{Deserialize, Serialize};

// ANCHOR: params
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkyParams {
    pub bottom_radius_km: f32,
    /// Thickness of the atmosphere (top radius − bottom radius).
    pub atmosphere_height_km: f32,
    /// Rayleigh scattering coefficients at 680, 550, 440 nm (1e-6 /m).
    pub rayleigh_scattering: [f32; 4],
    pub rayleigh_scale_height_km: f32,
    /// Mie scattering and absorption (1e-6 /m, grey).
    pub mie_scattering: f32,
    pub mie_absorption: f32,
    pub mie_scale_height_km: f32,
    /// Mie phase asymmetry (Cornette–Shanks).
    pub mie_g: f32,
    pub ozone: bool,
    /// Ozone absorption at its peak, 680 / 550 / 440 nm (1e-6 /m).
    pub ozone_absorption: [f32; 4],
    /// The camera's height above the ground is its scene height plus this (m).
    pub camera_altitude_m: f32,
    /// Radiance scale for display (Bruneton's demo uses 10).
    pub exposure: f32,
    /// Ray-march steps for the single-scattering integral per pixel.
    pub steps: u32,
}
// ANCHOR_END: params

impl Default for SkyParams {
    /// Earth, as in Bruneton 2017 and Hillaire 2020.
    fn default() -> Self {
        Self {
            bottom_radius_km: 6360.0,
            atmosphere_height_km: 60.0,
            rayleigh_scattering: [5.802, 13.558, 33.1, 1.0],
            rayleigh_scale_height_km: 8.0,
            mie_scattering: 3.996,
            mie_absorption: 0.444,
            mie_scale_height_km: 1.2,
            mie_g: 0.8,
            ozone: true,
            ozone_absorption: [0.65, 1.881, 0.085, 1.0],
            camera_altitude_m: 0.0,
            exposure: 10.0,
            steps: 32,
        }
    }
}

impl Parameters for SkyParams {
    fn visit(&mut self, v: &mut dyn ParamVisitor) {
        v.group("Planet");
        v.float(
            &ParamInfo::float("bottom_radius_km", 100.0, 100_000.0).unit("km").help("Ground radius"),
            &mut self.bottom_radius_km,
        );
        v.float(
            &ParamInfo::float("atmosphere_height_km", 1.0, 1000.0).unit("km").help("Top radius minus ground radius"),
            &mut self.atmosphere_height_km,
        );
        v.group("Rayleigh");
        v.color(
            &ParamInfo::color("rayleigh_scattering", false, 1000.0).unit("1e-6/m").help("At 680, 550, 440 nm"),
            &mut self.rayleigh_scattering,
        );
        v.float(
            &ParamInfo::float("rayleigh_scale_height_km", 0.1, 100.0)
                .unit("km")
                .help("Density falls by e over this height"),
            &mut self.rayleigh_scale_height_km,
        );
        v.group("Mie");
        v.float(
            &ParamInfo::float("mie_scattering", 0.0, 1000.0).unit("1e-6/m").help("Aerosol scattering"),
            &mut self.mie_scattering,
        );
        v.float(
            &ParamInfo::float("mie_absorption", 0.0, 1000.0).unit("1e-6/m").help("Aerosol absorption"),
            &mut self.mie_absorption,
        );
        v.float(
            &ParamInfo::float("mie_scale_height_km", 0.1, 100.0).unit("km").help("Aerosol scale height"),
            &mut self.mie_scale_height_km,
        );
        v.float(&ParamInfo::float("mie_g", -0.999, 0.999).help("Phase asymmetry"), &mut self.mie_g);
        v.group("Ozone");
        v.boolean(&ParamInfo::boolean("ozone").help("Absorbing ozone layer, 10–40 km"), &mut self.ozone);
        v.color(
            &ParamInfo::color("ozone_absorption", false, 1000.0).unit("1e-6/m").help("At the layer's peak"),
            &mut self.ozone_absorption,
        );
        v.group("View");
        v.float(
            &ParamInfo::log_float("camera_altitude_m", 0.0, 1.0e7).unit("m").help("Added to the camera's height"),
            &mut self.camera_altitude_m,
        );
        v.float(
            &ParamInfo::log_float("exposure", 0.01, 1000.0).help("Radiance scale before tonemapping"),
            &mut self.exposure,
        );
        v.int(&ParamInfo::int("steps", 4, 256).help("Ray-march steps per pixel"), &mut self.steps);
    }
}
