//! The chapter's volumes as the core carries them: converted from the parameters' list, and the
//! check of a list before it replaces the one in use.

use crate::params::{DensitySource, LocalFogParams, Shape, VolumeParams};
use fogbook_core::media::density::{MAX_NOISE_OCTAVES, SOURCE_CONSTANT, SOURCE_FILE, SOURCE_NOISE, scroll_offset};
use fogbook_core::media::volumes::{FogVolume, MAX_FOG_VOLUMES, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_ELLIPSOID};
use fogbook_core::params::finite_in;
use glam::DVec3;

impl LocalFogParams {
    /// The volumes (at most `MAX_FOG_VOLUMES`) as the core carries them, at time 0.
    pub fn fog_volumes(&self) -> Vec<FogVolume> {
        self.fog_volumes_at(0.0)
    }

    /// The volumes at time `time_s` (s; the noise has scrolled that long). Every value passes
    /// through `finite_in` on its way, so that a preset the range check missed still gives no
    /// NaN. A file source's slot is its file's place in `density_files()`.
    pub fn fog_volumes_at(&self, time_s: f64) -> Vec<FogVolume> {
        let files = self.density_files();
        let slot = |v: &VolumeParams| files.iter().position(|f| *f == v.density_file).unwrap_or(0) as u32;
        self.volumes.iter().take(MAX_FOG_VOLUMES).map(|v| v.to_fog_volume_at(slot(v), time_s)).collect()
    }

    /// The distinct files the volumes with a file source name, in the order of first use: the
    /// density textures' slots.
    pub fn density_files(&self) -> Vec<String> {
        let mut files: Vec<String> = Vec::new();
        for v in self.volumes.iter().take(MAX_FOG_VOLUMES) {
            if v.density_source == DensitySource::File && !files.contains(&v.density_file) {
                files.push(v.density_file.clone());
            }
        }
        files
    }
}

// ANCHOR: to_fog_volume
impl VolumeParams {
    /// At time 0, a file in slot 0.
    pub fn to_fog_volume(&self) -> FogVolume {
        self.to_fog_volume_at(0, 0.0)
    }

    /// At time `time_s`, a file source reading texture slot `slot`.
    pub fn to_fog_volume_at(&self, slot: u32, time_s: f64) -> FogVolume {
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
        self.set_texture(&mut v, slot, time_s);
        v
    }

    // ANCHOR: set_texture
    /// The density texture's part of the volume: source, slot or octaves, frequency, contrast,
    /// the scroll offset at `time_s` (wrapped by the noise's period) and the scale.
    fn set_texture(&self, v: &mut FogVolume, slot: u32, time_s: f64) {
        let f = |x: f32, lo, hi, fallback| finite_in(x, lo, hi, fallback);
        let frequency = f(self.noise_frequency, 0.0, 100.0, 0.0);
        let scale = f(self.texture_scale, 0.0, 1e4, 0.0);
        let octaves = self.noise_octaves.clamp(1, MAX_NOISE_OCTAVES) as f32;
        let contrast = f(self.noise_contrast, 0.0, 100.0, 0.0);
        (v.texture, v.texture_offset) = match self.density_source {
            DensitySource::Constant => ([SOURCE_CONSTANT, 0.0, 0.0, 0.0], [0.0; 4]),
            DensitySource::Noise => {
                let velocity = [self.scroll_x_mps, self.scroll_y_mps, self.scroll_z_mps].map(|s| f(s, -1e3, 1e3, 0.0));
                let [x, y, z] = scroll_offset(DVec3::from(velocity.map(f64::from)), frequency as f64, time_s);
                ([SOURCE_NOISE, octaves, frequency, contrast], [x, y, z, scale])
            }
            DensitySource::File => ([SOURCE_FILE, slot as f32, 0.0, 0.0], [0.0, 0.0, 0.0, scale]),
        };
    }
    // ANCHOR_END: set_texture
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
        let fields = [
            v.centre,
            v.half_size,
            v.albedo_density,
            v.emission_falloff,
            v.axis_x,
            v.axis_y,
            v.axis_z,
            v.texture,
            v.texture_offset,
        ];
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
