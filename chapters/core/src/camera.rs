//! The camera: a pose (position, yaw, pitch, vertical field of view) and two controllers.
//!
//! Conventions: right-handed, +Y up, metres, degrees. Yaw 0 looks down −Z, positive yaw turns
//! left (towards −X); positive pitch looks up. The pose is what presets save and what
//! `--camera x,y,z,yaw,pitch[,fov]` gives on the CLI.

use glam::camera::rh::{proj::directx, view};
use glam::{Mat4, Vec3};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraPose {
    /// Eye position (m).
    pub position: [f32; 3],
    /// Heading (degrees); 0 looks down −Z.
    pub yaw_deg: f32,
    /// Elevation (degrees, −89 ..= 89).
    pub pitch_deg: f32,
    /// Vertical field of view (degrees, 1 ..= 170).
    pub fov_y_deg: f32,
}

impl Default for CameraPose {
    /// Eye height 2 m at the origin, looking down −Z along the row of test boxes.
    fn default() -> Self {
        Self { position: [0.0, 2.0, 0.0], yaw_deg: 0.0, pitch_deg: -2.0, fov_y_deg: 60.0 }
    }
}

pub const NEAR_PLANE_M: f32 = 0.1;
pub const FAR_PLANE_M: f32 = 5000.0;

impl CameraPose {
    pub fn forward(&self) -> Vec3 {
        let (yaw, pitch) = (self.yaw_deg.to_radians(), self.pitch_deg.to_radians());
        Vec3::new(-yaw.sin() * pitch.cos(), pitch.sin(), -yaw.cos() * pitch.cos())
    }

    pub fn right(&self) -> Vec3 {
        self.forward().cross(Vec3::Y).normalize_or(Vec3::X)
    }

    pub fn eye(&self) -> Vec3 {
        Vec3::from(self.position)
    }

    pub fn view(&self) -> Mat4 {
        view::look_to_mat4(self.eye(), self.forward(), Vec3::Y)
    }

    /// Right-handed perspective with depth 0 (near) .. 1 (far), as wgpu expects.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        directx::perspective(self.fov_y_deg.to_radians(), aspect, NEAR_PLANE_M, FAR_PLANE_M)
    }

    /// Parses `x,y,z,yaw,pitch[,fov]`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let parts: Result<Vec<f32>, _> = text.split(',').map(|p| p.trim().parse::<f32>()).collect();
        let p = parts.map_err(|_| format!("camera {text:?}: expected numbers x,y,z,yaw,pitch[,fov]"))?;
        if p.len() != 5 && p.len() != 6 {
            return Err(format!("camera {text:?}: expected 5 or 6 numbers x,y,z,yaw,pitch[,fov], got {}", p.len()));
        }
        let pose = Self {
            position: [p[0], p[1], p[2]],
            yaw_deg: p[3],
            pitch_deg: p[4],
            fov_y_deg: p.get(5).copied().unwrap_or(60.0),
        };
        pose.validate()?;
        Ok(pose)
    }

    pub fn validate(&self) -> Result<(), String> {
        let all = [self.position[0], self.position[1], self.position[2], self.yaw_deg, self.pitch_deg, self.fov_y_deg];
        if all.iter().any(|v| !v.is_finite()) {
            return Err("camera: every value must be a finite number".into());
        }
        if self.position.iter().any(|v| v.abs() > 1.0e6) {
            return Err("camera: position beyond ±1e6 m".into());
        }
        if !(-89.0..=89.0).contains(&self.pitch_deg) {
            return Err(format!("camera: pitch {} outside -89 ..= 89 degrees", self.pitch_deg));
        }
        if !(1.0..=170.0).contains(&self.fov_y_deg) {
            return Err(format!("camera: fov {} outside 1 ..= 170 degrees", self.fov_y_deg));
        }
        Ok(())
    }

    /// The pose as CLI text (`x,y,z,yaw,pitch,fov`).
    pub fn to_cli(&self) -> String {
        let [x, y, z] = self.position;
        format!("{x},{y},{z},{},{},{}", self.yaw_deg, self.pitch_deg, self.fov_y_deg)
    }
}

/// How mouse and keys move the camera.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CameraMode {
    /// Drag turns around a pivot `orbit_distance` ahead; wheel zooms; arrows orbit.
    #[default]
    Orbit,
    /// Drag looks around; W/A/S/D/Q/E or arrows move.
    Fly,
}

/// Input state for one frame, independent of the windowing library.
#[derive(Clone, Copy, Debug, Default)]
pub struct CameraInput {
    pub drag_pixels: [f32; 2],
    pub scroll_lines: f32,
    /// +1 / −1 for held movement keys: forward, right, up.
    pub move_axes: [f32; 3],
    /// +1 / −1 for held arrow keys: yaw, pitch.
    pub turn_axes: [f32; 2],
    pub fast: bool,
}

pub struct CameraController {
    pub mode: CameraMode,
    pub orbit_distance: f32,
    /// Fly speed (m/s).
    pub speed: f32,
}

impl Default for CameraController {
    fn default() -> Self {
        Self { mode: CameraMode::Orbit, orbit_distance: 30.0, speed: 10.0 }
    }
}

impl CameraController {
    /// Applies one frame of input; `dt` in seconds of real time.
    pub fn apply(&mut self, pose: &mut CameraPose, input: &CameraInput, dt: f32) {
        let turn_rate = 90.0; // degrees per second for arrow keys
        let d_yaw = -input.drag_pixels[0] * 0.25 + input.turn_axes[0] * turn_rate * dt;
        let d_pitch = -input.drag_pixels[1] * 0.25 + input.turn_axes[1] * turn_rate * dt;
        let speed = self.speed * if input.fast { 5.0 } else { 1.0 };
        match self.mode {
            CameraMode::Orbit => {
                let pivot = pose.eye() + pose.forward() * self.orbit_distance;
                self.orbit_distance = (self.orbit_distance * (1.0 - 0.1 * input.scroll_lines)).clamp(1.0, 2000.0);
                pose.yaw_deg = (pose.yaw_deg + d_yaw).rem_euclid(360.0);
                pose.pitch_deg = (pose.pitch_deg + d_pitch).clamp(-89.0, 89.0);
                let eye = pivot - pose.forward() * self.orbit_distance;
                pose.position = eye.into();
            }
            CameraMode::Fly => {
                pose.yaw_deg = (pose.yaw_deg + d_yaw).rem_euclid(360.0);
                pose.pitch_deg = (pose.pitch_deg + d_pitch).clamp(-89.0, 89.0);
                let step = (pose.forward() * input.move_axes[0]
                    + pose.right() * input.move_axes[1]
                    + Vec3::Y * input.move_axes[2])
                    * speed
                    * dt;
                pose.position = (pose.eye() + step).into();
                self.speed = (self.speed * (1.0 + 0.1 * input.scroll_lines)).clamp(0.5, 500.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_looks_down_negative_z() {
        let f = CameraPose { pitch_deg: 0.0, ..Default::default() }.forward();
        assert!((f - Vec3::NEG_Z).length() < 1e-6);
    }

    #[test]
    fn parse_round_trips_and_rejects_bad_input() {
        let pose = CameraPose::parse("1,2,3,45,-10,70").unwrap();
        assert_eq!(CameraPose::parse(&pose.to_cli()).unwrap(), pose);
        assert!(CameraPose::parse("1,2,3").is_err());
        assert!(CameraPose::parse("1,2,NaN,0,0").is_err());
        assert!(CameraPose::parse("0,0,0,0,95").is_err());
        assert!(CameraPose::parse("0,0,0,0,0,0").is_err());
    }

    #[test]
    fn orbit_keeps_the_pivot() {
        let mut pose = CameraPose::default();
        let mut c = CameraController::default();
        let pivot = pose.eye() + pose.forward() * c.orbit_distance;
        c.apply(&mut pose, &CameraInput { drag_pixels: [40.0, 10.0], ..Default::default() }, 0.016);
        let pivot2 = pose.eye() + pose.forward() * c.orbit_distance;
        assert!((pivot - pivot2).length() < 1e-3);
    }
}
