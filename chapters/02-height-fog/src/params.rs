//! Height-fog parameters. Names differ from chapter 1's, so that in a stack with distance fog
//! every bare `--set name=value` still reaches exactly one chapter.

use fogbook_core::params::{ParamInfo, ParamVisitor, Parameters};
use serde::{Deserialize, Serialize};

// ANCHOR: params
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HeightFogParams {
    /// Apply the height fog (off: the debug views still show it, the colour passes through).
    pub height_fog: bool,
    /// First layer: ρ(h) = fog_density · e^(−height_falloff · (h − fog_height_m)).
    pub fog_density: f32,
    pub height_falloff: f32,
    pub fog_height_m: f32,
    /// Second layer, same form.
    pub second_fog_density: f32,
    pub second_height_falloff: f32,
    pub second_fog_height_m: f32,
    /// Fog begins this far from the camera (m); nothing past the cutoff gets fog (m).
    pub start_distance_m: f32,
    pub cutoff_distance_m: f32,
    /// Upper bound on the fog amount 1 − e^(−τ).
    pub max_opacity: f32,
    /// Colour the fog scatters towards the eye (linear RGB, may exceed 1).
    pub inscattering_color: [f32; 4],
    /// Use the scene's ambient sky colour (times the inscattering colour) instead.
    pub use_sky_color: bool,
    /// Sun-coloured inscattering: colour · max(v·l, 0)^exponent, from its own start distance.
    pub directional_color: [f32; 4],
    pub directional_exponent: f32,
    pub directional_start_m: f32,
}
// ANCHOR_END: params

impl Default for HeightFogParams {
    /// One engine's defaults: density 0.02 /m, falloff 0.2 /m, height 0; one layer.
    fn default() -> Self {
        Self {
            height_fog: true,
            fog_density: 0.02,
            height_falloff: 0.2,
            fog_height_m: 0.0,
            second_fog_density: 0.0,
            second_height_falloff: 0.2,
            second_fog_height_m: 0.0,
            start_distance_m: 0.0,
            cutoff_distance_m: 1.0e6,
            max_opacity: 1.0,
            inscattering_color: [0.45, 0.6, 0.85, 1.0],
            use_sky_color: false,
            directional_color: [0.6, 0.45, 0.25, 1.0],
            directional_exponent: 8.0,
            directional_start_m: 0.0,
        }
    }
}

impl Parameters for HeightFogParams {
    fn visit(&mut self, v: &mut dyn ParamVisitor) {
        v.group("Enable");
        v.boolean(&ParamInfo::boolean("height_fog").help("Apply this chapter's height fog"), &mut self.height_fog);
        v.group("Layer 1");
        v.float(
            &ParamInfo::log_float("fog_density", 0.0, 1.0).unit("1/m").help("Density at the fog height"),
            &mut self.fog_density,
        );
        v.float(
            &ParamInfo::float("height_falloff", 0.0, 2.0)
                .unit("1/m")
                .help("Density falls by e every 1/falloff metres up"),
            &mut self.height_falloff,
        );
        v.float(
            &ParamInfo::float("fog_height_m", -1000.0, 10_000.0).unit("m").help("Altitude of the reference density"),
            &mut self.fog_height_m,
        );
        v.group("Layer 2");
        v.float(
            &ParamInfo::log_float("second_fog_density", 0.0, 1.0).unit("1/m").help("Second layer's density (0: off)"),
            &mut self.second_fog_density,
        );
        v.float(
            &ParamInfo::float("second_height_falloff", 0.0, 2.0).unit("1/m").help("Second layer's falloff"),
            &mut self.second_height_falloff,
        );
        v.float(
            &ParamInfo::float("second_fog_height_m", -1000.0, 10_000.0).unit("m").help("Second layer's height"),
            &mut self.second_fog_height_m,
        );
        v.group("Distances and opacity");
        v.float(
            &ParamInfo::float("start_distance_m", 0.0, 100_000.0).unit("m").help("Fog begins this far from the camera"),
            &mut self.start_distance_m,
        );
        v.float(
            &ParamInfo::float("cutoff_distance_m", 0.0, 1.0e6).unit("m").help("Surfaces beyond this get no fog"),
            &mut self.cutoff_distance_m,
        );
        v.float(
            &ParamInfo::float("max_opacity", 0.0, 1.0).help("Upper bound on the fog amount"),
            &mut self.max_opacity,
        );
        v.group("Colour");
        v.color(
            &ParamInfo::color("inscattering_color", false, 16.0).help("Fog colour (linear RGB)"),
            &mut self.inscattering_color,
        );
        v.boolean(
            &ParamInfo::boolean("use_sky_color").help("Fog colour from the scene's ambient sky × inscattering colour"),
            &mut self.use_sky_color,
        );
        v.color(
            &ParamInfo::color("directional_color", false, 16.0).help("Sun inscattering colour"),
            &mut self.directional_color,
        );
        v.float(
            &ParamInfo::float("directional_exponent", 1.0, 512.0).help("Exponent of max(view·sun, 0)"),
            &mut self.directional_exponent,
        );
        v.float(
            &ParamInfo::float("directional_start_m", 0.0, 100_000.0)
                .unit("m")
                .help("Sun inscattering begins this far away"),
            &mut self.directional_start_m,
        );
    }
}
