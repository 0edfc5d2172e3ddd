//! The sun's transmittance through a participating medium that casts a shadow on the scene — the
//! smoke's light volume — as a shared resource: a bind group the core owns the layout of (group
//! 2 of the scene pass), filled by the chapter that publishes one (`Chapter::lend`) and
//! with a stand-in otherwise, whose `enabled` is 0, so the scene never meets a missing binding.
//! `shaders/common/volume_shadow.wgsl` holds the bindings and the lookup.
//!
//! The volume holds, per cell of an axis-aligned box in the scene, the optical depth τ from the
//! cell's centre to where the ray towards the sun leaves the box (channel r). A surface point
//! whose ray towards the sun crosses the box is in the medium's shadow by the transmittance
//! exp(−τ · tint) read at the point where that ray enters the box (or at the point itself inside
//! it): the optical depth beyond the entry is exactly what the cell there stores.
//!
//! | binding | holds |
//! |---|---|
//! | 0 | `VolumeShadowUniform`: the box (corner and side, m), per-channel extinction tint, enabled |
//! | 1 | the volume, 3D, optical depth in channel r (a filterable float format) |
//! | 2 | a linear clamp-to-edge sampler |

use crate::shadow_group;
use bytemuck::{Pod, Zeroable};

/// The group index the scene pass binds the volume shadow at.
pub const VOLUME_SHADOW_GROUP: u32 = 2;

/// Mirrors `struct VolumeShadow` in shaders/common/volume_shadow.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VolumeShadowUniform {
    /// The box's lowest corner (m, scene coordinates).
    pub box_min: [f32; 3],
    /// The box's side (m): the volume is a cube.
    pub box_side_m: f32,
    /// Optical depth multiplier per colour channel (1, 1, 1: grey).
    pub tint: [f32; 3],
    /// 0: no shadow (the stand-in), 1: shadow.
    pub enabled: u32,
}

pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    shadow_group::layout(device, "volume shadow", wgpu::TextureDimension::D3)
}

/// The group for a published volume: its uniform buffer, its view, and a sampler.
pub fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    uniform: &wgpu::Buffer,
    volume: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    shadow_group::bind_group(device, "volume shadow", layout, uniform, volume, sampler)
}

/// The stand-in bound when no chapter publishes a volume: disabled, with a 1×1×1 volume.
pub fn stand_in(device: &wgpu::Device, layout: &wgpu::BindGroupLayout) -> wgpu::BindGroup {
    let bytes = std::mem::size_of::<VolumeShadowUniform>() as u64;
    let format = wgpu::TextureFormat::Rgba16Float;
    shadow_group::stand_in(device, "volume shadow stand-in", layout, bytes, wgpu::TextureDimension::D3, format)
}

/// Linear filtering, clamped to the edge (the lookup clamps to the outermost cell centres).
pub fn sampler(device: &wgpu::Device) -> wgpu::Sampler {
    shadow_group::sampler(device, "volume shadow")
}
