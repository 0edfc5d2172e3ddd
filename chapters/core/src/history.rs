//! What temporal techniques need from the core: last frame's view-projection, a sub-pixel jitter
//! sequence, a frame index, and knowing when history must be thrown away.
//!
//! The core publishes these in the frame uniform (`prev_view_proj`, `jitter_px`,
//! `history_valid`, `history_epoch`). A stage that keeps history textures clears or ignores them
//! when `history_valid` is 0. History is invalid on the first frame, and after:
//! - a resize of the frame,
//! - a shader reload,
//! - a camera cut: a preset load or camera reset (the caller says so), or a move between two
//!   frames of more than [`CUT_DISTANCE_M`] or a turn of more than [`CUT_ANGLE_DEG`],
//! - a change of the stack or of any parameter (chapters' or scene's).

use crate::camera::CameraPose;
use glam::Mat4;

/// A camera that moves further than this between two frames is taken as a cut (m). A flying
/// camera at its fastest (Shift, 60 m/s) moves 1 m per frame at 60 Hz.
pub const CUT_DISTANCE_M: f32 = 10.0;
/// A camera that turns further than this between two frames is taken as a cut (degrees).
pub const CUT_ANGLE_DEG: f32 = 45.0;
/// Length of the jitter sequence before it repeats.
pub const JITTER_PERIOD: u64 = 16;

// ANCHOR: halton
/// The radical inverse of `index` in `base`: the Halton sequence's coordinate for that base.
pub fn halton(mut index: u64, base: u64) -> f64 {
    let mut result = 0.0;
    let mut fraction = 1.0 / base as f64;
    while index > 0 {
        result += (index % base) as f64 * fraction;
        index /= base;
        fraction /= base as f64;
    }
    result
}

/// Sub-pixel offset (pixels, each coordinate in −½..½) for frame `frame`: Halton (2, 3) from
/// index 1 (index 0 would be the pixel corner), repeating every [`JITTER_PERIOD`] frames.
pub fn jitter(frame: u64) -> [f32; 2] {
    let i = frame % JITTER_PERIOD + 1;
    [(halton(i, 2) - 0.5) as f32, (halton(i, 3) - 0.5) as f32]
}

/// A third offset (−½..½) for stages that also jitter along depth: Halton base 5 at the same index,
/// so that with `jitter` it makes a 3D low-discrepancy sequence.
pub fn jitter_depth(frame: u64) -> f32 {
    (halton(frame % JITTER_PERIOD + 1, 5) - 0.5) as f32
}
// ANCHOR_END: halton

/// Why history was thrown away (for the viewer's status and for tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalidation {
    FirstFrame,
    Resize,
    ShaderReload,
    CameraCut,
    ParameterChange,
}

/// What must stay the same from one frame to the next for history to stay valid.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryKey {
    pub size: [u32; 2],
    /// Every parameter of the stack and the scene, serialised (RON), and the stack's ids.
    pub settings: String,
}

/// The core's record of the previous frame.
#[derive(Default)]
pub struct FrameHistory {
    last_key: Option<HistoryKey>,
    last_camera: Option<CameraPose>,
    last_view_proj: Option<Mat4>,
    reload_pending: bool,
    epoch: u32,
    last_invalidation: Option<Invalidation>,
}

/// This frame's history data, as the frame uniform carries it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryFrame {
    pub prev_view_proj: Mat4,
    pub valid: bool,
    pub epoch: u32,
}

impl FrameHistory {
    /// Shaders were rebuilt: the next frame starts without history.
    pub fn note_reload(&mut self) {
        self.reload_pending = true;
    }

    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Why history was last invalidated, if ever.
    pub fn last_invalidation(&self) -> Option<Invalidation> {
        self.last_invalidation
    }

    /// Moves on to a new frame and says whether last frame's results may be reused.
    pub fn advance(&mut self, key: HistoryKey, camera: &CameraPose, cut: bool, view_proj: Mat4) -> HistoryFrame {
        let reason = match (&self.last_key, &self.last_camera) {
            (None, _) | (_, None) => Some(Invalidation::FirstFrame),
            (Some(last), Some(last_camera)) => {
                if last.size != key.size {
                    Some(Invalidation::Resize)
                } else if self.reload_pending {
                    Some(Invalidation::ShaderReload)
                } else if cut || is_cut(last_camera, camera) {
                    Some(Invalidation::CameraCut)
                } else if last.settings != key.settings {
                    Some(Invalidation::ParameterChange)
                } else {
                    None
                }
            }
        };
        let prev_view_proj = match (reason, self.last_view_proj) {
            (None, Some(prev)) => prev,
            _ => view_proj,
        };
        if let Some(r) = reason {
            self.epoch = self.epoch.wrapping_add(1);
            self.last_invalidation = Some(r);
        }
        self.reload_pending = false;
        self.last_key = Some(key);
        self.last_camera = Some(*camera);
        self.last_view_proj = Some(view_proj);
        HistoryFrame { prev_view_proj, valid: reason.is_none(), epoch: self.epoch }
    }
}

/// A move or turn too large to reproject across (see [`CUT_DISTANCE_M`], [`CUT_ANGLE_DEG`]).
pub fn is_cut(a: &CameraPose, b: &CameraPose) -> bool {
    let moved = a.eye().distance(b.eye());
    let turned = a.forward().angle_between(b.forward()).to_degrees();
    moved > CUT_DISTANCE_M || turned > CUT_ANGLE_DEG || a.fov_y_deg != b.fov_y_deg
}

// ANCHOR: history_targets
/// A pair of same-sized textures for a stage that blends each frame with the last: it reads
/// `previous()` (meaningful only while `frame.history_valid` is 1) and writes `current()`, and
/// calls `swap` once a frame. `follow` re-creates both at a new size (the core also marks
/// history invalid then).
pub struct HistoryTargets {
    label: &'static str,
    format: wgpu::TextureFormat,
    size: [u32; 2],
    targets: [crate::frame::Target; 2],
    current: usize,
}

impl HistoryTargets {
    /// The texture this frame writes.
    pub fn current(&self) -> &crate::frame::Target {
        &self.targets[self.current]
    }

    /// The texture last frame wrote.
    pub fn previous(&self) -> &crate::frame::Target {
        &self.targets[1 - self.current]
    }

    /// Both textures, in a fixed order, and which of them `previous()` is: for bind groups made
    /// once per way round instead of every frame.
    pub fn pair(&self) -> &[crate::frame::Target; 2] {
        &self.targets
    }

    pub fn previous_index(&self) -> usize {
        1 - self.current
    }

    /// Makes this frame's output next frame's history.
    pub fn swap(&mut self) {
        self.current = 1 - self.current;
    }
    // ANCHOR_END: history_targets

    pub fn new(device: &wgpu::Device, label: &'static str, format: wgpu::TextureFormat, size: [u32; 2]) -> Self {
        let make = || {
            use wgpu::TextureUsages as U;
            crate::frame::Target::new(
                device,
                label,
                size,
                format,
                U::STORAGE_BINDING | U::TEXTURE_BINDING | U::COPY_SRC,
            )
        };
        Self { label, format, size, targets: [make(), make()], current: 0 }
    }

    pub fn size(&self) -> [u32; 2] {
        self.size
    }

    /// Re-creates both textures if the frame's size changed; true when it did.
    pub fn follow(&mut self, device: &wgpu::Device, size: [u32; 2]) -> bool {
        if size == self.size {
            return false;
        }
        *self = Self::new(device, self.label, self.format, size);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halton_matches_the_published_sequence() {
        // Base 2: 1/2, 1/4, 3/4, 1/8, 5/8; base 3: 1/3, 2/3, 1/9, 4/9, 7/9.
        let b2: Vec<f64> = (1..=5).map(|i| halton(i, 2)).collect();
        let b3: Vec<f64> = (1..=5).map(|i| halton(i, 3)).collect();
        assert_eq!(b2, [0.5, 0.25, 0.75, 0.125, 0.625]);
        for (got, want) in b3.iter().zip([1.0 / 3.0, 2.0 / 3.0, 1.0 / 9.0, 4.0 / 9.0, 7.0 / 9.0]) {
            assert!((got - want).abs() < 1e-15, "{got} vs {want}");
        }
    }

    #[test]
    fn jitter_is_centred_and_periodic() {
        let seq: Vec<[f32; 2]> = (0..JITTER_PERIOD).map(jitter).collect();
        assert_eq!(seq[0], [0.0, (1.0f64 / 3.0 - 0.5) as f32]);
        assert_eq!(jitter(JITTER_PERIOD), seq[0]);
        for j in &seq {
            assert!(j.iter().all(|c| (-0.5..0.5).contains(c)), "{j:?}");
        }
        // 16 Halton points cover the pixel evenly: their mean is within 1/16 of its centre.
        let mean = seq.iter().fold([0.0f32; 2], |m, j| [m[0] + j[0] / 16.0, m[1] + j[1] / 16.0]);
        assert!(mean[0].abs() < 1.0 / 16.0 && mean[1].abs() < 1.0 / 16.0, "{mean:?}");
        // No two frames of a period share an offset.
        for i in 0..seq.len() {
            for k in i + 1..seq.len() {
                assert_ne!(seq[i], seq[k]);
            }
        }
    }

    fn key(size: [u32; 2], settings: &str) -> HistoryKey {
        HistoryKey { size, settings: settings.into() }
    }

    #[test]
    fn history_is_invalidated_by_each_cause_and_only_then() {
        let mut h = FrameHistory::default();
        let cam = CameraPose::default();
        let vp = Mat4::IDENTITY;
        let f = h.advance(key([64, 64], "a"), &cam, false, vp);
        assert!(!f.valid);
        assert_eq!(h.last_invalidation(), Some(Invalidation::FirstFrame));
        let vp2 = Mat4::from_scale(glam::Vec3::splat(2.0));
        let f = h.advance(key([64, 64], "a"), &cam, false, vp2);
        assert!(f.valid);
        assert_eq!(f.prev_view_proj, vp, "the previous frame's matrix is published");
        let epoch = f.epoch;

        let mut small_move = cam;
        small_move.position[0] += 0.5;
        small_move.yaw_deg += 5.0;
        assert!(h.advance(key([64, 64], "a"), &small_move, false, vp2).valid);

        let cases: [(&str, Invalidation); 4] = [
            ("resize", Invalidation::Resize),
            ("reload", Invalidation::ShaderReload),
            ("jump", Invalidation::CameraCut),
            ("parameter", Invalidation::ParameterChange),
        ];
        let mut e = epoch;
        for (what, expected) in cases {
            let mut camera = small_move;
            let mut k = key([64, 64], "a");
            match what {
                "resize" => k.size = [32, 64],
                "reload" => h.note_reload(),
                "jump" => camera.position[2] -= 20.0,
                _ => k.settings = "b".into(),
            }
            let f = h.advance(k.clone(), &camera, false, vp2);
            assert!(!f.valid, "{what}");
            assert_eq!(f.prev_view_proj, vp2, "{what}: no reprojection across an invalidation");
            assert_eq!(h.last_invalidation(), Some(expected));
            e += 1;
            assert_eq!(f.epoch, e);
            // The frame after is valid again, once nothing changes.
            let after = h.advance(k.clone(), &camera, false, vp2);
            assert!(after.valid, "{what}: the next frame");
            // Put things back for the next case (that frame is itself an invalidation).
            let back = h.advance(key([64, 64], "a"), &small_move, false, vp2);
            if what != "reload" {
                assert!(!back.valid);
                e += 1;
            } else {
                assert!(back.valid);
            }
        }
        assert!(!h.advance(key([64, 64], "a"), &small_move, true, vp2).valid, "a cut the caller declares");
        let mut turned = small_move;
        turned.yaw_deg += 60.0;
        assert!(!h.advance(key([64, 64], "a"), &turned, false, vp2).valid, "a 60° turn");
    }
}
