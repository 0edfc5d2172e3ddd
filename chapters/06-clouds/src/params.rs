//! Cloud parameters with units and ranges. The layer's altitudes are above the ground of
//! chapter 3's planet; lengths are metres unless the name says km.

use fogbook_core::params::ChoiceParam;
use serde::{Deserialize, Serialize};

/// How the density is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DensityModel {
    /// Noise, weather map, height gradients, coverage, erosion (the clouds).
    Noise,
    /// Density 1 everywhere in the layer: the homogeneous slab of the reference check.
    Slab,
}
fogbook_core::choice_enum!(DensityModel { Noise = "noise", Slab = "slab" });

/// How the clouds are marched each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CloudMode {
    /// Every pixel marched every frame: the reference, and one frame makes a finished image.
    Reference,
    /// One pixel of each 4×4 block marched per frame, the rest reprojected from earlier frames
    /// (Schneider & Vos 2015): a sixteenth of the marching, converged after 16 still frames.
    Realtime,
}
fogbook_core::choice_enum!(CloudMode { Reference = "reference", Realtime = "realtime" });

/// Texel counts of the noise textures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoiseResolution {
    /// 128³ base shape, 32³ detail, 512² weather map (Schneider & Vos 2015's sizes).
    Full,
    /// 32³, 16³ and 128²: for tests on a software driver.
    Low,
}
fogbook_core::choice_enum!(NoiseResolution { Full = "full", Low = "low" });

impl NoiseResolution {
    /// (base shape, detail, weather map) texels per side.
    pub fn sizes(self) -> [u32; 3] {
        match self {
            NoiseResolution::Full => [128, 32, 512],
            NoiseResolution::Low => [32, 16, 128],
        }
    }
}

// ANCHOR: params
fogbook_core::parameters! {
    pub struct CloudParams {
        "Layer" {
            /// Draw the clouds (off: the debug views still show them, the colour passes through).
            clouds: bool = true,
                boolean().help("Draw the clouds over the colour so far"),
            /// Altitude of the layer's bottom above the planet's ground.
            layer_bottom_m: f32 = 1500.0,
                float(0.0, 20000.0).unit("m").help("Altitude of the cloud layer's bottom"),
            layer_thickness_m: f32 = 2500.0,
                float(100.0, 10000.0).unit("m").help("Thickness of the cloud layer"),
            /// Planet radius when the sky is not in the stack (with it, the sky's ground radius).
            planet_radius_km: f32 = 6360.0,
                float(100.0, 100000.0).unit("km").help("Planet radius without the sky"),
        }
        "Shape" {
            density_model: DensityModel = DensityModel::Noise,
                choice(DensityModel::OPTIONS).help("Noise clouds, or the constant slab of the reference check"),
            /// 0 clears the sky, 1 covers it; ½ keeps the weather map's coverage.
            coverage: f32 = 0.5,
                float(0.0, 1.0).help("Cloud coverage (½: the weather map as it is)"),
            /// 0 stratus, ½ stratocumulus, 1 cumulus.
            cloud_type: f32 = 0.75,
                float(0.0, 1.0).help("Cloud type: 0 stratus, 0.5 stratocumulus, 1 cumulus"),
            /// How far the weather map's type channel moves the type.
            type_variation: f32 = 0.5,
                float(0.0, 2.0).help("How much the weather map varies the type"),
            /// How much the detail noise eats into the base shape's edges.
            detail_erosion: f32 = 0.35,
                float(0.0, 1.0).help("Erosion of the edges by the detail noise"),
            /// How far the curl noise moves the detail's lookup at the layer's bottom (0: off).
            curl_strength_m: f32 = 0.0,
                float(0.0, 1000.0).unit("m").help("Curl-noise distortion of the detail (0: off)"),
            shape_tile_km: f32 = 12.0,
                float(0.5, 200.0).unit("km").help("Size of one tile of the base-shape noise"),
            detail_tile_km: f32 = 1.2,
                float(0.05, 20.0).unit("km").help("Size of one tile of the detail noise"),
            weather_tile_km: f32 = 60.0,
                float(1.0, 1000.0).unit("km").help("Size of one tile of the weather map"),
            wind_speed_m_s: f32 = 10.0,
                float(0.0, 100.0).unit("m/s").help("Wind speed (moves the clouds)"),
            wind_direction_deg: f32 = 30.0,
                float(-180.0, 180.0).unit("deg").help("Direction the wind blows towards, from +x towards +z"),
            /// How far the top leans downwind per metre of height.
            wind_shear: f32 = 0.3,
                float(0.0, 5.0).help("Lean of the tops downwind (m per m of height)"),
        }
        "Noise" {
            noise_seed: u32 = 1,
                int(0, 1000).help("Seed of the noise textures and the weather map"),
            noise_resolution: NoiseResolution = NoiseResolution::Full,
                choice(NoiseResolution::OPTIONS).help("Noise texture sizes (low: for tests)"),
            /// Generate the noise again every frame, to time its passes (`fogbook bench`).
            noise_every_frame: bool = false,
                boolean().help("Regenerate the noise every frame (for timing)"),
            /// A PNG to use as the weather map (empty: the generated one): red coverage, green
            /// cloud type, blue density (weather_file.rs).
            weather_map_file: String = String::new(),
                text().help("PNG weather map: R coverage, G type, B density, resampled to the map's size; empty: generated"),
            noise_slice: f32 = 0.5,
                float(0.0, 1.0).help("Depth of the slice the noise views show"),
        }
        "Medium" {
            /// Extinction σt of the densest cloud.
            extinction: f32 = 0.05,
                log_float(0.0, 1.0).unit("1/m").help("Extinction σt at density 1"),
            albedo: f32 = 0.99,
                float(0.0, 1.0).help("Single-scattering albedo σs / σt"),
        }
        "Light" {
            sun_scale: f32 = 1.0,
                float(0.0, 100.0).help("Factor on the sun's light"),
            ambient_scale: f32 = 1.0,
                float(0.0, 100.0).help("Factor on the sky's and ground's ambient light"),
            phase_forward_g: f32 = 0.8,
                float(-0.99, 0.99).help("Henyey–Greenstein g of the forward lobe"),
            phase_backward_g: f32 = -0.2,
                float(-0.99, 0.99).help("Henyey–Greenstein g of the backward lobe"),
            phase_forward_weight: f32 = 0.5,
                float(0.0, 1.0).help("Weight of the forward lobe (1: one lobe)"),
            /// Octaves of multiple scattering (1: single scattering).
            octaves: u32 = 3,
                int(1, 3).help("Multiple-scattering octaves (1: single scattering)"),
            octave_extinction: f32 = 0.5,
                float(0.0, 1.0).help("a: octave i sees the extinction × a^i"),
            octave_contribution: f32 = 0.5,
                float(0.0, 1.0).help("b: octave i contributes × b^i"),
            octave_eccentricity: f32 = 0.5,
                float(0.0, 1.0).help("c: octave i's phase asymmetry × c^i"),
            powder: bool = false,
                boolean().help("Schneider's powder term: darker edges facing the sun"),
            ground_albedo: f32 = 0.1,
                float(0.0, 1.0).help("Albedo of the ground that lights the clouds from below"),
            aerial_perspective: bool = true,
                boolean().help("The sky's aerial perspective over the clouds (with the sky)"),
        }
        "March" {
            view_steps: u32 = 64,
                int(1, 512).help("Steps along the view ray through the layer"),
            light_steps: u32 = 6,
                int(1, 32).help("Samples of the light march towards the sun"),
            light_march_m: f32 = 1500.0,
                float(10.0, 20000.0).unit("m").help("Longest light march"),
            /// Spread of the light samples around the sun's ray, per metre along it.
            light_cone_spread: f32 = 0.3,
                float(0.0, 1.0).help("Width of the light march's cone (m per m)"),
            max_march_km: f32 = 60.0,
                float(1.0, 1000.0).unit("km").help("Longest view march through the layer"),
            jitter: bool = true,
                boolean().help("Jitter the first step per pixel (noise instead of banding)"),
        }
        "Shadow" {
            /// The clouds' shadow map, published to the scene's and the froxel fog's sun light
            /// (shadow.rs): with `clouds` on, the clouds darken what lies below them.
            cloud_shadows: bool = true,
                boolean().help("Cast the clouds' shadow on the scene and the fog (a top-down transmittance map)"),
            /// Side of the square of ground the map covers, centred on the camera. A point
            /// below the clouds uses the ground point its ray towards the sun starts from, so
            /// the square must reach as far as the farthest shadowed point's projection.
            shadow_extent_km: f32 = 16.0,
                float(0.5, 200.0).unit("km").help("Side of the shadow map's square around the camera"),
            /// Texels per side: a texel is extent / resolution (62.5 m by default, a tenth
            /// of a small cumulus; the map is linearly filtered).
            shadow_resolution: u32 = 256,
                int(8, 2048).help("Shadow map texels per side (texel = extent / resolution)"),
            /// Midpoint steps of the march from each texel's ground point through the layer.
            shadow_steps: u32 = 12,
                int(1, 64).help("Steps of the shadow map's march through the layer"),
            /// 1: the clouds' full transmittance; 0: no shadow.
            shadow_strength: f32 = 1.0,
                float(0.0, 1.0).help("How dark the shadow is (0 none, 1 the clouds' transmittance)"),
        }
        "Real time" {
            /// Reference by default: one frame gives the finished image (figures, tests, the
            /// f64 check); the real-time mode needs 16 still frames to converge.
            mode: CloudMode = CloudMode::Reference,
                choice(CloudMode::OPTIONS).help("Reference: every pixel every frame; real time: 1 of 16, reprojected"),
            /// Off: each pixel keeps its own history as if the camera stood still (to see what the
            /// reprojection is for).
            reproject: bool = true,
                boolean().help("Reproject the history with last frame's view-projection"),
            /// How far the reprojected history may lie outside the box of the fresh samples
            /// around it, as a fraction of the box's size, before it is rejected.
            neighbourhood_margin: f32 = 0.5,
                float(0.0, 4.0).help("Rejection: history outside the neighbours' box by more than this × its size"),
            /// How far the scene's distance at the reprojected point may differ from the
            /// pixel's before the history is taken as occluded or disoccluded.
            depth_tolerance: f32 = 0.05,
                float(0.001, 1.0).help("Rejection: relative difference of the scene's distance"),
        }
    }
}
// ANCHOR_END: params

impl CloudParams {
    /// The layer as the f64 reference's homogeneous slab, on the chapter's own planet, lit from
    /// `sun_dir` by `sun`: what the GPU's slab mode (constant density) integrates.
    pub fn slab(&self, sun_dir: glam::DVec3, sun: glam::DVec3) -> crate::reference::Slab {
        crate::reference::Slab {
            planet_radius_m: self.planet_radius_km as f64 * 1000.0,
            bottom_m: self.layer_bottom_m as f64,
            thickness_m: self.layer_thickness_m as f64,
            extinction: self.extinction as f64,
            albedo: self.albedo as f64,
            g: self.phase_forward_g as f64,
            light_march_m: self.light_march_m as f64,
            max_march_m: self.max_march_km as f64 * 1000.0,
            sun_dir,
            sun,
        }
    }
}
