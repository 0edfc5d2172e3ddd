//! The chapter's GPU resources: the three froxel volumes (media, lit scattering, integrated), the
//! bind-group layouts of its four passes, and the check of a grid size against the device.

use crate::FroxelUniform;
use anyhow::{Result, bail};
use fogbook_core::frame::{texture_3d_entry, uniform_entry};
use fogbook_core::gpu::GpuContext;

/// Every volume stores rgba32float (16 bytes a froxel).
pub const VOLUME_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;
pub const BYTES_PER_FROXEL: u64 = 16;
/// The grid's allowed sizes (columns, rows, slices).
pub const GRID_RANGE: [(u32, u32); 3] = [(64, 256), (36, 144), (32, 128)];

/// Refuses a grid outside the chapter's range or beyond the device's 3D textures.
pub fn check_grid(gpu: &GpuContext, size: [u32; 3]) -> Result<()> {
    for (axis, (&n, &(lo, hi))) in ["width", "height", "depth"].iter().zip(size.iter().zip(&GRID_RANGE)) {
        if n < lo || n > hi {
            bail!("froxel grid {axis} {n} is outside {lo}..={hi}");
        }
    }
    let max = gpu.device.limits().max_texture_dimension_3d;
    if let Some(n) = size.iter().find(|&&n| n > max) {
        bail!("froxel grid side {n} exceeds this device's largest 3D texture ({max} per side)");
    }
    Ok(())
}

/// GPU memory of the three volumes (bytes).
pub fn memory_bytes(size: [u32; 3]) -> u64 {
    3 * BYTES_PER_FROXEL * size.iter().map(|&n| n as u64).product::<u64>()
}

pub struct Layouts {
    /// Media pass: uniform, media (write).
    pub media: wgpu::BindGroupLayout,
    /// Lighting and integration: uniform, output (write), input (read).
    pub pass: wgpu::BindGroupLayout,
    /// Composite: uniform, scattering, integrated, media (read).
    pub composite: wgpu::BindGroupLayout,
}

fn storage_3d(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format: VOLUME_FORMAT,
            view_dimension: wgpu::TextureViewDimension::D3,
        },
        count: None,
    }
}

impl Layouts {
    pub fn new(device: &wgpu::Device) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let read = |b| texture_3d_entry(b, c, wgpu::TextureSampleType::Float { filterable: false });
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries })
        };
        Self {
            media: layout("froxel media", &[uniform_entry(0, c), storage_3d(1)]),
            pass: layout("froxel pass", &[uniform_entry(0, c), storage_3d(1), read(2)]),
            composite: layout("froxel composite", &[uniform_entry(0, c), read(1), read(2), read(3)]),
        }
    }
}

/// The three volumes of one grid size and the bind groups that use them.
pub struct Volumes {
    pub size: [u32; 3],
    pub media: wgpu::Texture,
    pub scatter: wgpu::Texture,
    pub integrated: wgpu::Texture,
    pub media_group: wgpu::BindGroup,
    pub lighting_group: wgpu::BindGroup,
    pub integrate_group: wgpu::BindGroup,
    pub composite_group: wgpu::BindGroup,
}

impl Volumes {
    pub fn new(gpu: &GpuContext, layouts: &Layouts, uniform: &wgpu::Buffer, size: [u32; 3]) -> Result<Self> {
        check_grid(gpu, size)?;
        debug_assert_eq!(uniform.size(), std::mem::size_of::<FroxelUniform>() as u64);
        let device = &gpu.device;
        let volume = |label| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: size[2] },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D3,
                format: VOLUME_FORMAT,
                usage: wgpu::TextureUsages::STORAGE_BINDING
                    | wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            })
        };
        let (media, scatter, integrated) =
            (volume("froxel media"), volume("froxel scattering"), volume("froxel integrated"));
        let (mv, sv, iv) = (
            media.create_view(&Default::default()),
            scatter.create_view(&Default::default()),
            integrated.create_view(&Default::default()),
        );
        let group = |label, layout, views: &[&wgpu::TextureView]| {
            let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }];
            for (i, v) in views.iter().enumerate() {
                entries.push(wgpu::BindGroupEntry {
                    binding: i as u32 + 1,
                    resource: wgpu::BindingResource::TextureView(v),
                });
            }
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries: &entries })
        };
        Ok(Self {
            size,
            media_group: group("froxel media", &layouts.media, &[&mv]),
            lighting_group: group("froxel lighting", &layouts.pass, &[&sv, &mv]),
            integrate_group: group("froxel integration", &layouts.pass, &[&iv, &sv]),
            composite_group: group("froxel composite", &layouts.composite, &[&sv, &iv, &mv]),
            media,
            scatter,
            integrated,
        })
    }

    pub fn bytes(&self) -> u64 {
        memory_bytes(self.size)
    }
}
