//! Froxel-fog parameters. Names differ from every other chapter's, so that in a stack every
//! bare `--set name=value` still reaches exactly one chapter. The height layer has chapter 2's
//! meaning: σt(h) = layer_density · e^(−layer_falloff · (h − layer_height_m)); with chapter 2 in
//! the stack its two layers replace this one (see `Chapter::publish`).

use fogbook_core::params::ChoiceParam;
use serde::{Deserialize, Serialize};

/// The phase function of the medium.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseFunction {
    /// Henyey & Greenstein 1941.
    HenyeyGreenstein,
    /// Cornette & Shanks 1992: HG with a (1 + cos²θ) factor, renormalised.
    CornetteShanks,
}
fogbook_core::choice_enum!(PhaseFunction { HenyeyGreenstein = "henyey-greenstein", CornetteShanks = "cornette-shanks" });

// ANCHOR: params
fogbook_core::parameters! {
    pub struct FroxelFogParams {
        "Enable" {
            /// Apply the fog (off: the debug views still show it, the colour passes through).
            froxel_fog: bool = true,
                boolean().help("Apply this chapter's fog to the colour"),
            /// Inject each local fog volume only into the blocks of froxels its bounds touch
            /// (off: every volume is tested in every froxel, the same result, for comparison).
            volume_culling: bool = true,
                boolean().help("Test only the local fog volumes binned to each block of froxels"),
            /// For comparison: take each local volume's density at the froxel's one sample point,
            /// as this chapter takes its own medium, instead of averaging it over the froxel's
            /// slice (chapter 5's box filter). A volume's faces then step from slice to slice.
            volume_point_sample: bool = false,
                boolean().help("Local volumes at the froxel's sample point instead of averaged over its slice"),
        }
        "Grid" {
            /// Froxels across the screen (Wronski 2014: 160).
            grid_width: u32 = 160,
                int(64, 256).unit("froxels").help("Columns across the screen"),
            /// Froxels down the screen (Wronski 2014: 90).
            grid_height: u32 = 90,
                int(36, 144).unit("froxels").help("Rows down the screen"),
            /// Depth slices (Wronski 2014: 64).
            grid_depth: u32 = 64,
                int(32, 128).unit("slices").help("Depth slices along each column"),
            /// Slice boundaries are z_k = near · (far / near)^(k / N); the first slice reaches back
            /// to the eye.
            near_m: f32 = 1.0,
                float(0.05, 100.0).unit("m").help("Where the exponential slice spacing starts"),
            /// The grid ends here: nothing beyond gets this chapter's fog.
            fog_distance_m: f32 = 300.0,
                float(1.0, 5000.0).unit("m").help("Far end of the grid"),
        }
        "Medium" {
            /// Extinction of a medium that fills the whole grid (1/m).
            constant_density: f32 = 0.002,
                log_float(0.0, 10.0).unit("1/m").help("Constant extinction everywhere"),
            /// Chapter 2's layer: extinction at the layer height (1/m).
            layer_density: f32 = 0.02,
                log_float(0.0, 10.0).unit("1/m").help("Height layer's extinction at its height"),
            layer_falloff: f32 = 0.2,
                float(0.0, 2.0).unit("1/m").help("Density falls by e every 1/falloff metres up"),
            layer_height_m: f32 = 0.0,
                float(-1000.0, 10_000.0).unit("m").help("Altitude of the layer's reference density"),
            /// Single-scattering albedo σs / σt per channel.
            fog_albedo: [f32; 4] = [0.9, 0.9, 0.9, 1.0],
                color(false, 1.0).help("Scattering albedo σs / σt"),
            /// Asymmetry of the phase function: > 0 scatters forwards (bright towards the sun).
            phase_g: f32 = 0.6,
                float(-0.999, 0.999).help("Phase asymmetry g"),
            phase_function: PhaseFunction = PhaseFunction::HenyeyGreenstein,
                choice(PhaseFunction::OPTIONS).help("Henyey–Greenstein, or Cornette–Shanks (HG made physically closer to Mie)"),
        }
        "Noise" {
            /// How much the 3D noise modulates the global medium: σt · max(0, 1 + a · f), f the
            /// fractal noise (three octaves of gradient noise, mean 0, |f| ≤ 1.0364: the mean
            /// density is kept, and the clamp keeps σt ≥ 0 for amounts above 0.965).
            noise_amount: f32 = 0.0,
                float(0.0, 1.0).help("Fraction of the density the noise modulates"),
            /// Size of the noise's largest features (its lowest octave's period).
            noise_scale_m: f32 = 16.0,
                float(0.5, 500.0).unit("m").help("Size of the noise's largest features"),
            /// The noise drifts with this wind.
            wind_speed_m_s: f32 = 2.0,
                float(0.0, 50.0).unit("m/s").help("Speed the noise drifts at"),
            wind_heading_deg: f32 = 45.0,
                float(-180.0, 180.0).unit("deg").help("Direction the wind blows towards, as a camera yaw"),
        }
        "Light" {
            /// Factor on the sun's light (the scene's, or the sky's when it is in the stack).
            sun_scale: f32 = 1.0,
                float(0.0, 100.0).help("Factor on the sun's light"),
            /// Factor on the ambient light, taken as isotropic radiance.
            ambient_scale: f32 = 1.0,
                float(0.0, 100.0).help("Factor on the ambient (sky) light"),
            /// Sun shadows from the core's shadow map inside the volume (light shafts).
            volume_shadows: bool = true,
                boolean().help("Shadow the sun inside the fog (light shafts)"),
            /// Factor on the scene's point and spot lights (`scene.point_lights`, ...).
            local_light_scale: f32 = 1.0,
                float(0.0, 100.0).help("Factor on the scene's point and spot lights"),
            /// Beyond the grid, integrate the same medium in closed form up to each surface
            /// (unless chapter 2 is in the stack, which then takes over there).
            continue_beyond_grid: bool = true,
                boolean().help("Analytic fog from the grid's far end to the surface"),
        }
        "Temporal" {
            /// Jitter each froxel's sample along its slice every frame (the core's Halton
            /// sequence) and blend with last frame's result, reprojected.
            temporal: bool = false,
                boolean().help("Jittered samples blended with the reprojected history"),
            /// Weight of the history in the blend (0: this frame only).
            history_blend: f32 = 0.9,
                float(0.0, 0.99).help("Weight of last frame's reprojected result"),
        }
        "Views" {
            /// The slice the slice views show (clamped to the grid's depth).
            slice: u32 = 16,
                int(0, 127).help("Depth slice shown by the slice views"),
            /// Light only by the scene's local light k (1..8), no sun or ambient: its
            /// contribution alone in every view; 0 lights by everything.
            solo_light: u32 = 0,
                int(0, 8).help("Light by local light k alone (0: every light)"),
        }
    }
}
// ANCHOR_END: params
