//! The chapter's volumes as the core carries them: built from the parameters, or a list given
//! whole (`LocalFog::set_volumes`), checked before it replaces the one in use.

use crate::params::{LocalFogParams, Shape};
use fogbook_core::fog_volumes::{FogVolume, MAX_FOG_VOLUMES, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_ELLIPSOID};
use fogbook_core::params::finite_in;

/// One volume's parameters, gathered from the `vN_` fields.
pub struct VolumeParams {
    pub shape: Shape,
    pub centre_m: [f32; 3],
    pub size_m: [f32; 3],
    pub rotation_deg: [f32; 3],
    pub density: f32,
    pub falloff: f32,
    pub edge_fade_m: f32,
    pub albedo: [f32; 4],
    pub emission: [f32; 4],
    pub phase_g: f32,
}

impl LocalFogParams {
    /// The three volumes' parameters, in order.
    pub fn volume_params(&self) -> [VolumeParams; 3] {
        macro_rules! volume {
            ($s:ident, $x:ident, $y:ident, $z:ident, $sx:ident, $sy:ident, $sz:ident, $yaw:ident, $pitch:ident,
             $roll:ident, $d:ident, $k:ident, $fade:ident, $a:ident, $e:ident, $g:ident) => {
                VolumeParams {
                    shape: self.$s,
                    centre_m: [self.$x, self.$y, self.$z],
                    size_m: [self.$sx, self.$sy, self.$sz],
                    rotation_deg: [self.$yaw, self.$pitch, self.$roll],
                    density: self.$d,
                    falloff: self.$k,
                    edge_fade_m: self.$fade,
                    albedo: self.$a,
                    emission: self.$e,
                    phase_g: self.$g,
                }
            };
        }
        [
            volume!(
                v1_shape,
                v1_x_m,
                v1_y_m,
                v1_z_m,
                v1_size_x_m,
                v1_size_y_m,
                v1_size_z_m,
                v1_yaw_deg,
                v1_pitch_deg,
                v1_roll_deg,
                v1_density,
                v1_falloff,
                v1_edge_fade_m,
                v1_albedo,
                v1_emission,
                v1_phase_g
            ),
            volume!(
                v2_shape,
                v2_x_m,
                v2_y_m,
                v2_z_m,
                v2_size_x_m,
                v2_size_y_m,
                v2_size_z_m,
                v2_yaw_deg,
                v2_pitch_deg,
                v2_roll_deg,
                v2_density,
                v2_falloff,
                v2_edge_fade_m,
                v2_albedo,
                v2_emission,
                v2_phase_g
            ),
            volume!(
                v3_shape,
                v3_x_m,
                v3_y_m,
                v3_z_m,
                v3_size_x_m,
                v3_size_y_m,
                v3_size_z_m,
                v3_yaw_deg,
                v3_pitch_deg,
                v3_roll_deg,
                v3_density,
                v3_falloff,
                v3_edge_fade_m,
                v3_albedo,
                v3_emission,
                v3_phase_g
            ),
        ]
    }

    /// The first `volume_count` volumes as the core carries them. Every value passes through
    /// `finite_in` on its way, so that a preset the range check missed still gives no NaN.
    pub fn volumes(&self) -> Vec<FogVolume> {
        let n = (self.volume_count as usize).min(3);
        self.volume_params()[..n].iter().map(VolumeParams::to_fog_volume).collect()
    }
}

// ANCHOR: to_fog_volume
impl VolumeParams {
    pub fn to_fog_volume(&self) -> FogVolume {
        let f = |v: f32, lo, hi, fallback| finite_in(v, lo, hi, fallback);
        let [x, y, z] = self.centre_m.map(|c| f(c, -1e4, 1e4, 0.0));
        let [sx, sy, sz] = self.size_m.map(|s| f(s, 0.05, 1e4, 1.0) / 2.0);
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
        let [yaw, pitch, roll] = self.rotation_deg.map(|r| f(r, -360.0, 360.0, 0.0));
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
