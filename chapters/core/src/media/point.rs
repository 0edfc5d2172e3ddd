//! Media sampled at points: what a pass that evaluates σt, σs and the phase anywhere (a path
//! tracer) binds beside its own, and where. A chapter whose medium is a field of its own (a
//! cloud layer's noise and weather map, a simulated grid's fields) lends that field's resources
//! (`Loan::Bindings`, kind `Resource::PointMedia`) at the bindings its medium's WGSL declares in
//! group 2; the sampling pass builds its layout from those chapters' entries, binds what the
//! stack lent, and a stand-in of the same type for every binding nobody lent: a zero uniform (or
//! read-only storage buffer), which each medium reads as "absent", and one-texel textures.
//!
//! Group 2's bindings, so that every medium fits beside every other in one pass:
//!
//! | bindings | medium |
//! |---|---|
//! | 0 | the volumetric grid's global medium (`common/volumetric_grid.wgsl`) |
//! | 3 | the local fog volumes (`common/media/local_volumes.wgsl`, the includer's) |
//! | 4 | the height layers (their functions in `common/`; the includer declares the uniform) |
//! | 5 | fog by distance (its functions in `common/`; the includer declares the uniform) |
//! | 12–17 | the volumes' density textures and baked noise (`common/media/fog_volume_density.wgsl`) |
//! | 24–29 | a cloud layer's field: uniform, two 3D noises, the weather map, sampler, curl map ([`CLOUD_LAYER_BINDINGS`]) |
//! | 30–33 | a simulated grid's field: its parameter block, the fluid (dye and density), the velocity (its fourth channel the temperature), sampler ([`SIMULATED_GRID_BINDINGS`]) |
//! | 34–36 | placed volumes: a block of oriented boxes that each hold one frame of a volume, a bounding-volume hierarchy over them, the frames' 3D texture ([`PLACED_VOLUMES_BINDINGS`]) |

use std::ops::Range;

/// Where a cloud layer's density field sits in group 2 (its `density.wgsl`).
pub const CLOUD_LAYER_BINDINGS: Range<u32> = 24..30;

/// Where a simulated grid's field sits in group 2 (a fluid solver's fields). They change with
/// every step: a bound made from them holds for the frame it was made in.
pub const SIMULATED_GRID_BINDINGS: Range<u32> = 30..34;

/// Where placed volumes sit in group 2: boxes placed, scaled and turned in the world, each
/// holding one frame of a volume texture, found through a tree over their boxes. They may move
/// every frame: a bound made from them holds for the frame it was made in.
pub const PLACED_VOLUMES_BINDINGS: Range<u32> = 34..37;

/// One lent resource of a point medium.
#[derive(Clone, Debug)]
pub enum LentBinding {
    Buffer(wgpu::Buffer),
    Texture(wgpu::TextureView),
    Sampler(wgpu::Sampler),
}

impl LentBinding {
    fn resource(&self) -> wgpu::BindingResource<'_> {
        match self {
            Self::Buffer(b) => b.as_entire_binding(),
            Self::Texture(v) => wgpu::BindingResource::TextureView(v),
            Self::Sampler(s) => wgpu::BindingResource::Sampler(s),
        }
    }
}

/// Bytes of the stand-in buffers: more than any medium's parameter block.
const STAND_IN_BUFFER_BYTES: u64 = 4096;

/// A stand-in for every binding of `entries`, made once by the sampling pass.
pub struct PointMediaStandIns {
    stand_ins: Vec<(u32, LentBinding)>,
}

impl PointMediaStandIns {
    /// Stand-ins for `entries` (uniform and read-only storage buffers, 2D and 3D float textures,
    /// samplers).
    pub fn new(device: &wgpu::Device, entries: &[wgpu::BindGroupLayoutEntry]) -> Self {
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("point media: zero uniform"),
            size: STAND_IN_BUFFER_BYTES,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: false,
        });
        let storage = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("point media: zero parameter block"),
            size: STAND_IN_BUFFER_BYTES,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let texture = |dimension| {
            crate::bindings::one_texel_view(device, "point media: stand-in", dimension, wgpu::TextureFormat::Rgba8Unorm)
        };
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
        let stand_ins = entries
            .iter()
            .filter_map(|e| {
                let lent = match e.ty {
                    wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, .. } => {
                        LentBinding::Buffer(uniform.clone())
                    }
                    wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Storage { read_only: true }, .. } => {
                        LentBinding::Buffer(storage.clone())
                    }
                    wgpu::BindingType::Texture { view_dimension: wgpu::TextureViewDimension::D3, .. } => {
                        LentBinding::Texture(texture(wgpu::TextureDimension::D3))
                    }
                    wgpu::BindingType::Texture { view_dimension: wgpu::TextureViewDimension::D2, .. } => {
                        LentBinding::Texture(texture(wgpu::TextureDimension::D2))
                    }
                    wgpu::BindingType::Sampler(_) => LentBinding::Sampler(sampler.clone()),
                    _ => return None,
                };
                Some((e.binding, lent))
            })
            .collect();
        Self { stand_ins }
    }

    /// The group's entries for these bindings: what the stack lent, else the stand-in.
    pub fn entries<'a>(
        &'a self,
        lent: &'a std::collections::BTreeMap<u32, LentBinding>,
    ) -> Vec<wgpu::BindGroupEntry<'a>> {
        self.stand_ins
            .iter()
            .map(|(binding, stand_in)| wgpu::BindGroupEntry {
                binding: *binding,
                resource: lent.get(binding).unwrap_or(stand_in).resource(),
            })
            .collect()
    }
}
