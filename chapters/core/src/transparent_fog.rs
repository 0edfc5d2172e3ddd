//! The fog at any depth as a shared resource, for the transparent stage: a bind group the core
//! owns the layout of (group 2 of transparent passes), assembled each frame, before the first
//! transparent chapter renders, from what the fog chapters of the stack lend it
//! (`Chapter::lend`: their parameters, the volumetric grid's volumes). A fog chapter missing
//! from the stack is replaced by a stand-in: an all-zero uniform, which every fog reads as
//! "off" (the fog by distance's applied share `color.a`, the height layers' on switch, the
//! volumetric grid's `light.w` are 0), and a 1×1×1 volume. With no fog chapter at all the group is entirely
//! stand-ins: transmittance 1, in-scattering 0.
//!
//! `shaders/common/transparent_fog.wgsl` holds the bindings and
//! `fog_at_depth(uv, dir, d) -> TransparentFog { inscattering, transmittance }`: what the
//! stack's fog stages do, in stage order, to a surface at distance `d` along a pixel's ray. A
//! pass that imports it binds the scene inputs (group 0), this group (group 2) and the shared sky
//! (group 3, `shared_sky`).
//!
//! | binding | holds |
//! |---|---|
//! | 0 | the volumetric grid's uniform (`FroxelParams`) |
//! | 1 | the volumetric grid's scattering volume of this frame (S, σt per froxel), 3D |
//! | 2 | the volumetric grid's integrated volume (L_in, T at each slice's far end), 3D |
//! | 3 | the fog by distance's uniform (`FogParams`) |
//! | 4 | the height layers' uniform |

use crate::bindings::{texture_3d_entry, uniform_entry};

/// The group index transparent passes bind the transparent fog at.
pub const TRANSPARENT_FOG_GROUP: u32 = 2;

/// Size of the stand-in uniform, bound for each missing chapter's parameters: at least as large
/// as each of the three (checked in the tests).
pub const STAND_IN_UNIFORM_BYTES: u64 = 256;

// ANCHOR: part
/// What one fog lends the group (`lend::Loan::FogPart`, after its stage): its uniform as this
/// frame's render wrote it, and a grid's volumes as this frame's passes leave them.
#[derive(Clone, Debug)]
pub enum FogPart {
    /// Fog as a function of distance: its `FogParams`.
    ByDistance { uniform: wgpu::Buffer },
    /// Exponential height layers in closed form: their parameters uniform.
    HeightLayers { uniform: wgpu::Buffer },
    /// A froxel grid: its `FroxelParams`, the scattering volume it wrote this frame and the
    /// integrated volume (rgba32float).
    Grid { uniform: wgpu::Buffer, scattering: wgpu::TextureView, integrated: wgpu::TextureView },
}
// ANCHOR_END: part

pub fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let vis = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT | wgpu::ShaderStages::COMPUTE;
    let volume = |binding| texture_3d_entry(binding, vis, wgpu::TextureSampleType::Float { filterable: false });
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("transparent fog"),
        entries: &[uniform_entry(0, vis), volume(1), volume(2), uniform_entry(3, vis), uniform_entry(4, vis)],
    })
}

/// What the group holds where no chapter lends a part: a zeroed uniform and a 1×1×1 volume.
pub struct StandIns {
    uniform: wgpu::Buffer,
    volume: wgpu::TextureView,
}

impl StandIns {
    pub fn new(device: &wgpu::Device) -> Self {
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("transparent fog stand-in"),
            size: STAND_IN_UNIFORM_BYTES,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: false, // zero-initialised: every fog off
        });
        let volume = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("transparent fog stand-in"),
                size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D3,
                format: wgpu::TextureFormat::Rgba32Float,
                usage: wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            })
            .create_view(&Default::default());
        Self { uniform, volume }
    }

    /// The all-zero uniform that stands for a missing fog's parameters.
    pub fn uniform(&self) -> &wgpu::Buffer {
        &self.uniform
    }
}

/// The group of the given parts, stand-ins for the rest (a later part of the same kind wins).
pub fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    stand_ins: &StandIns,
    parts: impl IntoIterator<Item = FogPart>,
) -> wgpu::BindGroup {
    let (mut distance, mut height, mut froxel) = (None, None, None);
    for part in parts {
        match part {
            FogPart::ByDistance { uniform } => distance = Some(uniform),
            FogPart::HeightLayers { uniform } => height = Some(uniform),
            FogPart::Grid { uniform, scattering, integrated } => froxel = Some((uniform, scattering, integrated)),
        }
    }
    let distance = distance.as_ref().unwrap_or(&stand_ins.uniform);
    let height = height.as_ref().unwrap_or(&stand_ins.uniform);
    let (froxel_uniform, scattering, integrated) = match &froxel {
        Some((u, s, i)) => (u, s, i),
        None => (&stand_ins.uniform, &stand_ins.volume, &stand_ins.volume),
    };
    let view = |binding, v| wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(v) };
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("transparent fog"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: froxel_uniform.as_entire_binding() },
            view(1, scattering),
            view(2, integrated),
            wgpu::BindGroupEntry { binding: 3, resource: distance.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 4, resource: height.as_entire_binding() },
        ],
    })
}
