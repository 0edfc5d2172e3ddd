//! The atlases: frame addressing, resampling each frame's cropped maps to the frame size, and
//! packing the maps into two RGBA images through a swizzle.
//!
//! Frames run left to right, then top to bottom: frame f sits in column `f % cols` and row
//! `f / cols`, row 0 at the top of the image (the flipbook order of Unity's and Unreal's
//! flipbook nodes). Slots past the last frame stay transparent black.
//!
//! The maps stay premultiplied by alpha while they are resampled (so that averaging texels is
//! averaging light); packing divides by alpha, so the atlases hold *straight* values — the
//! fraction of the light the visible smoke scatters — beside alpha, as the runtime's straight
//! alpha blend wants them. Texels with alpha below `STRAIGHT_MIN` hold 0.

use crate::crop::CropRect;
use crate::light::FrameMaps;
use crate::swizzle::{Channel, Swizzle};

/// Alpha below which straight values are not divided out (0 is written).
pub const STRAIGHT_MIN: f32 = 1e-6;

// ANCHOR: layout
/// The atlas layout: `cols` × `rows` frames of `frame_w` × `frame_h` texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub cols: u32,
    pub rows: u32,
    pub frame_w: u32,
    pub frame_h: u32,
}

impl Layout {
    /// The atlas's size in texels.
    pub fn size(&self) -> [u32; 2] {
        [self.cols * self.frame_w, self.rows * self.frame_h]
    }

    pub fn slots(&self) -> u32 {
        self.cols * self.rows
    }

    /// The texel rectangle `[x, y, w, h]` of frame `f`, or `None` past the last slot.
    pub fn rect(&self, f: u32) -> Option<[u32; 4]> {
        (f < self.slots())
            .then(|| [(f % self.cols) * self.frame_w, (f / self.cols) * self.frame_h, self.frame_w, self.frame_h])
    }

    /// The frame whose rectangle holds texel (x, y), or `None` outside the atlas.
    pub fn frame_at(&self, x: u32, y: u32) -> Option<u32> {
        let [w, h] = self.size();
        (x < w && y < h).then(|| (y / self.frame_h) * self.cols + x / self.frame_w)
    }
}
// ANCHOR_END: layout

/// One frame at the atlas's resolution, premultiplied: the six maps, alpha, emission.
#[derive(Clone, Debug)]
pub struct FrameTexels {
    pub w: usize,
    pub h: usize,
    /// `Dir::ALL`'s six maps, then alpha (6) and emission (7).
    pub planes: [Vec<f32>; 8],
}

const ALPHA: usize = 6;
const EMISSION: usize = 7;

fn plane_of(maps: &FrameMaps, p: usize) -> &[f32] {
    match p {
        ALPHA => &maps.alpha,
        EMISSION => &maps.emission,
        d => &maps.lit[d],
    }
}

/// Bilinear sample of an `n` × `n` image at (x, y) in cells (texel centres at i + 0.5), zero
/// outside the image.
fn bilinear(image: &[f32], n: usize, x: f64, y: f64) -> f64 {
    let (fx, fy) = (x - 0.5, y - 0.5);
    let (x0, y0) = (fx.floor(), fy.floor());
    let (tx, ty) = (fx - x0, fy - y0);
    let at = |i: f64, j: f64| {
        if i < 0.0 || j < 0.0 || i >= n as f64 || j >= n as f64 {
            0.0
        } else {
            image[i as usize + j as usize * n] as f64
        }
    };
    (1.0 - ty) * ((1.0 - tx) * at(x0, y0) + tx * at(x0 + 1.0, y0))
        + ty * ((1.0 - tx) * at(x0, y0 + 1.0) + tx * at(x0 + 1.0, y0 + 1.0))
}

// ANCHOR: resample
/// The crop of one frame's maps resampled to `w` × `h` texels: each texel averages ss × ss
/// bilinear samples (ss = cells per texel, rounded up, at most 4), so a crop larger than the
/// frame is filtered rather than point-sampled.
pub fn resample(maps: &FrameMaps, crop: CropRect, w: usize, h: usize) -> FrameTexels {
    let (sx, sy) = (crop.w / w as f64, crop.h / h as f64);
    let ss = (sx.max(sy).ceil() as usize).clamp(1, 4);
    let planes = std::array::from_fn(|p| {
        let image = plane_of(maps, p);
        let mut out = Vec::with_capacity(w * h);
        for t in 0..h {
            for s in 0..w {
                let mut sum = 0.0;
                for b in 0..ss {
                    for a in 0..ss {
                        let x = crop.x + (s as f64 + (a as f64 + 0.5) / ss as f64) * sx;
                        let y = crop.y + (t as f64 + (b as f64 + 0.5) / ss as f64) * sy;
                        sum += bilinear(image, maps.n, x, y);
                    }
                }
                out.push((sum / (ss * ss) as f64) as f32);
            }
        }
        out
    });
    FrameTexels { w, h, planes }
}
// ANCHOR_END: resample

// ANCHOR: pack
/// The two atlases, RGBA f32 with straight (un-premultiplied) maps, `layout.size()` texels each,
/// row 0 at the top. `emission`: whether the bake has emission (otherwise `E` reads alpha).
pub fn pack(layout: Layout, frames: &[FrameTexels], swizzle: &Swizzle, emission: bool) -> [Vec<f32>; 2] {
    let [aw, ah] = layout.size().map(|v| v as usize);
    swizzle.atlases.map(|channels| {
        let mut atlas = vec![0.0f32; aw * ah * 4];
        for (f, frame) in frames.iter().enumerate() {
            let Some([x0, y0, ..]) = layout.rect(f as u32) else { continue };
            for t in 0..frame.h {
                for s in 0..frame.w {
                    let i = s + t * frame.w;
                    let alpha = frame.planes[ALPHA][i];
                    let straight =
                        |p: usize| if alpha >= STRAIGHT_MIN { (frame.planes[p][i] / alpha).max(0.0) } else { 0.0 };
                    let texel = ((x0 as usize + s) + (y0 as usize + t) * aw) * 4;
                    for (c, channel) in channels.iter().enumerate() {
                        atlas[texel + c] = match channel {
                            Channel::Map(d) => straight(d.index()),
                            Channel::Alpha => alpha,
                            Channel::Emission if emission => straight(EMISSION),
                            Channel::Emission => alpha,
                            Channel::Zero => 0.0,
                        };
                    }
                }
            }
        }
        atlas
    })
}
// ANCHOR_END: pack

/// 8-bit values of an atlas: clamped to 0..1, rounded to the nearest step.
pub fn to_rgba8(atlas: &[f32]) -> Vec<u8> {
    atlas.iter().map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Dir;

    // ANCHOR: addressing_test
    /// Frame addressing, for every layout up to 12 × 12 and several frame sizes: each frame's
    /// rectangle lies inside the atlas, every texel of it maps back to that frame, rectangles of
    /// different frames do not overlap (they tile the atlas), and there is no slot past the last.
    #[test]
    fn frame_addressing_round_trips() {
        for cols in 1..=12 {
            for rows in 1..=12 {
                for (frame_w, frame_h) in [(1, 1), (3, 2), (16, 16), (5, 7)] {
                    let l = Layout { cols, rows, frame_w, frame_h };
                    let [aw, ah] = l.size();
                    let mut covered = 0u64;
                    for f in 0..l.slots() {
                        let [x, y, w, h] = l.rect(f).unwrap();
                        assert!(x + w <= aw && y + h <= ah, "{l:?} frame {f}");
                        for (tx, ty) in
                            [(x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1), (x + w / 2, y + h / 2)]
                        {
                            assert_eq!(l.frame_at(tx, ty), Some(f), "{l:?} frame {f} texel {tx},{ty}");
                        }
                        covered += (w * h) as u64;
                    }
                    assert_eq!(covered, aw as u64 * ah as u64, "{l:?}");
                    assert_eq!(l.rect(l.slots()), None);
                    assert_eq!(l.frame_at(aw, 0), None);
                    assert_eq!(l.frame_at(0, ah), None);
                }
            }
        }
    }
    // ANCHOR_END: addressing_test

    #[test]
    fn packing_follows_the_swizzle_and_divides_by_alpha() {
        let layout = Layout { cols: 2, rows: 1, frame_w: 1, frame_h: 1 };
        let mut planes: [Vec<f32>; 8] = std::array::from_fn(|_| vec![0.0]);
        for d in Dir::ALL {
            planes[d.index()][0] = 0.05 * (d.index() + 1) as f32;
        }
        planes[6][0] = 0.5;
        planes[7][0] = 0.25;
        let frame = FrameTexels { w: 1, h: 1, planes };
        let [a, b] = pack(layout, &[frame], &Swizzle::default(), true);
        let straight = |d: Dir| 0.1 * (d.index() + 1) as f32;
        let close = |x: f32, y: f32| (x - y).abs() < 1e-6;
        assert!(
            close(a[0], straight(Dir::Top)) && close(a[1], straight(Dir::Left)) && close(a[2], straight(Dir::Right))
        );
        assert!(close(a[3], 0.5));
        assert!(
            close(b[0], straight(Dir::Bottom)) && close(b[1], straight(Dir::Back)) && close(b[2], straight(Dir::Front))
        );
        assert!(close(b[3], 0.5), "emission, straight: 0.25 / 0.5");
        // The second slot is empty.
        assert!(a[4..].iter().chain(&b[4..]).all(|&v| v == 0.0));
    }

    #[test]
    fn resampling_the_whole_grid_at_its_own_size_is_the_identity() {
        let n = 4;
        let mut maps = FrameMaps::zero(n);
        for (i, v) in maps.alpha.iter_mut().enumerate() {
            *v = i as f32 / 16.0;
        }
        let t = resample(&maps, CropRect { x: 0.0, y: 0.0, w: 4.0, h: 4.0 }, 4, 4);
        assert_eq!(t.planes[6], maps.alpha);
    }
}
