//! The chapter's GPU resources: the three froxel volumes (media, lit scattering, integrated), the
//! bind-group layouts of its four passes, and the check of a grid size against the device.

use crate::FroxelUniform;
use anyhow::{Result, bail};
use fogbook_core::frame::{storage_buffer_entry, texture_3d_entry, uniform_entry};
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

/// GPU memory of the four volumes (bytes): media, two scattering volumes (this frame's and the
/// history), integrated.
pub fn memory_bytes(size: [u32; 3]) -> u64 {
    4 * BYTES_PER_FROXEL * size.iter().map(|&n| n as u64).product::<u64>()
}

pub struct Layouts {
    /// Media pass: uniform, media (write).
    pub media: wgpu::BindGroupLayout,
    /// Lighting: uniform, scattering (write), media (read), history (read), last frame's eye.
    pub lighting: wgpu::BindGroupLayout,
    /// Integration: uniform, integrated (write), scattering (read), last frame's eye (write).
    pub integrate: wgpu::BindGroupLayout,
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
            lighting: layout(
                "froxel lighting",
                &[uniform_entry(0, c), storage_3d(1), read(2), read(3), storage_buffer_entry(4, c, true)],
            ),
            integrate: layout(
                "froxel integration",
                &[uniform_entry(0, c), storage_3d(1), read(2), storage_buffer_entry(3, c, false)],
            ),
            composite: layout("froxel composite", &[uniform_entry(0, c), read(1), read(2), read(3)]),
        }
    }
}

/// The volumes of one grid size and the bind groups that use them. The two scattering volumes
/// alternate: frame f writes `scatter[f % 2]` and reads the other as its history; the groups
/// are indexed the same way.
pub struct Volumes {
    pub size: [u32; 3],
    pub media: wgpu::Texture,
    pub scatter: [wgpu::Texture; 2],
    pub integrated: wgpu::Texture,
    /// Last frame's eye position (xyz), written by the integration for the next frame's
    /// reprojection.
    pub previous_eye: wgpu::Buffer,
    pub media_group: wgpu::BindGroup,
    pub lighting_group: [wgpu::BindGroup; 2],
    pub integrate_group: [wgpu::BindGroup; 2],
    pub composite_group: [wgpu::BindGroup; 2],
    /// Frames rendered with these volumes (0: no history yet).
    pub frames: u64,
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
        let (media, scatter, integrated) = (
            volume("froxel media"),
            [volume("froxel scattering a"), volume("froxel scattering b")],
            volume("froxel integrated"),
        );
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (mv, sv, iv) = (view(&media), [view(&scatter[0]), view(&scatter[1])], view(&integrated));
        let previous_eye = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("froxel previous eye"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let group = |label, layout, views: &[&wgpu::TextureView], eye: bool| {
            let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }];
            for (i, v) in views.iter().enumerate() {
                entries.push(wgpu::BindGroupEntry {
                    binding: i as u32 + 1,
                    resource: wgpu::BindingResource::TextureView(v),
                });
            }
            if eye {
                entries.push(wgpu::BindGroupEntry {
                    binding: views.len() as u32 + 1,
                    resource: previous_eye.as_entire_binding(),
                });
            }
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries: &entries })
        };
        let both = |f: &dyn Fn(usize) -> wgpu::BindGroup| [f(0), f(1)];
        Ok(Self {
            size,
            media_group: group("froxel media", &layouts.media, &[&mv], false),
            lighting_group: both(&|c| group("froxel lighting", &layouts.lighting, &[&sv[c], &mv, &sv[1 - c]], true)),
            integrate_group: both(&|c| group("froxel integration", &layouts.integrate, &[&iv, &sv[c]], true)),
            composite_group: both(&|c| group("froxel composite", &layouts.composite, &[&sv[c], &iv, &mv], false)),
            media,
            scatter,
            integrated,
            previous_eye,
            frames: 0,
        })
    }

    pub fn bytes(&self) -> u64 {
        memory_bytes(self.size)
    }
}
