//! The sky's lookup tables as a shared resource: a bind group the core owns the layout of
//! (group 3 of any stage that wants the sun and sky light at a point), filled with the
//! tables of the chapter that lends them when one is in the stack, and with 1×1 stand-ins
//! otherwise, so that a stage never meets a missing binding. `shaders/common/sky_light.wgsl`
//! holds the bindings and the lookups, which fall back to the frame's constant sun and ambient when the stand-ins are
//! bound (their atmosphere uniform is all zeros: a top radius of 0 means "no sky").
//! `shaders/common/atmosphere_tables.wgsl` is the WGSL side of this layout: the uniform's struct
//! and the tables' parameterisations, which the lending chapter's precomputation writes and
//! every reader samples.
//!
//! | binding | holds |
//! |---|---|
//! | 0 | the sky's `AtmosphereParams` uniform (radii, coefficients, solar irradiance, exposure) |
//! | 1 | transmittance to the top of the atmosphere, 2D |
//! | 2 | Rayleigh + multiple scattering, 4D packed in 3D |
//! | 3 | single Mie scattering, 4D packed in 3D |
//! | 4 | sky irradiance, 2D |
//! | 5 | a linear sampler |

use crate::bindings::{texture_3d_entry, texture_entry, uniform_entry};

/// The group index stages bind the shared sky at.
pub const SKY_GROUP: u32 = 3;
/// Size of the sky's atmosphere uniform (`AtmosphereParams`, checked in the tests).
pub const ATMOSPHERE_UNIFORM_BYTES: u64 = 128;
/// Texels of the transmittance table (x_μ, x_r), Bruneton 2017: the lender fills it at this size
/// and every reader's texture coordinates assume it (WGSL's `TRANSMITTANCE_SIZE`, from
/// [`crate::shaders::core_constants`]).
pub const TRANSMITTANCE_SIZE: [u32; 2] = [256, 64];
/// Texels of the sky irradiance table (μ_s, r), as the transmittance's (`IRRADIANCE_SIZE`).
pub const IRRADIANCE_SIZE: [u32; 2] = [64, 16];

pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    // The vertex stage too: a transparent pass may fog its vertices (`transparent_fog`).
    let vis = wgpu::ShaderStages::COMPUTE | wgpu::ShaderStages::FRAGMENT | wgpu::ShaderStages::VERTEX;
    let float = wgpu::TextureSampleType::Float { filterable: true };
    let texture_3d = |binding| texture_3d_entry(binding, vis, float);
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("shared sky"),
        entries: &[
            uniform_entry(0, vis),
            texture_entry(1, vis, float),
            texture_3d(2),
            texture_3d(3),
            texture_entry(4, vis, float),
            wgpu::BindGroupLayoutEntry {
                binding: 5,
                visibility: vis,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}

/// What the sky publishes (views of its current tables).
pub struct SkyTables<'a> {
    pub uniform: &'a wgpu::Buffer,
    pub transmittance: &'a wgpu::TextureView,
    pub scattering: &'a wgpu::TextureView,
    pub single_mie: &'a wgpu::TextureView,
    pub irradiance: &'a wgpu::TextureView,
    pub sampler: &'a wgpu::Sampler,
}

pub fn bind_group(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, t: &SkyTables) -> wgpu::BindGroup {
    let view = |binding, v| wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(v) };
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("shared sky"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: t.uniform.as_entire_binding() },
            view(1, t.transmittance),
            view(2, t.scattering),
            view(3, t.single_mie),
            view(4, t.irradiance),
            wgpu::BindGroupEntry { binding: 5, resource: wgpu::BindingResource::Sampler(t.sampler) },
        ],
    })
}

/// The stand-ins bound when no sky is in the stack: a zero atmosphere (top radius 0: "no sky")
/// and 1×1 rgba16float textures (filterable on every device).
pub fn stand_in(device: &wgpu::Device, layout: &wgpu::BindGroupLayout) -> wgpu::BindGroup {
    let uniform = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("shared sky stand-in"),
        size: ATMOSPHERE_UNIFORM_BYTES,
        usage: wgpu::BufferUsages::UNIFORM,
        mapped_at_creation: false, // zero-initialised
    });
    let texture = |dimension| {
        crate::bindings::one_texel_view(device, "shared sky stand-in", dimension, wgpu::TextureFormat::Rgba16Float)
    };
    let (flat, volume) = (texture(wgpu::TextureDimension::D2), texture(wgpu::TextureDimension::D3));
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("shared sky stand-in"),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    });
    let tables = SkyTables {
        uniform: &uniform,
        transmittance: &flat,
        scattering: &volume,
        single_mie: &volume,
        irradiance: &flat,
        sampler: &sampler,
    };
    bind_group(device, layout, &tables)
}
