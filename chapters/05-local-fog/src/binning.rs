//! Culling the volumes for the analytic pass: on the CPU, each volume's view bounds
//! (`FogVolume::view_bounds`) become a rectangle of screen tiles of `TILE_PX`² pixels, and each
//! tile gets the bit mask of the volumes that may cover one of its pixels. A pixel then
//! intersects only its tile's volumes, so the pass's cost grows with the pixels each volume
//! covers rather than with volumes × pixels.

use fogbook_core::frame::FrameUniform;
use fogbook_core::media::volumes::{FogVolume, VolumeBins, ndc_cells};

/// A screen tile's side in pixels (mirrored in shaders/05-local-fog/analytic.wgsl).
pub const TILE_PX: u32 = 16;

/// The tiles of a frame of `size` pixels.
pub fn tile_grid(size: [u32; 2]) -> [u32; 3] {
    [size[0].div_ceil(TILE_PX), size[1].div_ceil(TILE_PX), 1]
}

// ANCHOR: bin_tiles
/// Marks each volume in the tiles whose pixels its bounds may reach: the pixels its NDC
/// rectangle touches, widened by one pixel against rounding. `volumes` are the chapter's own,
/// which begin at index `first` of the stack's list (the indices the masks hold).
pub fn bin_tiles(volumes: &[FogVolume], first: usize, frame: &FrameUniform, size: [u32; 2], bins: &mut VolumeBins) {
    bins.clear();
    for (i, v) in volumes.iter().enumerate() {
        let Some(b) = v.view_bounds(frame) else { continue };
        let Some([x0, x1]) = ndc_cells(b.ndc_min.x, b.ndc_max.x, size[0], false, 1.0) else { continue };
        let Some([y0, y1]) = ndc_cells(b.ndc_min.y, b.ndc_max.y, size[1], true, 1.0) else { continue };
        bins.mark(first + i, [x0 / TILE_PX, y0 / TILE_PX, 0], [x1 / TILE_PX, y1 / TILE_PX, 0]);
    }
}
// ANCHOR_END: bin_tiles

/// Without culling: the `count` volumes from index `first` in every tile.
pub fn bin_every_tile(first: usize, count: usize, bins: &mut VolumeBins) {
    bins.clear();
    let last = bins.size.map(|s| s.saturating_sub(1));
    for i in first..first + count {
        bins.mark(i, [0; 3], last);
    }
}
