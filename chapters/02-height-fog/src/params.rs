//! Height-fog parameters. Names differ from chapter 1's, so that in a stack with distance fog
//! every bare `--set name=value` still reaches exactly one chapter.

// One engine's defaults: density 0.02 /m, falloff 0.2 /m, height 0; one layer.
// ANCHOR: params
// ANCHOR: params_head
fogbook_core::parameters! {
    pub struct HeightFogParams {
        "Enable" {
            /// Apply the height fog (off: the debug views still show it, the colour passes through).
            height_fog: bool = true,
                boolean().help("Apply this chapter's height fog"),
        }
        "Layer 1" {
            /// First layer: ρ(h) = fog_density · e^(−height_falloff · (h − fog_height_m)).
            fog_density: f32 = 0.02,
                log_float(0.0, 1.0).unit("1/m").help("Density at the fog height"),
            height_falloff: f32 = 0.2,
                float(0.0, 2.0).unit("1/m").help("Density falls by e every 1/falloff metres up"),
            fog_height_m: f32 = 0.0,
                float(-1000.0, 10_000.0).unit("m").help("Altitude of the reference density"),
        }
        // ANCHOR_END: params_head
        "Layer 2" {
            /// Second layer, same form.
            second_fog_density: f32 = 0.0,
                log_float(0.0, 1.0).unit("1/m").help("Second layer's density (0: off)"),
            second_height_falloff: f32 = 0.2,
                float(0.0, 2.0).unit("1/m").help("Second layer's falloff"),
            second_fog_height_m: f32 = 0.0,
                float(-1000.0, 10_000.0).unit("m").help("Second layer's height"),
        }
        "Distances and opacity" {
            /// Fog begins this far from the camera (m); nothing past the cutoff gets fog (m).
            start_distance_m: f32 = 0.0,
                float(0.0, 100_000.0).unit("m").help("Fog begins this far from the camera"),
            cutoff_distance_m: f32 = 1.0e6,
                float(0.0, 1.0e6).unit("m").help("Surfaces beyond this get no fog"),
            /// Upper bound on the fog amount 1 − e^(−τ).
            max_opacity: f32 = 1.0,
                float(0.0, 1.0).help("Upper bound on the fog amount"),
        }
        "Colour" {
            /// Colour the fog scatters towards the eye (linear RGB, may exceed 1).
            inscattering_color: [f32; 4] = [0.45, 0.6, 0.85, 1.0],
                color(false, 16.0).help("Fog colour (linear RGB)"),
            /// Use the scene's ambient sky colour (times the inscattering colour) instead.
            use_sky_color: bool = false,
                boolean().help("Fog colour from the scene's ambient sky × inscattering colour"),
            /// Sun-coloured inscattering: colour · max(v·l, 0)^exponent, from its own start distance.
            directional_color: [f32; 4] = [0.6, 0.45, 0.25, 1.0],
                color(false, 16.0).help("Sun inscattering colour"),
            directional_exponent: f32 = 8.0,
                float(1.0, 512.0).help("Exponent of max(view·sun, 0)"),
            directional_start_m: f32 = 0.0,
                float(0.0, 100_000.0).unit("m").help("Sun inscattering begins this far away"),
        }
    }
}
// ANCHOR_END: params
