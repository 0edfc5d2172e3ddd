//! The shared test scene's own settings: the sun, the ambient sky, exposure and the distance
//! given to sky pixels. Edited like any chapter's parameters, under the `scene.` prefix on the CLI.

use crate::params::{ParamInfo, ParamVisitor, Parameters};
use glam::Vec3;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SceneSettings {
    /// Sun elevation above the horizon (degrees).
    pub sun_elevation_deg: f32,
    /// Sun azimuth (degrees); 0 is straight ahead of the default camera (−Z), 90 is +X.
    pub sun_azimuth_deg: f32,
    /// Scales the sun's colour; relative units (the scene is lit, not calibrated).
    pub sun_illuminance: f32,
    pub sun_color: [f32; 4],
    pub ambient: [f32; 4],
    /// Exposure for colour views (EV; a factor of 2^EV).
    pub exposure_ev: f32,
    /// Distance written for sky pixels (m): where a ray that hits nothing is taken to end.
    pub sky_distance_m: f32,
}

impl Default for SceneSettings {
    fn default() -> Self {
        Self {
            sun_elevation_deg: 10.0,
            sun_azimuth_deg: 20.0,
            sun_illuminance: 3.0,
            sun_color: [1.0, 0.93, 0.82, 1.0],
            ambient: [0.22, 0.28, 0.38, 1.0],
            exposure_ev: 0.0,
            sky_distance_m: 4000.0,
        }
    }
}

impl SceneSettings {
    /// Unit vector from the scene towards the sun.
    pub fn sun_direction(&self) -> Vec3 {
        let (el, az) = (self.sun_elevation_deg.to_radians(), self.sun_azimuth_deg.to_radians());
        Vec3::new(az.sin() * el.cos(), el.sin(), -az.cos() * el.cos())
    }
}

impl Parameters for SceneSettings {
    fn visit(&mut self, v: &mut dyn ParamVisitor) {
        v.group("Scene");
        v.float(
            &ParamInfo::float("sun_elevation_deg", -12.0, 90.0).unit("deg").help("Sun height above the horizon"),
            &mut self.sun_elevation_deg,
        );
        v.float(
            &ParamInfo::float("sun_azimuth_deg", -180.0, 180.0)
                .unit("deg")
                .help("Sun heading; 0 is straight ahead of the default camera"),
            &mut self.sun_azimuth_deg,
        );
        v.float(
            &ParamInfo::float("sun_illuminance", 0.0, 100.0).unit("rel.").help("Sun brightness (relative)"),
            &mut self.sun_illuminance,
        );
        v.color(&ParamInfo::color("sun_color", false, 1.0).help("Sun colour (linear RGB)"), &mut self.sun_color);
        v.color(&ParamInfo::color("ambient", false, 10.0).help("Ambient sky light (linear RGB)"), &mut self.ambient);
        v.float(
            &ParamInfo::float("exposure_ev", -10.0, 10.0).unit("EV").help("Exposure for colour views"),
            &mut self.exposure_ev,
        );
        v.float(
            &ParamInfo::float("sky_distance_m", 1.0, 1.0e6)
                .unit("m")
                .help("Distance given to pixels that hit no geometry"),
            &mut self.sky_distance_m,
        );
    }
}
