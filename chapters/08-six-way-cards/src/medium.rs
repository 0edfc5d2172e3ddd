//! The cards' source volumes as a medium sampled at points (`shaders/08-six-way-cards/medium.wgsl`):
//! where each card's volume stands this frame (`card_volume`), the tree over their boxes
//! (`bvh`), the GPU copies (the frames' 3D texture, the cards' block, the nodes) at the media
//! layer's place for placed volumes (`media::point::PLACED_VOLUMES_BINDINGS`), and their loan to
//! a pass that samples every medium (a path tracer).
//!
//! A card of width w and height h shows the bake's crop (`crop.w` × `crop.h` cells of the grid's
//! image) on its quad, so a cell is w / crop.w wide and h / crop.h high; along the view it is
//! their geometric mean deep, and the grid stands centred on the card's plane. The bake's optical
//! depth per cell, σ ρ Δx, is the card's whatever its size (a card is the same smoke, scaled), so
//! the extinction per unit density is σ Δx over the depth of a cell, times the card's optical
//! depth scale (`density_scale`, exact: α' = 1 − (1 − α)^s is a depth s times as large) and its
//! opacity (for thin smoke α·o ≈ 1 − e^{−oτ}; the edge softness and the fades are not traced).

use crate::bvh::{self, Aabb, BvhNode};
use crate::instances::CardInstance;
use crate::params::{CardParams, FrameBlend};
use crate::source::{MAX_BRICKS, SourceVolumes, tiles};
use bytemuck::{Pod, Zeroable};
use fogbook_core::Loan;
use fogbook_core::bindings::{storage_buffer_entry, texture_3d_entry};
use fogbook_core::gpu::GpuContext;
use fogbook_core::media::point::{LentBinding, PLACED_VOLUMES_BINDINGS};
use glam::Vec3;

// ANCHOR: records
/// Mirrors `struct CardVolume` in medium.wgsl (what each member holds is said there).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct CardVolume {
    pub origin: [f32; 4],
    pub right: [f32; 4],
    pub up: [f32; 4],
    pub away: [f32; 4],
    pub frames: [f32; 4],
}

/// Mirrors the fixed part of `struct CardsMedium` in medium.wgsl; the cards follow it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct CardsHeader {
    pub counts: [u32; 4],
    pub tiles: [u32; 4],
    pub clip_lo: [f32; 4],
    pub clip_hi: [f32; 4],
    pub glow: [f32; 4],
}
// ANCHOR_END: records

/// The bindings of medium.wgsl: the cards' block, the nodes, the frames' texture.
fn medium_bindings() -> [u32; 3] {
    let first = PLACED_VOLUMES_BINDINGS.start;
    std::array::from_fn(|k| first + k as u32)
}

/// The layout entries of medium.wgsl's bindings, for any pass that samples the cards at points.
pub fn medium_layout_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    let c = wgpu::ShaderStages::COMPUTE;
    let [block, nodes, frames] = medium_bindings();
    vec![
        storage_buffer_entry(block, c, true),
        storage_buffer_entry(nodes, c, true),
        texture_3d_entry(frames, c, wgpu::TextureSampleType::Float { filterable: false }),
    ]
}

/// The flipbook frames a card shows at `time_s`, as prepare.wgsl takes them (the same f32
/// arithmetic): f0, f0 + 1 (wrapping) and the cross-fade towards it.
pub fn card_frames(p: &CardParams, c: &CardInstance, frames: u32, time_s: f32) -> (u32, u32, f32) {
    let frames = frames.max(1);
    let running = c.flipbook[0] + time_s * p.frames_per_s * c.flipbook[1];
    let position = running - (running / frames as f32).floor() * frames as f32;
    let f0 = if position.is_finite() { (position.max(0.0) as u32).min(frames - 1) } else { 0 };
    let blend = if p.frame_blend == FrameBlend::CrossFade && position.is_finite() { position - f0 as f32 } else { 0.0 };
    (f0, (f0 + 1) % frames, blend)
}

/// The part of the grid (uvw, 0..1) a card shows: the crop within the grid across, all of it
/// along the view.
pub fn clip_box(s: &SourceVolumes) -> ([f32; 3], [f32; 3]) {
    let (n, c) = (s.n as f64, s.crop);
    // The image's rows run down from the top; the grid's up runs from the bottom.
    let lo = [c.x.max(0.0) / n, (n - c.y - c.h).max(0.0) / n, 0.0];
    let hi = [(c.x + c.w).min(n) / n, (n - c.y).min(n) / n, 1.0];
    (lo.map(|v| v as f32), hi.map(|v| v as f32))
}

// ANCHOR: card_volume
/// Where a card's grid stands: its corner, its axes (right, up, away), its extent along them
/// (m), σ per unit density, and its frames.
struct Placement {
    origin: Vec3,
    axes: [Vec3; 3],
    extent: Vec3,
    sigma: f32,
    frames: (u32, u32, f32),
}

fn placement(p: &CardParams, s: &SourceVolumes, c: &CardInstance, time_s: f32) -> Placement {
    let v3 = |a: [f32; 4]| Vec3::new(a[0], a[1], a[2]);
    let (right, up) = (v3(c.right), v3(c.up));
    let away = up.cross(right);
    let (n, crop) = (s.n as f32, s.crop);
    // Metres per cell along right, up and away.
    let cell = Vec3::new(c.right[3] / crop.w as f32, c.up[3] / crop.h as f32, 0.0);
    let cell = Vec3::new(cell.x, cell.y, (cell.x * cell.y).sqrt());
    // The card's centre in cells of the grid: the crop's centre, half way along the view.
    let at = Vec3::new((crop.x + 0.5 * crop.w) as f32, n - (crop.y + 0.5 * crop.h) as f32, 0.5 * n);
    let axes = [right, up, away];
    let origin = v3(c.centre) - (0..3).map(|k| axes[k] * at[k] * cell[k]).sum::<Vec3>();
    let sigma = s.tau_per_cell / cell.z.max(1e-12) * p.density_scale.max(0.0) * c.centre[3].clamp(0.0, 1.0);
    let frames = card_frames(p, c, s.frames.len() as u32, time_s);
    Placement { origin, axes, extent: cell * n, sigma, frames }
}

/// The world box of the part [lo, hi] (uvw) of a placed grid: its eight corners.
fn world_box(at: &Placement, lo: [f32; 3], hi: [f32; 3]) -> Aabb {
    let mut bounds = Aabb { lo: [f32::MAX; 3], hi: [f32::MIN; 3] };
    for corner in 0..8 {
        let uvw = Vec3::from_array(std::array::from_fn(|k| if corner >> k & 1 == 0 { lo[k] } else { hi[k] }));
        let p = at.origin + (0..3).map(|k| at.axes[k] * uvw[k] * at.extent[k]).sum::<Vec3>();
        bounds.lo = std::array::from_fn(|k| bounds.lo[k].min(p[k]));
        bounds.hi = std::array::from_fn(|k| bounds.hi[k].max(p[k]));
    }
    bounds
}

/// The densest of a card's frames (both during a cross-fade) by `of(frame)`.
fn densest(at: &Placement, of: impl Fn(usize) -> Option<f32>) -> f32 {
    let (f0, f1, blend) = at.frames;
    let second = if blend > 0.0 { of(f1 as usize).unwrap_or(0.0) } else { 0.0 };
    of(f0 as usize).unwrap_or(0.0).max(second)
}

/// Where card `c`'s volume stands: its record. (Its bounds, and the boxes they hold over, are its
/// bricks': `card_bricks`.)
pub fn card_volume(p: &CardParams, s: &SourceVolumes, c: &CardInstance, time_s: f32) -> CardVolume {
    let at = placement(p, s, c, time_s);
    let scaled = |k: usize| {
        let a = at.axes[k] / at.extent[k].max(1e-12);
        [a.x, a.y, a.z, 0.0]
    };
    let (f0, f1, blend) = at.frames;
    CardVolume {
        origin: [at.origin.x, at.origin.y, at.origin.z, at.sigma],
        right: scaled(0),
        up: scaled(1),
        away: scaled(2),
        frames: [f0 as f32, f1 as f32, blend, 0.0],
    }
}
// ANCHOR_END: card_volume

// ANCHOR: bricks
/// The most leaves the tree is given: each card's grid is cut into b³ bricks, each a leaf with
/// its own bound, b the most (up to `MAX_BRICKS`) that keeps cards × b³ within this.
pub const LEAF_BUDGET: usize = 32_768;

/// Bricks a side for `cards` cards.
pub fn bricks_per_side(cards: usize) -> u32 {
    (1..=MAX_BRICKS).rev().find(|&b| cards.saturating_mul((b * b * b) as usize) <= LEAF_BUDGET).unwrap_or(1)
}

/// One leaf: brick `brick` (i + b (j + b k)) of card `card`, its world box and its bound σ̄
/// (1/m, the densest cell in it of the frames it shows, times σ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brick {
    pub aabb: Aabb,
    pub card: u32,
    pub brick: u32,
    pub bound: f32,
}

/// Card `c`'s bricks with density, each clipped to the part of the grid the card shows.
pub fn card_bricks(p: &CardParams, s: &SourceVolumes, c: &CardInstance, time_s: f32, card: u32, b: u32) -> Vec<Brick> {
    let at = placement(p, s, c, time_s);
    let (clip_lo, clip_hi) = clip_box(s);
    let maxima = &s.brick_max[(b.clamp(1, MAX_BRICKS) - 1) as usize];
    let mut bricks = Vec::new();
    for brick in 0..b * b * b {
        let ijk = [brick % b, (brick / b) % b, brick / (b * b)];
        let lo: [f32; 3] = std::array::from_fn(|k| (ijk[k] as f32 / b as f32).max(clip_lo[k]));
        let hi: [f32; 3] = std::array::from_fn(|k| ((ijk[k] + 1) as f32 / b as f32).min(clip_hi[k]));
        let bound = at.sigma * densest(&at, |f| maxima.get(f).and_then(|m| m.get(brick as usize)).copied());
        if (0..3).all(|k| lo[k] < hi[k]) && bound > 0.0 {
            bricks.push(Brick { aabb: world_box(&at, lo, hi), card, brick, bound });
        }
    }
    bricks
}
// ANCHOR_END: bricks

/// The header for `cards` cards and `nodes` nodes of the tree.
fn header(p: &CardParams, s: &SourceVolumes, tiles: [u32; 3], cards: usize, nodes: usize, bricks: u32) -> CardsHeader {
    let (lo, hi) = clip_box(s);
    let e = p.emission_color;
    CardsHeader {
        counts: [cards as u32, nodes as u32, s.n, s.emission as u32],
        tiles: [tiles[0], tiles[1], tiles[2], s.frames.len() as u32],
        clip_lo: [lo[0], lo[1], lo[2], s.albedo],
        clip_hi: [hi[0], hi[1], hi[2], bricks as f32],
        glow: [e[0], e[1], e[2], 0.0],
    }
}

/// The cards' block (header and records) and the tree's nodes for this frame's cards.
pub fn frame_data(
    p: &CardParams,
    s: &SourceVolumes,
    tiles: [u32; 3],
    cards: &[CardInstance],
    time_s: f32,
) -> (Vec<u8>, Vec<BvhNode>) {
    let records: Vec<CardVolume> = cards.iter().map(|c| card_volume(p, s, c, time_s)).collect();
    let b = bricks_per_side(cards.len());
    let bricks: Vec<Brick> =
        cards.iter().enumerate().flat_map(|(i, c)| card_bricks(p, s, c, time_s, i as u32, b)).collect();
    let boxes: Vec<Aabb> = bricks.iter().map(|k| k.aabb).collect();
    let mut nodes = bvh::build(&boxes);
    // A leaf as medium.wgsl reads it: the card and the brick in `link`, the bound's bits in
    // `leaf` (not 0: the bound is positive).
    for node in nodes.iter_mut().filter(|n| n.leaf != 0) {
        let k = bricks[node.link as usize];
        (node.link, node.leaf) = (k.card << 8 | k.brick, k.bound.to_bits());
    }
    let mut block = bytemuck::bytes_of(&header(p, s, tiles, records.len(), nodes.len(), b)).to_vec();
    block.extend_from_slice(bytemuck::cast_slice(&records));
    (block, nodes)
}

/// The medium's GPU copies: the frames' texture (made with the flipbook), the block and nodes
/// (written every frame).
pub struct CardsMediumGpu {
    frames: Option<(wgpu::TextureView, [u32; 3])>,
    block: wgpu::Buffer,
    nodes: wgpu::Buffer,
    /// Whether this frame's block holds cards (else it is all zero: no medium).
    live: bool,
}

fn storage(device: &wgpu::Device, label: &str, bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Bytes of the block and the nodes' buffer before any grows: a header and a card, a node.
const FIRST_BYTES: u64 = 256;

impl CardsMediumGpu {
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            frames: None,
            block: storage(device, "six-way medium: cards", FIRST_BYTES),
            nodes: storage(device, "six-way medium: tree", FIRST_BYTES),
            live: false,
        }
    }

    /// Uploads the source frames as tiles of one 3D texture (none: no medium); an error (and no
    /// medium) where they do not fit the device.
    pub fn set_source(&mut self, gpu: &GpuContext, s: Option<&SourceVolumes>) -> Result<(), String> {
        self.frames = None;
        let Some(s) = s else { return Ok(()) };
        let max = gpu.device.limits().max_texture_dimension_3d;
        let t = tiles(s.n, s.frames.len() as u32, max).ok_or_else(|| {
            format!("{} frames of {}³ cells do not fit a 3D texture of {max} texels a side", s.frames.len(), s.n)
        })?;
        let n = s.n;
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("six-way source frames"),
            size: wgpu::Extent3d { width: t[0] * n, height: t[1] * n, depth_or_array_layers: t[2] * n },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D3,
            format: wgpu::TextureFormat::Rg16Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        for (f, frame) in s.frames.iter().enumerate() {
            let f = f as u32;
            let tile = [f / (t[1] * t[2]), (f / t[2]) % t[1], f % t[2]];
            gpu.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x: tile[0] * n, y: tile[1] * n, z: tile[2] * n },
                    aspect: wgpu::TextureAspect::All,
                },
                bytemuck::cast_slice(frame),
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(n * 4), rows_per_image: Some(n) },
                wgpu::Extent3d { width: n, height: n, depth_or_array_layers: n },
            );
        }
        self.frames = Some((texture.create_view(&Default::default()), t));
        Ok(())
    }

    /// Writes this frame's cards (none where there is no source: the block then reads as no
    /// medium).
    pub fn write(
        &mut self,
        gpu: &GpuContext,
        p: &CardParams,
        s: Option<&SourceVolumes>,
        cards: &[CardInstance],
        time_s: f32,
    ) {
        let (Some(s), Some((_, t))) = (s, &self.frames) else {
            if self.live {
                gpu.write_buffer(&self.block, 0, &[0u8; std::mem::size_of::<CardsHeader>()]);
                self.live = false;
            }
            return;
        };
        let (block, nodes) = frame_data(p, s, *t, cards, time_s);
        let grow = |buffer: &mut wgpu::Buffer, label: &str, bytes: usize| {
            if buffer.size() < bytes as u64 {
                *buffer = storage(&gpu.device, label, (bytes as u64).next_power_of_two());
            }
        };
        grow(&mut self.block, "six-way medium: cards", block.len());
        grow(&mut self.nodes, "six-way medium: tree", nodes.len() * std::mem::size_of::<BvhNode>());
        gpu.write_buffer(&self.block, 0, &block);
        if !nodes.is_empty() {
            gpu.write_buffer(&self.nodes, 0, bytemuck::cast_slice(&nodes));
        }
        self.live = true;
    }

    /// The resources at medium.wgsl's bindings (no texture before a source is set).
    pub fn bindings(&self) -> Option<Vec<(u32, LentBinding)>> {
        let (view, _) = self.frames.as_ref()?;
        let [block, nodes, frames] = medium_bindings();
        Some(vec![
            (block, LentBinding::Buffer(self.block.clone())),
            (nodes, LentBinding::Buffer(self.nodes.clone())),
            (frames, LentBinding::Texture(view.clone())),
        ])
    }

    /// The same resources lent to a pass that samples the cards at points
    /// (`Resource::PointMedia`); none where there are no source frames.
    pub fn point_media(&self) -> Option<Loan> {
        self.bindings().map(Loan::Bindings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crop::CropRect;
    use crate::light::Medium;

    fn source(crop: CropRect) -> SourceVolumes {
        let n = 8;
        let rho = vec![vec![1.0f32; 512], vec![2.0f32; 512]];
        SourceVolumes::new(n, &rho, &[], crop, Medium { extinction: 4.0, cell_m: 0.25, albedo: 0.5 })
    }

    fn card(centre: [f32; 3], right: Vec3, size: f32) -> CardInstance {
        CardInstance {
            centre: [centre[0], centre[1], centre[2], 1.0],
            right: [right.x, right.y, right.z, size],
            up: [0.0, 1.0, 0.0, size],
            flipbook: [1.0, 1.0, 0.0, 0.0],
        }
    }

    #[test]
    fn a_card_shows_its_crop_on_its_quad_and_the_bakes_depth_per_cell() {
        // The crop: cells 2..6 across (x) and image rows 1..5 (up 3..7 of 8). A 2 m card turned
        // 90° about y (right = −z): a cell is ½ m each way, the grid 4 m.
        let s = source(CropRect { x: 2.0, y: 1.0, w: 4.0, h: 4.0 });
        let p = CardParams { density_scale: 2.0, frame_blend: FrameBlend::None, ..Default::default() };
        let c = card([10.0, 3.0, -5.0], Vec3::NEG_Z, 2.0);
        let r = card_volume(&p, &s, &c, 0.0);
        // One brick a side: the card's whole clipped grid, bounded by its frames' densest cell.
        let [whole] = card_bricks(&p, &s, &c, 0.0, 0, 1)[..] else { panic!("one brick") };
        let b = whole.aabb;
        let uvw = |q: Vec3| {
            let d = q - Vec3::from_slice(&r.origin[..3]);
            [r.right, r.up, r.away].map(|a| d.dot(Vec3::from_slice(&a[..3])))
        };
        // The quad's centre is the crop's centre, half way along the view; its corners the crop's.
        let centre = uvw(Vec3::new(10.0, 3.0, -5.0));
        for (got, want) in centre.iter().zip([0.5, 5.0 / 8.0, 0.5]) {
            assert!((got - want).abs() < 1e-6, "{centre:?}");
        }
        let corner = uvw(Vec3::new(10.0, 4.0, -6.0)); // right +1 m, up +1 m
        assert!((corner[0] - 0.75).abs() < 1e-6 && (corner[1] - 7.0 / 8.0).abs() < 1e-6, "{corner:?}");
        // Away = up × right = (0, 1, 0) × (0, 0, −1) = −x.
        let deeper = uvw(Vec3::new(9.5, 3.0, -5.0));
        assert!((deeper[2] - centre[2] - 1.0 / 8.0).abs() < 1e-6, "{deeper:?}");
        // σ Δx = 1 per unit density per cell of ½ m, twice for the depth scale: 4 per metre.
        assert!((r.origin[3] - 4.0).abs() < 1e-6 && (whole.bound - 4.0 * 2.0).abs() < 1e-5, "{r:?} {whole:?}");
        assert_eq!(r.frames[..3], [1.0, 0.0, 0.0]);
        // The box: 2 m across the crop (z), 2 m high, the grid's 4 m deep along x.
        let want = Aabb { lo: [8.0, 2.0, -6.0], hi: [12.0, 4.0, -4.0] };
        for k in 0..3 {
            assert!((b.lo[k] - want.lo[k]).abs() < 1e-5 && (b.hi[k] - want.hi[k]).abs() < 1e-5, "{b:?}");
        }
    }

    #[test]
    fn a_cards_bricks_bound_their_own_cells_and_empty_ones_are_left_out() {
        // An 8³ grid whose density is the cell's column x: with 2 bricks a side, the bricks on
        // the left (columns 0..4) are bounded by 3, those on the right by 7, times σ.
        let crop = CropRect { x: 0.0, y: 0.0, w: 8.0, h: 8.0 };
        let medium = Medium { extinction: 4.0, cell_m: 0.25, albedo: 0.5 };
        let column: Vec<f32> = (0..512).map(|i| (i % 8) as f32).collect();
        let p = CardParams { frame_blend: FrameBlend::None, ..Default::default() };
        let c = card([0.0, 2.0, 0.0], Vec3::X, 4.0);
        let s = SourceVolumes::new(8, &[column], &[], crop, medium);
        let sigma = card_volume(&p, &s, &c, 0.0).origin[3];
        let bricks = card_bricks(&p, &s, &c, 0.0, 3, 2);
        assert_eq!(bricks.len(), 8);
        for k in &bricks {
            let want = sigma * if k.brick % 2 == 0 { 3.0 } else { 7.0 };
            assert!((k.bound - want).abs() <= 1e-6 * want && k.card == 3, "{k:?}");
        }
        // The left half empty: its bricks are not leaves.
        let half: Vec<f32> = (0..512).map(|i| if i % 8 < 4 { 0.0 } else { 1.0 }).collect();
        let s = SourceVolumes::new(8, &[half], &[], crop, medium);
        let bricks = card_bricks(&p, &s, &c, 0.0, 3, 2);
        assert!(bricks.len() == 4 && bricks.iter().all(|k| k.brick % 2 == 1), "{bricks:?}");
        // Five cards get the finest cut, the viewer's 2 200 two a side, a crowd one.
        assert_eq!([5, 2200, 100_000].map(bricks_per_side), [6, 2, 1]);
    }

    #[test]
    fn frames_follow_the_prepare_pass() {
        let p = CardParams { frames_per_s: 10.0, frame_blend: FrameBlend::CrossFade, ..Default::default() };
        let c = CardInstance { flipbook: [3.0, 0.5, 0.0, 0.0], ..Default::default() };
        // 3 + 0.5 × 10 × 0.25 = 4.25 of 4 frames: frame 0, a quarter towards 1.
        let (f0, f1, blend) = card_frames(&p, &c, 4, 0.25);
        assert_eq!((f0, f1), (0, 1));
        assert!((blend - 0.25).abs() < 1e-6);
        assert_eq!(card_frames(&p, &c, 4, f32::NAN), (0, 1, 0.0));
    }
}
