//! Distance-fog parameters: one struct, described once for the panel, the CLI and presets.

use fogbook_core::params::{ChoiceParam, ParamInfo, ParamVisitor, Parameters, visit_choice};
use serde::{Deserialize, Serialize};

/// How fog grows with distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Falloff {
    Linear,
    Exponential,
    ExponentialSquared,
    /// Separate extinction and inscattering coefficients per colour channel.
    Atmospheric,
}

fogbook_core::choice_enum!(Falloff {
    Linear = "linear",
    Exponential = "exponential",
    ExponentialSquared = "exponential-squared",
    Atmospheric = "atmospheric",
});

// ANCHOR: params
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DistanceFogParams {
    pub falloff: Falloff,
    /// Fog colour (linear RGB); alpha scales how much fog is applied (0 = none).
    pub color: [f32; 4],
    /// Linear falloff: where fog starts and where it is total (m).
    pub start_m: f32,
    pub end_m: f32,
    /// Exponential falloffs: density ρ (1/m).
    pub density: f32,
    /// Atmospheric falloff: extinction β_e and inscattering β_i per channel (1/m).
    pub extinction: [f32; 4],
    pub inscattering: [f32; 4],
    /// Derive the falloff from a visibility distance instead (Koschmieder's law).
    pub use_visibility: bool,
    /// Distance at which a black object keeps `contrast_threshold` of its contrast (m).
    pub visibility_m: f32,
    /// Contrast left at the visibility distance (0.05 today; 0.02 in Koschmieder's time).
    pub contrast_threshold: f32,
    /// Glow towards the sun: colour (alpha = weight) and exponent of max(v·l, 0).
    pub glow_color: [f32; 4],
    pub glow_exponent: f32,
    /// Mask the glow by the sun's shadow map, marching the view ray in this many steps.
    pub glow_shadowed: bool,
    pub glow_shadow_steps: u32,
}
// ANCHOR_END: params

impl Default for DistanceFogParams {
    /// Defaults of common engines: white fog, linear from 0 to 100 m, glow exponent 8.
    fn default() -> Self {
        Self {
            falloff: Falloff::Linear,
            color: [1.0, 1.0, 1.0, 1.0],
            start_m: 0.0,
            end_m: 100.0,
            density: 0.02,
            extinction: [0.012, 0.016, 0.022, 1.0],
            inscattering: [0.010, 0.014, 0.020, 1.0],
            use_visibility: false,
            visibility_m: 150.0,
            contrast_threshold: 0.05,
            glow_color: [1.0, 0.85, 0.6, 0.5],
            glow_exponent: 8.0,
            glow_shadowed: true,
            glow_shadow_steps: 16,
        }
    }
}

impl Parameters for DistanceFogParams {
    fn visit(&mut self, v: &mut dyn ParamVisitor) {
        v.group("Falloff");
        visit_choice(
            v,
            &ParamInfo::choice("falloff", Falloff::OPTIONS).help("How fog grows with distance"),
            &mut self.falloff,
        );
        v.color(
            &ParamInfo::color("color", true, 4.0).help("Fog colour (linear RGB); alpha scales the amount of fog"),
            &mut self.color,
        );
        v.float(
            &ParamInfo::float("start_m", 0.0, 10_000.0).unit("m").help("Linear: distance where fog begins"),
            &mut self.start_m,
        );
        v.float(
            &ParamInfo::float("end_m", 0.0, 10_000.0).unit("m").help("Linear: distance where fog is total"),
            &mut self.end_m,
        );
        v.float(
            &ParamInfo::log_float("density", 0.0, 1.0).unit("1/m").help("Exponential: extinction coefficient ρ"),
            &mut self.density,
        );
        v.color(
            &ParamInfo::color("extinction", false, 1.0).unit("1/m").help("Atmospheric: β_e per channel"),
            &mut self.extinction,
        );
        v.color(
            &ParamInfo::color("inscattering", false, 1.0).unit("1/m").help("Atmospheric: β_i per channel"),
            &mut self.inscattering,
        );
        v.group("Visibility (Koschmieder)");
        v.boolean(
            &ParamInfo::boolean("use_visibility").help("Set the falloff from a visibility distance"),
            &mut self.use_visibility,
        );
        v.float(
            &ParamInfo::float("visibility_m", 0.1, 100_000.0)
                .unit("m")
                .help("Distance where contrast drops to the threshold"),
            &mut self.visibility_m,
        );
        v.float(
            &ParamInfo::float("contrast_threshold", 0.001, 0.5).help("Contrast left at the visibility distance"),
            &mut self.contrast_threshold,
        );
        v.group("Sun glow");
        v.color(
            &ParamInfo::color("glow_color", true, 4.0).help("Glow colour; alpha is its weight"),
            &mut self.glow_color,
        );
        v.float(
            &ParamInfo::float("glow_exponent", 1.0, 512.0).help("Exponent of max(view·sun, 0): higher is tighter"),
            &mut self.glow_exponent,
        );
        v.boolean(
            &ParamInfo::boolean("glow_shadowed").help("Mask the glow by the sun's shadow"),
            &mut self.glow_shadowed,
        );
        v.int(
            &ParamInfo::int("glow_shadow_steps", 1, 64).help("Shadow-map samples along each view ray"),
            &mut self.glow_shadow_steps,
        );
    }
}
