//! Local fog volumes: bounded media (boxes, ellipsoids and cylinders) that a chapter publishes and
//! others use: a volumetric grid injects them into its cells, a per-pixel pass integrates them
//! analytically. The core only
//! carries the list from `Chapter::publish` to every stage's `ChapterContext`, and defines what a
//! volume's density is at a point (`FogVolume::weight_at`, mirrored by
//! `common/media/fog_volume.wgsl`).

use crate::frame::FrameUniform;
use bytemuck::{Pod, Zeroable};
use glam::{DVec2, DVec3};

/// Most volumes a frame carries (their readers bin them to tiles, so a froxel or a pixel tests
/// only the few that can reach it).
pub const MAX_FOG_VOLUMES: usize = 256;

/// A storage buffer that holds a full list of fog volumes (`MAX_FOG_VOLUMES`), written each frame
/// by the chapter that reads it.
pub fn volume_buffer(device: &wgpu::Device, label: &str) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (MAX_FOG_VOLUMES * std::mem::size_of::<FogVolume>()) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Shapes, as `FogVolume::centre[3]` encodes them.
pub const SHAPE_BOX: f32 = 0.0;
pub const SHAPE_ELLIPSOID: f32 = 1.0;
/// An elliptic cylinder: its axis is the volume's local y, its radii the half sizes in x and z.
pub const SHAPE_CYLINDER: f32 = 2.0;

// ANCHOR: fog_volume
/// Mirrors `struct FogVolume` in shaders/common/media/fog_volume.wgsl. A box, the ellipsoid inscribed
/// in it, or the cylinder inscribed in it along its local y, placed by a centre and a rotation
/// (`axis_x/y/z`, the local axes in world space: the rows of the world-to-local rotation). Inside,
/// the extinction is `density · e^(−falloff · (y − y₀))`, y the world height and
/// y₀ = centre.y − half_size.y (the bottom of the unrotated shape), times a fade that rises from
/// 0 at the surface to 1 at `half_size.w` inside it (none when that is 0).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct FogVolume {
    /// xyz: centre (m); w: shape (`SHAPE_BOX`, `SHAPE_ELLIPSOID` or `SHAPE_CYLINDER`).
    pub centre: [f32; 4],
    /// xyz: half extents along the local axes (m); w: edge fade distance (m).
    pub half_size: [f32; 4],
    /// rgb: single-scattering albedo; w: extinction σt at y₀ (1/m).
    pub albedo_density: [f32; 4],
    /// rgb: emitted radiance per metre (1/m); w: height falloff (1/m) above y₀.
    pub emission_falloff: [f32; 4],
    /// xyz: the volume's local x axis in world space (unit); w: the phase asymmetry g.
    pub axis_x: [f32; 4],
    /// xyz: the local y axis (unit); w: unused (0).
    pub axis_y: [f32; 4],
    /// xyz: the local z axis (unit); w: unused (0).
    pub axis_z: [f32; 4],
    /// What multiplies the density inside (`media::density`): x: the source
    /// (`SOURCE_CONSTANT`, `SOURCE_NOISE`, `SOURCE_FILE`); y: the file's texture slot, or the
    /// noise's octaves; z: the noise's frequency (1/m), or the file grid's largest value
    /// (`DensityTexture::largest`; 0 where not known); w: the noise's contrast.
    pub texture: [f32; 4],
    /// xyz: the noise's scroll offset in lattice cells of its first octave, wrapped into
    /// [0, `NOISE_PERIOD`); w: the texture's density scale (either source).
    pub texture_offset: [f32; 4],
}
// ANCHOR_END: fog_volume

impl FogVolume {
    /// A zero volume with the identity rotation, for struct-update syntax:
    /// `FogVolume { centre, half_size, ..FogVolume::AXIS_ALIGNED }`.
    pub const AXIS_ALIGNED: FogVolume = FogVolume {
        centre: [0.0; 4],
        half_size: [0.0; 4],
        albedo_density: [0.0; 4],
        emission_falloff: [0.0; 4],
        axis_x: [1.0, 0.0, 0.0, 0.0],
        axis_y: [0.0, 1.0, 0.0, 0.0],
        axis_z: [0.0, 0.0, 1.0, 0.0],
        texture: [0.0; 4],
        texture_offset: [0.0; 4],
    };

    /// Sets the rotation from yaw (about world y), pitch (about the yawed x) and roll (about the
    /// resulting z), in degrees: local-to-world R = R_y(yaw) R_x(pitch) R_z(roll), whose columns
    /// are the local axes. Keeps the phase g in `axis_x.w`.
    pub fn set_rotation_deg(&mut self, yaw: f32, pitch: f32, roll: f32) {
        let r = glam::DMat3::from_euler(
            glam::EulerRot::YXZ,
            (yaw as f64).to_radians(),
            (pitch as f64).to_radians(),
            (roll as f64).to_radians(),
        );
        let g = self.axis_x[3];
        let axis = |c: DVec3, w: f32| [c.x as f32, c.y as f32, c.z as f32, w];
        self.axis_x = axis(r.x_axis, g);
        self.axis_y = axis(r.y_axis, 0.0);
        self.axis_z = axis(r.z_axis, 0.0);
    }

    pub fn centre(&self) -> DVec3 {
        DVec3::new(self.centre[0] as f64, self.centre[1] as f64, self.centre[2] as f64)
    }

    /// Half extents (m), at least 1 mm as the shaders take them.
    pub fn half(&self) -> DVec3 {
        DVec3::new(self.half_size[0] as f64, self.half_size[1] as f64, self.half_size[2] as f64).max(DVec3::splat(1e-3))
    }

    /// The local axes in world space (rows of the world-to-local rotation).
    pub fn axes(&self) -> [DVec3; 3] {
        let a = |v: [f32; 4]| DVec3::new(v[0] as f64, v[1] as f64, v[2] as f64);
        [a(self.axis_x), a(self.axis_y), a(self.axis_z)]
    }

    /// A world direction in the local frame.
    pub fn to_local_dir(&self, d: DVec3) -> DVec3 {
        let [x, y, z] = self.axes();
        DVec3::new(x.dot(d), y.dot(d), z.dot(d))
    }

    /// A world point in the local frame (origin at the centre).
    pub fn to_local(&self, p: DVec3) -> DVec3 {
        self.to_local_dir(p - self.centre())
    }

    pub fn shape(&self) -> f32 {
        self.centre[3]
    }

    /// The reference height y₀ of the height falloff (m): the bottom of the unrotated shape.
    pub fn base_height(&self) -> f64 {
        self.centre[1] as f64 - self.half().y
    }

    // ANCHOR: weight
    /// The share of the volume's density at p (0 outside; the edge fade times the height falloff
    /// inside), as `fog_volume_weight` in common/media/fog_volume.wgsl: distances from the surface
    /// inwards in metres, the ellipsoid's along its smallest axis, the cylinder's the smaller of
    /// the distance to a cap and the radial one.
    pub fn weight_at(&self, p: DVec3) -> f64 {
        let half = self.half();
        let q = self.to_local(p);
        let shape = self.shape();
        let inside = if shape > 1.5 {
            let radial = (1.0 - (DVec3::new(q.x / half.x, 0.0, q.z / half.z)).length()) * half.x.min(half.z);
            radial.min(half.y - q.y.abs())
        } else if shape > 0.5 {
            (1.0 - (q / half).length()) * half.min_element()
        } else {
            (half - q.abs()).min_element()
        };
        if inside <= 0.0 {
            return 0.0;
        }
        let fade_m = self.half_size[3] as f64;
        let fade = if fade_m > 0.0 { (inside / fade_m).clamp(0.0, 1.0) } else { 1.0 };
        let above = p.y - self.base_height();
        // The exponent capped at 80, as the shader caps it (see FOG_MAX_EXPONENT).
        fade * (-(self.emission_falloff[3] as f64).max(0.0) * above).min(80.0).exp()
    }
    // ANCHOR_END: weight
}

/// Where a volume can appear in a view, conservatively (its bounding box's): the rectangle of
/// normalised device coordinates it covers (x right, y up; unclamped, and infinite where the box
/// reaches behind the plane through the eye) and the range of distances from the eye to its
/// points (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewBounds {
    pub ndc_min: DVec2,
    pub ndc_max: DVec2,
    pub distance: [f64; 2],
}

impl FogVolume {
    /// The box's eight corners in the world.
    pub fn corners(&self) -> [DVec3; 8] {
        let [x, y, z] = self.axes();
        let h = self.half();
        std::array::from_fn(|i| {
            let s = |bit: usize| if i & (1 << bit) == 0 { -1.0 } else { 1.0 };
            self.centre() + x * (s(0) * h.x) + y * (s(1) * h.y) + z * (s(2) * h.z)
        })
    }

    // ANCHOR: view_bounds
    /// The volume's bounds as the camera of `frame` sees it (`frame.cam_*`: a ray through NDC
    /// (x, y) has the direction forward + x·right + y·up, three orthogonal vectors), or `None`
    /// when the whole box lies behind the eye.
    pub fn view_bounds(&self, frame: &FrameUniform) -> Option<ViewBounds> {
        let v = |a: [f32; 4]| DVec3::new(a[0] as f64, a[1] as f64, a[2] as f64);
        let (eye, forward, right, up) =
            (v(frame.camera_pos), v(frame.cam_forward), v(frame.cam_right), v(frame.cam_up));
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        let (mut behind, mut ahead, mut far) = (false, false, 0.0f64);
        for p in self.corners() {
            let r = p - eye;
            far = far.max(r.length());
            // r = a·forward + b·right + c·up; its NDC is (b/a, c/a).
            let a = r.dot(forward) / forward.length_squared();
            if a <= 1e-6 {
                behind = true;
                continue;
            }
            ahead = true;
            let ndc = DVec2::new(r.dot(right) / right.length_squared(), r.dot(up) / up.length_squared()) / a;
            lo = lo.min(ndc);
            hi = hi.max(ndc);
        }
        if !ahead {
            return None;
        }
        if behind {
            (lo, hi) = (DVec2::splat(f64::NEG_INFINITY), DVec2::splat(f64::INFINITY));
        }
        // The nearest point of the box: the eye clamped into it, in its own frame.
        let q = self.to_local(eye);
        let near = (q - q.clamp(-self.half(), self.half())).length();
        Some(ViewBounds { ndc_min: lo, ndc_max: hi, distance: [near, far] })
    }
    // ANCHOR_END: view_bounds
}

// ANCHOR: bins
/// u32 words of one bin's bit mask: one bit per volume.
pub const BIN_WORDS: usize = MAX_FOG_VOLUMES / 32;

/// A grid of bins (screen tiles, or blocks of froxels), each with a bit mask of the volumes that
/// may reach it: a shader tests only the volumes whose bits are set, in list order, so that
/// culling changes no sum.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VolumeBins {
    pub size: [u32; 3],
    /// `BIN_WORDS` words per bin, bins in x-fastest order.
    pub words: Vec<u32>,
}

impl VolumeBins {
    pub fn new(size: [u32; 3]) -> Self {
        let n = size.iter().map(|&s| s as usize).product::<usize>();
        Self { size, words: vec![0; n * BIN_WORDS] }
    }

    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// Marks volume `i` in every bin of the inclusive range `lo..=hi` (clamped to the grid).
    pub fn mark(&mut self, i: usize, lo: [u32; 3], hi: [u32; 3]) {
        let (word, bit) = (i / 32, 1u32 << (i % 32));
        let [nx, ny, nz] = self.size;
        if nx == 0 || ny == 0 || nz == 0 {
            return;
        }
        for z in lo[2]..=hi[2].min(nz - 1) {
            for y in lo[1]..=hi[1].min(ny - 1) {
                for x in lo[0]..=hi[0].min(nx - 1) {
                    let bin = ((z * ny + y) * nx + x) as usize;
                    self.words[bin * BIN_WORDS + word] |= bit;
                }
            }
        }
    }
    // ANCHOR_END: bins

    /// Marks the first `count` volumes everywhere: the brute-force path, through the same code.
    pub fn mark_all(&mut self, count: usize) {
        for i in 0..count.min(MAX_FOG_VOLUMES) {
            self.mark(i, [0; 3], self.size.map(|s| s.saturating_sub(1)));
        }
    }

    /// How many volumes bin `bin` holds.
    pub fn count(&self, bin: usize) -> u32 {
        self.words[bin * BIN_WORDS..(bin + 1) * BIN_WORDS].iter().map(|w| w.count_ones()).sum()
    }
}

/// The inclusive range of cells `[0, cells)` that the interval `[lo, hi]` of NDC (−1..1 across
/// `cells` cells, `flip` for y, whose rows run downwards) touches, widened by `margin` cells.
/// None when it misses the screen.
pub fn ndc_cells(lo: f64, hi: f64, cells: u32, flip: bool, margin: f64) -> Option<[u32; 2]> {
    let to_cell = |x: f64| if flip { (1.0 - x) * 0.5 * cells as f64 } else { (x + 1.0) * 0.5 * cells as f64 };
    let (a, b) = if flip { (to_cell(hi), to_cell(lo)) } else { (to_cell(lo), to_cell(hi)) };
    let (a, b) = (a - margin, b + margin);
    if b < 0.0 || a >= cells as f64 || cells == 0 {
        return None;
    }
    Some([a.max(0.0).floor() as u32, (b.floor().min(cells as f64 - 1.0)) as u32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_axes_are_orthonormal_and_yaw_turns_x_towards_minus_z() {
        let mut v = FogVolume::AXIS_ALIGNED;
        v.set_rotation_deg(90.0, 0.0, 0.0);
        let [x, y, z] = v.axes();
        assert!((x - DVec3::new(0.0, 0.0, -1.0)).length() < 1e-6, "{x}");
        assert!((y - DVec3::Y).length() < 1e-6);
        v.set_rotation_deg(31.0, -17.0, 64.0);
        let [x, y, z2] = v.axes();
        for (a, b) in [(x, y), (y, z2), (x, z2)] {
            assert!(a.dot(b).abs() < 1e-6);
        }
        assert!((x.cross(y) - z2).length() < 1e-6, "right-handed");
        let _ = z;
    }

    #[test]
    fn weight_is_zero_outside_and_falls_with_height() {
        let v = FogVolume {
            centre: [0.0, 2.0, 0.0, SHAPE_CYLINDER],
            half_size: [1.0, 2.0, 1.0, 0.0],
            emission_falloff: [0.0, 0.0, 0.0, 0.5],
            ..FogVolume::AXIS_ALIGNED
        };
        assert_eq!(v.weight_at(DVec3::new(0.8, 1.0, 0.8)), 0.0, "outside the cylinder, inside its box");
        assert!((v.weight_at(DVec3::new(0.0, 1.0, 0.0)) - (-0.5f64).exp()).abs() < 1e-12);
    }
}

#[cfg(test)]
mod bin_tests {
    use super::*;

    #[test]
    fn ndc_cells_cover_the_interval_and_clamp() {
        assert_eq!(ndc_cells(-1.0, 1.0, 10, false, 0.0), Some([0, 9]));
        assert_eq!(ndc_cells(-0.05, 0.05, 10, false, 0.0), Some([4, 5]));
        // y: NDC +1 is row 0.
        assert_eq!(ndc_cells(0.85, 0.95, 10, true, 0.0), Some([0, 0]));
        assert_eq!(ndc_cells(f64::NEG_INFINITY, f64::INFINITY, 7, true, 1.0), Some([0, 6]));
        assert_eq!(ndc_cells(1.5, 2.0, 10, false, 1.0), None);
    }

    #[test]
    fn bins_mark_and_count() {
        let mut b = VolumeBins::new([3, 2, 2]);
        b.mark(0, [0, 0, 0], [1, 1, 0]);
        b.mark(200, [2, 1, 1], [9, 9, 9]);
        assert_eq!((0..12).map(|i| b.count(i)).sum::<u32>(), 5);
        assert_eq!(b.words[11 * BIN_WORDS + 200 / 32], 1 << (200 % 32));
        b.mark_all(3);
        assert_eq!(b.count(5), 3);
    }
}
