//! Sky parameters. The sun's direction is the shared scene's (`scene.sun_elevation_deg`,
//! `scene.sun_azimuth_deg`), so the sky and the lit scene always agree. Every parameter of the
//! atmosphere recomputes the lookup textures; the view settings do not.

use fogbook_core::params::{ChoiceParam, ParamInfo, ParamVisitor, Parameters, visit_choice};
use serde::{Deserialize, Serialize};

/// Size of the 4D scattering texture: Bruneton's (r 32, μ 128, μ_s 32, ν 8), or coarser for quick
/// runs on a software driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LutResolution {
    Full,
    Half,
    Quarter,
}
fogbook_core::choice_enum!(LutResolution { Full = "full", Half = "half", Quarter = "quarter" });

impl LutResolution {
    /// (ν, μ_s, μ, r) texels.
    pub fn scattering_size(self) -> [u32; 4] {
        match self {
            Self::Full => [8, 32, 128, 32],
            Self::Half => [8, 16, 64, 16],
            Self::Quarter => [8, 8, 32, 8],
        }
    }
}

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
    /// Lambertian albedo of the planet's ground.
    pub ground_albedo: f32,
    /// Orders of scattering precomputed (1: single scattering only; Bruneton uses 4).
    pub scattering_orders: u32,
    pub lut_resolution: LutResolution,
    /// The camera's height above the ground is its scene height plus this (m).
    pub camera_altitude_m: f32,
    /// Radiance scale for display (Bruneton's demo uses 10).
    pub exposure: f32,
    /// Half-width of the band around the horizon where aerial perspective blends two rays
    /// (degrees; 0 turns the fix off).
    pub horizon_blend_deg: f32,
    /// Light the test scene with the sun and sky irradiance of this atmosphere.
    pub light_scene: bool,
    /// Recompute the lookup textures every frame (to time them with `bench`).
    pub precompute_every_frame: bool,
    /// Which r slice of the 4D textures the LUT views show, as a fraction of the r axis
    /// (0: the ground, 1: the top of the atmosphere).
    pub lut_slice: f32,
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
            ground_albedo: 0.1,
            scattering_orders: 4,
            lut_resolution: LutResolution::Full,
            camera_altitude_m: 0.0,
            exposure: 10.0,
            horizon_blend_deg: 0.0,
            light_scene: true,
            precompute_every_frame: false,
            lut_slice: 0.25,
        }
    }
}

impl SkyParams {
    /// The parameters the lookup textures depend on: a change of any other (view settings)
    /// leaves them as they are.
    pub fn lut_key(&self) -> SkyParams {
        SkyParams {
            camera_altitude_m: 0.0,
            exposure: 1.0,
            horizon_blend_deg: 0.0,
            light_scene: false,
            precompute_every_frame: false,
            lut_slice: 0.0,
            ..self.clone()
        }
    }
}

/// Highest number of scattering orders accepted.
pub const MAX_SCATTERING_ORDERS: u32 = 10;

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
        v.float(&ParamInfo::float("ground_albedo", 0.0, 1.0).help("Lambertian reflectance"), &mut self.ground_albedo);
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
        v.group("Precomputation");
        v.int(
            &ParamInfo::int("scattering_orders", 1, MAX_SCATTERING_ORDERS)
                .help("1: single scattering; Bruneton uses 4"),
            &mut self.scattering_orders,
        );
        visit_choice(
            v,
            &ParamInfo::choice("lut_resolution", LutResolution::OPTIONS)
                .help("4D scattering texture: full = r 32, μ 128, μ_s 32, ν 8"),
            &mut self.lut_resolution,
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
        v.float(
            &ParamInfo::float("horizon_blend_deg", 0.0, 2.0)
                .unit("deg")
                .help("Aerial perspective blends two rays this close to the horizon; 0: off"),
            &mut self.horizon_blend_deg,
        );
        v.boolean(
            &ParamInfo::boolean("light_scene").help("Sun and ambient light of the scene from this atmosphere"),
            &mut self.light_scene,
        );
        v.boolean(
            &ParamInfo::boolean("precompute_every_frame").help("Recompute the LUTs every frame, to time them"),
            &mut self.precompute_every_frame,
        );
        v.float(
            &ParamInfo::float("lut_slice", 0.0, 1.0).help("r slice the 4D LUT views show: 0 ground, 1 top"),
            &mut self.lut_slice,
        );
    }
}
