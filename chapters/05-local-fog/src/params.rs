//! Local-fog parameters: three volumes of the test scene, each with its shape, transform and
//! material, and the light they scatter. Names carry a `v1_`/`v2_`/`v3_` prefix (every bare
//! `--set name=value` reaches exactly one chapter of a stack). The ranges refuse a NaN, a zero or
//! negative size and every other value a volume cannot have, with a message, keeping the value.

use fogbook_core::params::ChoiceParam;
use serde::{Deserialize, Serialize};

/// A volume's shape (`fogbook_core::fog_volumes::SHAPE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    Box,
    /// The ellipsoid inscribed in the box (a sphere when the sizes agree).
    Ellipsoid,
    /// The elliptic cylinder inscribed in the box, along its local y axis.
    Cylinder,
}
fogbook_core::choice_enum!(Shape { Box = "box", Ellipsoid = "ellipsoid", Cylinder = "cylinder" });

// ANCHOR: params
fogbook_core::parameters! {
    pub struct LocalFogParams {
        "Enable" {
            /// Apply the volumes' fog (off: the debug views still show it, the colour passes through).
            local_fog: bool = true,
                boolean().help("Apply the local fog volumes"),
            /// How many of the volumes below exist (the first n).
            volume_count: u32 = 3,
                int(0, 3).help("Volumes in the scene (the first n below)"),
        }
        "Light" {
            /// Factor on the sun's light (the scene's, or the sky's when it is in the stack).
            volume_sun_scale: f32 = 1.0,
                float(0.0, 100.0).help("Factor on the sun's light in the volumes"),
            /// Factor on the ambient light, taken as isotropic radiance.
            volume_ambient_scale: f32 = 1.0,
                float(0.0, 100.0).help("Factor on the ambient light in the volumes"),
            /// Sun shadows from the core's shadow map at each volume's scattering point.
            volume_scene_shadows: bool = true,
                boolean().help("Shadow the sun in the volumes by the scene"),
        }
        "Volume 1 (mist in a hollow)" {
            v1_shape: Shape = Shape::Box,
                choice(Shape::OPTIONS).help("Box, ellipsoid or cylinder"),
            v1_x_m: f32 = -6.0, float(-1000.0, 1000.0).unit("m").help("Centre x"),
            v1_y_m: f32 = 1.25, float(-1000.0, 1000.0).unit("m").help("Centre y (height)"),
            v1_z_m: f32 = -22.0, float(-1000.0, 1000.0).unit("m").help("Centre z"),
            v1_size_x_m: f32 = 16.0, float(0.05, 1000.0).unit("m").help("Size along the local x axis"),
            v1_size_y_m: f32 = 2.5, float(0.05, 1000.0).unit("m").help("Size along the local y axis"),
            v1_size_z_m: f32 = 12.0, float(0.05, 1000.0).unit("m").help("Size along the local z axis"),
            v1_yaw_deg: f32 = 25.0, float(-180.0, 180.0).unit("deg").help("Rotation about the world's y axis"),
            v1_pitch_deg: f32 = 0.0, float(-90.0, 90.0).unit("deg").help("Rotation about the yawed x axis"),
            v1_roll_deg: f32 = 0.0, float(-180.0, 180.0).unit("deg").help("Rotation about the local z axis"),
            v1_density: f32 = 0.6, log_float(0.0, 10.0).unit("1/m").help("Extinction σt at the volume's bottom"),
            v1_falloff: f32 = 0.8, float(0.0, 10.0).unit("1/m").help("Density falls by e every 1/falloff metres up"),
            v1_edge_fade_m: f32 = 1.0, float(0.0, 100.0).unit("m").help("Density rises from 0 at the surface over this depth"),
            v1_albedo: [f32; 4] = [0.85, 0.9, 0.85, 1.0], color(false, 1.0).help("Scattering albedo σs / σt"),
            v1_emission: [f32; 4] = [0.0, 0.0, 0.0, 1.0], color(false, 16.0).unit("1/m").help("Emitted radiance per metre at full density"),
            v1_phase_g: f32 = 0.2, float(-0.99, 0.99).help("Henyey–Greenstein asymmetry g"),
        }
        "Volume 2 (a glowing cloud)" {
            v2_shape: Shape = Shape::Ellipsoid,
                choice(Shape::OPTIONS).help("Box, ellipsoid or cylinder"),
            v2_x_m: f32 = 8.0, float(-1000.0, 1000.0).unit("m").help("Centre x"),
            v2_y_m: f32 = 4.0, float(-1000.0, 1000.0).unit("m").help("Centre y (height)"),
            v2_z_m: f32 = -30.0, float(-1000.0, 1000.0).unit("m").help("Centre z"),
            v2_size_x_m: f32 = 8.0, float(0.05, 1000.0).unit("m").help("Size along the local x axis"),
            v2_size_y_m: f32 = 6.0, float(0.05, 1000.0).unit("m").help("Size along the local y axis"),
            v2_size_z_m: f32 = 8.0, float(0.05, 1000.0).unit("m").help("Size along the local z axis"),
            v2_yaw_deg: f32 = 0.0, float(-180.0, 180.0).unit("deg").help("Rotation about the world's y axis"),
            v2_pitch_deg: f32 = 0.0, float(-90.0, 90.0).unit("deg").help("Rotation about the yawed x axis"),
            v2_roll_deg: f32 = 0.0, float(-180.0, 180.0).unit("deg").help("Rotation about the local z axis"),
            v2_density: f32 = 0.35, log_float(0.0, 10.0).unit("1/m").help("Extinction σt at the volume's bottom"),
            v2_falloff: f32 = 0.0, float(0.0, 10.0).unit("1/m").help("Density falls by e every 1/falloff metres up"),
            v2_edge_fade_m: f32 = 2.0, float(0.0, 100.0).unit("m").help("Density rises from 0 at the surface over this depth"),
            v2_albedo: [f32; 4] = [0.9, 0.8, 1.0, 1.0], color(false, 1.0).help("Scattering albedo σs / σt"),
            v2_emission: [f32; 4] = [0.08, 0.03, 0.15, 1.0], color(false, 16.0).unit("1/m").help("Emitted radiance per metre at full density"),
            v2_phase_g: f32 = 0.5, float(-0.99, 0.99).help("Henyey–Greenstein asymmetry g"),
        }
        "Volume 3 (a column of smoke)" {
            v3_shape: Shape = Shape::Cylinder,
                choice(Shape::OPTIONS).help("Box, ellipsoid or cylinder"),
            v3_x_m: f32 = -2.0, float(-1000.0, 1000.0).unit("m").help("Centre x"),
            v3_y_m: f32 = 8.0, float(-1000.0, 1000.0).unit("m").help("Centre y (height)"),
            v3_z_m: f32 = -60.0, float(-1000.0, 1000.0).unit("m").help("Centre z"),
            v3_size_x_m: f32 = 6.0, float(0.05, 1000.0).unit("m").help("Size along the local x axis"),
            v3_size_y_m: f32 = 16.0, float(0.05, 1000.0).unit("m").help("Size along the local y axis"),
            v3_size_z_m: f32 = 6.0, float(0.05, 1000.0).unit("m").help("Size along the local z axis"),
            v3_yaw_deg: f32 = 0.0, float(-180.0, 180.0).unit("deg").help("Rotation about the world's y axis"),
            v3_pitch_deg: f32 = 0.0, float(-90.0, 90.0).unit("deg").help("Rotation about the yawed x axis"),
            v3_roll_deg: f32 = 10.0, float(-180.0, 180.0).unit("deg").help("Rotation about the local z axis"),
            v3_density: f32 = 0.2, log_float(0.0, 10.0).unit("1/m").help("Extinction σt at the volume's bottom"),
            v3_falloff: f32 = 0.1, float(0.0, 10.0).unit("1/m").help("Density falls by e every 1/falloff metres up"),
            v3_edge_fade_m: f32 = 1.0, float(0.0, 100.0).unit("m").help("Density rises from 0 at the surface over this depth"),
            v3_albedo: [f32; 4] = [0.5, 0.5, 0.5, 1.0], color(false, 1.0).help("Scattering albedo σs / σt"),
            v3_emission: [f32; 4] = [0.0, 0.0, 0.0, 1.0], color(false, 16.0).unit("1/m").help("Emitted radiance per metre at full density"),
            v3_phase_g: f32 = 0.0, float(-0.99, 0.99).help("Henyey–Greenstein asymmetry g"),
        }
    }
}
// ANCHOR_END: params
