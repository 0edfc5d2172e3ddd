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
}

/// The fogs' resources as a group binds them: the latest part of each kind (a later part wins),
/// the stand-ins for the kinds no chapter lent. Both the fog-at-depth group and a consumer that
/// binds the fogs in a group of its own (a path tracer's media) take them from here.
pub struct FogResources<'a> {
    pub distance: &'a wgpu::Buffer,
    pub height: &'a wgpu::Buffer,
    pub grid: &'a wgpu::Buffer,
    pub scattering: &'a wgpu::TextureView,
    pub integrated: &'a wgpu::TextureView,
}

impl<'a> FogResources<'a> {
    pub fn of(stand_ins: &'a StandIns, parts: &'a [FogPart]) -> Self {
        let mut r = Self {
            distance: &stand_ins.uniform,
            height: &stand_ins.uniform,
            grid: &stand_ins.uniform,
            scattering: &stand_ins.volume,
            integrated: &stand_ins.volume,
        };
        for part in parts {
            match part {
                FogPart::ByDistance { uniform } => r.distance = uniform,
                FogPart::HeightLayers { uniform } => r.height = uniform,
                FogPart::Grid { uniform, scattering, integrated } => {
                    (r.grid, r.scattering, r.integrated) = (uniform, scattering, integrated);
                }
            }
        }
        r
    }
}

/// The group of the given parts, stand-ins for the rest (a later part of the same kind wins).
pub fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    stand_ins: &StandIns,
    parts: &[FogPart],
) -> wgpu::BindGroup {
    let r = FogResources::of(stand_ins, parts);
    let view = |binding, v| wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(v) };
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("transparent fog"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: r.grid.as_entire_binding() },
            view(1, r.scattering),
            view(2, r.integrated),
            wgpu::BindGroupEntry { binding: 3, resource: r.distance.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 4, resource: r.height.as_entire_binding() },
        ],
    })
}
