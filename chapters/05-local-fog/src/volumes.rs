//! The chapter's volumes as the core carries them: converted from the parameters' list, and the
//! check of a list before it replaces the one in use.

use crate::params::{LocalFogParams, Shape, VolumeParams};
use fogbook_core::fog_volumes::{FogVolume, MAX_FOG_VOLUMES, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_ELLIPSOID};
use fogbook_core::params::finite_in;

impl LocalFogParams {
    /// The volumes (at most `MAX_FOG_VOLUMES`) as the core carries them. Every value passes
    /// through `finite_in` on its way, so that a preset the range check missed still gives no NaN.
    pub fn fog_volumes(&self) -> Vec<FogVolume> {
        self.volumes.iter().take(MAX_FOG_VOLUMES).map(VolumeParams::to_fog_volume).collect()
    }
}

// ANCHOR: to_fog_volume
impl VolumeParams {
    pub fn to_fog_volume(&self) -> FogVolume {
        let f = |v: f32, lo, hi, fallback| finite_in(v, lo, hi, fallback);
        let [x, y, z] = [self.x_m, self.y_m, self.z_m].map(|c| f(c, -1e4, 1e4, 0.0));
        let [sx, sy, sz] = [self.size_x_m, self.size_y_m, self.size_z_m].map(|s| f(s, 0.05, 1e4, 1.0) / 2.0);
        let shape = match self.shape {
            Shape::Box => SHAPE_BOX,
            Shape::Ellipsoid => SHAPE_ELLIPSOID,
            Shape::Cylinder => SHAPE_CYLINDER,
        };
        let (a, e) = (self.albedo, self.emission);
        let mut v = FogVolume {
            centre: [x, y, z, shape],
            half_size: [sx, sy, sz, f(self.edge_fade_m, 0.0, 1e4, 0.0)],
            albedo_density: [
                f(a[0], 0.0, 1.0, 0.0),
                f(a[1], 0.0, 1.0, 0.0),
                f(a[2], 0.0, 1.0, 0.0),
                f(self.density, 0.0, 1e4, 0.0),
            ],
            emission_falloff: [
                f(e[0], 0.0, 1e4, 0.0),
                f(e[1], 0.0, 1e4, 0.0),
                f(e[2], 0.0, 1e4, 0.0),
                f(self.falloff, 0.0, 100.0, 0.0),
            ],
            ..FogVolume::AXIS_ALIGNED
        };
        v.axis_x[3] = f(self.phase_g, -0.99, 0.99, 0.0);
        let [yaw, pitch, roll] = [self.yaw_deg, self.pitch_deg, self.roll_deg].map(|r| f(r, -360.0, 360.0, 0.0));
        v.set_rotation_deg(yaw, pitch, roll);
        v
    }
}
// ANCHOR_END: to_fog_volume

// ANCHOR: check_volumes
/// Why a list of volumes cannot be used, or `Ok`: at most `MAX_FOG_VOLUMES`, every number
/// finite, sizes positive, densities and emission not negative, unit orthogonal axes.
pub fn check_volumes(volumes: &[FogVolume]) -> Result<(), String> {
    if volumes.len() > MAX_FOG_VOLUMES {
        return Err(format!("{} fog volumes: at most {MAX_FOG_VOLUMES} are supported", volumes.len()));
    }
    for (i, v) in volumes.iter().enumerate() {
        let fields = [v.centre, v.half_size, v.albedo_density, v.emission_falloff, v.axis_x, v.axis_y, v.axis_z];
        if fields.iter().flatten().any(|x| !x.is_finite()) {
            return Err(format!("fog volume {i}: a value is not a finite number"));
        }
        if v.half_size[..3].iter().any(|&s| s <= 0.0) {
            return Err(format!("fog volume {i}: its size must be positive, not {:?}", &v.half_size[..3]));
        }
        if v.half_size[3] < 0.0 || v.albedo_density[3] < 0.0 || v.emission_falloff.iter().any(|&x| x < 0.0) {
            return Err(format!("fog volume {i}: edge fade, density, emission and falloff must not be negative"));
        }
        if ![0.0, 1.0, 2.0].contains(&v.centre[3]) {
            return Err(format!("fog volume {i}: unknown shape {}", v.centre[3]));
        }
        let axes = v.axes();
        let orthonormal =
            (0..3).all(|a| (axes[a].length() - 1.0).abs() < 1e-4 && (0..a).all(|b| axes[a].dot(axes[b]).abs() < 1e-4));
        if !orthonormal {
            return Err(format!("fog volume {i}: its axes are not a rotation"));
        }
    }
    Ok(())
}
// ANCHOR_END: check_volumes
