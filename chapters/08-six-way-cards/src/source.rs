//! The flipbook's source volumes: the smoke frames the atlases were baked from, at the bake's
//! grid, kept beside the atlases so that a path tracer can trace the medium each card stands for
//! (`medium`, `shaders/08-six-way-cards/medium.wgsl`). Each frame is stored in the card frame
//! (`card::to_card`: right fastest, then up, then away from the eye) as the bake read it: the
//! density ρ, and the glow g in 0..1 where the bake has emission, both as f16 (the smoke's field
//! is f16, so ρ is exact). On the GPU the frames are tiles of one 3D texture.

use crate::crop::CropRect;
use crate::light::Medium;
use fogbook_smoke::fields::{f16_bits, f16_to_f32};

/// The most texels (cells × frames) kept: 128 MiB at 4 bytes a texel. A larger bake keeps none,
/// and its cards are not traced.
pub const MAX_TEXELS: u64 = 1 << 25;

/// The finest cut of a frame into bricks for its bounds: up to this many a side
/// (`SourceVolumes::brick_max`).
pub const MAX_BRICKS: u32 = 6;

/// The frames of one bake and what turns their density into a medium.
#[derive(Clone, Debug)]
pub struct SourceVolumes {
    /// Cells per side of the grid.
    pub n: u32,
    /// Per frame, n³ texels in the card frame: (ρ, g) as f16 bits.
    pub frames: Vec<Vec<[u16; 2]>>,
    /// Per number of bricks a side b (1..=`MAX_BRICKS`, index b − 1), per frame, the densest
    /// cell of each of its b³ bricks (brick (i, j, k) at i + b (j + b k); cell x in brick
    /// ⌊x b / n⌋): the tracer's bound per brick of a card.
    pub brick_max: Vec<Vec<Vec<f32>>>,
    /// The part of the grid's image the cards show (`crop`).
    pub crop: CropRect,
    /// σ Δx: optical depth of a cell per unit density, the bake's `Medium`.
    pub tau_per_cell: f32,
    /// The single-scattering albedo of the bake.
    pub albedo: f32,
    /// Whether the bake has emission (the glow is then in the frames).
    pub emission: bool,
}

impl SourceVolumes {
    /// From each frame's density and glow (`glow` empty: none) in the card frame, n³ values each.
    pub fn new(n: u32, density: &[Vec<f32>], glow: &[Vec<f32>], crop: CropRect, medium: Medium) -> Self {
        let frames: Vec<Vec<[u16; 2]>> = density
            .iter()
            .enumerate()
            .map(|(f, rho)| {
                let g = glow.get(f);
                rho.iter()
                    .enumerate()
                    .map(|(i, &r)| {
                        let g = g.map_or(0.0, |g| g[i].clamp(0.0, 1.0));
                        [f16_bits(r.max(0.0)), f16_bits(g)]
                    })
                    .collect()
            })
            .collect();
        let brick_max = (1..=MAX_BRICKS).map(|b| frames.iter().map(|f| bricks(n, b, f)).collect()).collect();
        Self {
            n,
            frames,
            brick_max,
            crop,
            tau_per_cell: medium.extinction * medium.cell_m,
            albedo: medium.albedo,
            emission: !glow.is_empty(),
        }
    }

    /// Whether `frames` frames of an `n`³ grid fit `MAX_TEXELS`.
    pub fn fits(n: u32, frames: u32) -> bool {
        u64::from(n).pow(3) * u64::from(frames) <= MAX_TEXELS
    }
}

/// The densest cell of each of the b³ bricks of one frame of n³ cells.
fn bricks(n: u32, b: u32, frame: &[[u16; 2]]) -> Vec<f32> {
    let mut max = vec![0.0f32; (b * b * b) as usize];
    let brick = |x: u32| (x * b / n.max(1)).min(b - 1);
    for (i, t) in frame.iter().enumerate() {
        let i = i as u32;
        let [x, y, z] = [i % n, (i / n) % n, i / (n * n)].map(brick);
        let k = (x + b * (y + b * z)) as usize;
        max[k] = max[k].max(f16_to_f32(t[0]));
    }
    max
}

// ANCHOR: tiles
/// How `frames` tiles of `n`³ texels lie in a 3D texture of at most `max_side` texels a side:
/// along z first, then y, then x (frame f at tile (f / (t_y t_z), (f / t_z) mod t_y, f mod t_z)),
/// or `None` where they do not fit.
pub fn tiles(n: u32, frames: u32, max_side: u32) -> Option<[u32; 3]> {
    let per = max_side / n.max(1);
    if n == 0 || frames == 0 || per == 0 {
        return None;
    }
    let z = frames.min(per);
    let y = frames.div_ceil(z).min(per);
    let x = frames.div_ceil(z * y);
    (x <= per).then_some([x, y, z])
}
// ANCHOR_END: tiles

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_hold_every_frame_once_and_fit_the_texture() {
        for (n, frames, side) in [(48, 32, 2048), (128, 128, 2048), (32, 1, 2048), (64, 60, 256), (16, 7, 32)] {
            let [x, y, z] = tiles(n, frames, side).unwrap();
            assert!(x * n <= side && y * n <= side && z * n <= side, "{n} {frames}: {x} {y} {z}");
            let mut seen = std::collections::HashSet::new();
            for f in 0..frames {
                let tile = [f / (y * z), (f / z) % y, f % z];
                assert!(tile[0] < x && seen.insert(tile), "{n} {frames}: frame {f} at {tile:?}");
            }
        }
        assert_eq!(tiles(64, 100, 128), None);
        assert_eq!(tiles(0, 1, 2048), None);
    }

    #[test]
    fn density_is_kept_exactly_and_bounded_per_frame() {
        let crop = CropRect { x: 0.0, y: 0.0, w: 2.0, h: 2.0 };
        let medium = Medium { extinction: 2.0, cell_m: 0.5, albedo: 0.9 };
        let rho = vec![vec![0.0, 0.25, 1.5, -1.0, 0.0, 0.0, 0.0, 3.0], vec![0.5; 8]];
        let s = SourceVolumes::new(2, &rho, &[], crop, medium);
        // One brick a side: each frame's largest ρ (as stored); two of a 2³ grid: a cell each
        // (x fastest).
        assert_eq!(s.brick_max[1][0], vec![0.0, 0.25, 1.5, 0.0, 0.0, 0.0, 0.0, 3.0]);
        assert_eq!(s.brick_max[0], vec![vec![3.0], vec![0.5]]);
        assert_eq!(f16_to_f32(s.frames[0][1][0]), 0.25);
        assert_eq!(f16_to_f32(s.frames[0][3][0]), 0.0, "negative density reads as none");
        assert!(!s.emission && s.tau_per_cell == 1.0);
    }
}
