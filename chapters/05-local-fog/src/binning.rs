//! Culling the volumes for the analytic pass: on the CPU, each volume's view bounds
//! (`FogVolume::view_bounds`) become a rectangle of screen tiles of `TILE_PX`² pixels, and each
//! tile gets the bit mask of the volumes that may cover one of its pixels. A pixel then
//! intersects only its tile's volumes, so the pass's cost grows with the pixels each volume
//! covers rather than with volumes × pixels.

use fogbook_core::fog_volumes::{FogVolume, VolumeBins, ndc_cells};
use fogbook_core::frame::FrameUniform;

/// A screen tile's side in pixels (mirrored in shaders/05-local-fog/analytic.wgsl).
pub const TILE_PX: u32 = 16;

/// The tiles of a frame of `size` pixels.
pub fn tile_grid(size: [u32; 2]) -> [u32; 3] {
    [size[0].div_ceil(TILE_PX), size[1].div_ceil(TILE_PX), 1]
}

// ANCHOR: bin_tiles
/// Marks each volume in the tiles whose pixels its bounds may reach: the pixels its NDC
/// rectangle touches, widened by one pixel against rounding.
pub fn bin_tiles(volumes: &[FogVolume], frame: &FrameUniform, size: [u32; 2], bins: &mut VolumeBins) {
    bins.clear();
    for (i, v) in volumes.iter().enumerate() {
        let Some(b) = v.view_bounds(frame) else { continue };
        let Some([x0, x1]) = ndc_cells(b.ndc_min.x, b.ndc_max.x, size[0], false, 1.0) else { continue };
        let Some([y0, y1]) = ndc_cells(b.ndc_min.y, b.ndc_max.y, size[1], true, 1.0) else { continue };
        bins.mark(i, [x0 / TILE_PX, y0 / TILE_PX, 0], [x1 / TILE_PX, y1 / TILE_PX, 0]);
    }
}
// ANCHOR_END: bin_tiles

// ANCHOR: bin_casters
/// The most volumes that shadow one volume's sun light (in list order; shaders/05-local-fog/
/// analytic.wgsl stops there too).
pub const MAX_CASTERS: usize = 16;

/// For each volume i, the bit mask (`BIN_WORDS` words) of the other volumes that may lie between
/// it and the sun (unit direction `sun`, towards it): those whose bounding sphere reaches the
/// half-cylinder swept from i's bounding sphere towards the sun. A volume's sun ray is then
/// tested against these only, so the cost grows with the volumes that can shadow it, not with
/// the list.
pub fn bin_casters(volumes: &[FogVolume], sun: glam::DVec3, words: &mut Vec<u32>) {
    use fogbook_core::fog_volumes::BIN_WORDS;
    words.clear();
    words.resize(volumes.len().max(1) * BIN_WORDS, 0);
    let sphere = |v: &FogVolume| (v.centre(), v.half().length());
    for (i, receiver) in volumes.iter().enumerate() {
        let (ci, ri) = sphere(receiver);
        let mut n = 0;
        for (j, caster) in volumes.iter().enumerate() {
            if j == i || n == MAX_CASTERS {
                continue;
            }
            let (cj, rj) = sphere(caster);
            let d = cj - ci;
            let along = d.dot(sun);
            let across = (d - sun * along).length();
            if along > -(ri + rj) && across < ri + rj {
                words[i * BIN_WORDS + j / 32] |= 1 << (j % 32);
                n += 1;
            }
        }
    }
}
// ANCHOR_END: bin_casters
