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
        "Local lights" {
            /// Point lights on the ring around the tower (see `lights::scene_lights`).
            point_lights: u32 = 0,
                int(0, 8).help("Point lights on a ring around the tower (8 lights at most, with the spots)"),
            /// Spot lights on the same ring, after the point lights, pointing straight down.
            spot_lights: u32 = 0,
                int(0, 8).help("Spot lights on the ring, pointing down"),
            /// Intensity of each light (relative units per steradian: irradiance I / d²).
            light_intensity: f32 = 200.0,
                float(0.0, 1.0e4).unit("rel./sr").help("Each light's intensity; irradiance is I / d²"),
            light_color: [f32; 4] = [1.0, 0.72, 0.42, 1.0],
                color(false, 1.0).help("Colour of the lights (linear RGB)"),
            light_ring_radius_m: f32 = 30.0,
                float(0.0, 200.0).unit("m").help("Radius of the ring the lights stand on"),
            light_height_m: f32 = 6.0,
                float(0.0, 100.0).unit("m").help("Height of the lights above the ground"),
            /// Where each light's window reaches zero (Karis 2013).
            light_range_m: f32 = 60.0,
                float(1.0, 1000.0).unit("m").help("Distance at which a light's influence ends"),
            /// Outer half-angle of the spots' cones; the inner cone is 0.8 of it.
            spot_angle_deg: f32 = 30.0,
                float(1.0, 89.0).unit("deg").help("Half-angle of the spots' cones"),
            light_orbit_deg_s: f32 = 0.0,
                float(-90.0, 90.0).unit("deg/s").help("How fast the ring of lights turns"),
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
