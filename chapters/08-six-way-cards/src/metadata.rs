//! The metadata file written beside the atlases (JSON): everything a runtime or a tool needs to
//! read them without guessing.

use crate::atlas::Layout;
use crate::card::{Dir, ViewAxis};
use crate::crop::{ALPHA_THRESHOLD, CropRect};
use crate::settings::BakeSettings;
use crate::swizzle::Swizzle;
use serde::Serialize;

// ANCHOR: metadata
#[derive(Clone, Debug, Serialize)]
pub struct Metadata {
    pub format: &'static str,
    pub version: u32,
    /// The atlas files, A then B (PNG 8-bit and EXR f32 of each).
    pub atlases: [[String; 2]; 2],
    /// Frames per row and column; frame f at column f % cols, row f / cols, row 0 at the top.
    pub layout: [u32; 2],
    pub frame_count: u32,
    pub frame_size: [u32; 2],
    pub atlas_size: [u32; 2],
    /// The channels: four letters per atlas (see the swizzle table), and its name if it has one.
    pub swizzle: String,
    pub swizzle_name: Option<&'static str>,
    /// The maps hold straight values (divided by alpha), alpha in its own channel.
    pub premultiplied: bool,
    pub view_axis: ViewAxis,
    /// The card's right, up and away (the camera's view direction) in world axes, e.g. "+x".
    pub card_frame: [String; 3],
    /// Each map's light: the world direction from the smoke towards the light.
    pub lights: Vec<(Dir, [i32; 3])>,
    /// The frame's width and height in the world (m), and the crop in grid cells.
    pub world_size_m: [f64; 2],
    pub crop_cells: [f64; 4],
    pub grid: u32,
    pub cell_m: f64,
    /// σ (1/m per unit density), the albedo, and whether `E` holds emission (else alpha).
    pub extinction_per_density: f32,
    pub albedo: f32,
    pub emission: bool,
    /// Alpha at which a pixel counted as smoke for the crop.
    pub crop_alpha_threshold: f32,
    pub warmup_steps: u32,
    pub steps_per_frame: u32,
    /// Simulated time between frames (s).
    pub frame_time_s: f64,
}
// ANCHOR_END: metadata

/// What the bake used beyond its settings.
pub struct BakeFacts<'a> {
    pub files: [[String; 2]; 2],
    pub layout: Layout,
    pub swizzle: &'a Swizzle,
    pub crop: CropRect,
    pub cell_m: f64,
    pub extinction: f32,
    pub time_step_s: f64,
}

impl Metadata {
    pub fn new(s: &BakeSettings, f: BakeFacts) -> Self {
        let frame = s.view_axis.frame();
        let name =
            |a: crate::card::SignedAxis| format!("{}{}", if a.positive { '+' } else { '-' }, ["x", "y", "z"][a.axis]);
        Metadata {
            format: "fogbook six-way flipbook",
            version: 1,
            atlases: f.files,
            layout: [f.layout.cols, f.layout.rows],
            frame_count: s.frames,
            frame_size: [f.layout.frame_w, f.layout.frame_h],
            atlas_size: f.layout.size(),
            swizzle: f.swizzle.letters(),
            swizzle_name: f.swizzle.name(),
            premultiplied: false,
            view_axis: s.view_axis,
            card_frame: frame.map(name),
            lights: Dir::ALL.iter().map(|d| (*d, d.towards_light_world(s.view_axis))).collect(),
            world_size_m: [f.crop.w * f.cell_m, f.crop.h * f.cell_m],
            crop_cells: [f.crop.x, f.crop.y, f.crop.w, f.crop.h],
            grid: s.grid,
            cell_m: f.cell_m,
            extinction_per_density: f.extinction,
            albedo: s.albedo,
            emission: s.emission,
            crop_alpha_threshold: ALPHA_THRESHOLD,
            warmup_steps: s.warmup_steps,
            steps_per_frame: s.steps_per_frame,
            frame_time_s: f.time_step_s * s.steps_per_frame as f64,
        }
    }
}
