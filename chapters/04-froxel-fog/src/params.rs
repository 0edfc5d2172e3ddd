//! Froxel-fog parameters. Names differ from every other chapter's, so that in a stack every
//! bare `--set name=value` still reaches exactly one chapter. The height layer has chapter 2's
//! meaning: σt(h) = layer_density · e^(−layer_falloff · (h − layer_height_m)).

// ANCHOR: params
fogbook_core::parameters! {
    pub struct FroxelFogParams {
        "Enable" {
            /// Apply the fog (off: the debug views still show it, the colour passes through).
            froxel_fog: bool = true,
                boolean().help("Apply this chapter's fog to the colour"),
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
            /// Henyey–Greenstein asymmetry: > 0 scatters forwards (bright towards the sun).
            phase_g: f32 = 0.6,
                float(-0.999, 0.999).help("Phase asymmetry g"),
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
        }
    }
}
// ANCHOR_END: params
