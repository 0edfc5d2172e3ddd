//! Local fog volumes: bounded media that one chapter publishes (chapter 5's boxes and spheres)
//! and another injects into its medium (chapter 4's froxel grid, `04-froxel-fog/media.wgsl`).
//! The core only carries the list from `Chapter::publish` to every stage's `ChapterContext`.

use bytemuck::{Pod, Zeroable};

/// Most volumes a frame carries; chapter 4's media pass loops over all of them per froxel.
pub const MAX_FOG_VOLUMES: usize = 32;

/// Shapes, as `FogVolume::centre[3]` encodes them.
pub const SHAPE_BOX: f32 = 0.0;
pub const SHAPE_ELLIPSOID: f32 = 1.0;

// ANCHOR: fog_volume
/// Mirrors `struct FogVolume` in shaders/04-froxel-fog/common.wgsl. Axis-aligned: a box or the
/// ellipsoid inscribed in it. Inside, the extinction is `density · e^(−falloff · (y − bottom))`
/// times a fade that rises from 0 at the surface to 1 at `edge_fade_m` inside it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct FogVolume {
    /// xyz: centre (m); w: shape (`SHAPE_BOX` or `SHAPE_ELLIPSOID`).
    pub centre: [f32; 4],
    /// xyz: half extents (m); w: edge fade distance (m).
    pub half_size: [f32; 4],
    /// rgb: single-scattering albedo; w: extinction σt at the bottom (1/m).
    pub albedo_density: [f32; 4],
    /// rgb: emitted radiance per metre (1/m); w: height falloff (1/m) above the bottom.
    pub emission_falloff: [f32; 4],
}
// ANCHOR_END: fog_volume
