//! Culling the local fog volumes for the media pass: on the CPU, each volume's view bounds
//! (`FogVolume::view_bounds`) become a range of froxel blocks (`BIN_COLUMNS`² columns by
//! `BIN_SLICES` slices), and each block gets the bit mask of the volumes that may reach it. A
//! froxel then tests only its block's volumes, so the injection's cost grows with the froxels
//! each volume covers rather than with volumes × froxels.

use crate::reference::Slices;
use fogbook_core::frame::FrameUniform;
use fogbook_core::media::volumes::{FogVolume, VolumeBins, ndc_cells};

/// A block of froxels: `BIN_COLUMNS` × `BIN_COLUMNS` columns by `BIN_SLICES` slices
/// (mirrored in shaders/04-froxel-fog/media.wgsl).
pub const BIN_COLUMNS: u32 = 8;
pub const BIN_SLICES: u32 = 4;

/// The blocks of a grid of `grid` froxels.
pub fn bin_size(grid: [u32; 3]) -> [u32; 3] {
    [grid[0].div_ceil(BIN_COLUMNS), grid[1].div_ceil(BIN_COLUMNS), grid[2].div_ceil(BIN_SLICES)]
}

// ANCHOR: bin_volumes
/// Marks each volume in the blocks its bounds touch. A froxel samples its column's ray through
/// any point of the column (the temporal jitter moves it by up to half a column) at any distance
/// inside its slice, so the blocks are those of every column and slice the bounds touch, widened
/// by one column and one slice against rounding.
pub fn bin_volumes(
    volumes: &[FogVolume],
    frame: &FrameUniform,
    grid: [u32; 3],
    slices: &Slices,
    bins: &mut VolumeBins,
) {
    bins.clear();
    for (i, v) in volumes.iter().enumerate() {
        let Some(b) = v.view_bounds(frame) else { continue };
        let Some([x0, x1]) = ndc_cells(b.ndc_min.x, b.ndc_max.x, grid[0], false, 1.0) else { continue };
        let Some([y0, y1]) = ndc_cells(b.ndc_min.y, b.ndc_max.y, grid[1], true, 1.0) else { continue };
        let slice = |d: f64| if d <= 0.0 { 0.0 } else { slices.slice(d).floor().max(0.0) };
        let (z0, z1) = (slice(b.distance[0]) - 1.0, slice(b.distance[1]) + 1.0);
        if z0 > (grid[2] - 1) as f64 {
            continue; // beyond the grid's far end
        }
        let (z0, z1) = (z0.max(0.0) as u32, z1.min((grid[2] - 1) as f64) as u32);
        let lo = [x0 / BIN_COLUMNS, y0 / BIN_COLUMNS, z0 / BIN_SLICES];
        let hi = [x1 / BIN_COLUMNS, y1 / BIN_COLUMNS, z1 / BIN_SLICES];
        bins.mark(i, lo, hi);
    }
}
// ANCHOR_END: bin_volumes
