//! The bind group of a shadow that a medium casts on the sun's light, as the scene and the
//! lighting passes read it: a uniform describing where the shadow lies (binding 0), a filterable
//! float texture holding it (binding 1, 2D or 3D) and a linear clamp-to-edge sampler (binding 2).
//! `cloud_shadow` (a 2D map on the ground) and `volume_shadow` (a 3D box of optical depth) are
//! the two kinds; each names its own uniform and lookup.

use crate::bindings::{texture_3d_entry, texture_entry, uniform_entry};

/// The layout of a shadow group whose texture has `dimension` (D2 or D3).
pub fn layout(device: &wgpu::Device, label: &str, dimension: wgpu::TextureDimension) -> wgpu::BindGroupLayout {
    let vis = wgpu::ShaderStages::COMPUTE | wgpu::ShaderStages::FRAGMENT;
    let sample_type = wgpu::TextureSampleType::Float { filterable: true };
    let texture = match dimension {
        wgpu::TextureDimension::D3 => texture_3d_entry(1, vis, sample_type),
        _ => texture_entry(1, vis, sample_type),
    };
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &[
            uniform_entry(0, vis),
            texture,
            wgpu::BindGroupLayoutEntry {
                binding: 2,
                visibility: vis,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}

/// The group of a published shadow: its uniform buffer, its texture's view, and a sampler.
pub fn bind_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    uniform: &wgpu::Buffer,
    texture: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(texture) },
            wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(sampler) },
        ],
    })
}

/// The stand-in bound when no chapter publishes the shadow: a zeroed uniform of `uniform_bytes`
/// (its `enabled` is 0) and a single texel of `format`.
pub fn stand_in(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    uniform_bytes: u64,
    dimension: wgpu::TextureDimension,
    format: wgpu::TextureFormat,
) -> wgpu::BindGroup {
    let uniform = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: uniform_bytes,
        usage: wgpu::BufferUsages::UNIFORM,
        mapped_at_creation: false, // zero-initialised: enabled = 0
    });
    let texture = device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        })
        .create_view(&Default::default());
    bind_group(device, label, layout, &uniform, &texture, &sampler(device, label))
}

/// Linear filtering, clamped to the edge.
pub fn sampler(device: &wgpu::Device, label: &str) -> wgpu::Sampler {
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some(label),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    })
}
