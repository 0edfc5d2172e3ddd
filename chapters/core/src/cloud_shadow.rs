//! The sun's transmittance through the cloud layer as a shared resource: a top-down map a
//! chapter (the clouds) fills and publishes (`Chapter::lend`), bound as group 1 of the
//! scene pass and of the compute passes that light a medium with the sun (the volumetric grid's
//! lighting). When nobody publishes one a stand-in is bound, whose `enabled` is 0: transmittance
//! 1 everywhere, so that every chapter alone still runs and no pass meets a missing binding.
//! `shaders/common/cloud_shadow.wgsl` holds the bindings and the lookup.
//!
//! The map's texels lie on the ground plane (y = 0), in a square of side `extent_m` centred on
//! `centre_xz`; each holds e^(−τ), τ the clouds' optical depth along the ray from that ground
//! point towards the sun through the whole layer. A point p looks up the ground point it
//! projects to along `towards_sun`: every point below the cloud base shares that ray's stretch
//! through the clouds, so the lookup is exact for them (Schneider & Vos 2015, Hillaire 2016).
//!
//! | binding | holds |
//! |---|---|
//! | 0 | `CloudShadowUniform`: the map's square (centre, side, m), the sun direction it was built along, strength, enabled |
//! | 1 | the map, 2D, transmittance in channel r (a filterable float format) |
//! | 2 | a linear clamp-to-edge sampler |

use crate::shadow_group;
use bytemuck::{Pod, Zeroable};

/// The group index the scene pass and the froxel lighting bind the cloud shadow at.
pub const CLOUD_SHADOW_GROUP: u32 = 1;

/// The lowest sun elevation a map is built along (sin of 3°). Below it the ground point a
/// point projects to runs off towards the horizon (1/tan of the elevation), so a lower or
/// set sun is taken as standing at 3°: the map stays finite and the lookup never divides by a
/// vanishing `towards_sun.y`; the scene's sun term has faded by then anyway (n·l, the sky's
/// transmittance).
pub const MIN_SUN_SIN: f32 = 0.052_335_956;

/// Mirrors `struct CloudShadow` in shaders/common/cloud_shadow.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct CloudShadowUniform {
    /// The centre of the map's square on the ground (x, z; m).
    pub centre_xz: [f32; 2],
    /// The square's side (m).
    pub extent_m: f32,
    /// 0: no shadow (the stand-in), 1: shadow.
    pub enabled: u32,
    /// The unit direction towards the sun the map was built along (elevation ≥ 3°).
    pub towards_sun: [f32; 3],
    /// 0: no shadow, 1: the clouds' full transmittance.
    pub strength: f32,
}

impl CloudShadowUniform {
    /// The direction a map is built along for the sun direction `sun` (unit, towards the sun):
    /// its azimuth, at an elevation of at least 3° (`MIN_SUN_SIN`).
    pub fn clamped_sun(sun: [f32; 3]) -> [f32; 3] {
        let horizontal = (sun[0] * sun[0] + sun[2] * sun[2]).sqrt();
        if !(sun[1].is_finite() && horizontal.is_finite()) {
            return [0.0, 1.0, 0.0];
        }
        if sun[1] >= MIN_SUN_SIN {
            let n = (horizontal * horizontal + sun[1] * sun[1]).sqrt();
            return [sun[0] / n, sun[1] / n, sun[2] / n];
        }
        let cos_min = (1.0 - MIN_SUN_SIN * MIN_SUN_SIN).sqrt();
        // A sun at the nadir has no azimuth: any will do.
        let (x, z) = if horizontal > 1e-6 { (sun[0] / horizontal, sun[2] / horizontal) } else { (1.0, 0.0) };
        [x * cos_min, MIN_SUN_SIN, z * cos_min]
    }
}

pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    shadow_group::layout(device, "cloud shadow", wgpu::TextureDimension::D2)
}

/// The group for a published map: its uniform buffer, its view, and a sampler.
pub fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    uniform: &wgpu::Buffer,
    map: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    shadow_group::bind_group(device, "cloud shadow", layout, uniform, map, sampler)
}

/// The stand-in bound when no chapter publishes a map: disabled, with a 1×1 map.
pub fn stand_in(device: &wgpu::Device, layout: &wgpu::BindGroupLayout) -> wgpu::BindGroup {
    let bytes = std::mem::size_of::<CloudShadowUniform>() as u64;
    shadow_group::stand_in(device, "cloud shadow stand-in", layout, bytes, wgpu::TextureDimension::D2, MAP_FORMAT)
}

/// The map's format: filterable, and writable as a storage texture without extra features.
pub const MAP_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// Linear filtering, clamped to the edge (the lookup returns 1 outside the map anyway).
pub fn sampler(device: &wgpu::Device) -> wgpu::Sampler {
    shadow_group::sampler(device, "cloud shadow")
}
