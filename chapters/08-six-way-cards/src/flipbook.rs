//! The bake's last steps, once every frame's maps are in: one crop for all frames, each frame
//! resampled to the frame size, the two atlases packed.

use crate::atlas::{Layout, pack, resample};
use crate::crop::{CropRect, bounds, crop_rect};
use crate::light::FrameMaps;
use crate::swizzle::Swizzle;

/// Two RGBA f32 atlases (straight values, row 0 at the top) and the crop they show.
pub struct Flipbook {
    pub crop: CropRect,
    pub atlases: [Vec<f32>; 2],
}

// ANCHOR: assemble
pub fn assemble(frames: &[FrameMaps], layout: Layout, swizzle: &Swizzle, emission: bool) -> Flipbook {
    let n = frames.first().map_or(1, |f| f.n);
    let crop = crop_rect(n, bounds(n, frames.iter().map(|f| &f.alpha[..])), layout.frame_w, layout.frame_h);
    let texels: Vec<_> =
        frames.iter().map(|f| resample(f, crop, layout.frame_w as usize, layout.frame_h as usize)).collect();
    Flipbook { crop, atlases: pack(layout, &texels, swizzle, emission) }
}
// ANCHOR_END: assemble
