//! Sky parameters. The sun's direction is the shared scene's (`scene.sun_elevation_deg`,
//! `scene.sun_azimuth_deg`), so the sky and the lit scene always agree. Every parameter of the
//! atmosphere recomputes the lookup textures; the view settings do not.

use fogbook_core::params::ChoiceParam;
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

// Earth, as in Bruneton 2017 and Hillaire 2020.
// ANCHOR: params
fogbook_core::parameters! {
    pub struct SkyParams {
        "Planet" {
            bottom_radius_km: f32 = 6360.0,
                float(100.0, 100_000.0).unit("km").help("Ground radius"),
            /// Thickness of the atmosphere (top radius − bottom radius).
            atmosphere_height_km: f32 = 60.0,
                float(1.0, 1000.0).unit("km").help("Top radius minus ground radius"),
            /// Lambertian albedo of the planet's ground.
            ground_albedo: f32 = 0.1,
                float(0.0, 1.0).help("Lambertian reflectance"),
        }
        "Rayleigh" {
            /// Rayleigh scattering coefficients at 680, 550, 440 nm (1e-6 /m).
            rayleigh_scattering: [f32; 4] = [5.802, 13.558, 33.1, 1.0],
                color(false, 1000.0).unit("1e-6/m").help("At 680, 550, 440 nm"),
            rayleigh_scale_height_km: f32 = 8.0,
                float(0.1, 100.0).unit("km").help("Density falls by e over this height"),
        }
        "Mie" {
            /// Mie scattering and absorption (1e-6 /m, grey).
            mie_scattering: f32 = 3.996,
                float(0.0, 1000.0).unit("1e-6/m").help("Aerosol scattering"),
            mie_absorption: f32 = 0.444,
                float(0.0, 1000.0).unit("1e-6/m").help("Aerosol absorption"),
            mie_scale_height_km: f32 = 1.2,
                float(0.1, 100.0).unit("km").help("Aerosol scale height"),
            /// Mie phase asymmetry (Cornette–Shanks).
            mie_g: f32 = 0.8,
                float(-0.999, 0.999).help("Phase asymmetry"),
        }
        "Ozone" {
            ozone: bool = true,
                boolean().help("Absorbing ozone layer, 10–40 km"),
            /// Ozone absorption at its peak, 680 / 550 / 440 nm (1e-6 /m).
            ozone_absorption: [f32; 4] = [0.65, 1.881, 0.085, 1.0],
                color(false, 1000.0).unit("1e-6/m").help("At the layer's peak"),
        }
        "Precomputation" {
            /// Orders of scattering precomputed (1: single scattering only; Bruneton uses 4).
            scattering_orders: u32 = 4,
                int(1, MAX_SCATTERING_ORDERS).help("1: single scattering; Bruneton uses 4"),
            lut_resolution: LutResolution = LutResolution::Full,
                choice(LutResolution::OPTIONS).help("4D scattering texture: full = r 32, μ 128, μ_s 32, ν 8"),
        }
        "View" {
            /// The camera's height above the ground is its scene height plus this (m).
            camera_altitude_m: f32 = 0.0,
                log_float(0.0, 1.0e7).unit("m").help("Added to the camera's height"),
            /// Radiance scale for display (Bruneton's demo uses 10).
            exposure: f32 = 10.0,
                log_float(0.01, 1000.0).help("Radiance scale before tonemapping"),
            /// Half-width of the band around the horizon where aerial perspective blends two rays
            /// (degrees; 0 turns the fix off).
            horizon_blend_deg: f32 = 0.0,
                float(0.0, 2.0).unit("deg").help("Aerial perspective blends two rays this close to the horizon; 0: off"),
            /// Light the test scene with the sun and sky irradiance of this atmosphere.
            light_scene: bool = true,
                boolean().help("Sun and ambient light of the scene from this atmosphere"),
            /// Recompute the lookup textures every frame (to time them with `bench`).
            precompute_every_frame: bool = false,
                boolean().help("Recompute the LUTs every frame, to time them"),
            /// Which r slice of the 4D textures the LUT views show, as a fraction of the r axis
            /// (0: the ground, 1: the top of the atmosphere).
            lut_slice: f32 = 0.25,
                float(0.0, 1.0).help("r slice the 4D LUT views show: 0 ground, 1 top"),
        }
    }
}
// ANCHOR_END: params

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
