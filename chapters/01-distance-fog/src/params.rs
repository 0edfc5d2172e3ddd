//! Distance-fog parameters: one struct, described once for the panel, the CLI and presets.

use fogbook_core::params::ChoiceParam;
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

// Defaults of common engines: white fog, linear from 0 to 100 m, glow exponent 8.
// ANCHOR: params
fogbook_core::parameters! {
    pub struct DistanceFogParams {
        "Falloff" {
            falloff: Falloff = Falloff::Linear,
                choice(Falloff::OPTIONS).help("How fog grows with distance"),
            /// Fog colour (linear RGB); alpha scales how much fog is applied (0 = none).
            color: [f32; 4] = [1.0, 1.0, 1.0, 1.0],
                color(true, 4.0).help("Fog colour (linear RGB); alpha scales the amount of fog"),
            /// Linear falloff: where fog starts and where it is total (m).
            start_m: f32 = 0.0,
                float(0.0, 10_000.0).unit("m").help("Linear: distance where fog begins"),
            end_m: f32 = 100.0,
                float(0.0, 10_000.0).unit("m").help("Linear: distance where fog is total"),
            /// Exponential falloffs: density ρ (1/m).
            density: f32 = 0.02,
                log_float(0.0, 1.0).unit("1/m").help("Exponential: extinction coefficient ρ"),
            /// Atmospheric falloff: extinction β_e and inscattering β_i per channel (1/m).
            extinction: [f32; 4] = [0.012, 0.016, 0.022, 1.0],
                color(false, 1.0).unit("1/m").help("Atmospheric: β_e per channel"),
            inscattering: [f32; 4] = [0.010, 0.014, 0.020, 1.0],
                color(false, 1.0).unit("1/m").help("Atmospheric: β_i per channel"),
        }
        "Visibility (Koschmieder)" {
            /// Derive the falloff from a visibility distance instead (Koschmieder's law).
            use_visibility: bool = false,
                boolean().help("Set the falloff from a visibility distance"),
            /// Distance at which a black object keeps `contrast_threshold` of its contrast (m).
            visibility_m: f32 = 150.0,
                float(0.1, 100_000.0).unit("m").help("Distance where contrast drops to the threshold"),
            /// Contrast left at the visibility distance (0.05 today; 0.02 in Koschmieder's time).
            contrast_threshold: f32 = 0.05,
                float(0.001, 0.5).help("Contrast left at the visibility distance"),
            /// Atmospheric falloff from visibility: the colour the scene keeps as fog extinguishes
            /// it (black: every channel at Koschmieder's β) and the colour the fog scatters in
            /// (white: every channel at β). Alpha scales each. See `reference::atmospheric_from_visibility_colors`.
            extinction_color: [f32; 4] = [0.0, 0.0, 0.0, 1.0],
                color(true, 1.0).help("Atmospheric + visibility: colour extinction keeps (black: all channels extinguished equally)"),
            inscattering_color: [f32; 4] = [1.0, 1.0, 1.0, 1.0],
                color(true, 1.0).help("Atmospheric + visibility: colour scattered in (white: all channels equally)"),
        }
        "Sun glow" {
            /// Glow towards the sun: colour (alpha = weight) and exponent of max(v·l, 0).
            glow_color: [f32; 4] = [1.0, 0.85, 0.6, 0.5],
                color(true, 4.0).help("Glow colour; alpha is its weight"),
            glow_exponent: f32 = 8.0,
                float(1.0, 512.0).help("Exponent of max(view·sun, 0): higher is tighter"),
            /// Mask the glow by the sun's shadow map, marching the view ray in this many steps.
            glow_shadowed: bool = true,
                boolean().help("Mask the glow by the sun's shadow"),
            glow_shadow_steps: u32 = 16,
                int(1, 64).help("Shadow-map samples along each view ray"),
        }
    }
}
// ANCHOR_END: params
