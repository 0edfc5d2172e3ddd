//! The chapter's GPU resources: the froxel volumes (media, emission, two lit scattering volumes,
//! integrated, the history weight), the bind-group layouts of its four passes, and the check of
//! a grid size against the device.

use crate::FroxelUniform;
use crate::binning::bin_size;
use anyhow::{Result, bail};
use fogbook_core::bindings::{storage_buffer_entry, texture_3d_entry, uniform_entry};
use fogbook_core::gpu::GpuContext;
use fogbook_core::media::textures::DensityTextureSlots;
use fogbook_core::media::volumes::VolumeBins;

/// Media, scattering and integrated volumes store rgba32float (16 bytes a froxel).
pub const VOLUME_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;
/// Emission (and the noise factor) in rgba16float, the history weight in r32float.
pub const EMISSION_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// How the local fog volumes in a froxel are lit (`local_light`): their share of σs, where in
/// the slice they lie, their phase g and their own transmittance towards the sun.
pub const LOCAL_LIGHT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
pub const WEIGHT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
/// Bytes per froxel of all the volumes: four rgba32float, two rgba16float, one r32float.
pub const BYTES_PER_FROXEL: u64 = 4 * 16 + 2 * 8 + 4;
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

/// GPU memory of the volumes (bytes): media, emission, two scattering volumes (this frame's and
/// the history), integrated, history weight.
pub fn memory_bytes(size: [u32; 3]) -> u64 {
    BYTES_PER_FROXEL * size.iter().map(|&n| n as u64).product::<u64>()
}

pub struct Layouts {
    /// Media pass: uniform, media (write), emission (write), fog volumes, their bins, local
    /// light (write), the volumes' shadow casters; the density textures.
    pub media: wgpu::BindGroupLayout,
    /// Lighting: uniform, scattering (write), media (read), history (read), last frame's eye,
    /// emission (read), history weight (write), local light (read).
    pub lighting: wgpu::BindGroupLayout,
    /// Integration: uniform, integrated (write), scattering (read), last frame's eye (write).
    pub integrate: wgpu::BindGroupLayout,
    /// Composite: uniform, scattering, integrated, media, emission, history weight (read).
    pub composite: wgpu::BindGroupLayout,
}

fn storage_3d(binding: u32, format: wgpu::TextureFormat) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format,
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
        let volume = |b| storage_3d(b, VOLUME_FORMAT);
        Self {
            media: layout(
                "froxel media",
                &[
                    uniform_entry(0, c),
                    volume(1),
                    storage_3d(2, EMISSION_FORMAT),
                    storage_buffer_entry(3, c, true),
                    storage_buffer_entry(4, c, true),
                    storage_3d(5, LOCAL_LIGHT_FORMAT),
                    storage_buffer_entry(6, c, true),
                ]
                .into_iter()
                .chain(DensityTextureSlots::layout_entries(c))
                .collect::<Vec<_>>(),
            ),
            lighting: layout(
                "froxel lighting",
                &[
                    uniform_entry(0, c),
                    volume(1),
                    read(2),
                    read(3),
                    storage_buffer_entry(4, c, true),
                    read(5),
                    storage_3d(6, WEIGHT_FORMAT),
                    read(7),
                ],
            ),
            integrate: layout(
                "froxel integration",
                &[uniform_entry(0, c), volume(1), read(2), storage_buffer_entry(3, c, false)],
            ),
            composite: layout("froxel composite", &[uniform_entry(0, c), read(1), read(2), read(3), read(4), read(5)]),
        }
    }
}

/// The volumes of one grid size and the bind groups that use them. The two scattering volumes
/// alternate: frame f writes `scatter[f % 2]` and reads the other as its history; the groups
/// are indexed the same way.
pub struct Volumes {
    pub size: [u32; 3],
    pub media: wgpu::Texture,
    pub emission: wgpu::Texture,
    pub local_light: wgpu::Texture,
    pub scatter: [wgpu::Texture; 2],
    pub integrated: wgpu::Texture,
    pub history_weight: wgpu::Texture,
    /// Last frame's eye position (xyz), written by the integration for the next frame's
    /// reprojection.
    pub previous_eye: wgpu::Buffer,
    /// The local fog volumes' bit masks per block of froxels (`binning`), and their CPU copy.
    pub volume_bins: wgpu::Buffer,
    pub bins: VolumeBins,
    /// The media pass's group, made in `bind_media` with the stack's density textures of the
    /// generation it holds.
    media_group: Option<(u64, wgpu::BindGroup)>,
    /// The media pass's views (media, emission, local light), kept to make its group again
    /// when the density textures change (`bind_media`).
    media_views: [wgpu::TextureView; 3],
    pub lighting_group: [wgpu::BindGroup; 2],
    pub integrate_group: [wgpu::BindGroup; 2],
    pub composite_group: [wgpu::BindGroup; 2],
    /// Frames rendered with these volumes (0: no history yet).
    pub frames: u64,
}

/// A bind-group entry: a texture view or a whole buffer.
enum Bind<'a> {
    View(&'a wgpu::TextureView),
    Buffer(&'a wgpu::Buffer),
}

/// One of the grid's 3D textures, `size` froxels, written by storage and read by sampling.
fn create_volume(device: &wgpu::Device, size: [u32; 3], label: &str, format: wgpu::TextureFormat) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: size[2] },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D3,
        format,
        usage: wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// A bind group: the uniform at binding 0, then `binds` from binding 1 on.
fn create_group(
    device: &wgpu::Device,
    uniform: &wgpu::Buffer,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    binds: &[Bind],
) -> wgpu::BindGroup {
    let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }];
    for (i, b) in binds.iter().enumerate() {
        let resource = match b {
            Bind::View(v) => wgpu::BindingResource::TextureView(v),
            Bind::Buffer(b) => b.as_entire_binding(),
        };
        entries.push(wgpu::BindGroupEntry { binding: i as u32 + 1, resource });
    }
    device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries: &entries })
}

impl Volumes {
    pub fn new(gpu: &GpuContext, layouts: &Layouts, uniform: &wgpu::Buffer, size: [u32; 3]) -> Result<Self> {
        check_grid(gpu, size)?;
        debug_assert_eq!(uniform.size(), std::mem::size_of::<FroxelUniform>() as u64);
        let device = &gpu.device;
        let volume = |label, format| create_volume(device, size, label, format);
        let media = volume("froxel media", VOLUME_FORMAT);
        let emission = volume("froxel emission", EMISSION_FORMAT);
        let local_light = volume("froxel local light", LOCAL_LIGHT_FORMAT);
        let scatter = [volume("froxel scattering a", VOLUME_FORMAT), volume("froxel scattering b", VOLUME_FORMAT)];
        let integrated = volume("froxel integrated", VOLUME_FORMAT);
        let history_weight = volume("froxel history weight", WEIGHT_FORMAT);
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (mv, ev, iv, wv) = (view(&media), view(&emission), view(&integrated), view(&history_weight));
        let lv = view(&local_light);
        let sv = [view(&scatter[0]), view(&scatter[1])];
        let previous_eye = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("froxel previous eye"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let bins = VolumeBins::new(bin_size(size));
        let volume_bins = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("froxel fog volume bins"),
            size: (bins.words.len() * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = |label, layout, binds: &[Bind]| create_group(device, uniform, label, layout, binds);
        use Bind::{Buffer, View};
        let both = |f: &dyn Fn(usize) -> wgpu::BindGroup| [f(0), f(1)];
        Ok(Self {
            size,
            media_group: None,
            lighting_group: both(&|c| {
                group(
                    "froxel lighting",
                    &layouts.lighting,
                    &[
                        View(&sv[c]),
                        View(&mv),
                        View(&sv[1 - c]),
                        Buffer(&previous_eye),
                        View(&ev),
                        View(&wv),
                        View(&lv),
                    ],
                )
            }),
            integrate_group: both(&|c| {
                group("froxel integration", &layouts.integrate, &[View(&iv), View(&sv[c]), Buffer(&previous_eye)])
            }),
            composite_group: both(&|c| {
                group(
                    "froxel composite",
                    &layouts.composite,
                    &[View(&sv[c]), View(&iv), View(&mv), View(&ev), View(&wv)],
                )
            }),
            media_views: [mv.clone(), ev.clone(), lv.clone()],
            media,
            emission,
            local_light,
            scatter,
            integrated,
            history_weight,
            previous_eye,
            volume_bins,
            bins,
            frames: 0,
        })
    }

    pub fn bytes(&self) -> u64 {
        memory_bytes(self.size)
    }

    /// The media pass's group with the stack's density textures as they are now (made again
    /// when they changed; the core's caster buffer is made with them and kept).
    pub fn bind_media(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        buffers: &MediaBuffers,
        textures: &DensityTextureSlots,
    ) {
        let generation = textures.generation();
        if self.media_group.as_ref().is_none_or(|(g, _)| *g != generation) {
            let group = media_group(device, layouts, &self.media_views, buffers, &self.volume_bins, textures);
            self.media_group = Some((generation, group));
        }
    }

    /// The media pass's group (none before the first `bind_media`).
    pub fn media_group(&self) -> Option<&wgpu::BindGroup> {
        self.media_group.as_ref().map(|(_, group)| group)
    }
}

/// The buffers the media pass reads: the chapter's uniform, the stack's local fog volumes, and
/// the core's bit mask per volume of its shadow casters (`StackMedia::casters`).
pub struct MediaBuffers<'a> {
    pub uniform: &'a wgpu::Buffer,
    pub fog_volumes: &'a wgpu::Buffer,
    pub casters: &'a wgpu::Buffer,
}

/// The media pass's group: uniform, media, emission, fog volumes, their bins, local light, their
/// casters, and the density textures (bindings 12–17).
fn media_group(
    device: &wgpu::Device,
    layouts: &Layouts,
    [media, emission, local_light]: &[wgpu::TextureView; 3],
    buffers: &MediaBuffers,
    volume_bins: &wgpu::Buffer,
    textures: &DensityTextureSlots,
) -> wgpu::BindGroup {
    use wgpu::BindingResource::TextureView;
    let entry = |binding, resource| wgpu::BindGroupEntry { binding, resource };
    let mut entries = vec![
        entry(0, buffers.uniform.as_entire_binding()),
        entry(1, TextureView(media)),
        entry(2, TextureView(emission)),
        entry(3, buffers.fog_volumes.as_entire_binding()),
        entry(4, volume_bins.as_entire_binding()),
        entry(5, TextureView(local_light)),
        entry(6, buffers.casters.as_entire_binding()),
    ];
    entries.extend(textures.entries());
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("froxel media"),
        layout: &layouts.media,
        entries: &entries,
    })
}
