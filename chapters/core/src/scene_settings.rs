//! The shared test scene's own settings: the sun, the ambient sky, exposure and the distance
//! given to sky pixels. Edited like any chapter's parameters, under the `scene.` prefix on the CLI.

use glam::Vec3;

// ANCHOR: params
crate::parameters! {
    pub struct SceneSettings {
        "Scene" {
            /// Sun elevation above the horizon (degrees).
            sun_elevation_deg: f32 = 10.0,
                float(-12.0, 90.0).unit("deg").help("Sun height above the horizon"),
            /// Sun azimuth (degrees), in the camera's yaw convention: 0 is straight ahead of the
            /// default camera (−Z), positive turns left (towards −X), so a camera with
            /// yaw = azimuth faces the sun.
            sun_azimuth_deg: f32 = -20.0,
                float(-180.0, 180.0).unit("deg").help("Sun heading as camera yaw: 0 ahead of the default camera, positive to the left"),
            /// Scales the sun's colour; relative units (the scene is lit, not calibrated).
            sun_illuminance: f32 = 3.0,
                float(0.0, 100.0).unit("rel.").help("Sun brightness (relative)"),
            sun_color: [f32; 4] = [1.0, 0.93, 0.82, 1.0],
                color(false, 1.0).help("Sun colour (linear RGB)"),
            ambient: [f32; 4] = [0.22, 0.28, 0.38, 1.0],
                color(false, 10.0).help("Ambient sky light (linear RGB)"),
            /// Exposure for colour views (EV; a factor of 2^EV).
            exposure_ev: f32 = 0.0,
                float(-10.0, 10.0).unit("EV").help("Exposure for colour views"),
            /// Distance written for sky pixels (m): where a ray that hits nothing is taken to end.
            sky_distance_m: f32 = 4000.0,
                float(1.0, 1.0e6).unit("m").help("Distance given to pixels that hit no geometry"),
        }
    }
}
// ANCHOR_END: params

impl SceneSettings {
    /// Unit vector from the scene towards the sun.
    pub fn sun_direction(&self) -> Vec3 {
        let (el, az) = (self.sun_elevation_deg.to_radians(), self.sun_azimuth_deg.to_radians());
        // As `CameraPose::forward` with yaw = azimuth, pitch = elevation.
        Vec3::new(-az.sin() * el.cos(), el.sin(), -az.cos() * el.cos())
    }
}
